"""The end-game optimiser (spec 8.12) against exhaustive search and brute force."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.core import IllegalMove
from bot.rules.quadropolis.allocation import best_allocation, compile_city, exhaustive, exhaustive_allocation, optimise
from bot.rules.quadropolis.samples import random_city
from bot.rules.quadropolis.scoring import Allocation, Grid, ScoreSheet, cost_bearing, fill, plain_parks, score
from bot.rules.quadropolis.tiles import MODE_RULES, ModeRules
from tests.quadropolis.helpers import CLASSIC, EXPERT

MODES = st.sampled_from([CLASSIC, EXPERT])


def brute_force(mode: ModeRules, grid: Grid, inhabitants: int, energy: int) -> ScoreSheet:
    """Every allocation there is: subsets, every customer count on every shop, every set of
    absorbing parks, scored by the reference scorer."""
    costly = cost_bearing(grid)
    parks = plain_parks(grid)
    best: ScoreSheet | None = None
    for k in range(len(costly) + 1):
        for active in itertools.combinations(costly, k):
            shops = [cell for cell in active if grid[cell[0]][cell[1]].code == "S"]  # type: ignore[union-attr]
            for counts in itertools.product(range(mode.shop_cap + 1), repeat=len(shops)):
                for j in range(len(parks) + 1):
                    for absorbing in itertools.combinations(parks, j):
                        alloc = Allocation(frozenset(active), tuple(zip(shops, counts)), frozenset(absorbing))
                        try:
                            sheet = score(mode, grid, inhabitants, energy, alloc)
                        except IllegalMove:
                            continue
                        if best is None or sheet.key() > best.key():
                            best = sheet
    assert best is not None
    return best


def reference_exhaustive(mode: ModeRules, grid: Grid, inhabitants: int, energy: int) -> ScoreSheet:
    """Every affordable subset completed by fill() and scored square by square."""
    costly = cost_bearing(grid)
    best: ScoreSheet | None = None
    for k in range(len(costly) + 1):
        for active in itertools.combinations(costly, k):
            try:
                sheet = score(mode, grid, inhabitants, energy, fill(mode, grid, inhabitants, energy, active))
            except IllegalMove:
                continue
            if best is None or sheet.key() > best.key():
                best = sheet
    assert best is not None
    return best


@settings(max_examples=40, deadline=None)
@given(MODES, st.integers(0, 2**32), st.integers(0, 6), st.integers(0, 6))
def test_optimiser_equals_brute_force_on_small_cities(mode: ModeRules, seed: int, inh: int, nrg: int) -> None:
    """On cities with at most 4 cost-bearing buildings, no allocation at all beats the optimiser."""
    grid = random_city(mode, random.Random(seed), density=0.35, max_cost_bearing=4)
    if len(plain_parks(grid)) > 3:
        return
    assert best_allocation(mode, grid, inh, nrg).key() == brute_force(mode, grid, inh, nrg).key()


@settings(max_examples=40, deadline=None)
@given(MODES, st.integers(0, 2**32), st.integers(0, 14), st.integers(0, 14), st.booleans())
def test_optimiser_equals_exhaustive_search(mode: ModeRules, seed: int, inh: int, nrg: int, costly: bool) -> None:
    """With up to 9 cost-bearing buildings the optimum equals the subset enumeration (reference scorer)."""
    grid = random_city(mode, random.Random(seed), density=0.8, costly_only=costly, max_cost_bearing=9)
    assert best_allocation(mode, grid, inh, nrg).key() == reference_exhaustive(mode, grid, inh, nrg).key()


def test_optimiser_equals_exhaustive_on_full_cities() -> None:
    """Full cities of up to 16 switchable buildings: branch and bound equals the compiled enumeration."""
    rnd = random.Random(7)
    for k in range(6):
        mode = CLASSIC if k % 2 else EXPERT
        grid = random_city(mode, rnd, density=1.0, costly_only=k < 3, max_cost_bearing=14 if mode is EXPERT else None)
        inh, nrg = rnd.randint(0, 18), rnd.randint(0, 18)
        c = compile_city(mode, grid, inh, nrg)
        assert optimise(c).key == exhaustive(c).key


def test_compiled_key_matches_reference_score() -> None:
    """For random choices of activated buildings, the bit-mask score equals the square-by-square one."""
    rnd = random.Random(11)
    for _ in range(150):
        mode = rnd.choice([CLASSIC, EXPERT])
        grid = random_city(mode, rnd, density=rnd.random())
        inh, nrg = rnd.randint(0, 20), rnd.randint(0, 20)
        c = compile_city(mode, grid, inh, nrg)
        mask = rnd.getrandbits(c.n) if c.n else 0
        key = c.key(mask)
        active = c.active_cells(mask)
        try:
            sheet = score(mode, grid, inh, nrg, fill(mode, grid, inh, nrg, active))
        except IllegalMove:
            assert key is None
            continue
        assert key == (sheet.total, sheet.inhabitants_on_buildings, c.squares - sheet.empty_squares)


def test_exhaustive_allocation_agrees_with_best_allocation() -> None:
    """The public baseline gives the same optimum key as the optimiser."""
    rnd = random.Random(3)
    for _ in range(5):
        grid = random_city(EXPERT, rnd, density=0.6)
        inh, nrg = rnd.randint(0, 12), rnd.randint(0, 12)
        best = best_allocation(EXPERT, grid, inh, nrg)
        assert exhaustive_allocation(EXPERT, grid, inh, nrg).key() == best.key()


def test_forced_off_buildings_stay_off() -> None:
    """A building the player switched off is not activated, even when that costs points."""
    grid = random_city(CLASSIC, random.Random(5), density=1.0, costly_only=True)
    cell = cost_bearing(grid)[0]
    sheet = best_allocation(CLASSIC, grid, 30, 30, forced_off=[cell])
    assert cell not in sheet.allocation.active
    assert sheet.key() <= best_allocation(CLASSIC, grid, 30, 30).key()


def test_total_is_sum_of_categories() -> None:
    """Every optimal sheet's total is the sum of its nine categories; the penalty is never positive."""
    rnd = random.Random(9)
    for _ in range(30):
        mode = rnd.choice([CLASSIC, EXPERT])
        grid = random_city(mode, rnd, density=rnd.random())
        sheet = best_allocation(mode, grid, rnd.randint(0, 15), rnd.randint(0, 15))
        assert sheet.total == sum(sheet.categories.values())
        assert sheet.categories["penalty"] <= 0
        assert set(sheet.categories) == {
            "towers",
            "shops",
            "public_services",
            "parks",
            "factories",
            "harbours",
            "offices",
            "monuments",
            "penalty",
        }


