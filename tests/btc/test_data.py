"""The data files: tile manifest (spec 2.2-2.4), scoring tables (8), Automa deck (10.8)."""

from __future__ import annotations

from collections import Counter

from bot.rules.btc import tiles as T

SPEC_DUPLEXES = {
    "H01": ("horizontal", "TAVERN_FOOD", "FACTORY"),
    "H02": ("horizontal", "FACTORY", "OFFICE"),
    "H03": ("horizontal", "FACTORY", "SHOP"),
    "H04": ("horizontal", "HOUSE", "PARK"),
    "H05": ("horizontal", "HOUSE", "TAVERN_BED"),
    "H06": ("horizontal", "OFFICE", "HOUSE"),
    "H07": ("horizontal", "OFFICE", "SHOP"),
    "H08": ("horizontal", "TAVERN_DRINK", "PARK"),
    "H09": ("horizontal", "PARK", "FACTORY"),
    "H10": ("horizontal", "PARK", "OFFICE"),
    "H11": ("horizontal", "SHOP", "TAVERN_MUSIC"),
    "H12": ("horizontal", "SHOP", "HOUSE"),
    "V01": ("vertical", "FACTORY", "TAVERN_FOOD"),
    "V02": ("vertical", "FACTORY", "OFFICE"),
    "V03": ("vertical", "HOUSE", "OFFICE"),
    "V04": ("vertical", "HOUSE", "SHOP"),
    "V05": ("vertical", "OFFICE", "PARK"),
    "V06": ("vertical", "OFFICE", "SHOP"),
    "V07": ("vertical", "TAVERN_DRINK", "HOUSE"),
    "V08": ("vertical", "PARK", "FACTORY"),
    "V09": ("vertical", "PARK", "HOUSE"),
    "V10": ("vertical", "TAVERN_MUSIC", "PARK"),
    "V11": ("vertical", "SHOP", "FACTORY"),
    "V12": ("vertical", "SHOP", "TAVERN_BED"),
}


def test_manifest_counts() -> None:
    """108 singles and 24 duplexes (12 horizontal, 12 vertical), as in spec 2.4."""
    assert len(T.SINGLE_POOL) == 108
    assert len(T.DUPLEX_POOL) == 24
    orientations = Counter(T.KINDS[d].orientation for d in T.DUPLEX_POOL)
    assert orientations == {"horizontal": 12, "vertical": 12}


def test_singles_per_kind() -> None:
    """Single tiles per kind match spec 2.2: 16 shops, 16 factories, 5 of each tavern, 20 offices…"""
    assert Counter(T.SINGLE_POOL) == {
        "SHOP": 16,
        "FACTORY": 16,
        "TAVERN_DRINK": 5,
        "TAVERN_FOOD": 5,
        "TAVERN_MUSIC": 5,
        "TAVERN_BED": 5,
        "OFFICE": 20,
        "PARK": 16,
        "HOUSE": 20,
    }


def test_face_totals() -> None:
    """Faces per type over all tiles: 24 shops, 24 factories, 28 taverns (7 per kind), 28 offices,
    24 parks, 28 houses; 8 duplex halves per type (spec 2.2)."""
    faces = Counter(f for k in [*T.SINGLE_POOL, *T.DUPLEX_POOL] for f in T.KINDS[k].faces)
    by_type = Counter()
    for code, n in faces.items():
        by_type[T.face_type(code)] += n
    assert by_type == {"shop": 24, "factory": 24, "tavern": 28, "office": 28, "park": 24, "house": 28}
    assert all(faces[k] == 7 for k in ("TAVERN_DRINK", "TAVERN_FOOD", "TAVERN_MUSIC", "TAVERN_BED"))
    halves = Counter(T.face_type(f) for d in T.DUPLEX_POOL for f in T.KINDS[d].faces)
    assert set(halves.values()) == {8}


def test_duplex_table_matches_spec() -> None:
    """Every duplex has the orientation and face order of the table in spec 2.3."""
    for short, (orientation, first, second) in SPEC_DUPLEXES.items():
        kind = T.KINDS["DUPLEX_" + short]
        assert (kind.orientation, kind.faces) == (orientation, (first, second))


def test_duplex_pairings() -> None:
    """No duplex pairs house+factory, office+tavern or shop+park, or repeats a type (spec 2.3);
    each set of 12 holds every type on 4 halves and one tavern of each kind."""
    forbidden = [{"house", "factory"}, {"office", "tavern"}, {"shop", "park"}]
    for orientation in ("horizontal", "vertical"):
        kinds = [k for k in T.KINDS.values() if k.orientation == orientation]
        types = Counter(T.face_type(f) for k in kinds for f in k.faces)
        assert set(types.values()) == {4}
        taverns = Counter(f for k in kinds for f in k.faces if T.face_type(f) == "tavern")
        assert set(taverns.values()) == {1} and len(taverns) == 4
        for k in kinds:
            pair = {T.face_type(f) for f in k.faces}
            assert len(pair) == 2 and pair not in forbidden


def test_tokens() -> None:
    """The spec's notation: S F O P H and taverns d f m b."""
    assert T.FACE_BY_TOKEN == {
        "S": "SHOP",
        "F": "FACTORY",
        "d": "TAVERN_DRINK",
        "f": "TAVERN_FOOD",
        "m": "TAVERN_MUSIC",
        "b": "TAVERN_BED",
        "O": "OFFICE",
        "P": "PARK",
        "H": "HOUSE",
    }


def test_scoring_tables() -> None:
    """Scoring tables of section 8 and the difficulty modifiers of 10.9."""
    assert T.SHOP_LINE == (0, 2, 5, 10, 16)
    assert T.FACTORY_PER_BUILDING == (4, 3, 2)
    assert T.TAVERN_SET == (0, 1, 4, 9, 17)
    assert T.OFFICE_SET == (0, 1, 3, 6, 10, 15, 21)
    assert T.PARK_GROUP == (0, 2, 8, 12)
    assert T.DIFFICULTY_MODIFIER == {"1": -6, "2": -4, "3": -2, "4": 0, "5": 2, "6": 4, "7": 6}


def test_automa_deck_reconstruction() -> None:
    """20 cards as reconstructed in spec 10.8; R01 is the seed's worked-example card; every column
    ends with MAX; the tie-break row is D-18's."""
    assert len(T.AUTOMA_CARDS) == 20
    r01 = T.AUTOMA_CARD_BY_ID["R01"]
    assert r01.shared == ("FACTORY", "MAX") and r01.automacity == ("NEW", "HOUSE", "MAX")
    assert all(c.shared[-1] == "MAX" and c.automacity[-1] == "MAX" for c in T.AUTOMA_CARDS)
    assert sum(c.shared[0] == "FACTORY" for c in T.AUTOMA_CARDS) == 6
    assert sum(c.shared[0] == "HOUSE" for c in T.AUTOMA_CARDS) == 4
    assert sum(c.automacity[0] == "NEW" for c in T.AUTOMA_CARDS) == 10
    assert T.AUTOMA_TIEBREAK == (
        "SHOP",
        "FACTORY",
        "TAVERN_DRINK",
        "TAVERN_FOOD",
        "TAVERN_MUSIC",
        "TAVERN_BED",
        "OFFICE",
        "PARK",
        "HOUSE",
    )
