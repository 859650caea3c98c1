"""Quadropolis bench: optimiser against exhaustive search, AI strength and speed, checked games.

``figures(quick=False)`` returns flat JSON figures, every key prefixed ``quadropolis.``:

- ``optimiser.<mode>.*``: on seeded full cities (every square built; half of them with only
  buildings that need resources, the hardest case), the branch-and-bound optimiser and the
  exhaustive subset enumeration (spec 8.12's "correct method", same compiled scorer) are timed in
  the same run: mean milliseconds of each, ``speedup_ratio`` = exhaustive time / optimiser time,
  and ``all_equal`` (both found the same optimum on every city).
  ``optimiser.expert_largest_full_pool.*`` does the same on largest Expert cities (20 switchable
  buildings) with pools big enough for all of them (exhaustive search visits all 2^20 subsets; full
  run only). ``optimiser.expert_largest_ms_*``
  times the optimiser alone on many largest Expert cities (20 switchable buildings);
  ``optimiser.expert_structured_*`` on symmetric full cities (all harbours, all offices, all
  shops, factory checkerboards) over a grid of pools, the hardest cases found.
- ``ai.<level>_vs_<opponent>.win_rate`` (a shared first place counts half), ``average_margin``
  and ``games``: 2-player games, half Classic, half Expert, seats alternating.
- ``ai.decision_ms_p50_<level>``, ``ai.decision_ms_p95_<level>``, ``ai.decision_ms_max_<level>``:
  time per AI decision (a take or a build), over every game above.
- ``checked_games_completed``: seeded games (2-4 players, both modes) played to the end with
  every check passing: tiles conserved at every step, ``apply`` leaving its input untouched,
  states round-tripping through JSON, each final total equal to the sum of its categories.
- ``games_seconds``, ``games_workers``: wall time of the games, and how many processes ran them.

The quick run (CI smoke test) takes a few seconds in one process; the full run a few minutes,
its games spread over two processes.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, cast

from bot.games import sample_state
from bot.rules.quadropolis.allocation import compile_city, exhaustive, optimise
from bot.rules.quadropolis.engine import conservation_problems
from bot.rules.quadropolis.notation import parse_city
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.samples import random_city
from bot.rules.quadropolis.tiles import MODE_RULES
from render import quadropolis as renderer

PREFIX = "quadropolis."
WORKERS = 2
"""Processes for the full run's games (this machine has two cores)."""


class CheckFailed(AssertionError):
    """A bench game broke an invariant."""


