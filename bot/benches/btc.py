"""Between Two Cities bench: AI strength and speed, solo results, checked games, dead-end geometry.

``figures(quick=False)`` returns flat JSON figures, every key prefixed ``btc.``:

- ``ai.greedy_vs_random.*``: 4-player games, one greedy seat (rotating) against three random
  seats: ``win_rate`` (a first place shared by k seats counts 1/k; 0.25 would be chance),
  ``average_final_greedy`` / ``average_final_random`` and ``games``.
- ``ai.strong_vs_random.*`` and ``ai.strong_vs_greedy.*``: one strong seat (rotating) against
  three random or three greedy seats in 4-seat games (chance 0.25), ``win_rate``, ``chance``,
  ``games``, average finals, ``lost_by_points`` (the share of games lost with the lower city 0 (on
  the tie-break), 1, 2 or 3+ points below the winner's: how many losses a point or two more would
  turn) and ``setup``; the same at 3 and 7 seats under ``…seats_3.`` and
  ``…seats_7.`` (one strong seat against 2 or 6 others; chance 1/3 and 1/7).
- ``ai.decision_ms_p50_<level>``, ``_p95_``, ``_max_``: time per AI decision over all these games,
  for every level (random, greedy, strong).
- ``solo.<mode>.strong_win_rate_by_difficulty`` (full run only): the strong AI against the
  Automas at each difficulty 1-7 on the same deals, with ``strong_falls_steadily`` and
  ``strong_drops`` (the change from one difficulty to the next).
- ``solo.<mode>.greedy_win_rate`` (difficulty 4; a shared first place counts as a win, D-22),
  ``average_final`` and ``average_automa_final``.
- ``checked_games_completed``: seeded games of every mode (3-7 players, 2 players, solo Simple and
  Full; random and greedy seats) played to the end with every check passing at every step: the
  chosen move is listed by ``legal_moves``, ``apply`` leaves its input untouched, the state
  round-trips through JSON, tiles are conserved, no view shows a secret; at the end every city is
  a full 4 x 4 square and replaying the move log reproduces the final state.
  ``checked_games_by_mode`` counts them per mode.
- ``geometry.layouts_checked`` / ``geometry.dead_end_layouts``: every connected 6- and 8-cell
  city (the sizes at which duplexes arrive) tried with both duplex orientations and, at 6 cells,
  every first duplex followed by a second: how many leave a duplex with no upright spot (spec
  6.3 / D-5 expect "rare"; the count is 0).

The quick run (CI smoke test) takes a few seconds; the full run a few minutes.
"""

from __future__ import annotations

import itertools
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.games import sample_state
from bot.rules import core
from bot.rules.btc import audit
from bot.rules.btc import engine as E
from bot.rules.btc import geometry as G
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import BtcState
from render import btc as renderer

PREFIX = "btc."
CHECKED_CONFIGS: tuple[tuple[str, int], ...] = (
    ("standard", 3),
    ("standard", 4),
    ("standard", 5),
    ("standard", 6),
    ("standard", 7),
    ("two_player", 2),
    ("solo_simple", 1),
    ("solo_full", 1),
)


class CheckFailed(AssertionError):
    """A bench game broke an invariant."""


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def play(
    options: dict[str, str],
    seats: int,
    seed: int,
    levels: list[str],
    timings: dict[str, list[float]] | None = None,
    check: bool = False,
) -> BtcState:
    """A seeded game with an AI of ``levels[seat]`` in every seat; with ``check`` every invariant
    is verified at every step (raises CheckFailed)."""
    state = RULES.setup(options, seats, seed)
    start = state
    log: list[tuple[int, core.Move]] = []
    n = 0
    while not RULES.is_over(state):
        awaiting = sorted(RULES.awaiting(state))
        if not awaiting:
            raise CheckFailed(f"nobody awaited in {options} seed {seed}")
        seat = awaiting[core.rng(seed, "bench", n).randrange(len(awaiting))]
        level = levels[seat]
        t0 = time.perf_counter()
        move = RULES.ai_move(state, seat, level, core.derive_seed(seed, "ai", n))
        if timings is not None:
            timings.setdefault(level, []).append(time.perf_counter() - t0)
        snapshot = RULES.to_json(state) if check else None
        after = RULES.apply(state, seat, move)
        if check:
            _check_step(state, seat, move, after, snapshot)
        log.append((seat, move))
        state = after
        n += 1
    if check:
        problems = audit.finished_problems(state)
        replay = start
        for seat, move in log:
            replay = RULES.apply(replay, seat, move)
        if RULES.to_json(replay) != RULES.to_json(state):
            problems.append("replaying the move log gives another state")
        if problems:
            raise CheckFailed(f"{options} seed {seed}: {problems}")
    return state


