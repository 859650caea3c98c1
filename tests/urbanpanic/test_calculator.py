"""The score calculator for physical games (``python -m bot score urbanpanic FILE``)."""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.rules.core import IllegalMove
from bot.rules.urbanpanic import scoring
from bot.rules.urbanpanic.calculator import board_rows, parse_city, score_text

from .test_advanced import TC16_P1
from .test_data_scoring import TC14


def doc(**fields) -> str:
    return json.dumps({"city": list(TC14), "tracks": [20, 26, -1, 17, 1], **fields})


def test_TC14_file_scores_44():
    """The TC-14 city with its tracks scores 44 with the full breakdown."""
    out = score_text(doc())
    assert out["total"] == 44
    assert out["categories"] == {
        "residents": 20,
        "jobs": 20,
        "ecology": -1,
        "income": 8,
        "satisfaction": 1,
        "empty_plots": -4,
        "unemployment": 0,
        "goals": 0,
        "bonus": 0,
    }
    assert [r["plot"] for r in out["removed"]] == ["D1", "D4"]
    assert out["removed"][0] == {"plot": "D1", "tile": "POW-EW", "lost": [0, 1, 0, 4, 0]}
    assert out["tracks_source"] == "given" and out["jobs_cut"] == 2
    assert set(out["categories"]) == set(scoring.CATEGORIES)


def test_tracks_computed_when_omitted_and_bonuses():
    """Without tracks the legend gives them (party); goals add 10 each; the finisher 5."""
    text = json.dumps({"city": list(TC16_P1), "goals_won": ["G02", "G10"], "finisher": True})
    out = score_text(text)
    assert out["tracks_source"] == "computed" and out["tracks_played"] == [24, 27, 1, 15, 2]
    assert out["total"] == 63 + 20 + 5
    assert out["categories"]["goals"] == 20 and out["categories"]["bonus"] == 5


def test_board_rows_round_trip():
    """Printing a board and reading it back gives the same board."""
    b = parse_city(list(TC14))
    assert parse_city(board_rows(b)) == b


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("{nope", "urbanpanic.calc.bad_json", ["not valid JSON"]),
        ("[1, 2]", "urbanpanic.calc.not_object", ["city"]),
        (json.dumps({"city": list(TC14), "colour": "red"}), "urbanpanic.calc.unknown_field", ["colour"]),
        (json.dumps({"city": list(TC14[:4])}), "urbanpanic.calc.rows", ["found 4"]),
        (json.dumps({"city": [*TC14[:4], 5]}), "urbanpanic.calc.row_type", ["Row 5"]),
        (json.dumps({"city": [*TC14[:4], "G:NE.. H:.E.W"]}), "urbanpanic.calc.columns", ["Row 5", "found 2"]),
        (
            json.dumps({"city": [TC14[0].replace("F:.ES.", "F:XES."), *TC14[1:]]}),
            "urbanpanic.calc.bad_token",
            ["B1", "F:XES."],
        ),
        (
            json.dumps({"city": [*TC14[:2], TC14[2].replace("CENTRE", "------"), *TC14[3:]]}),
            "urbanpanic.calc.centre_missing",
            ["C3"],
        ),
        (
            json.dumps({"city": [TC14[0].replace("------", "CENTRE"), *TC14[1:]]}),
            "urbanpanic.calc.centre_elsewhere",
            ["E1"],
        ),
        (
            json.dumps({"city": [TC14[0].replace("G:.ES.", "G:N.S."), *TC14[1:]]}),
            "urbanpanic.calc.no_such_tile",
            ["A1", "park ↑↓"],
        ),
        (
            json.dumps({"city": ["O:NESW " * 5] * 2 + ["O:NESW O:NESW CENTRE O:NESW O:NESW"] + ["------ " * 5] * 2}),
            "urbanpanic.calc.too_many",
            ["E1", "office ↑→↓←"],
        ),
        (doc(tracks=[1, 2, 3]), "urbanpanic.calc.tracks", ["five whole numbers"]),
        (doc(tracks=[-1, 0, 0, 0, 0]), "urbanpanic.calc.track_negative", ["residents"]),
        (doc(goals_won=["G99"]), "urbanpanic.calc.goals", ["G99"]),
        (doc(finisher="yes"), "urbanpanic.calc.finisher", ["true or false"]),
    ],
)
def test_bad_input_gets_a_sentence(text, key, words):
    """Bad input is refused with a sentence that names the plot or row and the problem."""
    with pytest.raises(IllegalMove) as info:
        score_text(text)
    assert info.value.key == key
    sentence = i18n.error_text(info.value)
    assert sentence != key
    for word in words:
        assert word in sentence, sentence
