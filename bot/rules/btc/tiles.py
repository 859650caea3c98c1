"""Between Two Cities data: the tile manifest, scoring tables, Automa deck and city names.

Everything here is read from JSON files shipped in this package, once at import, and checked, so
the printed values (or a physical recount) can replace the files without a code change:

- ``tiles.json``: faces (building type, notation token) and the 33 tile kinds (spec 2.4);
- ``scoring.json``: the scoring tables of section 8 and the solo difficulty modifiers (10.9);
- ``automa_deck.json``: the 20 Automa cards and their tie-break row (a RECONSTRUCTION, 10.8);
- ``cities.json``: display names of the cities and of the two Automas.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent

SINGLE = "single"
DUPLEX = "duplex"
HORIZONTAL = "horizontal"
VERTICAL = "vertical"

TYPES: tuple[str, ...] = ("shop", "factory", "tavern", "office", "park", "house")
"""The six building types in reference order (the order of categories and of tie-breakers)."""

AUTOMA_SYMBOLS = frozenset({"HOUSE", "FACTORY", "NEW", "MAX"})


def _load(name: str) -> dict[str, Any]:
    data = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{name}: expected a JSON object")
    return data


@dataclass(frozen=True)
class Face:
    """One building face: a single tile, or one half of a duplex."""

    code: str
    type: str
    token: str
    name: str


@dataclass(frozen=True)
class TileKind:
    """One row of the manifest."""

    id: str
    shape: str
    orientation: str | None
    faces: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class AutomaCard:
    """One Automa card: its two symbol columns, read top to bottom."""

    id: str
    shared: tuple[str, ...]
    automacity: tuple[str, ...]


def _load_tiles() -> tuple[dict[str, Face], dict[str, TileKind]]:
    data = _load("tiles.json")
    if tuple(data["types"]) != TYPES:
        raise ValueError("tiles.json: types must be " + ", ".join(TYPES))
    faces = {code: Face(code, f["type"], f["token"], f["name"]) for code, f in data["faces"].items()}
    tokens = [f.token for f in faces.values()]
    if len(set(tokens)) != len(tokens) or any(len(t) != 1 or t == "." for t in tokens):
        raise ValueError("tiles.json: face tokens must be distinct single characters other than '.'")
    if any(f.type not in TYPES for f in faces.values()):
        raise ValueError("tiles.json: unknown building type")
    kinds: dict[str, TileKind] = {}
    for row in data["tiles"]:
        kind = TileKind(row["id"], row["shape"], row["orientation"], tuple(row["cells"]), int(row["count"]))
        if any(code not in faces for code in kind.faces):
            raise ValueError(f"tiles.json: {kind.id} has an unknown face")
        if kind.shape == SINGLE:
            ok = len(kind.faces) == 1 and kind.orientation is None
        else:
            ok = kind.shape == DUPLEX and len(kind.faces) == 2 and kind.orientation in (HORIZONTAL, VERTICAL)
        if not ok or kind.count < 1 or kind.id in kinds:
            raise ValueError(f"tiles.json: bad row {kind.id}")
        kinds[kind.id] = kind
    return faces, kinds


FACES, KINDS = _load_tiles()
FACE_BY_TOKEN: dict[str, str] = {f.token: code for code, f in FACES.items()}

SINGLE_POOL: tuple[str, ...] = tuple(k.id for k in KINDS.values() if k.shape == SINGLE for _ in range(k.count))
"""Every single tile as its kind id (108 in the base game), in manifest order."""
DUPLEX_POOL: tuple[str, ...] = tuple(k.id for k in KINDS.values() if k.shape == DUPLEX for _ in range(k.count))
"""Every duplex tile as its kind id (24 in the base game), in manifest order."""


def _load_scoring() -> dict[str, Any]:
    data = _load("scoring.json")
    for key in ("shop_line", "factory_per_building", "tavern_set", "office_set", "park_group"):
        table = data[key]
        if not isinstance(table, list) or not table or not all(isinstance(x, int) for x in table):
            raise ValueError(f"scoring.json: {key} must be a list of integers")
    for key in ("shop_line", "tavern_set", "office_set", "park_group"):
        if data[key][0] != 0 or len(data[key]) < 2:
            raise ValueError(f"scoring.json: {key} must start with 0 for size 0")
    if len(data["park_group"]) < 3:
        raise ValueError("scoring.json: park_group needs the values for groups of 1 and 2")
    if sorted(data["difficulty_modifier"]) != [str(i) for i in range(1, 8)]:
        raise ValueError("scoring.json: difficulty_modifier needs levels 1 to 7")
    return data


SCORING = _load_scoring()
SHOP_LINE: tuple[int, ...] = tuple(SCORING["shop_line"])
FACTORY_PER_BUILDING: tuple[int, ...] = tuple(SCORING["factory_per_building"])
TAVERN_SET: tuple[int, ...] = tuple(SCORING["tavern_set"])
OFFICE_SET: tuple[int, ...] = tuple(SCORING["office_set"])
OFFICE_TAVERN_BONUS: int = int(SCORING["office_tavern_bonus"])
PARK_GROUP: tuple[int, ...] = tuple(SCORING["park_group"])
PARK_GROUP_EXTRA: int = int(SCORING["park_group_extra_per_cell"])
HOUSE_NEXT_TO_FACTORY: int = int(SCORING["house_next_to_factory"])
DIFFICULTY_MODIFIER: dict[str, int] = {k: int(v) for k, v in SCORING["difficulty_modifier"].items()}


def _load_deck() -> tuple[tuple[str, ...], tuple[AutomaCard, ...]]:
    data = _load("automa_deck.json")
    tiebreak = tuple(data["tiebreak"])
    singles = {k.faces[0] for k in KINDS.values() if k.shape == SINGLE}
    if sorted(tiebreak) != sorted(singles):
        raise ValueError("automa_deck.json: the tie-break row must name every single building face once")
    cards = []
    for row in data["cards"]:
        card = AutomaCard(row["id"], tuple(row["shared"]), tuple(row["automacity"]))
        for column in (card.shared, card.automacity):
            if not column or any(sym not in AUTOMA_SYMBOLS for sym in column):
                raise ValueError(f"automa_deck.json: card {card.id} has an empty column or unknown symbol")
        cards.append(card)
    if not cards or len({c.id for c in cards}) != len(cards):
        raise ValueError("automa_deck.json: cards need distinct ids")
    return tiebreak, tuple(cards)


AUTOMA_TIEBREAK, AUTOMA_CARDS = _load_deck()
AUTOMA_CARD_BY_ID: dict[str, AutomaCard] = {c.id: c for c in AUTOMA_CARDS}

_CITIES = _load("cities.json")
CITY_NAMES: tuple[str, ...] = tuple(_CITIES["names"])
SOLO_CITY_NAMES: tuple[str, ...] = tuple(_CITIES["solo"])
AUTOMA_NAMES: tuple[str, ...] = tuple(_CITIES["automas"])
if len(CITY_NAMES) < 7 or len(SOLO_CITY_NAMES) != 3 or len(AUTOMA_NAMES) != 2:
    raise ValueError("cities.json: needs 7 city names, 3 solo city names and 2 Automa names")


def face_type(code: str) -> str:
    """The building type of a face code (``"TAVERN_BED"`` -> ``"tavern"``)."""
    return FACES[code].type
