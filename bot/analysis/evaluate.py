"""Every decision of a finished game weighed as the deciding seat could see it (see :mod:`bot.analysis`).

For one decision (a seat, the state before its move, what it had seen): the candidates are the played move,
the rollout policy's choice and the strong AI's choice (a bounded set, never every legal move: see the README),
each judged on the same ``samples`` determinizations (:meth:`GameRules.determinize`: what the seat could not see
dealt again) by ``rollouts`` games played to the end by the rollout policy, with the same random streams for
every candidate (common random numbers, so the comparison is not drowned in the deal's noise). A candidate's
value is the mean of the seat's final margin over the best opponent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules import core
from bot.rules.core import GameError, GameRules, Move

POLICY = "greedy"
"""The rollout policy: the rules' own greedy AI (its agreement with the strong AI: the analysis bench)."""
REFERENCE = "strong"
"""The AI whose choice is always a candidate besides the policy's."""
THINK_MS = (400, 2500)
"""Games that use time: each rolled-out move comes this many simulated ms after the seat's previous one."""
MAX_ROLLOUT = 5000
"""A rollout longer than this many moves is a bug in a game's rules (none is near it)."""


@dataclass(frozen=True)
class Decision:
    """One decision's candidates and their values (expected margins), in the order tried: the played move
    first. ``values[i]`` is ``candidates[i]``'s."""

    candidates: tuple[Move, ...]
    values: tuple[float, ...]
    chosen: dict[str, int] = field(default_factory=dict)
    """Which candidate each AI chose (``{"greedy": 0, "strong": 1}``: greedy played as the seat did)."""

    @property
    def played(self) -> float:
        return self.values[0]

    def loss(self, index: int = 0) -> float:
        """The loss of candidate ``index`` (the played move by default): the best value minus its own."""
        return max(self.values) - self.values[index]

    @property
    def best_index(self) -> int:
        """The best candidate; the played move on a tie (so a move as good as the best loses nothing)."""
        top = max(self.values)
        return next(i for i, v in enumerate(self.values) if v >= top)


def bare(move: Move) -> Move:
    """A move without the time the service stamped on it."""
    return {k: v for k, v in move.items() if k != "at"}


def same(a: Move, b: Move) -> bool:
    return json.dumps(bare(a), sort_keys=True) == json.dumps(bare(b), sort_keys=True)


def margin(rules: GameRules[Any], state: Any, seat: int) -> float:
    """``seat``'s total minus the best total it is ranked against (the other seats', and a solo game's automated
    opponents: ``Result.rivals``); its total alone when it has no rival."""
    result = rules.result(state)
    mine = next((s.total for s in result.seats if s.seat == seat), 0)
    others = [s.total for s in result.seats if s.seat != seat] + list(result.rivals)
    return float(mine - max(others)) if others else float(mine)


def rollout(
    rules: GameRules[Any], state: Any, seed: int, now: int, horizon: int | None = None, seat: int | None = None
) -> Any:
    """``state`` (just after ``seat``'s move) played to the end by the rollout policy (timed games: on a
    simulated clock from ``now``). With a ``horizon`` (the game's data), the rollout stops after that many
    moves at the next start of ``seat``'s turn (it is awaited after another seat's move; at most twice the
    horizon), so that every candidate is read at the same point of the round, and the margin is the game's
    provisional one."""
    rnd = core.rng(seed, "analysis", "clock")
    clock: dict[int, int] = {}
    steps, last = 0, seat
    while not rules.is_over(state):
        if (
            horizon is not None
            and steps >= horizon
            and (steps >= 2 * horizon or _turn_starts(rules, state, seat, last))
        ):
            break
        if steps > MAX_ROLLOUT:
            raise RuntimeError(f"{rules.kind}: no end after {MAX_ROLLOUT} rolled-out moves")
        steps += 1
        awaited = rules.awaiting(state)
        if rules.uses_time:
            for who in awaited:
                clock.setdefault(who, now + rnd.randint(*THINK_MS))
            due_at = min(clock[s] for s in awaited) if awaited else rules.timer_deadline(state)
            due = None if due_at is None else rules.system_move(state, due_at)
            if due is not None:
                state = rules.apply(state, core.SYSTEM_SEAT, {**due, "at": due_at})
                continue
            if not awaited:
                break  # nobody can move and no timer will: only a broken game comes here
            mover = min(awaited, key=lambda s: (clock[s], s))
        else:
            mover = min(awaited)
        move = dict(rules.ai_move(state, mover, POLICY, core.derive_seed(seed, "analysis", steps)))
        if rules.uses_time:
            move["at"] = clock[mover]
            clock[mover] += rnd.randint(*THINK_MS)
        state = rules.apply(state, mover, move)
        last = mover
    return state


