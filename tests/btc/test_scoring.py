"""Scoring: the spec's test cases TC-01 … TC-15, TC-18 and TC-19 (section 13), and section 8."""

from __future__ import annotations

import pytest

from bot.rules.btc import scoring
from bot.rules.btc.scoring import CATEGORIES

# per-factory value from the factory rank of the case ("most" 4, "second" 3, "third" 2)
MOST, SECOND, THIRD, NONE = 4, 3, 2, 0


def city(rows: list[str], factory_value: int) -> dict[str, int]:
    return scoring.score_grid(scoring.parse_grid(rows), factory_value)


def expect(scores: dict[str, int], *values: int) -> None:
    *cats, total = values
    assert [scores[c] for c in CATEGORIES] == cats
    assert scoring.total(scores) == total


def test_tc01_official_example_1() -> None:
    """TC-01: shop line 16, tavern 1, offices 15+2, parks 8+2, houses 3×4 = 56."""
    expect(city(["S S S S", "H H O m", "O P O O", "O P H P"], NONE), 16, 0, 1, 17, 10, 12, 56)


def test_tc02_official_example_2() -> None:
    """TC-02: most factories (4 each), two single music taverns, a house beside a factory = 52."""
    expect(city(["m F F F", "P P F P", "S S m P", "H H H F"], MOST), 5, 20, 2, 0, 16, 9, 52)


def test_tc03_official_example_3() -> None:
    """TC-03: second in factories, four tavern kinds, five houses with K = 5 = 62."""
    expect(city(["m d F F", "H f F P", "S H b P", "H H H O"], SECOND), 2, 9, 17, 1, 8, 25, 62)


def test_tc04_official_example_4() -> None:
    """TC-04: six offices with the tavern bonus on four = 25; total 62."""
    expect(city(["m d F F", "O f O b", "O O O O", "S S S S"], THIRD), 16, 4, 17, 25, 0, 0, 62)


def test_tc05_official_example_5() -> None:
    """TC-05: a column of three shops scores 10; total 62."""
    expect(city(["m d H H", "S f O b", "S O H H", "S F P P"], THIRD), 10, 2, 17, 5, 8, 20, 62)


def test_tc06_official_example_6() -> None:
    """TC-06: park groups of 3, 2 and 1 score 12 + 8 + 2; total 57."""
    expect(city(["F S F F", "P F P P", "F b H P", "P P H H"], MOST), 2, 20, 1, 0, 22, 12, 57)


def test_tc07_two_lines_of_three_beat_one_of_four() -> None:
    """TC-07: the best shop split is 10 + 10 + 5 = 25, not 16 + 4 × 2 = 24 (D-7); total 33."""
    expect(city(["H S S S", "H H S H", "H H S H", "H S S S"], NONE), 25, 0, 0, 0, 0, 8, 33)


def test_tc08_three_lines_of_three() -> None:
    """TC-08: 10 + 10 + 10 + 2 = 32 shops (a column of four would give 29); total 38."""
    expect(city(["S S S H", "H S S S", "H S H H", "S S S H"], NONE), 32, 0, 0, 0, 0, 6, 38)


def test_tc09_duplicate_taverns_and_one_office_bonus() -> None:
    """TC-09: taverns 17 + 9 = 26; only the office touching a tavern gets +1; total 55."""
    expect(city(["m d d f", "f S S O", "P P H H", "O F b b"], THIRD), 5, 2, 26, 4, 8, 10, 55)


def test_tc10_seven_offices_and_bonus_cap() -> None:
    """TC-10: seven offices = 22, +1 at most per office (four offices touch taverns) = 26; 57."""
    expect(city(["O O O O", "O O O m", "d b f P", "S P H H"], NONE), 2, 0, 17, 26, 4, 8, 57)


@pytest.mark.parametrize(
    ("rows", "parks", "total"),
    [
        (["P O P O", "O O O O", "P O P O", "O O O O"], 8, 50),
        (["P P P O", "O O O O", "O O O O", "P O O O"], 14, 56),
        (["P P O O", "P P O O", "O O O O", "O O O O"], 13, 55),
        (["P P O O", "O O O O", "O O O O", "P P O O"], 16, 58),
    ],
    ids=["a", "b", "c", "d"],
)
def test_tc11_park_groups(rows: list[str], parks: int, total: int) -> None:
    """TC-11: park groups per RB5 — four singles 8, 3+1 = 14, four connected 13, two pairs 16."""
    expect(city(rows, NONE), 0, 0, 0, 42, parks, 0, total)


def test_tc12_only_houses() -> None:
    """TC-12: sixteen houses have K = 0 and score 0."""
    expect(city(["H H H H"] * 4, NONE), 0, 0, 0, 0, 0, 0, 0)


def test_tc13_sixteen_offices() -> None:
    """TC-13: 16 offices = 21 + 21 + 10 = 52 (no tavern, no bonus)."""
    expect(city(["O O O O"] * 4, NONE), 0, 0, 0, 52, 0, 0, 52)


