"""The score calculator (spec section 14)."""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.rules import core
from bot.rules.btc import calculator

TC01 = ["S S S S", "H H O m", "O P O O", "O P H P"]
TC02 = ["m F F F", "P P F P", "S S m P", "H H H F"]


def score(data: object) -> dict[str, object]:
    return calculator.score_text(json.dumps(data))


def test_spec_example_output() -> None:
    """Section 14: the example file (TC-01's city) gives total 56 and every category, in order."""
    out = score({"city": TC01, "factories_in_other_cities": [3, 0, 5]})
    assert out == {
        "total": 56,
        "categories": {"shops": 16, "factories": 0, "taverns": 1, "offices": 17, "parks": 10, "houses": 12},
    }
    assert list(out["categories"]) == ["shops", "factories", "taverns", "offices", "parks", "houses"]


@pytest.mark.parametrize(
    ("factory_input", "factories"),
    [
        ({}, 20),
        ({"factories_in_other_cities": [5, 2]}, 20),  # TC-02's city has 5 factories: tied most
        ({"factories_in_other_cities": [6, 2]}, 15),
        ({"factories_in_other_cities": [7, 6]}, 10),
        ({"factory_rank": 1}, 20),
        ({"factory_rank": 2}, 15),
        ({"factory_rank": 3}, 10),
    ],
)
def test_factory_majority_inputs(factory_input: dict[str, object], factories: int) -> None:
    """Section 14: other cities' counts or a rank decide the factory value; neither = most."""
    out = score({"city": TC02, **factory_input})
    assert out["categories"]["factories"] == factories  # type: ignore[index]


def test_empty_cells_for_a_city_in_progress() -> None:
    """Section 14: "." marks an empty cell."""
    out = score({"city": ["S S . .", ". . . .", ". . . .", ". . . ."]})
    assert out["total"] == 5


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("{not json", "btc.calc.json", ["line 1"]),
        ("[1, 2]", "btc.calc.object", []),
        ('{"factory_rank": 1}', "btc.calc.no_city", []),
        ('{"city": ["S S S S"]}', "btc.calc.rows", ["4 rows", "has 1"]),
        ('{"city": ["S S S S", 5, "S S S S", "S S S S"]}', "btc.calc.row_type", ["Row 2"]),
        ('{"city": ["S S S S", "S S S", "S S S S", "S S S S"]}', "btc.calc.row_length", ["Row 2", "3 squares"]),
        ('{"city": ["S S S S", "S S S S", "S S X S", "S S S S"]}', "btc.calc.token", ["Row 3, column 3", '"X"']),
        ('{"city": ' + json.dumps(TC01) + ', "factory_rank": 4}', "btc.calc.rank", []),
        ('{"city": ' + json.dumps(TC01) + ', "factories_in_other_cities": [1, -2]}', "btc.calc.factories", []),
        (
            '{"city": ' + json.dumps(TC01) + ', "factory_rank": 1, "factories_in_other_cities": [1]}',
            "btc.calc.both_factory_inputs",
            [],
        ),
        ('{"city": ' + json.dumps(TC01) + ', "colour": "red"}', "btc.calc.unknown_key", ["colour"]),
    ],
)
def test_bad_input_is_one_sentence(text: str, key: str, words: list[str]) -> None:
    """Section 14: bad input raises a refusal whose English sentence names the row, column and problem."""
    with pytest.raises(core.IllegalMove) as err:
        calculator.score_text(text)
    assert err.value.key == key
    sentence = i18n.error_text(err.value)
    assert sentence != key and "\n" not in sentence
    for word in words:
        assert word in sentence
