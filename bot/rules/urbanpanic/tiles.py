"""Urban Panic data and geometry: the legend, the 120-tile manifest, the goal cards, the 5 x 5 city.

Everything marked RECONSTRUCTION in the spec (the legend's track effects and each tile's passage
pattern, spec sections 4, 5 and 16) is read from the JSON files next to this module at import time,
so the printed values can replace them without a code change. The loader checks the files and
raises ``ValueError`` naming the problem if they are inconsistent.

Conventions used by the whole package:

- A **tile code** names a physical tile: its type and its open sides, ``"FAC-NE"``. Tiles with the
  same code are identical, so the state stores codes (never ids) and moves name tiles by code.
- A **square** is an index ``row * 5 + column`` (0..24); the centre C3 is index 12. Players name
  squares column-then-row, ``"A1"`` (north-west) to ``"E5"`` (south-east), spec 3.1.
- A **track vector** is a 5-tuple in the order (residents, jobs, ecology, income, satisfaction).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.rules import core

_HERE = Path(__file__).parent

SIZE = 5
CENTRE = 12
"""C3, the pre-built city centre: open on all four sides, never a plot (spec 3.1, D-2)."""
SQUARES = tuple(range(SIZE * SIZE))
PLOTS = tuple(i for i in SQUARES if i != CENTRE)
"""The 24 plots, in reading order A1, B1, ... E1, A2, ... E5."""
PLOT_COUNT = len(PLOTS)
SIDES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
RESERVE_SIZE = 3
SLOT_COUNT = 4
TURN_POINTS = 3
SPY_COST = 2


def _load(name: str) -> Any:
    return json.loads((_HERE / name).read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# Legend (spec 4.1) and tracks (spec 2.3)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileType:
    """One of the six tile types and its legend row."""

    id: str
    letter: str
    name: str
    count: int
    deltas: tuple[int, int, int, int, int]

    @property
    def gains(self) -> tuple[int, int, int, int, int]:
        """The strictly positive entries of the row: what an unreachable tile loses (spec 4.4, D-7)."""
        d = self.deltas
        return (max(d[0], 0), max(d[1], 0), max(d[2], 0), max(d[3], 0), max(d[4], 0))


def _load_legend() -> tuple[tuple[str, ...], tuple[str, ...], int, dict[str, TileType]]:
    data = _load("legend.json")
    track_ids = tuple(str(t["id"]) for t in data["tracks"])
    letters = tuple(str(t["letter"]) for t in data["tracks"])
    if len(track_ids) != 5:
        raise ValueError("legend.json: exactly five tracks are expected")
    types: dict[str, TileType] = {}
    for row in data["types"]:
        deltas = tuple(int(row["deltas"][t]) for t in track_ids)
        tt = TileType(
            str(row["id"]),
            str(row["letter"]),
            str(row["name"]),
            int(row["count"]),
            (deltas[0], deltas[1], deltas[2], deltas[3], deltas[4]),
        )
        if tt.id in types:
            raise ValueError(f"legend.json: type {tt.id} is listed twice")
        types[tt.id] = tt
    return track_ids, letters, int(data["floor"]), types


TRACKS, TRACK_LETTERS, FLOOR, TYPES = _load_legend()
"""Track ids in order, their one-letter names, the −5 floor, and the tile types by id."""
FLOORED = (2, 3, 4)
"""Indices of the tracks the floor applies to: ecology, income, satisfaction (spec 6)."""
TYPE_BY_LETTER = {t.letter: t.id for t in TYPES.values()}
TYPE_ORDER = tuple(TYPES)

Tracks = tuple[int, int, int, int, int]
ZERO: Tracks = (0, 0, 0, 0, 0)


def add(a: Sequence[int], b: Sequence[int], sign: int = 1) -> Tracks:
    """a + sign * b for track vectors."""
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2], a[3] + sign * b[3], a[4] + sign * b[4])


def floor_breach(tracks: Sequence[int]) -> tuple[str, int] | None:
    """The first of E, I, S below the floor as (track id, value), or None (spec 6)."""
    for i in FLOORED:
        if tracks[i] < FLOOR:
            return TRACKS[i], tracks[i]
    return None


# ---------------------------------------------------------------------------------------------
# Manifest (spec 5, 16)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileKind:
    """One (type, passage pattern) row of the manifest."""

    code: str
    type: str
    passages: str
    count: int
    deltas: Tracks
    gains: Tracks
    mask: int
    """Open sides as bits: N=1, E=2, S=4, W=8."""


SIDE_BIT = {"N": 1, "E": 2, "S": 4, "W": 8}


def _mask(passages: str) -> int:
    m = 0
    for ch in passages:
        m |= SIDE_BIT[ch]
    return m


def _load_manifest() -> dict[str, TileKind]:
    kinds: dict[str, TileKind] = {}
    totals = dict.fromkeys(TYPES, 0)
    for row in _load("tiles.json")["tiles"]:
        typ, passages, count = str(row["type"]), str(row["passages"]), int(row["count"])
        if typ not in TYPES:
            raise ValueError(f"tiles.json: unknown type {typ}")
        if not passages or "".join(s for s in SIDES if s in passages) != passages:
            raise ValueError(f"tiles.json: passages {passages!r} must be open sides in the order NESW")
        if count <= 0:
            raise ValueError(f"tiles.json: {typ}-{passages} needs a positive count")
        code = f"{typ}-{passages}"
        if code in kinds:
            raise ValueError(f"tiles.json: {code} is listed twice")
        tt = TYPES[typ]
        kinds[code] = TileKind(code, typ, passages, count, tt.deltas, tt.gains, _mask(passages))
        totals[typ] += count
    for typ, total in totals.items():
        if total != TYPES[typ].count:
            raise ValueError(f"tiles.json: {typ} has {total} tiles, legend.json says {TYPES[typ].count}")
    return kinds


KINDS = _load_manifest()
"""Every tile code of the manifest."""
ALL_TILES: tuple[str, ...] = tuple(code for code, k in KINDS.items() for _ in range(k.count))
"""The whole box, one code per physical tile, in manifest order (120 tiles)."""


def kind(code: str) -> TileKind:
    """The manifest row of a code, or IllegalMove naming the unknown tile."""
    k = KINDS.get(code) if isinstance(code, str) else None
    if k is None:
        raise core.IllegalMove("urbanpanic.tile.unknown", tile=str(code))
    return k


# ---------------------------------------------------------------------------------------------
# The players' notation (presentation only: moves, states and exports keep the codes above)
# ---------------------------------------------------------------------------------------------

ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
"""A tile's open sides as players read them, in every language: ↑ north, → east, ↓ south, ← west
(the pictures draw the same sides as roads leaving the tile)."""


def sides_text(passages: str) -> str:
    """``"NE"`` -> ``"↑→"``: the open sides as arrows, clockwise from north."""
    return "".join(ARROWS[s] for s in SIDES if s in passages)


def type_term(typ: str) -> core.Term:
    """A tile type as a word of the reader's language (``urbanpanic.term.type.<id>``)."""
    return core.term(f"urbanpanic.term.type.{typ}")