def test_tc14_houses_beside_factories() -> None:
    """TC-14: houses touching the factory score 1, the others K = 5; total 47."""
    expect(city(["H F H S", "H O P m", "S S S S", "P P O H"], SECOND), 18, 3, 1, 3, 10, 12, 47)


def test_tc15_factory_majority_across_six_cities() -> None:
    """TC-15: counts 5, 5, 3, 2, 1, 0 give 20, 20, 9, 4, 2, 0 factory points (RB4)."""
    counts = [5, 5, 3, 2, 1, 0]
    points = [c * v for c, v in zip(counts, scoring.factory_values(counts), strict=True)]
    assert points == [20, 20, 9, 4, 2, 0]


@pytest.mark.parametrize(
    ("counts", "points"), [([3, 3, 3], [12, 12, 12]), ([4, 2, 2, 1], [16, 6, 6, 2]), ([0, 0, 2], [0, 0, 8])]
)
def test_tc15_extra_checks(counts: list[int], points: list[int]) -> None:
    """TC-15 extra checks: all equal get 4 each; ties share the second rank; a lone factory city is first."""
    assert [c * v for c, v in zip(counts, scoring.factory_values(counts), strict=True)] == points


def test_rb4_plus_shaped_shops() -> None:
    """RB4 example (8.1): a row of four crossed by a column (one above, two below) scores 23."""
    rows = [". S . .", "S S S S", ". S . .", ". S . ."]
    assert city(rows, NONE)["shops"] == 23


def test_rb5_tavern_example_and_sixteen_beds() -> None:
    """8.3: 1 music, 2 drink, 2 food = 9 + 4 = 13; sixteen bed taverns = 16."""
    assert scoring.tavern_points([1, 2, 2]) == 13
    assert scoring.tavern_points([16]) == 16


def test_office_sets() -> None:
    """8.4: 1..6 offices give 1, 3, 6, 10, 15, 21; 7 -> 22; 12 -> 42; 16 -> 52."""
    sizes = (1, 2, 3, 4, 5, 6, 7, 12, 16)
    assert [scoring.office_set_points(n) for n in sizes] == [1, 3, 6, 10, 15, 21, 22, 42, 52]


def test_park_group_sizes() -> None:
    """8.5: groups of 1..6 parks score 2, 8, 12, 13, 14, 15."""
    assert [scoring.park_group_points(n) for n in range(1, 7)] == [2, 8, 12, 13, 14, 15]


def test_diagonals_never_count() -> None:
    """6.1: diagonal neighbours are not adjacent — diagonal parks are two groups, a diagonal
    factory spoils no house, a diagonal tavern gives no office bonus."""
    scores = city(["P F", "H P", "m .", ". O"], MOST)
    assert scores["parks"] == 4
    assert scores["houses"] == 4  # the factory is diagonal to the house: K = 4 (P, F, T, O)
    assert scores["offices"] == 1


def test_partial_city_scores() -> None:
    """Scoring works on cities in progress (running scores, the Automa): one shop scores 2."""
    assert scoring.total(city(["S"], NONE)) == 2
    assert scoring.total(scoring.score_grid({}, 0)) == 0


def test_tc18_automacity_seed_example() -> None:
    """TC-18: the seed's 55-point Automacity (third in factories)."""
    faces = (
        ["SHOP"] * 4
        + ["FACTORY", "OFFICE"]
        + ["PARK"] * 3
        + ["HOUSE"] * 3
        + ["TAVERN_DRINK", "TAVERN_MUSIC", "TAVERN_FOOD", "TAVERN_MUSIC"]
    )
    scores = scoring.score_automacity(faces, THIRD)
    expect(scores, 16, 2, 10, 2, 10, 15, 55)


def test_tc19a_automacity_more_shops() -> None:
    """TC-19 (a): 6 shops = 21, most factories with 1, no office: 53."""
    faces = (
        ["SHOP"] * 6
        + ["FACTORY"]
        + ["PARK"] * 3
        + ["HOUSE"] * 2
        + ["TAVERN_DRINK", "TAVERN_MUSIC", "TAVERN_FOOD", "TAVERN_FOOD"]
    )
    expect(scoring.score_automacity(faces, MOST), 21, 4, 10, 0, 10, 8, 53)


def test_tc19b_automacity_no_tavern_no_office_bonus() -> None:
    """TC-19 (b): without a tavern the offices get no bonus (D-19): 15, total 55 (not 60)."""
    faces = ["SHOP"] * 3 + ["FACTORY"] * 2 + ["OFFICE"] * 5 + ["PARK"] * 4 + ["HOUSE"] * 2
    expect(scoring.score_automacity(faces, SECOND), 10, 6, 0, 15, 16, 8, 55)


def test_automacity_counts_formulas() -> None:
    """10.2: shops as optimal lines (6 -> 21), parks as separate pairs (3 -> 10, not 12)."""
    assert scoring.shop_count_points(6) == 21
    assert scoring.park_pairs_points(3) == 10
    assert scoring.park_pairs_points(4) == 16
