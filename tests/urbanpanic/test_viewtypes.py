"""The Urban Panic view types match the views the rules build (keys and value types, recursively)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import sample_state
from bot.rules.urbanpanic import viewtypes
from bot.rules.urbanpanic.rules import RULES
from tests.viewshape import Shape

STATES = [
    (variant, seats, moves)
    for variant in ("basic", "advanced", "party")
    for seats in (2, 4)
    for moves in (0, 1, 9, 40, None)
]
"""Every variant, the smallest and largest tables: the start, one move, mid-game, late, and the end."""


def _just_after(kind: str, variant: str) -> Any:
    """A game just after its first legal move of ``kind`` (the turn log then names that action's
    facts: the tile an Engineer took off the board, a Spy's victim)."""
    state = sample_state(RULES, {"variant": variant}, 2, 1, 0)
    for step in range(300):
        seat = min(RULES.awaiting(state))
        wanted = next((m for m in RULES.legal_moves(state, seat) if m["kind"] == kind), None)
        if wanted is not None:
            return RULES.apply(state, seat, wanted)
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", step))
    raise AssertionError(f"no legal {kind} move in 300 moves")


@pytest.fixture(scope="module")
def views() -> list[tuple[str, Any]]:
    out = []
    for variant, seats, moves in STATES:
        state = sample_state(RULES, {"variant": variant}, seats, 2, moves)
        for seat in (None, 0, seats - 1):
            out.append((f"{variant}, {seats} seats, {moves} moves, seat {seat}", RULES.view(state, seat)))
    for kind, variant in (("engineer_reserve", "basic"), ("spy", "advanced")):
        state = _just_after(kind, variant)
        out += [(f"just after {kind}, seat {seat}", RULES.view(state, seat)) for seat in (None, 0)]
    return out


def test_every_view_matches_its_typeddict(views: list[tuple[str, Any]]) -> None:
    shape = Shape(viewtypes)
    problems = [f"{label}: {p}" for label, view in views for p in shape.problems(view, viewtypes.UpView)]
    assert problems == []


def test_the_views_reach_every_declared_type_and_optional_key(views: list[tuple[str, Any]]) -> None:
    shape = Shape(viewtypes)
    for _, view in views:
        shape.problems(view, viewtypes.UpView)
    assert shape.unexercised() == []
    assert {view["variant"] for _, view in views} == {"basic", "advanced", "party"}
    assert any(view["result"] for _, view in views)
    assert any(p.get("hand") == "hidden" for _, view in views for p in view["players"])
