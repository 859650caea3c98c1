"""The after-game analysis (:mod:`bot.analysis`; ``python -m bot.bench --only analysis`` picks this module by that
part of its name): what it costs, how steady it is, and whether it is honest.

Figures (``analysis.<kind>.<choice>.<n>p``), for a seeded game of every game whose ``analysis.json`` names
its bench (the game's options and seats there), played by the greedy AI, analysed in this one process (one
core) at the default budget: ``moves``, ``decisions``, ``seconds`` (wall) and ``cpu_seconds``, the same at four
times the samples (``x4_seconds``), and how far the figures move between the two: ``mean_move_loss_shift`` (the
mean absolute change of a move's loss), ``largest_move_loss_shift``, ``average_loss_shift`` and
``accuracy_shift`` (the largest change of a player's average loss and accuracy), ``same_best_move`` (the share
of decisions whose best move is the same); and ``policy_agreement``: the share of the game's decisions where
the rollout policy (greedy) chooses as the strong AI does.

Honesty (``analysis.honesty.<kind>``): thirty seeded games at the smaller table (``small_seats``), in each the first
decision from half the game on (not one where a move of a kind in the game's ``honesty_skip`` is legal), where the
random, greedy and strong AI's moves are weighed together at ``HONESTY_SAMPLES`` samples: each level's average loss and
the paired differences with their standard errors (``random_minus_greedy``, ``greedy_minus_strong``, ``*_se``;
significant when above twice the error).

Honesty over the games of every variant (``analysis.honesty_games.<kind>.<variant>``, full run only): thirty seeded
games, or as many as its :data:`SETTINGS` say (seeds 1000 on, the games of ``tests/analysis/test_honesty.py``) of
every game in every choice of its first option at its fewest seats (:func:`variants`), in each every decision of one
seat (the seats in turn) from the variant's start fraction of the game on, the three AI's moves weighed together at
its samples, each game one figure (:func:`per_game`): each level's average loss, the paired differences with their
standard errors and whether each is significant (``*_significant``), and the CPU seconds it took.

``--quick`` (CI): each game at its smaller table (``small_seats``), one sample against two, and five honesty
positions at one sample.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from typing import Any

from bot import analysis, games
from bot.analysis import evaluate, summary
from bot.benches.story import play_logged
from bot.rules import core

SEED = 40
HONESTY_SAMPLES = 4
HONESTY_POSITIONS = 30
HONESTY_GAMES = 30
Log = list[tuple[int, dict[str, Any]]]


def _name(kind: str, options: Mapping[str, str], seats: int) -> str:
    return f"analysis.{kind}.{next(iter(options.values()))}.{seats}p"


def _timed(
    kind: str, options: Mapping[str, str], seats: int, log: Any, budget: analysis.Budget
) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = analysis.analyse(kind, options, seats, SEED, log, budget)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _agreement(kind: str, options: Mapping[str, str], seats: int, log: Any, numbers: set[int]) -> float:
    """The share of the decisions ``numbers`` where greedy and strong choose the same move."""
    rules = games.rules(kind)
    state = rules.setup(options, seats, SEED)
    same = 0
    for number, (seat, move) in enumerate(log, start=1):
        if number in numbers:
            seed = core.derive_seed(SEED, "bench", number)
            same += evaluate.same(
                rules.ai_move(state, seat, "greedy", seed), rules.ai_move(state, seat, "strong", seed)
            )
        state = rules.apply(state, seat, move)
    return round(same / max(1, len(numbers)), 3)


def cost(kind: str, options: Mapping[str, str], seats: int, factor: int, budget: analysis.Budget) -> dict[str, Any]:
    _, log = play_logged(kind, options, seats, SEED, "greedy")
    base, seconds, cpu = _timed(kind, options, seats, log, budget)
    more, more_seconds, _ = _timed(kind, options, seats, log, budget.times(factor))
    shifts = [abs(a.loss - b.loss) for a, b in zip(base.moves, more.moves, strict=True)]
    name = _name(kind, options, seats)
    return {
        f"{name}.moves": len(log),
        f"{name}.decisions": len(base.moves),
        f"{name}.budget": f"{budget.samples} samples x {budget.rollouts} rollouts",
        f"{name}.seconds": round(seconds, 1),
        f"{name}.cpu_seconds": round(cpu, 1),
        f"{name}.x{factor}_seconds": round(more_seconds, 1),
        f"{name}.mean_move_loss_shift": round(statistics.mean(shifts), 2) if shifts else 0.0,
        f"{name}.largest_move_loss_shift": round(max(shifts, default=0.0), 2),
        f"{name}.average_loss_shift": round(
            max(abs(a.average_loss - b.average_loss) for a, b in zip(base.players, more.players, strict=True)), 2
        ),
        f"{name}.accuracy_shift": round(
            max(abs(a.accuracy - b.accuracy) for a, b in zip(base.players, more.players, strict=True)), 1
        ),
        f"{name}.same_best_move": round(
            sum(a.best_move == b.best_move for a, b in zip(base.moves, more.moves, strict=True)) / max(1, len(shifts)),
            3,
        ),
        f"{name}.average_losses": [p.average_loss for p in base.players],
        f"{name}.accuracies": [p.accuracy for p in base.players],
        f"{name}.policy_agreement": _agreement(kind, options, seats, log, {m.number for m in base.moves}),
    }


def _position(kind: str, options: Mapping[str, str], seats: int, seed: int, fraction: float) -> tuple[Any, int, int]:
    """The first decision from ``fraction`` of a seeded game on, skipping those where a move of a kind the
    game's ``analysis.json`` lists in ``honesty_skip`` is legal."""
    rules = games.rules(kind)
    skip = set(summary.data(rules).get("honesty_skip", ()))
    _, log = play_logged(kind, options, seats, seed, "greedy")
    state = rules.setup(options, seats, seed)
    for index, (seat, move) in enumerate(log):
        legal = rules.legal_moves(state, seat) if seat >= 0 else []
        if index >= int(len(log) * fraction) and len(legal) > 1 and not skip & {m.get("kind") for m in legal}:
            return state, seat, int(move.get("at", 0))
        state = rules.apply(state, seat, move)
    raise RuntimeError("no decision left")


