"""Spec section 15.1 and 15.2: every scoring test case, by its id."""

from __future__ import annotations

from tests.quadropolis.helpers import fixed, nonzero, optimal


def test_TC1() -> None:
    """Tower table 1/3/6/10: four towers of heights 1-4 score 20."""
    s = fixed("classic", "T1 T2 . . / . . . . / T3 . . . / . . . T4", 0, 4)
    assert nonzero(s) == {"towers": 20}
    assert s.total == 20


def test_TC2() -> None:
    """An inactive tower is removed: the park ignores it and the diagonal T2; total 3."""
    s = fixed("classic", "T4- P . . / T2 . . . / . . . . / . . . .", 0, 1)
    assert s.categories["towers"] == 3 and s.categories["parks"] == 0
    assert s.total == 3


def test_TC3() -> None:
    """Shop table with a 0-customer shop: 1+2+4+7+0 = 14."""
    s = fixed("classic", "S1 S2 S3 S4 / S0 . . . / . . . . / . . . .", 10, 5)
    assert nonzero(s) == {"shops": 14}
    assert s.total == 14


def test_TC4() -> None:
    """Public services in NW, NE, SE: 3 districts = 9, plus 4 printed VP."""
    s = fixed("classic", "U0 U1 . . / . . . U2 / . . . U1 / . . . .", 4, 0)
    assert nonzero(s) == {"public_services": 13}
    assert s.total == 13


def test_TC5() -> None:
    """A park with four tower neighbours (stacks count once) scores 11."""
    s = fixed("classic", ". T4 . . / T1 P T2 . / . T3 . . / . . . .", 0, 4)
    assert nonzero(s) == {"towers": 20, "parks": 11}
    assert s.total == 31


def test_TC6() -> None:
    """Factory: two shops (+2 each, a 0-customer shop counts) and a harbour (+3); lone harbour 0."""
    s = fixed("classic", "S1 F H . / . S0 . . / . . . . / . . . .", 3, 2)
    assert nonzero(s) == {"shops": 1, "factories": 7}
    assert s.total == 8


def test_TC7() -> None:
    """Longest row 3 (7) + longest column 3 (7) sharing a harbour, plus printed 1+2."""
    s = fixed("classic", "H H H . / . . H . / . . H1 . / H . . H2", 7, 0)
    assert nonzero(s) == {"harbours": 17}
    assert s.total == 17


def test_TC8() -> None:
    """An inactive harbour breaks the row: longest row 2 (3), columns 1 (0)."""
    s = fixed("expert", "H H H- H H / . . . . . / . . . . . / . . . . .", 4, 0)
    assert nonzero(s) == {"harbours": 3}
    assert s.total == 3


def test_TC9() -> None:
    """3 idle inhabitants -3; 4 energy with 2 absorbed by plain parks (not the playground) -2."""
    s = fixed("classic", "P P G . / . . . . / . . . . / . . . .", 3, 4)
    assert s.categories["parks"] == 0
    assert s.categories["penalty"] == -5
    assert s.total == -5


def test_TC10() -> None:
    """Rulebook office example: group of 3 scores 5+5+9; an isolated 1-floor office 0."""
    s = fixed("expert", "O2 O2 O3 . . / . . . . . / . . . . . / . . . . O1", 4, 4)
    assert nonzero(s) == {"offices": 19}
    assert s.total == 19


def test_TC11() -> None:
    """A group of 6 offices uses the '5 or more' row: 5 x 4 + 30 = 50."""
    s = fixed("expert", "O1 O1 O1 O1 O1 / O5 . . . . / . . . . . / . . . . .", 6, 6)
    assert nonzero(s) == {"offices": 50}
    assert s.total == 50


def test_TC12() -> None:
    """Monument: park +5, shop +3, factory -5, tower 0; the factory beside it scores 0."""
    s = fixed("expert", ". P . . . / S1 M F . . / . T2 . . . / . . . . .", 2, 2)
    assert nonzero(s) == {"towers": 3, "shops": 1, "monuments": 3}
    assert s.categories["factories"] == 0
    assert s.total == 7


def test_TC13() -> None:
    """Expert factory: office +4, shop +2, harbour +3; the isolated 1-floor office 0."""
    s = fixed("expert", "O1 F S0 . . / . H . . . / . . . . . / . . . . .", 3, 2)
    assert nonzero(s) == {"factories": 9}
    assert s.total == 9


def test_TC14() -> None:
    """Expert park counts a tower and an office (2 -> 4); an isolated 2-floor office scores 1."""
    s = fixed("expert", "T1 P O2 . . / . . . . . / . . . . . / . . . . .", 1, 2)
    assert nonzero(s) == {"towers": 1, "parks": 4, "offices": 1}
    assert s.total == 6


