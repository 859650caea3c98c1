"""Spec section 16: the score calculator for a physical game."""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.rules.core import IllegalMove
from bot.rules.quadropolis.calculator import score_text

EXAMPLE = {
    "mode": "classic",
    "inhabitants": 13,
    "energy": 7,
    "city": ["T3 P T2 S", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"],
    "allocation": "optimal",
}


def test_section_16_example_output() -> None:
    """The example input gives exactly the example output object (63, C(3,1) off, 4 + 2 customers)."""
    assert score_text(json.dumps(EXAMPLE)) == {
        "total": 63,
        "categories": {
            "towers": 20,
            "shops": 9,
            "public_services": 12,
            "parks": 9,
            "factories": 5,
            "harbours": 8,
            "offices": 0,
            "monuments": 0,
            "penalty": 0,
        },
        "inhabitants_on_buildings": 13,
        "empty_squares": 1,
        "allocation": {"inactive": ["C(3,1)"], "customers": {"C(1,4)": 4, "C(3,3)": 2}, "absorbing_parks": ["C(1,2)"]},
    }


def test_section_16_given_allocation_is_TC17() -> None:
    """Scored with "given", TC17's tokens give its 58."""
    data = dict(EXAMPLE, allocation="given", city=["T3 P T2 S3", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"])
    out = score_text(json.dumps(data))
    assert out["total"] == 58 and out["categories"]["penalty"] == -1
    assert out["allocation"]["inactive"] == []


def test_allocation_defaults_to_optimal() -> None:
    """Without "allocation" the engine finds the best one."""
    data = {k: v for k, v in EXAMPLE.items() if k != "allocation"}
    assert score_text(json.dumps(data))["total"] == 63


def test_given_customers_on_inactive_shop_are_idle() -> None:
    """S<k>- : the shop is off and its k inhabitants cost -1 each (D-28)."""
    data = {
        "mode": "classic",
        "inhabitants": 2,
        "energy": 0,
        "city": ["S2- . . .", ". . . .", ". . . .", ". . . ."],
        "allocation": "given",
    }
    out = score_text(json.dumps(data))
    assert out["total"] == -2 and out["allocation"]["inactive"] == ["C(1,1)"]


def test_expert_input() -> None:
    """An Expert city (TC10's offices) scores 19 optimally."""
    data = {
        "mode": "expert",
        "inhabitants": 4,
        "energy": 4,
        "city": ["O2 O2 O3 . .", ". . . . .", ". . . . .", ". . . . O1"],
    }
    out = score_text(json.dumps(data))
    assert out["categories"]["offices"] == 19 and out["total"] == 19


def test_total_is_the_sum_of_categories_and_all_keys_present() -> None:
    """Every category key is present and the total is their sum."""
    out = score_text(json.dumps(dict(EXAMPLE, inhabitants=0, energy=30)))
    assert list(out["categories"]) == [
        "towers",
        "shops",
        "public_services",
        "parks",
        "factories",
        "harbours",
        "offices",
        "monuments",
        "penalty",
    ]
    assert out["total"] == sum(out["categories"].values())
    assert out["categories"]["penalty"] <= 0


def bad(data: object, key: str, **params: object) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(IllegalMove) as info:
        score_text(text)
    assert info.value.key == key
    for name, value in params.items():
        assert info.value.params[name] == value
    sentence = i18n.error_text(info.value)
    assert sentence != key and "{" not in sentence
    return sentence


def test_unknown_token_names_row_and_column() -> None:
    """An unknown token: the sentence names the row, the column and the token."""
    data = dict(EXAMPLE, city=["T3 P T2 S", "U1 T1 X H", "H U0 S1 H1", "G T4 U2 H"])
    sentence = bad(data, "quadropolis.calc.unknown_token", row=2, column=3, token="X")
    assert "Row 2, column 3" in sentence


def test_wrong_grid_size() -> None:
    """Too few rows, or a row with the wrong number of squares."""
    bad(dict(EXAMPLE, city=EXAMPLE["city"][:3]), "quadropolis.calc.row_count", expected=4, got=3)
    bad(
        dict(EXAMPLE, city=["T3 P T2", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"]),
        "quadropolis.calc.column_count",
        row=1,
        expected=4,
        got=3,
    )
    bad(dict(EXAMPLE, mode="expert"), "quadropolis.calc.column_count", row=1, expected=5)


def test_height_above_the_mode_maximum() -> None:
    """A 5-floor tower is Expert only; 6 floors never."""
    bad(
        dict(EXAMPLE, city=["T5 P T2 S", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"]),
        "quadropolis.calc.height",
        row=1,
        column=1,
        max=4,
    )
    bad(
        dict(EXAMPLE, city=["T3 P T2 S", "U1 T1 F H", "H U0 S1 H1", "G T0 U2 H"]),
        "quadropolis.calc.height",
        row=4,
        column=2,
    )


def test_negative_or_non_numeric_pool() -> None:
    """Pools must be whole numbers, not negative."""
    bad(dict(EXAMPLE, energy=-1), "quadropolis.calc.pool_negative", field="energy")
    bad(dict(EXAMPLE, inhabitants="13"), "quadropolis.calc.pool_not_number", field="inhabitants")
    bad(dict(EXAMPLE, inhabitants=True), "quadropolis.calc.pool_not_number")


def test_malformed_json_names_line_and_column() -> None:
    """Broken JSON: the sentence gives its line and column."""
    sentence = bad('{"mode": "classic",\n "city": [}', "quadropolis.calc.bad_json", row=2)
    assert "line 2" in sentence


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ([1, 2], "quadropolis.calc.not_object"),
        (dict(EXAMPLE, colour="red"), "quadropolis.calc.unknown_field"),
        ({"mode": "classic", "energy": 1, "city": []}, "quadropolis.calc.missing_field"),
        (dict(EXAMPLE, mode="solo"), "quadropolis.calc.bad_mode"),
        (dict(EXAMPLE, allocation="best"), "quadropolis.calc.bad_allocation"),
        (dict(EXAMPLE, city="T3 P T2 S"), "quadropolis.calc.city_not_list"),
        (dict(EXAMPLE, city=["T3 P T2 S", 5, "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.row_not_text"),
        (dict(EXAMPLE, city=["T3 P T2 S", "U1 T1 F H", "H U0 S1 H1", "G M U2 H"]), "quadropolis.calc.expert_only"),
        (dict(EXAMPLE, city=["T3 P- T2 S", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.always_active"),
        (dict(EXAMPLE, city=["T P T2 S", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.height_missing"),
        (dict(EXAMPLE, city=["T3 P T2 S", "U T1 F H", "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.vp_missing"),
        (dict(EXAMPLE, city=["T3 P T2 S", "U3 T1 F H", "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.vp"),
        (dict(EXAMPLE, city=["T3 P T2 S5", "U1 T1 F H", "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.customers"),
        (dict(EXAMPLE, city=["T3 P T2 S", "U1 T1 F2 H", "H U0 S1 H1", "G T4 U2 H"]), "quadropolis.calc.unknown_token"),
        (dict(EXAMPLE, allocation="given", inhabitants=3), "quadropolis.calc.given_short_of_inhabitants"),
        (dict(EXAMPLE, allocation="given", energy=2), "quadropolis.calc.given_short_of_energy"),
    ],
)
def test_bad_input_gets_a_sentence(data: object, key: str) -> None:
    """Each kind of bad input is refused with its own catalogued sentence."""
    bad(data, key)