def track_term(track: str) -> core.Term:
    """A track (``"income"``) as a word of the reader's language, with its forms where the language
    declines it (``urbanpanic.term.track.<id>``): refusals and the calculator name tracks with it."""
    return core.term(f"urbanpanic.term.track.{track}")


def variant_term(variant: str) -> core.Term:
    """A variant (``"basic"``) as a word of the reader's language (``urbanpanic.term.variant.<id>``)."""
    return core.term(f"urbanpanic.term.variant.{variant}")


def tile_term(code: object) -> core.Term | str:
    """The one notation of a tile for players: ``"FAC-NE"`` -> a term reading "factory ↑→" in
    English, "fabryka ↑→" in Polish (``urbanpanic.term.tile``: the type's word, then the open sides
    as :func:`sides_text`). A well-formed code the box does not hold (``"PRK-NS"``, named by the score
    calculator) reads the same way; other text (a typo, a forged move) is returned as it is."""
    typ, _, passages = code.partition("-") if isinstance(code, str) else ("", "", "")
    if typ not in TYPES or not passages or any(ch not in SIDES for ch in passages):
        return str(code)
    return core.term("urbanpanic.term.tile", type=type_term(typ), sides=sides_text(passages))


def census(codes: Iterable[str | None]) -> dict[str, int]:
    """How many tiles of each code (None entries ignored)."""
    out: dict[str, int] = {}
    for c in codes:
        if c is not None:
            out[c] = out.get(c, 0) + 1
    return out


