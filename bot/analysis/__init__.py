"""The after-game analysis (issue 40): every decision of a finished game weighed as its seat could see it.

Pure: no I/O, no database, no Discord, no web. :func:`analyse` takes a game as its move log and returns a
:class:`GameAnalysis` (JSON through ``to_json``); the front-ends (``python -m bot analyse``) word it. How it is
computed and what the figures mean: README, "After the game"; the evaluator: :mod:`bot.analysis.evaluate`; the
summaries: :mod:`bot.analysis.summary`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import games
from bot.analysis import evaluate, summary
from bot.analysis.model import MISSES as MISSES
from bot.analysis.model import Budget as Budget
from bot.analysis.model import GameAnalysis as GameAnalysis
from bot.analysis.model import MoveLoss as MoveLoss
from bot.analysis.model import PlayerSummary as PlayerSummary
from bot.analysis.model import TurningPoint as TurningPoint
from bot.rules import core
from bot.rules.core import Move

DEFAULT_BUDGET = Budget()


def analyse(
    kind: str,
    options: Mapping[str, Any],
    seat_count: int,
    seed: int,
    moves: Sequence[tuple[int, Move]],
    budget: Budget = DEFAULT_BUDGET,
) -> GameAnalysis:
    """Every decision of the game ``kind`` (``options``, ``seat_count`` seats, ``seed``) whose log is ``moves``
    ([(seat, move)], as stored), weighed at ``budget``. Deterministic: the same game gives the same numbers.
    A move that does not replay raises the rules' GameError; the caller checks the game is finished."""
    rules = games.rules(kind)
    state = rules.setup(options, seat_count, seed)
    known: list[Any] = [rules.observe(state, s, None) for s in range(seat_count)]
    limits = summary.thresholds(rules)
    reach = summary.horizon(rules)
    weighed: list[MoveLoss] = []
    for number, (seat, move) in enumerate(moves, start=1):
        now = int(move.get("at", 0)) if rules.uses_time else 0
        if seat != core.SYSTEM_SEAT and len(legal := rules.legal_moves(state, seat)) > 1:
            decision = evaluate.weigh(
                rules,
                state,
                seat,
                move,
                known[seat],
                core.derive_seed(seed, "analysis", number),
                budget.samples,
                budget.rollouts,
                now,
                reach,
            )
            best = decision.candidates[decision.best_index]
            loss = round(max(decision.values) - decision.played, 2)
            weighed.append(
                MoveLoss(
                    number=number,
                    seat=seat,
                    move=evaluate.bare(move),
                    played=round(decision.played, 2),
                    best=round(max(decision.values), 2),
                    loss=loss,
                    best_move=best,
                    best_said=evaluate.said(rules, state, seat, best, now),
                    candidates=len(decision.candidates),
                    legal=len(legal),
                    miss=summary.miss(loss, limits),
                )
            )
        state = rules.apply(state, seat, move)
        known = [rules.observe(state, s, known[s]) for s in range(seat_count)]
    return GameAnalysis(
        kind=rules.kind,
        seats=seat_count,
        budget=budget,
        policy=evaluate.POLICY,
        moves=tuple(weighed),
        players=summary.players(weighed, seat_count, limits),
        turning_points=summary.turning_points(weighed),
    )
