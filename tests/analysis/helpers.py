"""Seeded games and positions for the analysis tests."""

from __future__ import annotations

from typing import Any

from bot import games
from bot.rules import core

Log = list[tuple[int, dict[str, Any]]]
CASES: dict[str, tuple[dict[str, str], int]] = {
    "quadropolis": ({"mode": "classic"}, 2),
    "btc": ({}, 3),
    "urbanpanic": ({"variant": "advanced"}, 2),
}
"""Each game at a small table, for positions that are quick to play out."""


def play(kind: str, options: dict[str, str], seats: int, seed: int, level: str | tuple[str, ...] = "greedy") -> Log:
    """A seeded game played to the end by the rules' AI ``level`` for every seat (or each seat's level, in
    order; timed games: one second a move), as its move log."""
    levels = (level,) * seats if isinstance(level, str) else level
    rules = games.rules(kind)
    state = rules.setup(options, seats, seed)
    log: Log = []
    while not rules.is_over(state):
        seat = min(rules.awaiting(state))
        move = dict(rules.ai_move(state, seat, levels[seat], core.derive_seed(seed, "test", len(log))))
        if rules.uses_time:
            move["at"] = 1000 * (len(log) + 1)
        state = rules.apply(state, seat, move)
        log.append((seat, move))
    return log


def position(kind: str, seed: int, fraction: float, level: str = "greedy") -> tuple[Any, int, int]:
    """(state, seat, now) of the first real decision (two legal moves or more) from ``fraction`` of a seeded
    game of ``kind`` (:data:`CASES`) on."""
    options, seats = CASES[kind]
    rules = games.rules(kind)
    log = play(kind, options, seats, seed, level)
    state = rules.setup(options, seats, seed)
    for index, (seat, move) in enumerate(log):
        if index >= int(len(log) * fraction) and len(rules.legal_moves(state, seat)) > 1:
            return state, seat, int(move.get("at", 0))
        state = rules.apply(state, seat, move)
    raise AssertionError("no decision left")
