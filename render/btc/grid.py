"""Between Two Cities: a city's grid drawn (:func:`draw_city_grid`, its buildings on the frame window, the open
cells named), the sizes it takes, and Automacity's heap of tiles in place of a grid (:func:`_loose`).

Split from ``render/btc/city.py`` (the module budget, ARCHITECTURE.md), which re-exports its names."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.rules.btc.viewtypes import BtcCity
from render import common as c
from render.btc.base import AXIS_TEXT, CELL_CAP, CITY_GAP, LABEL_SPACE, _cell_name, _face_key, _parse, _window


def draw_city_grid(
    img: Image.Image,
    xy: tuple[int, int],
    city: BtcCity,
    max_side: int,
    *,
    placing: bool = False,
    cell_cap: int | None = None,
    locale: str = "en",
) -> c.GridGeometry:
    """The city on its frame window: buildings (duplex halves joined, badges in ``locale``), open cells
    outlined and named. Rows and columns are named only while ``placing`` (a finished city needs no
    coordinates)."""
    draw = ImageDraw.Draw(img)
    r0, c0, rows, cols = _window(city, placing)
    cell = _cell_size(rows, cols, max_side, cell_cap, placing)
    space = _label_space(placing)
    cells = city.get("cells") or {}
    open_cells = set(city.get("open") or []) if placing else set()

    def fill(r: int, col: int) -> c.RGB | None:
        name = _cell_name(r0 + r, c0 + col)
        if name in cells:
            return None
        return c.PANEL if name in open_cells else c.EMPTY_CELL

    geo = c.labelled_grid(
        draw,
        xy,
        rows,
        cols,
        cell,
        row_labels=[chr(ord("A") + r0 + r) for r in range(rows)] if placing else [],
        col_labels=[str(c0 + col + 1) for col in range(cols)] if placing else [],
        gap=CITY_GAP,
        label_space=space,
        label_size=AXIS_TEXT,
        fill=fill,
    )
    for r in range(rows):
        for col in range(cols):
            c.mark_region(img, f"city:{city.get('city')}:{_cell_name(r0 + r, c0 + col)}", geo.cell_box(r, col))
    # duplex halves: one dark band under both squares, so the pair reads as one tile
    for name, info in cells.items():
        other = info.get("other")
        if not other or info.get("half") != 1:
            continue
        a, b = _parse(name), _parse(str(other))
        if not all(r0 <= p[0] < r0 + rows and c0 <= p[1] < c0 + cols for p in (a, b)):
            continue
        ba, bb = geo.cell_box(a[0] - r0, a[1] - c0), geo.cell_box(b[0] - r0, b[1] - c0)
        draw.rounded_rectangle(
            (min(ba[0], bb[0]) - 3, min(ba[1], bb[1]) - 3, max(ba[2], bb[2]) + 3, max(ba[3], bb[3]) + 3),
            radius=max(4, cell // 8),
            fill=c.INK,
        )
    for name, info in cells.items():
        r, col = _parse(name)
        if r0 <= r < r0 + rows and c0 <= col < c0 + cols:
            c.draw_glyph(img, _face_key(str(info.get("face", "?"))), geo.cell_box(r - r0, col - c0), locale=locale)
    if open_cells:
        ofont = c.font(max(c.MIN_TEXT + 3, cell // 4), True)
        for name in open_cells:
            r, col = _parse(name)
            if r0 <= r < r0 + rows and c0 <= col < c0 + cols:
                box = geo.cell_box(r - r0, col - c0)
                draw.rounded_rectangle(box, radius=max(3, cell // 12), outline=c.INK, width=3)
                c.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), name, ofont, c.MUTED, "mm", key=False)
    return geo


def _label_space(placing: bool) -> int:
    return LABEL_SPACE if placing else 0


def _cell_size(rows: int, cols: int, max_side: int, cap: int | None = None, placing: bool = False) -> int:
    n = max(rows, cols)
    return min(cap or CELL_CAP, (max_side - _label_space(placing) - (n - 1) * CITY_GAP) // n)


def _grid_side(cell: int, n: int, placing: bool) -> int:
    """The side a grid of ``n`` cells of ``cell`` pixels takes (labels included)."""
    return _label_space(placing) + n * cell + (n - 1) * CITY_GAP


def _grid_width(city: BtcCity, max_side: int, placing: bool) -> tuple[int, int]:
    """(width, height) of :func:`draw_city_grid`'s block, labels included."""
    _, _, rows, cols = _window(city, placing)
    cell = _cell_size(rows, cols, max_side, None, placing)
    space = _label_space(placing)
    return (space + cols * cell + (cols - 1) * CITY_GAP, space + rows * cell + (rows - 1) * CITY_GAP)


def _loose(img: Image.Image, xy: tuple[int, int], width: int, city: BtcCity, locale: str = "en") -> int:
    """Automacity: its tiles in a heap, no grid; returns the bottom y."""
    x, y = xy
    size = 60
    per_row = max(1, width // (size + 6))
    loose = city.get("loose") or []
    for k, item in enumerate(loose):
        r, col = divmod(k, per_row)
        bx, by = x + col * (size + 6), y + r * (size + 6)
        c.draw_glyph(img, _face_key(str(item.get("face", "?"))), (bx, by, bx + size, by + size), locale=locale)
    rows = max(1, (len(loose) + per_row - 1) // per_row)
    return y + rows * (size + 6)
