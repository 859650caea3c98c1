"""Data, geometry, reachability and final scoring (spec 2–5, 10, 16; TC-02, TC-07, TC-11–15, TC-25)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.rules.urbanpanic import scoring, tiles
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import Player, State

from .helpers import LEGEND, board, board_with, full_board, ref_score, ref_tracks, sq

PACKAGE = Path(tiles.__file__).parent

TC14 = (
    "G:.ES.   F:.ES.   H:..SW   P:.E.W   ------",
    "H:N.S.   H:NES.   O:NESW   F:N.S.   G:..SW",
    "F:NE..   O:.E.W   CENTRE   A:NE.W   H:N..W",
    "------   P:NE..   G:N.SW   F:.E.W   O:N.S.",
    "G:NE..   H:.E.W   F:NE.W   P:NE.W   A:N..W",
)


# -- data ----------------------------------------------------------------------------------


def test_legend_matches_spec_4_1():
    """The legend file holds the spec's reconstructed rows (section 4.1)."""
    assert {t: TYPE.deltas for t, TYPE in tiles.TYPES.items()} == LEGEND
    assert tiles.TRACKS == ("residents", "jobs", "ecology", "income", "satisfaction")
    assert tiles.FLOOR == -5


def test_manifest_counts_per_type():
    """120 tiles: 24 housing, 18 offices, 12 amusement, 24 factories, 18 power plants, 24 parks (2.2)."""
    assert len(tiles.ALL_TILES) == 120
    per_type: dict[str, int] = {}
    for code in tiles.ALL_TILES:
        per_type[tiles.KINDS[code].type] = per_type.get(tiles.KINDS[code].type, 0) + 1
    assert per_type == {"HOU": 24, "OFF": 18, "AMU": 12, "FAC": 24, "POW": 18, "PRK": 24}


def test_passage_mix_spec_5_2():
    """Each type's crossroads / T / corner / straight counts and rotation symmetry follow table 5.2."""
    mix = {
        "HOU": (4, 3, 1, 2),
        "OFF": (4, 2, 1, 1),
        "AMU": (0, 1, 1, 2),
        "FAC": (0, 2, 3, 2),
        "POW": (0, 1, 2, 3),
        "PRK": (4, 3, 2, 0),
    }
    classes = {
        "cross": ["NESW"],
        "t": ["NES", "ESW", "NSW", "NEW"],
        "corner": ["NE", "ES", "SW", "NW"],
        "straight": ["NS", "EW"],
    }
    for typ, (cross, t, corner, straight) in mix.items():

        def count(p: str, typ: str = typ) -> int:
            k = tiles.KINDS.get(f"{typ}-{p}")
            return k.count if k else 0

        assert [count(p) for p in classes["cross"]] == [cross]
        assert [count(p) for p in classes["t"]] == [t] * 4
        assert [count(p) for p in classes["corner"]] == [corner] * 4
        assert [count(p) for p in classes["straight"]] == [straight] * 2
    assert all(len(k.passages) >= 2 for k in tiles.KINDS.values())


def test_pool_totals_spec_4_3():
    """Over the whole pool the tracks total R 96, J 138, E 0, I 96, S 12 (4.3)."""
    assert tiles.tracks_of(tiles.ALL_TILES) == (96, 138, 0, 96, 12)


def test_every_tile_balance_positive_and_r_j_never_negative():
    """Every type's row sums to a positive number; no type lowers residents or jobs (4.2)."""
    for t in tiles.TYPES.values():
        assert sum(t.deltas) > 0
        assert t.deltas[0] >= 0 and t.deltas[1] >= 0


def test_data_files_are_plain_json_and_drive_the_engine(monkeypatch):
    """The reconstruction lives in JSON files that the loader validates (section 16)."""
    for name in ("tiles.json", "legend.json", "goals.json"):
        json.loads((PACKAGE / name).read_text(encoding="utf-8"))
    bad = json.loads((PACKAGE / "tiles.json").read_text(encoding="utf-8"))
    bad["tiles"][0]["count"] += 1
    monkeypatch.setattr(
        tiles,
        "_load",
        lambda name: bad if name == "tiles.json" else json.loads((PACKAGE / name).read_text(encoding="utf-8")),
    )
    with pytest.raises(ValueError, match="HOU has 25 tiles"):
        tiles._load_manifest()


def test_goal_file_has_18_cards():
    """The 18 goal cards of 11.4 are data."""
    assert sorted(tiles.GOALS) == [f"G{i:02d}" for i in range(1, 19)]
    assert tiles.GOAL_POINTS == 10


