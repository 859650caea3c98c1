"""Quadropolis data: the tile manifest and the two city boards, loaded from JSON at import.

Everything printed on the components lives in ``data/tiles.json`` (spec section 13) and
``data/modes.json`` (boards and scoring tables, spec sections 3 and 8), so corrected printed values
replace the reconstructions there without a code change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.rules.core import Cell, Term, term

DATA_DIR = Path(__file__).with_name("data")

MODES = ("classic", "expert")
SITE_SIZE = 5
"""The construction site is 5 x 5 squares."""

PLAYER_MARKERS_FACE_UP: dict[int, frozenset[str]] = {
    2: frozenset({"-"}),
    3: frozenset({"-", "3-4"}),
    4: frozenset({"-", "3-4", "4"}),
}
"""Which player-count markers are turned face up for each number of players (spec 5.3)."""

TYPES = ("TOWER", "SHOP", "PUBLIC", "PARK", "FACTORY", "HARBOR", "OFFICE", "MONUMENT")

CODE_OF_TYPE = {"TOWER": "T", "SHOP": "S", "PUBLIC": "U", "FACTORY": "F", "HARBOR": "H", "OFFICE": "O", "MONUMENT": "M"}
"""Letter of each building type in the notation of spec section 15 (parks: ``P`` or ``G``)."""

TYPE_OF_CODE = {
    "T": "TOWER",
    "S": "SHOP",
    "U": "PUBLIC",
    "P": "PARK",
    "G": "PARK",
    "F": "FACTORY",
    "H": "HARBOR",
    "O": "OFFICE",
    "M": "MONUMENT",
}


@dataclass(frozen=True)
class TileKind:
    """One row of the manifest: a distinct printed tile and how many copies the box holds."""

    id: str
    round: int
    type: str
    gives_inh: int
    gives_nrg: int
    vp: int
    mayor: bool
    absorbs: bool
    marker: str
    modes: str
    count: int
    prov: str

    @property
    def code(self) -> str:
        """The building letter of spec section 15: a park is ``P`` (absorbs) or ``G`` (playground)."""
        if self.type == "PARK":
            return "P" if self.absorbs else "G"
        return CODE_OF_TYPE[self.type]

    def in_mode(self, mode: str) -> bool:
        return self.modes in ("both", mode)


@dataclass(frozen=True)
class ModeRules:
    """Board geometry and scoring tables of one mode."""

    name: str
    rounds: int
    turns_per_round: int
    rows: int
    cols: int
    architects: tuple[int, ...]
    shared_pool: bool
    district_names: dict[int, str]
    districts: tuple[tuple[int, ...], ...]
    fields: tuple[tuple[int, ...], ...] | None
    max_height: int
    shop_cap: int
    stackable: frozenset[str]
    park_neighbours: frozenset[str]
    towers: tuple[int, ...]
    shops: tuple[int, ...]
    public_districts: tuple[int, ...]
    parks: tuple[int, ...]
    harbour_lines: tuple[int, ...]
    factory_neighbours: dict[str, int]
    offices: tuple[tuple[int, ...], ...]
    monument_neighbours: dict[str, int]

    def district(self, cell: Cell) -> int:
        return self.districts[cell[0]][cell[1]]

    def field(self, cell: Cell) -> int | None:
        return None if self.fields is None else self.fields[cell[0]][cell[1]]

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def reaches(self, cell: Cell, value: int) -> bool:
        """Whether architect ``value`` designates this city square (spec 6.4).

        Classic: row or column number equal to the value; Expert: field or district number.
        """
        if self.fields is None:
            return cell[0] + 1 == value or cell[1] + 1 == value
        return self.fields[cell[0]][cell[1]] == value or self.districts[cell[0]][cell[1]] == value

    def reach(self, value: int) -> list[Cell]:
        """Every square architect ``value`` designates, in reading order."""
        return [cell for cell in self.cells() if self.reaches(cell, value)]


def _load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def _mode_rules(name: str, raw: dict[str, Any]) -> ModeRules:
    tables = raw["tables"]
    return ModeRules(
        name=name,
        rounds=int(raw["rounds"]),
        turns_per_round=int(raw["turns_per_round"]),
        rows=int(raw["rows"]),
        cols=int(raw["cols"]),
        architects=tuple(int(v) for v in raw["architects"]),
        shared_pool=bool(raw["shared_pool"]),
        district_names={int(k): str(v) for k, v in raw["district_names"].items()},
        districts=tuple(tuple(int(v) for v in row) for row in raw["districts"]),
        fields=None if raw["fields"] is None else tuple(tuple(int(v) for v in row) for row in raw["fields"]),
        max_height=int(raw["max_height"]),
        shop_cap=int(raw["shop_cap"]),
        stackable=frozenset(raw["stackable"]),
        park_neighbours=frozenset(raw["park_neighbours"]),
        towers=tuple(tables["towers"]),
        shops=tuple(tables["shops"]),
        public_districts=tuple(tables["public_districts"]),
        parks=tuple(tables["parks"]),
        harbour_lines=tuple(tables["harbour_lines"]),
        factory_neighbours={str(k): int(v) for k, v in tables["factory_neighbours"].items()},
        offices=tuple(tuple(int(v) for v in row) for row in tables["offices"]),
        monument_neighbours={str(k): int(v) for k, v in tables["monument_neighbours"].items()},
    )


_MODES_RAW = _load("modes.json")
MODE_RULES: dict[str, ModeRules] = {name: _mode_rules(name, _MODES_RAW[name]) for name in MODES}

KINDS: tuple[TileKind, ...] = tuple(TileKind(**row) for row in _load("tiles.json")["kinds"])
KIND_BY_ID: dict[str, TileKind] = {k.id: k for k in KINDS}


def tile_ids(kind: TileKind) -> list[str]:
    """Stable ids of a kind's copies: ``K08#1``, ``K08#2`` (spec 13.4)."""
    return [f"{kind.id}#{i}" for i in range(1, kind.count + 1)]