def test_modes_are_loaded() -> None:
    """Both modes exist with their board sizes."""
    assert (MODE_RULES["classic"].rows, MODE_RULES["classic"].cols) == (4, 4)
    assert (MODE_RULES["expert"].rows, MODE_RULES["expert"].cols) == (4, 5)


STRUCTURED = [
    ("classic", ["F S F S", "S F S F", "F S F S", "S F S F"]),
    ("classic", ["H H H H", "H H H H", "H H H H", "H H H H"]),
    ("classic", ["F H F H", "H F H F", "T2 P T3 P", "U0 U1 U2 U0"]),
    ("expert", ["O3 O3 O3 O3 O3", "O3 O3 O3 O3 O3", "O3 O3 O3 O3 O3", ". . . . ."]),
    ("expert", ["O1 O5 O2 O4 O3", "O3 O1 O5 O2 O4", "F M F M F", ". . . . ."]),
    ("expert", ["H H H H H", "H H H H H", "H H H H H", ". . . . ."]),
    ("expert", ["S S S S S", "S S S S S", "S M S M S", ". . . . ."]),
    ("expert", ["F O2 F O2 F", "O2 F O2 F O2", "F O2 F O2 F", ". . . . ."]),
]


def test_optimiser_equals_exhaustive_on_structured_cities() -> None:
    """Symmetric cities (many equal optima, long harbour lines, big office groups) still match."""
    from bot.rules.quadropolis.notation import parse_city

    for mode_name, rows in STRUCTURED:
        mode = MODE_RULES[mode_name]
        grid = parse_city(mode, rows).grid
        for inh, nrg in ((3, 3), (6, 2), (2, 6), (5, 5)):
            c = compile_city(mode, grid, inh, nrg)
            assert optimise(c).key == exhaustive(c).key, (rows, inh, nrg)