def honesty(kind: str, options: Mapping[str, str], seats: int, positions: int, samples: int) -> dict[str, Any]:
    rules = games.rules(kind)
    horizon = summary.horizon(rules)
    losses: dict[str, list[float]] = {"random": [], "greedy": [], "strong": []}
    for game in range(positions):
        state, seat, now = _position(kind, options, seats, 1000 + game, 0.5)
        move = rules.ai_move(state, seat, "random", core.derive_seed(game, "random"))
        decision = evaluate.weigh(
            rules, state, seat, move, None, core.derive_seed(game, "weigh"), samples, 1, now, horizon
        )
        losses["random"].append(decision.loss(0))
        for level in ("greedy", "strong"):
            losses[level].append(decision.loss(decision.chosen[level]))
    name = f"analysis.honesty.{kind}"
    out: dict[str, Any] = {f"{name}.positions": positions, f"{name}.samples": samples, f"{name}.seats": seats}
    for level, values in losses.items():
        out[f"{name}.{level}_loss"] = round(statistics.mean(values), 2)
    for worse, better in (("random", "greedy"), ("greedy", "strong")):
        gaps = [w - b for w, b in zip(losses[worse], losses[better], strict=True)]
        out[f"{name}.{worse}_minus_{better}"] = round(statistics.mean(gaps), 2)
        out[f"{name}.{worse}_minus_{better}_se"] = round(statistics.stdev(gaps) / len(gaps) ** 0.5, 2)
    return out