def test_notation_round_trip():
    """``F:NE..`` reads as FAC-NE and back (5.1)."""
    assert tiles.token_code("F:NE..") == "FAC-NE"
    assert tiles.token_code("H:N.SW") == "HOU-NSW"
    assert tiles.token_code("X:N...") is None
    assert tiles.token_code("F:EN..") is None
    for code in tiles.KINDS:
        assert tiles.token_code(tiles.code_token(code)) == code


def test_square_names():
    """Columns A–E west to east, rows 1–5 north to south; C3 is the centre (3.1)."""
    assert tiles.square_name(0) == "A1"
    assert tiles.square_name(4) == "E1"
    assert tiles.square_name(24) == "E5"
    assert tiles.square_name(tiles.CENTRE) == "C3"
    assert tiles.square_index("b2") == 6
    assert tiles.square_index("F1") is None
    assert len(tiles.PLOTS) == 24


# -- reachability and scoring ------------------------------------------------------------------


def test_TC02_links_need_passages_on_both_sides():
    """TC-02: B3 and C4 reach the centre, C2 and D3 do not; score −26."""
    b = board(
        "------ ------ ------ ------ ------",
        "------ ------ H:.E.W ------ ------",
        "------ F:NE.. CENTRE P:N.S. ------",
        "------ ------ G:NES. ------ ------",
        "------ ------ ------ ------ ------",
    )
    assert tiles.tracks_of(b) == (4, 4, 0, 4, -1)
    assert tiles.reachable(b) == {sq("B3"), sq("C4")}
    city = scoring.score_city(b, (4, 4, 0, 4, -1))
    assert [tiles.square_name(i) for i, _ in city.removed] == ["C2", "D3"]
    assert city.after_removal == (0, 3, 0, 0, -1)
    assert city.empty == 22
    assert city.final == (0, 0, 0, -3, -1)
    assert city.base == -26


def test_TC07_scoring_before_and_after_the_swap():
    """TC-07: the two loose tiles score −30; swapped into place they score −28."""
    before = board_with({"C2": "HOU-EW", "D3": "POW-NS"})
    after = board_with({"C2": "POW-NS", "D3": "HOU-EW"})
    tracks = (4, 1, -2, 2, -2)
    assert tiles.tracks_of(before) == tracks
    assert scoring.score_city(before, tracks).base == -30
    assert scoring.score_city(before, tracks).after_removal == (0, 0, -2, -2, -2)
    city = scoring.score_city(after, tracks)
    assert city.removed == () and city.empty == 22 and city.unemployment == 9
    assert city.base == -28


def test_TC11_removal_reverts_only_gains():
    """TC-11: an unreachable park and amusement park lose only their gains; score 38."""
    b = full_board(empty=("E1", "A5"), code="HOU-NESW")
    b[sq("A1")] = "PRK-NW"  # both passages face off the board
    b[sq("E5")] = "AMU-ES"
    city = scoring.score_city(b, (20, 21, -2, 9, 3))
    assert sorted(code for _, code in city.removed) == ["AMU-ES", "PRK-NW"]
    assert city.after_removal == (20, 20, -5, 9, -2)
    assert city.empty == 4 and city.unemployment == 0
    assert city.base == 38


def test_TC11_values_may_pass_the_floor_at_scoring():
    """TC-11: removing a park from (10, 10, −4, 0, 0) gives E −7, S −1 — allowed at scoring."""
    city = scoring.score_city(board_with({"A1": "PRK-NW"}), (10, 10, -4, 0, 0))
    assert city.after_removal == (10, 10, -7, 0, -1)


def test_TC12_more_residents_than_jobs():
    """TC-12: 6 unemployed residents cost 18; score 22."""
    city = scoring.score_city(full_board(), (20, 14, 2, 3, 1))
    assert city.unemployment == 18 and city.final == (20, 14, 2, 3, 1)
    assert city.base == 22


def test_TC13_more_jobs_than_residents():
    """TC-13: jobs cut to 12, income down 7 to −1; one empty plot; score 24."""
    city = scoring.score_city(full_board(empty=("A1",)), (12, 19, 0, 6, 2))
    assert city.final == (12, 12, 0, -1, 2) and city.jobs_cut == 7 and city.unemployment == 0
    assert city.base == 24


def test_TC14_full_scoring_of_a_realistic_city():
    """TC-14: D1 and D4 are unreachable; (20, 20, −1, 8, 1), 4 empty plots, score 44."""
    b = board(*TC14)
    counts = {t: sum(1 for c in b if c and c.startswith(t)) for t in tiles.TYPES}
    assert counts == {"HOU": 5, "OFF": 3, "AMU": 2, "FAC": 5, "POW": 3, "PRK": 4}
    assert tiles.tracks_of(b) == (20, 26, -1, 17, 1)
    unreachable = {i for i in tiles.PLOTS if b[i] is not None} - tiles.reachable(b)
    assert {tiles.square_name(i) for i in unreachable} == {"D1", "D4"}
    assert sq("E4") in tiles.reachable(b)
    city = scoring.score_city(b, (20, 26, -1, 17, 1))
    assert city.after_removal == (20, 22, -1, 10, 1)
    assert city.empty == 4
    assert city.final == (20, 20, -1, 8, 1)
    assert city.base == 44