def _turn_starts(rules: GameRules[Any], state: Any, seat: int | None, last: int | None) -> bool:
    """Whether ``seat``'s turn starts now: it is awaited, after another seat's move."""
    return seat in rules.awaiting(state) and last != seat


def stamped(rules: GameRules[Any], move: Move, now: int) -> Move:
    return {**bare(move), "at": now} if rules.uses_time else bare(move)


def candidates(
    rules: GameRules[Any], state: Any, seat: int, played: Move, seed: int
) -> tuple[list[Move], dict[str, int]]:
    """The played move, then the policy's and the reference AI's choices when they differ from it; and which
    candidate each AI chose (level -> index)."""
    out = [bare(played)]
    chosen: dict[str, int] = {}
    for level in (POLICY, REFERENCE):
        if level not in rules.ai_levels:
            continue
        choice = bare(rules.ai_move(state, seat, level, core.derive_seed(seed, "analysis", "choice", level)))
        index = next((i for i, c in enumerate(out) if same(choice, c)), len(out))
        if index == len(out):
            out.append(choice)
        chosen[level] = index
    return out, chosen


def weigh(
    rules: GameRules[Any],
    state: Any,
    seat: int,
    played: Move,
    known: Any,
    seed: int,
    samples: int,
    rollouts: int,
    now: int = 0,
    horizon: int | None = None,
) -> Decision:
    """The values of the candidate moves of ``seat`` in ``state`` (see the module's docstring). Depends on
    ``state`` only through what ``seat`` may see: every sample is a determinization. When the played move is
    the only candidate its loss is 0 whatever its value, which then only draws the turning points: one sample
    and one rollout serve."""
    worlds = [rules.determinize(state, seat, known, core.derive_seed(seed, "analysis", "world", 0))]
    moves, chosen = candidates(rules, worlds[0], seat, played, seed)
    if len(moves) == 1:
        samples = rollouts = 1
    for j in range(1, samples):
        worlds.append(rules.determinize(state, seat, known, core.derive_seed(seed, "analysis", "world", j)))
    totals = [0.0] * len(moves)
    for j, world in enumerate(worlds):
        for r in range(rollouts):
            stream = core.derive_seed(seed, "analysis", "rollout", j, r)
            for i, move in enumerate(moves):
                after = rules.apply(world, seat, stamped(rules, move, now))
                totals[i] += margin(rules, rollout(rules, after, stream, now, horizon, seat), seat)
    count = samples * rollouts
    return Decision(tuple(moves), tuple(total / count for total in totals), chosen)


def said(rules: GameRules[Any], state: Any, seat: int, move: Move, now: int) -> tuple[str, dict[str, Any]]:
    """The rules' public sentence of ``move`` played in ``state``."""
    try:
        return rules.describe(state, seat, move, rules.apply(state, seat, stamped(rules, move, now)))
    except GameError:
        return ("move.generic", {"seat": core.seat_ref(seat), "kind": str(move.get("kind", "?"))})


def replay(rules: GameRules[Any], state: Any, moves: Sequence[tuple[int, Move]]) -> list[Any]:
    """The states before each move and the last one after (GameError if a move does not replay)."""
    states = [state]
    for seat, move in moves:
        state = rules.apply(state, seat, move)
        states.append(state)
    return states
