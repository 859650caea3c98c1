"""Spec 13.3: the manifest checks, and the board geometry of 3.1-3.3."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.rules.quadropolis import tiles
from bot.rules.quadropolis.tiles import KINDS, MODE_RULES, kind_of, round_set, slot_target


def test_manifest_totals() -> None:
    """142 tiles in 125 kinds; by back: both 83, classic 17, expert 42."""
    assert len(KINDS) == 125
    assert sum(k.count for k in KINDS) == 142
    by_modes = Counter()
    for k in KINDS:
        by_modes[k.modes] += k.count
    assert by_modes == {"both": 83, "classic": 17, "expert": 42}


def test_manifest_per_type() -> None:
    """Box counts by type: T32 S15 U19 P15 F19 H21 O17 M4."""
    by_type = Counter()
    for k in KINDS:
        by_type[k.type] += k.count
    assert by_type == {
        "TOWER": 32,
        "SHOP": 15,
        "PUBLIC": 19,
        "PARK": 15,
        "FACTORY": 19,
        "HARBOR": 21,
        "OFFICE": 17,
        "MONUMENT": 4,
    }


CLASSIC_PER_ROUND = {
    1: {"TOWER": 7, "SHOP": 3, "PUBLIC": 4, "PARK": 3, "FACTORY": 4, "HARBOR": 4},
    2: {"TOWER": 7, "SHOP": 3, "PUBLIC": 4, "PARK": 3, "FACTORY": 4, "HARBOR": 4},
    3: {"TOWER": 6, "SHOP": 3, "PUBLIC": 4, "PARK": 4, "FACTORY": 4, "HARBOR": 4},
    4: {"TOWER": 6, "SHOP": 3, "PUBLIC": 4, "PARK": 3, "FACTORY": 4, "HARBOR": 5},
}


@pytest.mark.parametrize("round_no", [1, 2, 3, 4])
def test_classic_round_sets(round_no: int) -> None:
    """Each Classic round: 25 tiles, 5 marked 4, 4 marked 3-4, the mayor in #1-#3 only, types as 13.3."""
    ids = round_set("classic", round_no)
    assert len(ids) == 25
    markers = Counter(kind_of(t).marker for t in ids)
    assert markers["4"] == 5 and markers["3-4"] == 4
    assert sum(kind_of(t).mayor for t in ids) == (1 if round_no <= 3 else 0)
    assert Counter(kind_of(t).type for t in ids) == CLASSIC_PER_ROUND[round_no]


EXPERT_KINDS = {
    # kind: counts for rounds 1..5 (spec 13.3)
    "tower1": [2, 1, 1, 2, 0],
    "tower2": [3, 3, 3, 2, 3],
    "tower3": [1, 1, 1, 1, 2],
    "shop": [3, 2, 3, 3, 3],
    "public0": [1, 1, 1, 1, 1],
    "public1": [1, 2, 2, 1, 1],
    "public2": [1, 1, 1, 1, 1],
    "park": [2, 2, 1, 2, 1],
    "playground": [1, 1, 1, 1, 1],
    "factory1": [1, 0, 0, 0, 0],
    "factory2": [1, 2, 2, 2, 2],
    "factory3": [1, 1, 1, 1, 1],
    "harbour_2i": [1, 1, 1, 0, 0],
    "harbour_2e": [1, 0, 1, 1, 0],
    "harbour_1i1e": [1, 2, 1, 1, 2],
    "harbour_1vp": [1, 0, 0, 0, 0],
    "harbour_2vp": [0, 1, 1, 0, 0],
    "harbour_3vp": [0, 0, 0, 1, 2],
    "office": [3, 3, 3, 4, 4],
    "monument": [0, 1, 1, 1, 1],
}


def expert_kind(tile_id: str) -> str:
    k = kind_of(tile_id)
    if k.type == "TOWER":
        return f"tower{k.gives_inh}"
    if k.type == "PUBLIC":
        return f"public{k.vp}"
    if k.type == "PARK":
        return "park" if k.absorbs else "playground"
    if k.type == "FACTORY":
        return f"factory{k.gives_nrg}"
    if k.type == "HARBOR":
        if k.vp:
            return f"harbour_{k.vp}vp"
        if k.gives_inh == 2:
            return "harbour_2i"
        if k.gives_nrg == 2:
            return "harbour_2e"
        return "harbour_1i1e"
    return k.type.lower()


