"""The Quadropolis view types match the views the rules build (keys and value types, recursively)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import sample_state
from bot.rules.quadropolis import viewtypes
from bot.rules.quadropolis.rules import RULES
from tests.viewshape import Shape

STATES = [(mode, seats, moves) for mode in ("classic", "expert") for seats in (2, 4) for moves in (0, 1, 9, 30, None)]
"""Both modes, a small and a full table: the start, a tile taken, mid-game, late, and the end."""


@pytest.fixture(scope="module")
def views() -> list[tuple[str, Any]]:
    out = []
    for mode, seats, moves in STATES:
        state = sample_state(RULES, {"mode": mode}, seats, 3, moves)
        for seat in (None, 0, seats - 1):
            out.append((f"{mode}, {seats} seats, {moves} moves, seat {seat}", RULES.view(state, seat)))
    return out


def test_every_view_matches_its_typeddict(views: list[tuple[str, Any]]) -> None:
    shape = Shape(viewtypes)
    problems = [f"{label}: {p}" for label, view in views for p in shape.problems(view, viewtypes.QuadView)]
    assert problems == []


def test_the_views_reach_every_declared_type_and_optional_key(views: list[tuple[str, Any]]) -> None:
    shape = Shape(viewtypes)
    for _, view in views:
        shape.problems(view, viewtypes.QuadView)
    assert shape.unexercised() == []
    assert any(view["over"] for _, view in views) and any(view["pending"] for _, view in views)