def play(kind: str, options: Mapping[str, str], seats: int, seed: int, level: str | tuple[str, ...] = "greedy") -> Log:
    """A seeded game played to the end by the rules' AI ``level`` for every seat (or each seat's level, in
    order), as its move log (the honesty checks' games, the tests' too). Timed games: one second a move; where
    several seats play at once (a party game), the awaited seat that moved longest ago moves (the
    lowest first), and the system's move (the timer run out) is applied, and logged as ``core.SYSTEM_SEAT``'s,
    when it falls due."""
    levels = (level,) * seats if isinstance(level, str) else level
    rules = games.rules(kind)
    state = rules.setup(options, seats, seed)
    log: Log = []
    last = dict.fromkeys(range(seats), -1)
    while not rules.is_over(state):
        at = 1000 * (len(log) + 1)
        due = rules.system_move(state, at) if rules.uses_time else None
        if due is not None:
            state = rules.apply(state, core.SYSTEM_SEAT, {**due, "at": at})
            log.append((core.SYSTEM_SEAT, {**due, "at": at}))
            continue
        awaited = rules.awaiting(state)
        seat = min(awaited, key=lambda s: (last[s], s)) if rules.uses_time else min(awaited)
        move = dict(rules.ai_move(state, seat, levels[seat], core.derive_seed(seed, "test", len(log))))
        if rules.uses_time:
            move["at"] = at
        state = rules.apply(state, seat, move)
        log.append((seat, move))
        last[seat] = len(log)
    return log


def per_game(
    kind: str,
    options: Mapping[str, str],
    seats: int,
    count: int,
    samples: int,
    skip: set[str],
    start: float = 0.0,
    base: int = 1000,
) -> dict[str, list[float]]:
    """Over ``count`` seeded games (``base`` on) of ``kind`` with ``options`` at ``seats`` seats, played by the
    greedy AI (:func:`play`): in each, every decision of one seat (the seats in turn) with a choice from ``start``
    of the game on, except where a move of a kind in ``skip`` is legal, where the random AI's move (the played
    one) and the greedy and strong AI's choices are weighed together at ``samples`` samples; each level's mean
    loss per game. A negative loss is a bug (RuntimeError)."""
    rules = games.rules(kind)
    horizon = summary.horizon(rules)
    out: dict[str, list[float]] = {"random": [], "greedy": [], "strong": []}
    for game in range(count):
        seed, seat = base + game, game % seats
        mine: dict[str, list[float]] = {level: [] for level in out}
        state = rules.setup(options, seats, seed)
        log = play(kind, options, seats, seed)
        for number, (mover, move) in enumerate(log):
            if mover == seat and number >= start * len(log):
                legal = rules.legal_moves(state, mover)
                if len(legal) > 1 and not skip & {m.get("kind") for m in legal}:
                    chance = rules.ai_move(state, seat, "random", core.derive_seed(seed, "random", number))
                    stream = core.derive_seed(seed, "weigh", number)
                    now = int(move.get("at", 0))
                    decision = evaluate.weigh(rules, state, seat, chance, None, stream, samples, 1, now, horizon)
                    mine["random"].append(decision.loss(0))
                    for level in ("greedy", "strong"):
                        mine[level].append(decision.loss(decision.chosen[level]))
            state = rules.apply(state, mover, move)
        if any(loss < 0 for values in mine.values() for loss in values):
            raise RuntimeError(f"{kind} {dict(options)} seed {seed}: a negative loss")
        for level, values in mine.items():
            out[level].append(statistics.mean(values))
    return out


def gap(worse: list[float], better: list[float]) -> tuple[float, float]:
    """The mean of the paired differences ``worse - better`` and its standard error."""
    gaps = [w - b for w, b in zip(worse, better, strict=True)]
    return statistics.mean(gaps), statistics.stdev(gaps) / len(gaps) ** 0.5