def _table_state(boards: list[list[str | None]], tracks: list[tuple[int, ...]]) -> State:
    return State(
        variant="basic",
        players=[Player(b, list(t), []) for b, t in zip(boards, tracks)],
        stack=[],
        slots=[None] * 4,
        over=True,
        end_reason="full_city",
    )


def test_TC15_tie_break_on_fewer_empty_plots():
    """TC-15: 44 with 4 empty plots loses to 44 with 2; equal empty plots share the win."""
    p1 = board(*TC14)
    p2 = full_board(empty=("A1", "E5"))
    res = RULES.result(_table_state([p1, p2], [(20, 26, -1, 17, 1), (20, 20, 2, 2, 2)]))
    assert [s.total for s in res.seats] == [44, 44]
    assert res.winners() == [1]
    assert res.decided_by == "urbanpanic.tiebreak.empty_plots"
    p1b = full_board(empty=("B1", "E5"))
    res = RULES.result(_table_state([p1b, p2], [(20, 20, 2, 2, 2), (20, 20, 2, 2, 2)]))
    assert res.winners() == [0, 1]
    assert res.decided_by == "shared"


@pytest.mark.parametrize(
    ("typ", "code", "expected"),
    [
        ("HOU", "HOU-NW", (6, 10, 0, 0, 0)),
        ("OFF", "OFF-NW", (10, 8, 0, -2, 0)),
        ("AMU", "AMU-NW", (10, 9, 0, 0, -4)),
        ("FAC", "FAC-NW", (10, 7, 0, -3, 0)),
        ("POW", "POW-NW", (10, 9, 0, -4, 0)),
        ("PRK", "PRK-NW", (10, 10, -3, 0, -1)),
    ],
)
def test_TC25_removal_of_each_type(typ, code, expected):
    """TC-25: an unreachable tile of each type takes back exactly its positive legend entries."""
    city = scoring.score_city(board_with({"A1": code}), (10, 10, 0, 0, 0))
    assert city.after_removal == expected


def test_breakdown_sums_to_total():
    """The breakdown categories always sum to the total (result contract)."""
    city = scoring.score_city(board(*TC14), (20, 26, -1, 17, 1))
    bd = city.breakdown(goals=20, bonus=5)
    assert set(bd) == set(scoring.CATEGORIES)
    assert sum(bd.values()) == city.base + 25
    assert bd["empty_plots"] == -4 and bd["unemployment"] == 0


def test_reference_scorer_agrees_on_the_spec_cities():
    """The independent reference scorer in the tests gives the spec's numbers too."""
    assert ref_score(board(*TC14), (20, 26, -1, 17, 1))["score"] == 44
    assert ref_tracks(board(*TC14)) == (20, 26, -1, 17, 1)


def test_quick_score_equals_full_scoring():
    """The AI's quick scorer equals the full scoring sheet on the spec cities."""
    for b, t in [
        (board(*TC14), (20, 26, -1, 17, 1)),
        (full_board(), (20, 14, 2, 3, 1)),
        (full_board(empty=("A1",)), (12, 19, 0, 6, 2)),
    ]:
        assert scoring.quick_score(b, t) == scoring.score_city(b, t).base


def test_frontier_is_the_empty_plots_the_network_faces():
    """tiles.reach also lists the empty plots an open passage of the network faces (used by the AI)."""
    b = board(
        "------ ------ ------ ------ ------",
        "------ ------ H:.E.W ------ ------",
        "------ F:NE.. CENTRE P:N.S. ------",
        "------ ------ G:NES. ------ ------",
        "------ ------ ------ ------ ------",
    )
    linked, frontier = tiles.reach(b)
    assert linked == {sq("B3"), sq("C4")}
    assert frontier == {sq("B2"), sq("D4"), sq("C5")}


def test_D14_reserve_tiles_count_for_nothing():
    """D-14: tiles left in a reserve at the end change nothing in the score."""
    b = board(*TC14)
    without = _table_state([b, full_board()], [(20, 26, -1, 17, 1), (0, 0, 0, 0, 0)])
    with_reserve = _table_state([b, full_board()], [(20, 26, -1, 17, 1), (0, 0, 0, 0, 0)])
    with_reserve.players[0].reserve = ["HOU-NS", "FAC-NE", "PRK-NE"]
    assert RULES.result(with_reserve) == RULES.result(without)
