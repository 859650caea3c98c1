"""Urban Panic bench: seeded AI games in every variant and player count, with checks and figures.

``figures(quick=False)`` returns JSON-able figures, every key prefixed ``urbanpanic.``:

- ``greedy_win_rate``, ``greedy_average_margin``, ``greedy_vs_random_games``: 2-player basic and
  advanced games, greedy against random with the seats alternating (a shared first place counts
  half).
- ``games``: for each variant and player count, games completed with every step checked (tiles
  conserved, ``apply`` leaving its input untouched, JSON round trip at the end, result breakdowns
  summing to totals), end reasons, average winning score, average turns.
- ``ai.<variant>.strong_vs_random.*`` and ``ai.<variant>.strong_vs_greedy.*`` for basic, advanced
  and party: one strong seat (seats alternating) against one random or one greedy seat, 2-player
  games (chance 0.5): ``win_rate``, ``chance``, ``games``, ``average_margin``, ``setup``; the full
  run adds ``….seats_4.*``: one strong seat against three others (chance 0.25), fewer games.
- ``decision_ms_p50_<level>``, ``decision_ms_p95_<level>``, ``decision_ms_max_<level>``: AI
  decision time per level; ``checked_games_completed``: all checked games.
- ``design``: the spec 4.3/5.3 design-check figures with greedy players (share of each tile type
  among placed tiles, average residents and jobs after play, unreachable tiles per city, turns in
  which a player was stuck).

The quick run (CI smoke test) plays a handful of games; the full run plays 400 greedy-vs-random
games and 60 checked games per variant and player count.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from bot.games import sample_state
from bot.rules import core
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.engine import architect_owed
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import State, census, manifest_census
from render import urbanpanic as renderer

VARIANTS = ("basic", "advanced", "party")
THINK_MS = (400, 2500)
"""Party games: each AI move arrives this many simulated ms after its previous one."""
MAX_STEPS = 5000


class CheckFailed(AssertionError):
    """A bench game broke an invariant."""


def play_game(
    variant: str,
    seats: int,
    seed: int,
    levels: Sequence[str],
    check: bool = True,
    timings: dict[str, list[float]] | None = None,
) -> dict[str, Any]:
    """Play one seeded AI game to the end; ``levels[seat]`` is each seat's AI level.

    Party games simulate arrival order: each seat's next move arrives ``THINK_MS`` after its
    previous one (seeded), moves carry ``"at"``, and the timer's system move is applied when due.
    With ``check`` every step is verified (see the module docstring); a failure raises CheckFailed.
    """
    state = RULES.setup({"variant": variant}, seats, seed)
    rnd = core.rng(seed, "bench", "clock")
    clock = {seat: rnd.randint(*THINK_MS) for seat in range(seats)}
    expected = manifest_census()
    steps = stuck = 0
    while not state.over:
        if steps >= MAX_STEPS:
            raise CheckFailed(f"{variant}/{seats}/{seed}: no end after {MAX_STEPS} moves")
        if state.party:
            seat = min(RULES.awaiting(state), key=lambda s: (clock[s], s))
            at = clock[seat]
            due = RULES.system_move(state, at)
            if due is not None:
                state = _step(state, core.SYSTEM_SEAT, {**due, "at": at}, check)
                break
        else:
            seat = state.current
            if not state.architect_done and state.points == tiles.TURN_POINTS and not architect_owed(state):
                stuck += 1
        started = time.perf_counter()
        move = RULES.ai_move(state, seat, levels[seat], core.derive_seed(seed, "move", steps))
        if timings is not None:
            timings.setdefault(levels[seat], []).append((time.perf_counter() - started) * 1000)
        if state.party:
            move = {**move, "at": clock[seat]}
            clock[seat] += rnd.randint(*THINK_MS)
        state = _step(state, seat, move, check)
        if check and census(state) != expected:
            raise CheckFailed(f"{variant}/{seats}/{seed}: tiles not conserved after {move}")
        steps += 1
    result = RULES.result(state)
    if check:
        if RULES.from_json(RULES.to_json(state)) != state:
            raise CheckFailed(f"{variant}/{seats}/{seed}: JSON round trip changed the state")
        for s in result.seats:
            if sum(s.breakdown.values()) != s.total:
                raise CheckFailed(f"{variant}/{seats}/{seed}: breakdown does not sum to the total")
    return {"state": state, "result": result, "steps": steps, "stuck_turns": stuck}


def _step(state: State, seat: int, move: core.Move, check: bool) -> State:
    before = RULES.to_json(state) if check else None
    after = RULES.apply(state, seat, move)
    if check and RULES.to_json(state) != before:
        raise CheckFailed(f"apply mutated its input on {move}")
    return after


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


def greedy_vs_random(games: int, timings: dict[str, list[float]]) -> dict[str, Any]:
    """Greedy's win rate against random over ``games`` 2-player games (basic and advanced)."""
    score = 0.0
    margins = []
    for g in range(games):
        variant = ("basic", "advanced")[g % 2]
        greedy_seat = (g // 2) % 2
        levels = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        res = play_game(variant, 2, 10_000 + g, levels, check=False, timings=timings)["result"]
        mine, theirs = res.seats[greedy_seat], res.seats[1 - greedy_seat]
        score += 1.0 if mine.rank < theirs.rank else 0.5 if mine.rank == theirs.rank else 0.0
        margins.append(mine.total - theirs.total)
    return {
        "games": games,
        "greedy_win_rate": round(score / games, 3),
        "average_margin": round(statistics.mean(margins), 1) if margins else 0,
    }


def versus(
    variant: str, level: str, opponent: str, seats: int, games: int, timings: dict[str, list[float]]
) -> dict[str, Any]:
    """One ``level`` seat (rotating) against ``seats - 1`` ``opponent`` seats in ``variant`` games.

    Keys ``ai.<variant>.<level>_vs_<opponent>.`` (2 seats) or ``….seats_<n>.``: ``win_rate`` (a
    first place shared by k counts 1/k), ``chance`` (1/seats), ``games``, ``average_margin`` (the
    lone seat's total minus the best other total) and ``setup``.
    """
    score = 0.0
    margins = []
    for g in range(games):
        seat = g % seats
        levels = [opponent] * seats
        levels[seat] = level
        res = play_game(variant, seats, 70_000 + 1000 * seats + g, levels, check=False, timings=timings)["result"]
        first = res.winners()
        if seat in first:
            score += 1 / len(first)
        margins.append(res.seats[seat].total - max(s.total for s in res.seats if s.seat != seat))
    key = f"urbanpanic.ai.{variant}.{level}_vs_{opponent}." + ("" if seats == 2 else f"seats_{seats}.")
    return {
        key + "win_rate": round(score / games, 3),
        key + "chance": round(1 / seats, 3),
        key + "games": games,
        key + "average_margin": round(statistics.mean(margins), 1),
        key + "setup": f"one {level} seat (rotating) against {seats - 1} {opponent} seat"
        f"{'s' if seats > 2 else ''}, {seats}-player {variant} games",
    }


def checked_games(per_combo: int, timings: dict[str, list[float]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Checked games for every variant and player count, and the design figures of greedy play."""
    out: dict[str, Any] = {}
    placed: Counter[str] = Counter()
    residents, jobs, unreachable, stuck, cities = [], [], [], 0, 0
    for variant in VARIANTS:
        for seats in (2, 3, 4):
            reasons: Counter[str] = Counter()
            winners, turns = [], []
            for g in range(per_combo):
                levels = ["greedy" if (seat + g) % 3 else "random" for seat in range(seats)]
                if g % 2 == 0:
                    levels = ["greedy"] * seats
                played = play_game(variant, seats, 20_000 + 97 * g + seats, levels, timings=timings)
                state, res = played["state"], played["result"]
                reasons[state.end_reason] += 1
                winners.append(max(s.total for s in res.seats))
                turns.append(state.turn)
                if all(level == "greedy" for level in levels):
                    stuck += played["stuck_turns"]
                    for p, s in zip(state.players, res.seats):
                        cities += 1
                        placed.update(tiles.KINDS[c].type for c in p.board if c is not None)
                        residents.append(s.details["tracks_played"][0])
                        jobs.append(s.details["tracks_played"][1])
                        unreachable.append(len(s.details["removed"]))
            out[f"{variant}/{seats}"] = {
                "completed": per_combo,
                "conservation_checked": True,
                "end_reasons": dict(reasons),
                "average_winning_score": round(statistics.mean(winners), 1),
                "average_turns": round(statistics.mean(turns), 1) if variant != "party" else None,
            }
    total = sum(placed.values()) or 1
    design = {
        "type_share_of_placed_tiles": {t: round(n / total, 3) for t, n in sorted(placed.items())},
        "pool_share": {t: round(k.count / len(tiles.ALL_TILES), 3) for t, k in tiles.TYPES.items()},
        "average_residents_after_play": round(statistics.mean(residents), 1) if residents else 0,
        "average_jobs_after_play": round(statistics.mean(jobs), 1) if jobs else 0,
        "unreachable_tiles_per_city": round(statistics.mean(unreachable), 2) if unreachable else 0,
        "stuck_turns_per_city": round(stuck / cities, 3) if cities else 0,
    }
    return out, design


def figures(quick: bool = False) -> dict[str, Any]:
    """Bench figures as JSON, keys prefixed ``urbanpanic.`` (quick: seconds; full: under a minute)."""
    started = time.perf_counter()
    timings: dict[str, list[float]] = {}
    versus_greedy = greedy_vs_random(8 if quick else 400, timings)
    strong: dict[str, Any] = {}
    for variant in VARIANTS:
        for opponent in ("random", "greedy"):
            strong.update(versus(variant, "strong", opponent, 2, 1 if quick else 200, timings))
            if not quick:
                strong.update(versus(variant, "strong", opponent, 4, 24, timings))
    games, design = checked_games(1 if quick else 60, timings)
    out: dict[str, Any] = {
        "urbanpanic.greedy_vs_random_games": versus_greedy["games"],
        "urbanpanic.greedy_win_rate": versus_greedy["greedy_win_rate"],
        "urbanpanic.greedy_average_margin": versus_greedy["average_margin"],
        **strong,
        "urbanpanic.checked_games_completed": sum(g["completed"] for g in games.values()),
        "urbanpanic.games": games,
        "urbanpanic.design": design,
    }
    for level, values in sorted(timings.items()):
        out[f"urbanpanic.decision_ms_p50_{level}"] = _pct(values, 0.5)
        out[f"urbanpanic.decision_ms_p95_{level}"] = _pct(values, 0.95)
        out[f"urbanpanic.decision_ms_max_{level}"] = _pct(values, 1.0)
        out[f"urbanpanic.decisions_{level}"] = len(values)
    out["urbanpanic.seconds"] = round(time.perf_counter() - started, 1)
    return out


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(figures(quick="--quick" in sys.argv), indent=1))


SAMPLE_NAMES = ("Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee")


def render_samples() -> list[tuple[str, Callable[[], Any]]]:
    """The pictures the render bench times (bound in :mod:`bot.benches.render`): a seeded game's turn and
    board mid-game, and its end."""
    names = list(SAMPLE_NAMES)
    mid_state = sample_state(RULES, {}, 4, 1, 40)
    mid = RULES.view(mid_state, None)
    end = RULES.view(sample_state(RULES, {}, 4, 2, None), None)
    seat = min(RULES.awaiting(mid_state) or {0})
    return [
        ("turn", lambda: renderer.turn_image(mid, seat, names)),
        ("board", lambda: renderer.board_image(mid, names)),
        ("end", lambda: renderer.end_image(end, names)),
    ]