SETTINGS: dict[str, tuple[int, float, int]] = {
    "classic": (3, 0.5, HONESTY_GAMES),
    "expert": (3, 0.5, HONESTY_GAMES),
    "standard": (1, 0.0, 10 * HONESTY_GAMES),
    "two_player": (3, 0.5, 10 * HONESTY_GAMES),
    "solo_simple": (3, 0.5, HONESTY_GAMES),
    "solo_full": (3, 0.5, HONESTY_GAMES),
    "advanced": (1, 0.0, HONESTY_GAMES),
    "basic": (1, 0.0, HONESTY_GAMES),
    "party": (1, 0.0, HONESTY_GAMES),
}
"""The honesty check's setting over a variant's games, by the choice of its game's first option: (samples, start
fraction, games). The setting of its test in ``tests/analysis/test_honesty.py`` where that weighs at least the
second half of each game; where the test weighs only the last rounds or checks no order, a wider one: whole games
at one sample, or from half of each game at three samples (README, "Honesty"); and where thirty games do not
resolve the order at a cost CI can bear, more games: the drafting game's smallest table and its two-player variant ten
times as many (their tests check greedy against strong only for a reversal; about seven and nine minutes of one
core). A variant not named here: thirty whole games at one sample."""


def variants() -> list[tuple[str, str, dict[str, str], int, int, float, int]]:
    """(name, kind, options, seats, samples, start fraction, games): every game in every choice of its first
    option at its fewest seats, at its :data:`SETTINGS`; the name is ``<kind>.<choice>``."""
    out = []
    for kind, game in games.GAMES.items():
        specs = game.rules.option_specs
        choices = [{specs[0].name: choice} for choice in specs[0].choices] if specs else [{}]
        for options in choices:
            choice = next(iter(options.values()), "default")
            samples, start, count = SETTINGS.get(choice, (1, 0.0, HONESTY_GAMES))
            seats = game.rules.seat_range(options)[0]
            out.append((f"{kind}.{choice}", kind, options, seats, samples, start, count))
    return out


def honesty_games(
    name: str, kind: str, options: Mapping[str, str], seats: int, samples: int, start: float, count: int
) -> dict[str, Any]:
    """``analysis.honesty_games.<name>``: :func:`per_game` over ``count`` games (seeds 1000 on), each level's
    average loss, the paired differences with their standard errors and whether each is significant (above
    twice its error), and the CPU seconds it took."""
    cpu = time.process_time()
    skip = set(summary.data(games.rules(kind)).get("honesty_skip", ()))
    losses = per_game(kind, options, seats, count, samples, skip, start)
    key = f"analysis.honesty_games.{name}"
    out: dict[str, Any] = {
        f"{key}.games": count,
        f"{key}.seats": seats,
        f"{key}.samples": samples,
        f"{key}.from": start,
    }
    for level, values in losses.items():
        out[f"{key}.{level}_loss"] = round(statistics.mean(values), 2)
    for worse, better in (("random", "greedy"), ("greedy", "strong")):
        mean, error = gap(losses[worse], losses[better])
        out[f"{key}.{worse}_minus_{better}"] = round(mean, 2)
        out[f"{key}.{worse}_minus_{better}_se"] = round(error, 2)
        out[f"{key}.{worse}_minus_{better}_significant"] = mean > 2 * error
    out[f"{key}.cpu_seconds"] = round(time.process_time() - cpu, 1)
    return out


def cases() -> list[tuple[str, dict[str, str], int, int]]:
    """(kind, options, seats, smaller table's seats) of every game whose ``analysis.json`` names its bench."""
    out = []
    for kind in games.available():
        bench = summary.data(games.rules(kind)).get("bench")
        if bench:
            out.append((kind, dict(bench["options"]), int(bench["seats"]), int(bench["small_seats"])))
    return out


def figures(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, options, seats, small in cases():
        if quick:
            out.update(cost(kind, options, small, 2, analysis.Budget(samples=1)))
        else:
            out.update(cost(kind, options, seats, 4, analysis.DEFAULT_BUDGET))
    for kind, options, _, small in cases():
        positions, samples = (5, 1) if quick else (HONESTY_POSITIONS, HONESTY_SAMPLES)
        out.update(honesty(kind, options, small, positions, samples))
    if not quick:
        for name, kind, options, seats, samples, start, count in variants():
            out.update(honesty_games(name, kind, options, seats, samples, start, count))
    return out