# ---------------------------------------------------------------------------------------------
# Goal cards (spec 11.4)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    id: str
    title: str
    kind: str
    """``district``, ``count``, ``track``, ``all_plots`` or ``first_finished``."""
    type: str = ""
    track: str = ""


def _load_goals() -> tuple[int, dict[str, Goal]]:
    data = _load("goals.json")
    goals: dict[str, Goal] = {}
    for row in data["goals"]:
        g = Goal(
            str(row["id"]), str(row["title"]), str(row["kind"]), str(row.get("type", "")), str(row.get("track", ""))
        )
        if g.kind in ("district", "count") and g.type not in TYPES:
            raise ValueError(f"goals.json: {g.id} names unknown type {g.type!r}")
        if g.kind == "track" and g.track not in TRACKS:
            raise ValueError(f"goals.json: {g.id} names unknown track {g.track!r}")
        if g.kind not in ("district", "count", "track", "all_plots", "first_finished"):
            raise ValueError(f"goals.json: {g.id} has unknown kind {g.kind!r}")
        goals[g.id] = g
    return int(data["points"]), goals


GOAL_POINTS, GOALS = _load_goals()


# ---------------------------------------------------------------------------------------------
# Geometry (spec 3)
# ---------------------------------------------------------------------------------------------


def square_name(index: int) -> str:
    """Square index -> ``"A1"`` .. ``"E5"`` (column letter, row number)."""
    if 0 <= index < SIZE * SIZE:
        return SQUARE_NAMES[index]
    row, col = divmod(index, SIZE)
    return f"{'ABCDE'[col]}{row + 1}"


SQUARE_NAMES = tuple(f"{'ABCDE'[i % SIZE]}{i // SIZE + 1}" for i in SQUARES)
"""Every square's name, by index (the legal moves name squares by the thousand)."""


def square_index(name: object) -> int | None:
    """``"B2"`` -> its index; None when the text is not a square of the 5 x 5 board."""
    if not isinstance(name, str):
        return None
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in "ABCDE" or text[1] not in "12345":
        return None
    return (int(text[1]) - 1) * SIZE + "ABCDE".index(text[0])


def parse_plot(name: object) -> int:
    """A plot name -> index; IllegalMove for a non-square or for the centre."""
    index = square_index(name)
    if index is None:
        raise core.IllegalMove("urbanpanic.bad_plot", plot=str(name))
    if index == CENTRE:
        raise core.IllegalMove("urbanpanic.centre", plot="C3")
    return index


def _links() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    out = []
    for index in SQUARES:
        cell = divmod(index, SIZE)
        row = []
        for (dr, dc), side in zip(core.ORTHOGONAL, SIDES):
            nxt = (cell[0] + dr, cell[1] + dc)
            if core.in_grid(nxt, SIZE, SIZE):
                row.append((nxt[0] * SIZE + nxt[1], SIDE_BIT[side], SIDE_BIT[OPPOSITE[side]]))
        out.append(tuple(row))
    return tuple(out)


NEIGHBOURS = _links()
"""For each square: (neighbour, my side bit facing it, its side bit facing me)."""
FULL_MASK = 15


MASKS: dict[str, int] = {code: k.mask for code, k in KINDS.items()}
"""Each tile code's open sides as bits (:attr:`TileKind.mask`), for the network search."""