def test_TC15() -> None:
    """Public services in all 5 Expert districts: 20, plus 2 printed VP."""
    s = fixed("expert", "U0 . U0 U0 . / . U2 . . . / U0 . . U0 . / . . . . .", 6, 0)
    assert nonzero(s) == {"public_services": 22}
    assert s.total == 22


def test_TC16() -> None:
    """Expert-only table ends: a 5-floor tower 15, a shop with 5 customers 11."""
    s = fixed("expert", "T5 S5 . . . / . . . . . / . . . . . / . . . . .", 5, 2)
    assert nonzero(s) == {"towers": 15, "shops": 11}
    assert s.total == 26


def test_TC17() -> None:
    """The full Classic city scores 58 with its fixed allocation, category by category."""
    s = fixed("classic", "T3 P T2 S3 / U1 T1 F H / H U0 S1 H1 / G T4 U2 H", 13, 7)
    assert s.categories == {
        "towers": 20,
        "shops": 5,
        "public_services": 12,
        "parks": 9,
        "factories": 5,
        "harbours": 8,
        "offices": 0,
        "monuments": 0,
        "penalty": -1,
    }
    assert s.total == 58


def test_TC18() -> None:
    """An Expert harbour row of 5 (18) and column of 4 (12) sharing the corner: 30."""
    s = fixed("expert", "H H H H H / . . . . H / . . . . H / . . . . H", 8, 0)
    assert nonzero(s) == {"harbours": 30}
    assert s.total == 30


def test_TC19() -> None:
    """Diagonal towers are not adjacent to the park: park 0, towers 4."""
    s = fixed("classic", "T1 . . . / . P . . / . . T2 . / . . . .", 0, 2)
    assert nonzero(s) == {"towers": 4}
    assert s.total == 4


def test_OT1() -> None:
    """One energy goes to the 4-floor tower (10), both inhabitants idle (-2): total 8."""
    s = optimal("classic", "T4 T1 . . / S0 . . . / . . . . / . . . .", 2, 1)
    assert s.allocation.active == frozenset({(0, 0)})
    assert s.total == 8


def test_OT2() -> None:
    """Customers are concentrated: 4+0 on two shops gives 7."""
    s = optimal("classic", "S0 S0 . . / . . . . / . . . . / . . . .", 4, 2)
    assert s.total == 7
    assert s.inhabitants_on_buildings == 4
    assert sorted(n for _, n in s.allocation.customers) == [0, 4]


def test_OT3() -> None:
    """Leaving the factory beside the monument off beats activating it: 13, not 7."""
    s = optimal("expert", ". P . . . / S0 M F . . / . T2 . . . / . . . . .", 2, 2)
    assert (1, 2) not in s.allocation.active
    assert s.allocation.customers == (((1, 0), 2),)
    assert nonzero(s) == {"towers": 3, "shops": 2, "monuments": 8}
    assert s.total == 13


def test_OT4() -> None:
    """One energy activates T2; the park absorbs one of the two spare: total 4."""
    s = optimal("classic", "P T2 . . / . . . . / . . . . / . . . .", 0, 3)
    assert nonzero(s) == {"towers": 3, "parks": 2, "penalty": -1}
    assert s.allocation.absorbing == frozenset({(0, 0)})
    assert s.total == 4


def test_example_9_7() -> None:
    """Worked example 9.7: Mary's offices h2, h2, h3 in a row score 19."""
    s = fixed("expert", "O2 O2 O3 . . / . . . . . / . . . . . / . . . . .", 3, 3)
    assert s.categories["offices"] == 19


def test_example_9_6() -> None:
    """Worked example 9.6: a 3-floor stack needs just 1 energy; a public service 1 inhabitant."""
    s = fixed("classic", "T3 U0 . . / . . . . / . . . . / . . . .", 1, 1)
    assert s.inhabitants_on_buildings == 1
    assert s.categories["penalty"] == 0


def test_optimum_of_section_16_example() -> None:
    """Section 16: TC17's city scored optimally reaches 63 with C(3,1) off and 4 + 2 customers."""
    s = optimal("classic", "T3 P T2 S / U1 T1 F H / H U0 S1 H1 / G T4 U2 H", 13, 7)
    assert s.total == 63
    assert s.categories == {
        "towers": 20,
        "shops": 9,
        "public_services": 12,
        "parks": 9,
        "factories": 5,
        "harbours": 8,
        "offices": 0,
        "monuments": 0,
        "penalty": 0,
    }
    assert s.inhabitants_on_buildings == 13 and s.empty_squares == 1
    assert s.allocation.absorbing == frozenset({(0, 1)})
    assert dict(s.allocation.customers) == {(0, 3): 4, (2, 2): 2}