def kind_of(tile_id: str) -> TileKind:
    """The manifest row of a tile id (``"K08#2"`` -> K08)."""
    return KIND_BY_ID[tile_id.split("#", 1)[0]]


@cache
def round_set(mode: str, round_no: int) -> tuple[str, ...]:
    """Tile ids of one round set of a mode, in manifest order."""
    return tuple(tid for k in KINDS if k.round == round_no and k.in_mode(mode) for tid in tile_ids(k))


@cache
def mode_tiles(mode: str) -> tuple[str, ...]:
    """Every tile id used by a mode."""
    return tuple(tid for r in range(1, MODE_RULES[mode].rounds + 1) for tid in round_set(mode, r))


def face_up(tile_id: str, players: int) -> bool:
    """Whether a tile is turned face up in a game of ``players`` players (spec 5.3)."""
    return kind_of(tile_id).marker in PLAYER_MARKERS_FACE_UP[players]


# ---------------------------------------------------------------------------------------------
# Construction site geometry (spec 3.1)
# ---------------------------------------------------------------------------------------------

SLOTS: tuple[str, ...] = tuple(f"{edge}{i}" for edge in "LRTB" for i in range(1, SITE_SIZE + 1))
"""The 20 architect slots: L1..L5 left of rows, R1..R5 right, T1..T5 above columns, B1..B5 below."""


def slot_target(slot: str, value: int) -> Cell:
    """Zero-based site square an architect of ``value`` in ``slot`` points at (spec 3.1)."""
    edge, index = slot[0], int(slot[1:]) - 1
    if edge == "L":
        return (index, value - 1)
    if edge == "R":
        return (index, SITE_SIZE - value)
    if edge == "T":
        return (value - 1, index)
    return (SITE_SIZE - value, index)


SLOT_TERMS = {
    "L": "quadropolis.slot.L",
    "R": "quadropolis.slot.R",
    "T": "quadropolis.slot.T",
    "B": "quadropolis.slot.B",
}
"""The catalogue id of each side's slots as players read them (an arrow the way the architect points and
the row or column number: ``→3`` for L3, ``←3`` for R3, ``↓3`` for T3, ``↑3`` for B3)."""


def slot_term(slot: str) -> Term:
    """A slot as players read it, in text and pictures alike (the stored code ``L3`` is never shown):
    a term of the catalogue, so every language may choose its own notation."""
    return term(SLOT_TERMS[slot[0]], n=int(slot[1:]))


def slot_line(slot: str) -> tuple[str, int]:
    """The line a slot points along: ``("row", r)`` or ``("col", c)``, zero-based."""
    index = int(slot[1:]) - 1
    return ("row", index) if slot[0] in "LR" else ("col", index)


def slot_blocked(slot: str, urbanist: Cell | None) -> bool:
    """Whether the urbanist stands on the slot's line (D-1)."""
    if urbanist is None:
        return False
    axis, index = slot_line(slot)
    return urbanist[0] == index if axis == "row" else urbanist[1] == index


def site_name(cell: Cell) -> str:
    """A site square as the spec writes it: ``S(3,2)``."""
    return f"S({cell[0] + 1},{cell[1] + 1})"


def city_name(cell: Cell) -> str:
    """A city square as the spec writes it: ``C(1,4)``."""
    return f"C({cell[0] + 1},{cell[1] + 1})"