def _check_step(before: BtcState, seat: int, move: core.Move, after: BtcState, snapshot: Any) -> None:
    problems = []
    if move not in RULES.legal_moves(before, seat):
        problems.append(f"the AI's move {move} is not listed")
    if RULES.to_json(before) != snapshot:
        problems.append("apply mutated its input")
    data = json.loads(json.dumps(RULES.to_json(after)))
    if RULES.from_json(data) != after:
        problems.append("the state does not round-trip through JSON")
    problems += audit.conservation_problems(after)
    problems += audit.view_leaks(after)
    for s in range(after.seats):
        if bool(RULES.legal_moves(after, s)) != (s in RULES.awaiting(after)):
            problems.append(f"awaiting and legal_moves disagree for seat {s}")
    if problems:
        raise CheckFailed(f"{before.mode} after {move}: {problems}")


def matchup(games: int, seed: int, timings: dict[str, list[float]]) -> dict[str, Any]:
    """One greedy seat (rotating) against three random seats, 4-player games."""
    wins = 0.0
    greedy_finals: list[int] = []
    random_finals: list[int] = []
    for g in range(games):
        seat = g % 4
        levels = ["random"] * 4
        levels[seat] = "greedy"
        state = play({"mode": "standard"}, 4, seed + g, levels, timings)
        result = RULES.result(state)
        first = result.winners()
        if seat in first:
            wins += 1 / len(first)
        for s in result.seats:
            (greedy_finals if s.seat == seat else random_finals).append(s.total)
    key = f"{PREFIX}ai.greedy_vs_random."
    return {
        key + "win_rate": round(wins / games, 3),
        key + "games": games,
        key + "average_final_greedy": round(statistics.mean(greedy_finals), 1),
        key + "average_final_random": round(statistics.mean(random_finals), 1),
    }


def versus(
    level: str, opponent: str, seats: int, games: int, seed: int, timings: dict[str, list[float]]
) -> dict[str, Any]:
    """One ``level`` seat (rotating) against ``seats - 1`` seats of ``opponent``, standard games.

    Figures under ``ai.<level>_vs_<opponent>.`` (4 seats) or ``ai.<level>_vs_<opponent>.seats_<n>.``:
    ``win_rate`` (a first place shared by k counts 1/k), ``chance`` (1/seats), ``games``, the average
    final of the lone seat and of the others, and ``setup`` saying who played.
    """
    wins = 0.0
    mine: list[int] = []
    others: list[int] = []
    behind: list[int] = []
    for g in range(games):
        seat = g % seats
        levels = [opponent] * seats
        levels[seat] = level
        state = play({"mode": "standard"}, seats, seed + g, levels, timings)
        result = RULES.result(state)
        first = result.winners()
        if seat in first:
            wins += 1 / len(first)
        else:
            behind.append(max(s.total for s in result.seats if s.seat in first) - result.seats[seat].total)
        for s in result.seats:
            (mine if s.seat == seat else others).append(s.total)
    key = f"{PREFIX}ai.{level}_vs_{opponent}." + ("" if seats == 4 else f"seats_{seats}.")
    return {
        key + "win_rate": round(wins / games, 3),
        key + "chance": round(1 / seats, 3),
        key + "games": games,
        key + f"average_final_{level}": round(statistics.mean(mine), 1),
        key + f"average_final_{opponent}": round(statistics.mean(others), 1),
        key + "lost_by_points": lost_by_points(behind, games),
        key + "setup": f"one {level} seat (rotating) against {seats - 1} {opponent} seats, {seats}-seat games",
    }


def lost_by_points(behind: list[int], games: int) -> dict[str, float]:
    """How close the losses were: the share of all ``games`` lost with the lower city 0 (on the
    tie-break), 1, 2 or 3+ points below the winner's, from each lost game's shortfall in ``behind``."""
    buckets = {"0": 0, "1": 0, "2": 0, "3+": 0}
    for points in behind:
        buckets[str(points) if points < 3 else "3+"] += 1
    return {k: round(n / games, 3) for k, n in buckets.items()}


def solo_curve(mode: str, level: str, games: int, seed: int, timings: dict[str, list[float]]) -> dict[str, Any]:
    """``level`` alone against the Automas at every difficulty 1-7 (the same deals at each level).

    ``win_rate_by_difficulty`` maps the difficulty to the win rate (a shared first place is a win,
    D-22); ``falls_steadily`` says whether it never rises from one difficulty to the next;
    ``drops`` lists the change from each difficulty to the next.
    """
    rates: dict[str, float] = {}
    for d in range(1, 8):
        wins = 0
        for g in range(games):
            state = play({"mode": mode, "difficulty": str(d)}, 1, seed + g, [level], timings)
            wins += RULES.result(state).seats[0].rank == 1
        rates[str(d)] = round(wins / games, 3)
    values = list(rates.values())
    drops = [round(b - a, 3) for a, b in itertools.pairwise(values)]
    key = f"{PREFIX}solo.{mode}.{level}_"
    return {
        key + "win_rate_by_difficulty": rates,
        key + "falls_steadily": all(x <= 0 for x in drops),
        key + "drops": drops,
        key + "games_per_difficulty": games,
    }