def _steps(mask: int, here: int) -> tuple[tuple[int, int, int], ...]:
    return tuple((nxt, 1 << nxt, theirs) for nxt, mine, theirs in NEIGHBOURS[here] if mask & mine)


STEPS = {code: tuple(_steps(m, here) for here in SQUARES) for code, m in MASKS.items()}
"""The network search's table, built once: for a tile code on a square, each neighbour its passages face, as
(neighbour, the neighbour's bit, its side bit facing back)."""
_CENTRE_BIT = 1 << CENTRE
_CENTRE_STEPS = _steps(FULL_MASK, CENTRE)


def reach_bits(board: Sequence[str | None]) -> tuple[int, int]:
    """:func:`reach` as two bit sets (bit ``i`` for square ``i``): the AI's valuation calls it on every
    board it weighs."""
    seen = _CENTRE_BIT
    frontier = 0
    stack = [_CENTRE_STEPS]
    while stack:
        for nxt, bit, theirs in stack.pop():
            if seen & bit:
                continue
            code = board[nxt]
            if code is None:
                frontier |= bit
            elif MASKS[code] & theirs:
                seen |= bit
                stack.append(STEPS[code][nxt])
    return seen ^ _CENTRE_BIT, frontier


def squares_of(bits: int) -> set[int]:
    """The squares of a bit set."""
    return {i for i in SQUARES if bits >> i & 1}


def reach(board: Sequence[str | None]) -> tuple[set[int], set[int]]:
    """(linked, frontier): the squares holding a tile that a chain of links joins to the centre
    (spec 3.3, 3.4), and the empty plots that an open passage of the centre or of a linked tile
    faces (where a new tile could join the network).

    Two squares are linked when both hold something (a tile, or the centre) and each has a passage
    on the edge facing the other. The centre itself is in neither set.
    """
    linked, frontier = reach_bits(board)
    return squares_of(linked), squares_of(frontier)


def reachable(board: Sequence[str | None]) -> set[int]:
    """Squares holding a tile that reach the centre (see :func:`reach`)."""
    return reach(board)[0]


def districts(board: Sequence[str | None], typ: str) -> list[list[int]]:
    """Side-adjacent groups of tiles of one type, passages ignored (spec 3.5)."""
    members = [divmod(i, SIZE) for i in PLOTS if board[i] is not None and KINDS[board[i]].type == typ]  # type: ignore[index]
    return [[r * SIZE + c for r, c in group] for group in core.connected_groups(members)]


def empty_board() -> list[str | None]:
    return [None] * (SIZE * SIZE)


def tracks_of(board: Iterable[str | None]) -> Tracks:
    """Σ legend rows over the tiles on a board (the party game's tracks, spec 12)."""
    total = ZERO
    for code in board:
        if code is not None:
            total = add(total, KINDS[code].deltas)
    return total


# ---------------------------------------------------------------------------------------------
# The spec's test-grid notation (spec 5.1, 15): ``F:NE..``, ``------`` (empty), ``CENTRE``.
# ---------------------------------------------------------------------------------------------

EMPTY_TOKENS = ("------", ".", "-")
CENTRE_TOKENS = ("CENTRE", "CENTER", "C")


def token_code(token: str) -> str | None:
    """``"F:NE.."`` -> ``"FAC-NE"``; None when the token is not in the notation."""
    if len(token) != 6 or token[1] != ":":
        return None
    typ = TYPE_BY_LETTER.get(token[0].upper())
    sides = token[2:].upper()
    if typ is None or any(ch not in (side, ".") for ch, side in zip(sides, SIDES)):
        return None
    passages = "".join(ch for ch in sides if ch != ".")
    return f"{typ}-{passages}"


def code_token(code: str) -> str:
    """``"FAC-NE"`` -> ``"F:NE.."``."""
    k = KINDS[code]
    return f"{TYPES[k.type].letter}:" + "".join(s if s in k.passages else "." for s in SIDES)
