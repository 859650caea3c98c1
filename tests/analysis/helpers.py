"""Seeded games and positions for the analysis tests."""

from __future__ import annotations

from typing import Any

from bot import games
from bot.benches.whole_game_analysis import Log as Log
from bot.benches.whole_game_analysis import play as play

CASES: dict[str, tuple[dict[str, str], int]] = {
    "quadropolis": ({"mode": "classic"}, 2),
    "btc": ({}, 3),
    "urbanpanic": ({"variant": "advanced"}, 2),
}
"""Each game at a small table, for positions that are quick to play out."""
VARIANTS: dict[str, tuple[str, dict[str, str], int]] = {
    "quadropolis.expert": ("quadropolis", {"mode": "expert"}, 2),
    "btc.two_player": ("btc", {"mode": "two_player"}, 2),
    "btc.solo_simple": ("btc", {"mode": "solo_simple"}, 1),
    "btc.solo_full": ("btc", {"mode": "solo_full"}, 1),
    "urbanpanic.basic": ("urbanpanic", {"variant": "basic"}, 2),
    "urbanpanic.party": ("urbanpanic", {"variant": "party"}, 2),
}
"""Every other variant at its smallest table (solo: one seat, the Automas' default difficulty): name -> (kind,
options, seats)."""


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