def solo(mode: str, games: int, seed: int, timings: dict[str, list[float]]) -> dict[str, Any]:
    """The greedy AI alone against the Automas at difficulty 4."""
    wins = 0
    finals: list[int] = []
    automas: list[int] = []
    for g in range(games):
        state = play({"mode": mode, "difficulty": "4"}, 1, seed + g, ["greedy"], timings)
        result = RULES.result(state)
        wins += result.seats[0].rank == 1
        finals.append(result.seats[0].total)
        automas += [a["total"] for a in result.details["automas"]]
    key = f"{PREFIX}solo.{mode}."
    return {
        key + "greedy_win_rate": round(wins / games, 3),
        key + "games": games,
        key + "average_final": round(statistics.mean(finals), 1),
        key + "average_automa_final": round(statistics.mean(automas), 1),
    }


def checked_games(per_config: int, seed: int) -> tuple[int, dict[str, int]]:
    """Seeded games of every mode with every check at every step; (count, count per mode)."""
    done: Counter[str] = Counter()
    for i, (mode, seats) in enumerate(CHECKED_CONFIGS):
        for g in range(per_config):
            levels = ["greedy" if (g + s) % 2 else "random" for s in range(seats)]
            play({"mode": mode}, seats, seed + 1000 * i + g, levels, check=True)
            done[f"{mode}_{seats}" if mode == E.STANDARD else mode] += 1
    return sum(done.values()), dict(sorted(done.items()))


def dead_end_layouts() -> tuple[int, int]:
    """(layouts checked, layouts where a duplex finds no upright spot), see the module docstring."""
    window = list(itertools.product(range(G.SIDE), range(G.SIDE)))
    shapes = (G.HORIZONTAL_SHAPE, G.VERTICAL_SHAPE)
    checked = dead = 0
    for n in (6, 8):
        for layout in itertools.combinations(window, n):
            if len(core.connected_groups(layout)) != 1:
                continue
            checked += 1
            top = min(layout)
            city = {(r - top[0] + G.CENTER[0], c - top[1] + G.CENTER[1]) for r, c in layout}
            stuck = False
            for shape in shapes:
                spots = G.anchors(city, shape)
                stuck |= not spots
                if n == 6:
                    for a in spots:
                        grown = city | set(G.cover(a, shape))
                        stuck |= not all(G.anchors(grown, s) for s in shapes)
            dead += stuck
    return checked, dead


def figures(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    timings: dict[str, list[float]] = {}
    out.update(matchup(8 if quick else 240, seed=10_000, timings=timings))
    for seats, games in ((4, 2 if quick else 200), (3, 1 if quick else 100), (7, 1 if quick else 100)):
        for opponent in ("random", "greedy"):
            out.update(versus("strong", opponent, seats, games, seed=50_000 + 1000 * seats, timings=timings))
    for mode in ("solo_full", "solo_simple"):
        out.update(solo(mode, 2 if quick else 100, seed=30_000, timings=timings))
        if not quick:
            out.update(solo_curve(mode, "strong", 60, seed=60_000, timings=timings))
    for level, values in sorted(timings.items()):
        out[f"{PREFIX}ai.decision_ms_p50_{level}"] = _ms(values, 0.5)
        out[f"{PREFIX}ai.decision_ms_p95_{level}"] = _ms(values, 0.95)
        out[f"{PREFIX}ai.decision_ms_max_{level}"] = _ms(values, 1.0)
        out[f"{PREFIX}ai.decisions_{level}"] = len(values)
    t0 = time.perf_counter()
    count, by_mode = checked_games(1 if quick else 25, seed=20_000)
    out[f"{PREFIX}checked_games_completed"] = count
    out[f"{PREFIX}checked_games_by_mode"] = by_mode
    out[f"{PREFIX}checked_games_seconds"] = round(time.perf_counter() - t0, 1)
    if not quick:
        checked, dead = dead_end_layouts()
        out[f"{PREFIX}geometry.layouts_checked"] = checked
        out[f"{PREFIX}geometry.dead_end_layouts"] = dead
    return out


SAMPLE_NAMES = ("Ödön Łukasz Жанна", "Bob", "Cyd the Great Builder of Cities", "Dee", "Eve")


def render_samples() -> list[tuple[str, Callable[[], Any]]]:
    """The pictures the render bench times (bound in :mod:`bot.benches.render`): a seeded game's turn and
    board mid-game, and its end."""
    names = list(SAMPLE_NAMES)
    mid = RULES.view(sample_state(RULES, {}, 5, 1, 25), 0)
    end = RULES.view(sample_state(RULES, {}, 5, 2, None), None)
    return [
        ("turn", lambda: renderer.turn_image(mid, 0, names)),
        ("board", lambda: renderer.board_image(mid, names)),
        ("end", lambda: renderer.end_image(end, names)),
    ]
