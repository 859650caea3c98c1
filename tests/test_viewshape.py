"""The run-time TypedDict checker used by the view-type tests notices every kind of drift."""

from __future__ import annotations

import copy

from bot.games import sample_state
from bot.rules.quadropolis import viewtypes
from bot.rules.quadropolis.rules import RULES
from tests.viewshape import Shape


def _view() -> viewtypes.QuadView:
    return RULES.view(sample_state(RULES, {"mode": "classic"}, 2, 1, 1), 0)


def test_a_real_view_passes_and_each_drift_is_named() -> None:
    shape = Shape(viewtypes)
    view = _view()
    assert shape.problems(view, viewtypes.QuadView) == []

    missing = copy.deepcopy(view)
    del missing["cities"][0]["score"]["allocation"]  # type: ignore[misc]
    assert shape.problems(missing, viewtypes.QuadView) == ["view.cities[0].score: QuadScore misses ['allocation']"]

    unknown = copy.deepcopy(view)
    unknown["site"]["squares"][0][0]["secret"] = "T1"  # type: ignore[typeddict-unknown-key]
    assert shape.problems(unknown, viewtypes.QuadView) == [
        "view.site.squares[0][0]: QuadSiteSquare has unknown keys ['secret']"
    ]

    wrong_literal = copy.deepcopy(view)
    wrong_literal["turn"]["phase"] = "allocate"  # type: ignore[typeddict-item]
    assert shape.problems(wrong_literal, viewtypes.QuadView) == [
        "view.turn.phase: 'allocate' is not one of ('take', 'build', 'over')"
    ]

    wrong_type = copy.deepcopy(view)
    wrong_type["cities"][1]["inhabitants"] = True
    wrong_type["architects"]["per_seat"] = [["1"]]  # type: ignore[list-item]
    assert shape.problems(wrong_type, viewtypes.QuadView) == [
        "view.architects.per_seat: [['1']] matches none of list[list[int]] | None",
        "view.cities[1].inhabitants: expected an int, got True",
    ]


def test_coverage_names_types_and_optional_keys_never_met() -> None:
    shape = Shape(viewtypes)
    view = RULES.view(sample_state(RULES, {"mode": "classic"}, 2, 1, 0), None)
    shape.problems(view, viewtypes.QuadView)
    missed = shape.unexercised()
    assert "QuadPending" in missed and "QuadResult" in missed
    assert "QuadView" not in missed and "QuadTile" not in missed