@pytest.mark.parametrize("round_no", [1, 2, 3, 4, 5])
def test_expert_round_sets(round_no: int) -> None:
    """Each Expert round: 25 tiles, 5 marked 4, 4 marked 3-4, mayor in #1-#4, kinds as the JDB table."""
    ids = round_set("expert", round_no)
    assert len(ids) == 25
    markers = Counter(kind_of(t).marker for t in ids)
    assert markers["4"] == 5 and markers["3-4"] == 4
    assert sum(kind_of(t).mayor for t in ids) == (1 if round_no <= 4 else 0)
    counts = Counter(expert_kind(t) for t in ids)
    expected = {kind: per_round[round_no - 1] for kind, per_round in EXPERT_KINDS.items() if per_round[round_no - 1]}
    assert counts == expected


def test_monument_markers_give_one_monument_per_player() -> None:
    """Monument markers #2 '-', #3 '-', #4 '3-4', #5 '4': 2/3/4 monuments face up for 2/3/4 players."""
    monuments = [t for r in range(1, 6) for t in round_set("expert", r) if kind_of(t).type == "MONUMENT"]
    assert [kind_of(t).marker for t in monuments] == ["-", "-", "3-4", "4"]
    for players in (2, 3, 4):
        assert sum(tiles.face_up(t, players) for t in monuments) == players


def test_mayor_tiles_are_unmarked_one_inhabitant_towers() -> None:
    """The mayor tower gives 1 inhabitant and has no player-count marker (always face up)."""
    for k in KINDS:
        if k.mayor:
            assert k.type == "TOWER" and k.gives_inh == 1 and k.marker == "-"


def test_tile_ids_are_unique_and_stable() -> None:
    """Tiles expand to ids like K08#1, K08#2, unique across the box."""
    ids = [t for k in KINDS for t in tiles.tile_ids(k)]
    assert len(ids) == len(set(ids)) == 142
    assert "K08#2" in ids and kind_of("K08#2").id == "K08"


@pytest.mark.parametrize(
    ("slot", "value", "target"),
    [("L4", 3, (4, 3)), ("R4", 3, (4, 3)), ("R2", 1, (2, 5)), ("T2", 5, (5, 2)), ("B5", 4, (2, 5))],
)
def test_slot_targets(slot: str, value: int, target: tuple[int, int]) -> None:
    """Spec 3.1 examples: the architect counts squares inwards from its own side."""
    r, c = slot_target(slot, value)
    assert (r + 1, c + 1) == target


def test_example_9_1() -> None:
    """Worked example 9.1: #3 at L4 takes S(4,3); from R4 it is also S(4,3)."""
    assert slot_target("L4", 3) == slot_target("R4", 3) == (3, 2)


EXPERT_REACH = {
    1: [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (1, 4), (3, 1), (3, 4)],
    2: [(1, 4), (1, 5), (2, 4), (2, 5), (1, 1), (2, 3), (3, 2), (3, 5)],
    3: [(3, 4), (3, 5), (4, 4), (4, 5), (1, 2), (1, 5), (3, 3), (4, 2)],
    4: [(1, 3), (2, 3), (3, 3), (4, 3), (2, 2), (2, 5), (4, 1), (4, 5)],
    5: [(3, 1), (3, 2), (4, 1), (4, 2), (2, 1), (2, 4), (4, 3), (4, 4)],
}


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
def test_expert_reach(value: int) -> None:
    """Spec 3.3: architect n reaches district n and field number n, 8 squares."""
    got = {(r + 1, c + 1) for r, c in MODE_RULES["expert"].reach(value)}
    assert got == set(EXPERT_REACH[value])


def test_expert_board_numbers() -> None:
    """Each field number occurs 4 times and no district contains its own number as a field."""
    e = MODE_RULES["expert"]
    assert e.fields is not None
    fields = Counter(v for row in e.fields for v in row)
    assert fields == {1: 4, 2: 4, 3: 4, 4: 4, 5: 4}
    for cell in e.cells():
        assert e.field(cell) != e.district(cell)


def test_classic_reach() -> None:
    """Classic architect n reaches row n and column n: 7 squares."""
    c = MODE_RULES["classic"]
    for value in c.architects:
        got = c.reach(value)
        assert len(got) == 7
        assert all(r + 1 == value or col + 1 == value for r, col in got)
