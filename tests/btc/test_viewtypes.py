"""The Between Two Cities view types match the views the rules build (keys and value types, recursively)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import sample_state
from bot.rules.btc import viewtypes
from bot.rules.btc.rules import RULES
from tests.viewshape import Shape

TABLES: list[tuple[dict[str, str], int]] = [
    ({}, 3),
    ({}, 7),
    ({"mode": "two_player"}, 2),
    ({"mode": "solo_simple"}, 1),
    ({"mode": "solo_full"}, 1),
    ({"mode": "solo_full", "campaign": "3", "campaign_game": "2", "campaign_used": "S"}, 1),
    ({"mode": "solo_simple", "campaign": "3"}, 1),
]
"""Every mode, the smallest and largest tables, and solo campaigns (their bonus and summary)."""


@pytest.fixture(scope="module")
def views() -> list[tuple[str, Any]]:
    out = []
    for options, seats in TABLES:
        for moves in (0, 1, 5, 25, None):
            state = sample_state(RULES, options, seats, 3, moves)
            for seat in sorted({None, 0, seats - 1}, key=lambda s: -1 if s is None else s):
                out.append((f"{options}, {seats} seats, {moves} moves, seat {seat}", RULES.view(state, seat)))
    return out


def test_every_view_matches_its_typeddict(views: list[tuple[str, Any]]) -> None:
    shape = Shape(viewtypes)
    problems = [f"{label}: {p}" for label, view in views for p in shape.problems(view, viewtypes.BtcView)]
    assert problems == []


def test_the_views_reach_every_declared_type_and_optional_key(views: list[tuple[str, Any]]) -> None:
    shape = Shape(viewtypes)
    for _, view in views:
        shape.problems(view, viewtypes.BtcView)
    assert shape.unexercised() == []
    assert any(view["result"] for _, view in views) and any(view["you"] for _, view in views)
    assert any(view["you"] is None for _, view in views)