def _ms(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


# ---------------------------------------------------------------------------------------------
# Optimiser
# ---------------------------------------------------------------------------------------------


def optimiser_figures(mode_name: str, cities: int, max_cost_bearing: int | None, seed: int) -> dict[str, Any]:
    """Time the optimiser and the exhaustive search on the same seeded cities."""
    mode = MODE_RULES[mode_name]
    rnd = random.Random(seed)
    opt_total = exh_total = 0.0
    equal = True
    sizes = []
    for k in range(cities):
        grid = random_city(mode, rnd, density=1.0, costly_only=k % 2 == 0, max_cost_bearing=max_cost_bearing)
        inh, nrg = rnd.randint(0, 25), rnd.randint(0, 25)
        c = compile_city(mode, grid, inh, nrg)
        sizes.append(c.n)
        t0 = time.perf_counter()
        best = optimise(compile_city(mode, grid, inh, nrg))
        t1 = time.perf_counter()
        base = exhaustive(c)
        t2 = time.perf_counter()
        opt_total += t1 - t0
        exh_total += t2 - t1
        equal = equal and best.key == base.key
    key = f"{PREFIX}optimiser.{mode_name}."
    return {
        key + "cities": cities,
        key + "switchable_buildings_mean": round(statistics.mean(sizes), 1),
        key + "optimiser_ms_mean": round(1000 * opt_total / cities, 2),
        key + "exhaustive_ms_mean": round(1000 * exh_total / cities, 2),
        key + "speedup_ratio": round(exh_total / opt_total, 1),
        key + "all_equal": equal,
    }


def largest_against_exhaustive(cities: int, seed: int) -> dict[str, Any]:
    """Largest Expert cities (20 switchable buildings) with a pool big enough for all of them: the
    exhaustive search then has to walk all 2^20 subsets."""
    mode = MODE_RULES["expert"]
    rnd = random.Random(seed)
    opt_total = exh_total = 0.0
    equal = True
    for _ in range(cities):
        grid = random_city(mode, rnd, density=1.0, costly_only=True)
        inh, nrg = rnd.randint(20, 25), rnd.randint(20, 25)
        c = compile_city(mode, grid, inh, nrg)
        t0 = time.perf_counter()
        best = optimise(compile_city(mode, grid, inh, nrg))
        t1 = time.perf_counter()
        base = exhaustive(c)
        t2 = time.perf_counter()
        opt_total += t1 - t0
        exh_total += t2 - t1
        equal = equal and best.key == base.key
    key = f"{PREFIX}optimiser.expert_largest_full_pool."
    return {
        key + "cities": cities,
        key + "optimiser_ms_mean": round(1000 * opt_total / cities, 2),
        key + "exhaustive_ms_mean": round(1000 * exh_total / cities, 1),
        key + "speedup_ratio": round(exh_total / opt_total, 1),
        key + "all_equal": equal,
    }


def largest_expert_figures(cities: int, seed: int) -> dict[str, Any]:
    """The optimiser alone on full Expert cities of 20 switchable buildings."""
    mode = MODE_RULES["expert"]
    rnd = random.Random(seed)
    times = []
    for _ in range(cities):
        grid = random_city(mode, rnd, density=1.0, costly_only=True)
        inh, nrg = rnd.randint(0, 30), rnd.randint(0, 30)
        t0 = time.perf_counter()
        optimise(compile_city(mode, grid, inh, nrg))
        times.append(time.perf_counter() - t0)
    key = f"{PREFIX}optimiser.expert_largest_"
    return {
        key + "cities": cities,
        key + "ms_p50": _ms(times, 0.5),
        key + "ms_p95": _ms(times, 0.95),
        key + "ms_max": _ms(times, 1.0),
    }


STRUCTURED_CITIES = {
    "harbours": ("expert", ["H H H H H"] * 4),
    "offices": ("expert", ["O3 O3 O3 O3 O3"] * 4),
    "offices_mixed": ("expert", ["O1 O5 O2 O4 O3", "O3 O1 O5 O2 O4", "O4 O3 O1 O5 O2", "O2 O4 O3 O1 O5"]),
    "shops": ("expert", ["S S S S S"] * 4),
    "factories_shops": ("expert", ["F S F S F", "S F S F S", "F S F S F", "S F S F S"]),
    "factories_offices": ("expert", ["F O2 F O2 F", "O2 F O2 F O2", "F O2 F O2 F", "O2 F O2 F O2"]),
}


def structured_figures(step: int) -> dict[str, Any]:
    """The optimiser on symmetric full Expert cities (many equal optima), over a grid of pools."""
    times = []
    for mode_name, rows in STRUCTURED_CITIES.values():
        mode = MODE_RULES[mode_name]
        grid = parse_city(mode, rows).grid
        for inh in range(0, 22, step):
            for nrg in range(0, 22, step):
                t0 = time.perf_counter()
                optimise(compile_city(mode, grid, inh, nrg))
                times.append(time.perf_counter() - t0)
    key = f"{PREFIX}optimiser.expert_structured_"
    return {key + "cases": len(times), key + "ms_p50": _ms(times, 0.5), key + "ms_max": _ms(times, 1.0)}


# ---------------------------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------------------------


def play_game(
    mode: str,
    players: int,
    seed: int,
    levels: Sequence[str],
    check: bool = False,
    timings: dict[str, list[float]] | None = None,
) -> tuple[list[int], list[int]]:
    """Play one seeded game to the end; returns (ranks, totals). With ``check`` every step is verified."""
    state = RULES.setup({"mode": mode}, players, seed)
    step = 0
    while not RULES.is_over(state):
        seat = state.current
        t0 = time.perf_counter()
        move = RULES.ai_move(state, seat, levels[seat], seed * 7919 + step)
        if timings is not None:
            timings.setdefault(levels[seat], []).append(time.perf_counter() - t0)
        before = json.dumps(RULES.to_json(state), sort_keys=True) if check else ""
        after = RULES.apply(state, seat, move)
        if check:
            if json.dumps(RULES.to_json(state), sort_keys=True) != before:
                raise CheckFailed(f"apply mutated its input (seed {seed}, step {step})")
            problems = conservation_problems(after)
            if problems:
                raise CheckFailed(f"tiles not conserved (seed {seed}, step {step}): {problems}")
        state = after
        step += 1
    result = RULES.result(state)
    if check:
        data = json.loads(json.dumps(RULES.to_json(state)))
        if RULES.from_json(data) != state or RULES.to_json(RULES.from_json(data)) != data:
            raise CheckFailed(f"JSON round trip failed (seed {seed})")
        for seat_result in result.seats:
            if seat_result.total != sum(seat_result.breakdown.values()):
                raise CheckFailed(f"total is not the sum of its categories (seed {seed})")
    return [s.rank for s in result.seats], [s.total for s in result.seats]


def _games(
    level: str, opponent: str, first: int, count: int, seed: int
) -> tuple[float, list[int], dict[str, list[float]]]:
    """Games ``first .. first+count-1`` of a matchup: (points of ``level``, margins, timings)."""
    score = 0.0
    margins = []
    timings: dict[str, list[float]] = {}
    for g in range(first, first + count):
        mode = "classic" if g % 2 == 0 else "expert"
        me = (g // 2) % 2
        levels = [opponent, opponent]
        levels[me] = level
        ranks, totals = play_game(mode, 2, seed + g, levels, timings=timings)
        if ranks[me] == 1:
            score += 0.5 if ranks[1 - me] == 1 else 1.0
        margins.append(totals[me] - totals[1 - me])
    return score, margins, timings


def _checked(first: int, count: int, seed: int) -> int:
    """Random-move games in every mode and player count, fully checked; returns how many finished."""
    for g in range(first, first + count):
        mode = "classic" if g % 2 == 0 else "expert"
        players = 2 + (g // 2) % 3
        play_game(mode, players, seed + g, ["random"] * players, check=True)
    return count


MATCHUPS = (("greedy", "random"), ("strong", "random"), ("strong", "greedy"))
CHUNK = 20


def game_figures(games: int, checked: int, workers: int) -> dict[str, Any]:
    """AI matchups (2-player, half Classic, half Expert, seats alternating) and checked games.

    With ``workers`` > 1 the games run in that many processes; every game is seeded, so the
    figures other than times do not depend on it.
    """
    out: dict[str, Any] = {}
    jobs: list[tuple[str, tuple[Any, ...]]] = []
    for level, opponent in MATCHUPS:
        for first in range(0, games, CHUNK):
            jobs.append(("games", (level, opponent, first, min(CHUNK, games - first), 10_000)))
    for first in range(0, checked, 5 * CHUNK):
        jobs.append(("checked", (first, min(5 * CHUNK, checked - first), 20_000)))
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_games if kind == "games" else _checked, *args) for kind, args in jobs]
            results = [f.result() for f in futures]
    else:
        results = [(_games if kind == "games" else _checked)(*args) for kind, args in jobs]
    scores: dict[tuple[str, str], float] = {}
    margins: dict[tuple[str, str], list[int]] = {}
    timings: dict[str, list[float]] = {}
    completed = 0
    for (kind, args), res in zip(jobs, results):
        if kind == "checked":
            completed += int(res)  # type: ignore[call-overload]
            continue
        pair = (str(args[0]), str(args[1]))
        score, game_margins, game_timings = cast(tuple[float, list[int], dict[str, list[float]]], res)
        scores[pair] = scores.get(pair, 0.0) + score
        margins.setdefault(pair, []).extend(game_margins)
        for level, values in game_timings.items():
            timings.setdefault(level, []).extend(values)
    for pair in MATCHUPS:
        key = f"{PREFIX}ai.{pair[0]}_vs_{pair[1]}."
        out[key + "games"] = games
        out[key + "win_rate"] = round(scores[pair] / games, 3)
        out[key + "average_margin"] = round(statistics.mean(margins[pair]), 2)
    out[f"{PREFIX}ai.random_vs_greedy.games"] = games
    out[f"{PREFIX}ai.random_vs_greedy.win_rate"] = round(1 - out[f"{PREFIX}ai.greedy_vs_random.win_rate"], 3)
    out[f"{PREFIX}ai.random_vs_greedy.average_margin"] = -out[f"{PREFIX}ai.greedy_vs_random.average_margin"]
    for level, values in sorted(timings.items()):
        out[f"{PREFIX}ai.decision_ms_p50_{level}"] = _ms(values, 0.5)
        out[f"{PREFIX}ai.decision_ms_p95_{level}"] = _ms(values, 0.95)
        out[f"{PREFIX}ai.decision_ms_max_{level}"] = _ms(values, 1.0)
    out[f"{PREFIX}checked_games_completed"] = completed
    out[f"{PREFIX}games_seconds"] = round(time.perf_counter() - t0, 1)
    out[f"{PREFIX}games_workers"] = workers
    return out


def figures(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if quick:
        out.update(optimiser_figures("classic", 4, 10, seed=1))
        out.update(optimiser_figures("expert", 4, 10, seed=2))
        out.update(largest_expert_figures(5, seed=3))
        out.update(structured_figures(step=10))
        out.update(game_figures(games=2, checked=6, workers=1))
    else:
        out.update(optimiser_figures("classic", 24, None, seed=1))
        out.update(optimiser_figures("expert", 4, None, seed=2))
        out.update(largest_expert_figures(100, seed=3))
        out.update(largest_against_exhaustive(2, seed=4))
        out.update(structured_figures(step=3))
        out.update(game_figures(games=200, checked=1000, workers=WORKERS))
    return out


SAMPLE_NAMES = ("Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee")


def render_samples() -> list[tuple[str, Callable[[], Any]]]:
    """The pictures the render bench times (bound in :mod:`bot.benches.render`): a seeded classic game's
    turn, city and board mid-game, and an expert game's end."""
    names = list(SAMPLE_NAMES)
    mid = RULES.view(sample_state(RULES, {"mode": "classic"}, 4, 1, 30), None)
    seat = mid["turn"]["seat"] or 0
    end = RULES.view(sample_state(RULES, {"mode": "expert"}, 4, 2, None), None)
    return [
        ("turn", lambda: renderer.turn_image(mid, seat, names)),
        ("city", lambda: renderer.city_image(mid, seat, names)),
        ("board", lambda: renderer.board_image(mid, names)),
        ("end", lambda: renderer.end_image(end, names)),
    ]
