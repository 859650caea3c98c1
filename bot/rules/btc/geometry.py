"""Placement geometry (spec section 6, decisions D-5 and D-26).

A grid city lives on a 7 x 7 *frame* (cells ``A1`` … ``G7``): its first tile goes to the centre
``D4`` (relative ``(0, 0)`` of the spec), and the 4 x 4 limit keeps every later tile inside the
frame, so the frame is exactly the set of cells a city can ever reach. Spec coordinates
``(r, c)`` are frame cells ``(r + 3, c + 3)``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from bot.rules import core
from bot.rules.btc import tiles as T

Cell = core.Cell
Shape = tuple[Cell, ...]

FRAME = 7
SIDE = 4
CENTER: Cell = (3, 3)

SINGLE_SHAPE: Shape = ((0, 0),)
HORIZONTAL_SHAPE: Shape = ((0, 0), (0, 1))
VERTICAL_SHAPE: Shape = ((0, 0), (1, 0))


def shape_of(kind: T.TileKind, turned: bool = False) -> Shape:
    """The cells a tile covers relative to its anchor (first face first).

    ``turned``: a stranded duplex laid along the other axis (D-5 c), first face left/top.
    """
    if kind.shape == T.SINGLE:
        return SINGLE_SHAPE
    horizontal = kind.orientation == T.HORIZONTAL
    if turned:
        horizontal = not horizontal
    return HORIZONTAL_SHAPE if horizontal else VERTICAL_SHAPE


def cover(anchor: Cell, shape: Shape) -> list[Cell]:
    """The cells covered by a tile of ``shape`` anchored at ``anchor``."""
    return [(anchor[0] + dr, anchor[1] + dc) for dr, dc in shape]


def to_spec(cell: Cell) -> Cell:
    """Frame cell -> the spec's relative coordinates (first tile at ``(0, 0)``)."""
    return (cell[0] - CENTER[0], cell[1] - CENTER[1])


def from_spec(cell: Cell) -> Cell:
    """The spec's relative coordinates -> frame cell."""
    return (cell[0] + CENTER[0], cell[1] + CENTER[1])


def bounds(cells: Iterable[Cell]) -> tuple[int, int, int, int] | None:
    """(min row, max row, min col, max col) of the cells, or None when there are none."""
    rows: list[int] = []
    cols: list[int] = []
    for r, c in cells:
        rows.append(r)
        cols.append(c)
    if not rows:
        return None
    return min(rows), max(rows), min(cols), max(cols)


def problem(occupied: Collection[Cell], covered: Sequence[Cell]) -> str | None:
    """Why a tile may not cover these cells (a catalogue key suffix), or None when it may (6.2)."""
    if not occupied:
        return None if covered[0] == CENTER and all(core.in_grid(x, FRAME, FRAME) for x in covered) else "first_centre"
    if any(x in occupied for x in covered):
        return "occupied"
    if not any((r + dr, c + dc) in occupied for r, c in covered for dr, dc in core.ORTHOGONAL):
        return "not_touching"
    box = bounds([*occupied, *covered])
    assert box is not None
    if box[1] - box[0] >= SIDE or box[3] - box[2] >= SIDE or not all(core.in_grid(x, FRAME, FRAME) for x in covered):
        return "too_big"
    return None


def anchors(occupied: Collection[Cell], shape: Shape) -> list[Cell]:
    """Every anchor where a tile of ``shape`` may go (6.2), sorted."""
    if not occupied:
        return [CENTER] if problem(occupied, cover(CENTER, shape)) is None else []
    box = bounds(occupied)
    assert box is not None
    r0, r1, c0, c1 = box
    lo_r, hi_r = r1 - SIDE + 1, r0 + SIDE - 1
    lo_c, hi_c = c1 - SIDE + 1, c0 + SIDE - 1
    found: set[Cell] = set()
    for r, c in occupied:
        for dr, dc in core.ORTHOGONAL:
            e = (r + dr, c + dc)
            if e in occupied or not (lo_r <= e[0] <= hi_r and lo_c <= e[1] <= hi_c):
                continue
            for sr, sc in shape:
                a = (e[0] - sr, e[1] - sc)
                if a in found:
                    continue
                if all(
                    x not in occupied
                    and lo_r <= x[0] <= hi_r
                    and lo_c <= x[1] <= hi_c
                    and core.in_grid(x, FRAME, FRAME)
                    for x in cover(a, shape)
                ):
                    found.add(a)
    return sorted(found)


def legal_anchors(occupied: Collection[Cell], shape: Shape, others: Sequence[Shape] = ()) -> list[Cell]:
    """Anchors for a tile, keeping a spot for the other tiles bound for this city (D-5 b).

    ``others`` are the shapes of the other tiles already assigned to the same city this turn.
    Anchors that leave one of them with no legal spot are dropped, provided some anchor avoids
    that; otherwise every anchor stays.
    """
    spots = anchors(occupied, shape)
    if not others or len(spots) < 2:
        return spots
    good = []
    for a in spots:
        after = set(occupied)
        after.update(cover(a, shape))
        if all(anchors(after, o) for o in others):
            good.append(a)
    return good or spots


def normalised(cells: Iterable[Cell]) -> dict[Cell, Cell]:
    """Frame cell -> cell of the city's own grid (its minimum row and column become 0; 6.4)."""
    pool = list(cells)
    box = bounds(pool)
    if box is None:
        return {}
    return {(r, c): (r - box[0], c - box[2]) for r, c in pool}
