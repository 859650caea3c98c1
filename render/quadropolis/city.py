"""Quadropolis: the construction site and a city drawn."""

from __future__ import annotations

from typing import cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.quadropolis.tiles import SLOTS
from bot.rules.quadropolis.viewtypes import QuadCity, QuadCitySquare, QuadPending
from render import common as c
from render.quadropolis.base import (
    CITY_GAP,
    FIELD_TEXT,
    LABEL_SPACE,
    SITE_CELL,
    SITE_GAP,
    SITE_SLOT,
    View,
    _building_overlays,
    _gives_chips,
    _tile_chip_size,
    _tile_key,
    slot_label,
)

# ---------------------------------------------------------------------------------------------
# Construction site
# ---------------------------------------------------------------------------------------------


def site_size(cell: int = SITE_CELL, slot: int = SITE_SLOT, gap: int = SITE_GAP) -> int:
    """Side of the construction-site block (grid plus the four slot bands)."""
    return 5 * cell + 4 * gap + 2 * slot


def draw_site(
    img: Image.Image,
    xy: tuple[int, int],
    view: View,
    cell: int = SITE_CELL,
    slot: int = SITE_SLOT,
    gap: int = SITE_GAP,
    *,
    locale: str = "en",
) -> c.Box:
    """The 5x5 site with its 20 slots around it, each free slot named as the sentences name it (an arrow
    the way its architect points and the row or column: :func:`slot_label`); returns the block's box.
    The urbanist stands on the square the last tile was taken from, outlined."""
    draw = ImageDraw.Draw(img)
    site = view.get("site") or {}
    x0, y0 = xy
    gx, gy = x0 + slot, y0 + slot
    side = site_size(cell, slot, gap)
    draw.rounded_rectangle(
        (gx - 6, gy - 6, gx + side - 2 * slot + 6, gy + side - 2 * slot + 6),
        radius=10,
        fill=(214, 207, 192),
        outline=c.PANEL_EDGE,
        width=2,
    )

    def cell_box(r: int, col: int) -> c.Box:
        x = gx + col * (cell + gap)
        y = gy + r * (cell + gap)
        return (x, y, x + cell, y + cell)

    urbanist = site.get("urbanist")
    chip_size = _tile_chip_size(cell)
    for r, row in enumerate(site.get("squares") or []):
        for col, square in enumerate(row):
            box = cell_box(r, col)
            c.mark_region(img, f"site:{r + 1},{col + 1}", box)
            state = square.get("state")
            if state == "tile" and square.get("tile"):
                c.draw_glyph(img, _tile_key(square["tile"]), box, locale=locale)
                _gives_chips(img, box, square["tile"], chip_size)
            elif state == "face_down":
                c.draw_face_down(img, box)
            else:
                draw.rounded_rectangle(box, radius=cell // 10, fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=1)
            if urbanist and urbanist.get("row") == r + 1 and urbanist.get("column") == col + 1:
                draw.rounded_rectangle(
                    (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), radius=cell // 8, outline=c.INK, width=4
                )
                inset = cell // 6
                c.draw_icon(img, "pawn", (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset))

    slots = site.get("slots") or {}
    open_slots = set(site.get("open_slots") or [])
    marker = slot - 10
    lfont = c.font(max(c.MIN_TEXT + 3, marker // 2), True)
    for name in SLOTS:
        i = int(name[1:]) - 1
        if name[0] in "LR":
            top = cell_box(i, 0)[1]
            cy = top + cell / 2
            cx = gx - slot / 2 - 2 if name[0] == "L" else gx + 5 * cell + 4 * gap + slot / 2 + 2
        else:
            left = cell_box(0, i)[0]
            cx = left + cell / 2
            cy = gy - slot / 2 - 2 if name[0] == "T" else gy + 5 * cell + 4 * gap + slot / 2 + 2
        box = (int(cx - marker / 2), int(cy - marker / 2), int(cx + marker / 2), int(cy + marker / 2))
        c.mark_region(img, f"slot:{name}", box)
        placed = slots.get(name)
        if placed:
            seat = int(placed.get("seat", 0))
            style = c.player_style(seat)
            c.draw_marker(img, style.shape, box, style.colour, str(placed.get("architect", "?")))
        elif name in open_slots:
            draw.rounded_rectangle(box, radius=marker // 4, fill=c.PANEL, outline=c.GRID_LINE, width=1)
            c.draw_text(draw, (cx, cy), slot_label(name, locale), lfont, c.MUTED, "mm", key=False)
        else:
            pad = marker // 4
            c.draw_icon(img, "removed", (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), (200, 196, 188))
    return (x0, y0, x0 + side, y0 + side)


# ---------------------------------------------------------------------------------------------
# Cities
# ---------------------------------------------------------------------------------------------


def city_block_size(city: QuadCity, cell: int) -> tuple[int, int]:
    """(width, height) of a city grid with its labels."""
    rows, cols = int(city.get("rows", 4)), int(city.get("columns", 4))
    return (LABEL_SPACE + cols * cell + (cols - 1) * CITY_GAP, LABEL_SPACE + rows * cell + (rows - 1) * CITY_GAP)


def _cell_for(city: QuadCity, width: int, most: int) -> int:
    """The largest square (at most ``most``) with which the city's grid fits ``width``."""
    cols = int(city.get("columns", 4))
    return min(most, (width - LABEL_SPACE - (cols - 1) * CITY_GAP) // cols)


def _field_lines(city: QuadCity, sq: QuadCitySquare, room: int, locale: str) -> list[str] | None:
    """An empty Expert square's district and field in lines of :data:`FIELD_TEXT` px that fit ``room``,
    whole words only; None when they do not."""
    fnt = c.font(FIELD_TEXT)
    lines: list[str] = []
    for text in (
        t("quadropolis.render.district", locale, district=sq.get("district")),
        t("quadropolis.render.field", locale, field=sq.get("field")),
    ):
        lines += c.wrap(text, fnt, room)
    if any(c.text_width(line, fnt) > room for line in lines):
        return None
    return lines


def draw_city(
    img: Image.Image,
    xy: tuple[int, int],
    city: QuadCity,
    cell: int,
    *,
    show_allocation: bool = True,
    pending: QuadPending | None = None,
    fields: bool = True,
    labels: bool = True,
    locale: str = "en",
) -> c.GridGeometry:
    """A city grid: buildings with floors and points, district borders, labels A-D / 1-4(5).

    ``show_allocation`` fades buildings the (best) allocation leaves inactive and shows customers
    and energy absorbed by parks. ``pending`` (the view's pending build) outlines the squares the
    tile may go to, with the floor it would become. ``fields``: an empty Expert square names its
    district and field (where the squares are large enough for the words). ``labels``: the rows' letters
    and the columns' numbers (a finished game's cities leave them out: nothing is built any more).
    """
    draw = ImageDraw.Draw(img)
    rows, cols = int(city.get("rows", 4)), int(city.get("columns", 4))
    squares = city.get("squares") or []
    geo = c.labelled_grid(
        draw,
        xy,
        rows,
        cols,
        cell,
        gap=CITY_GAP,
        label_space=LABEL_SPACE,
        row_labels=None if labels else [],
        col_labels=None if labels else [],
        label_size=max(c.MIN_TEXT + 3, LABEL_SPACE - 10),
        fill=None,
    )
    score = city.get("score")
    expert = any(sq.get("field") for row in squares for sq in row)
    ffont = c.font(FIELD_TEXT)
    for r in range(rows):
        for col in range(cols):
            box = geo.cell_box(r, col)
            sq = squares[r][col] if r < len(squares) and col < len(squares[r]) else cast(QuadCitySquare, {})
            c.mark_region(img, f"square:{c.row_letters(r + 1)[r]}{col + 1}", box)
            building = sq.get("building")
            if building:
                faded = show_allocation and not building.get("active", True)
                c.draw_glyph(img, _tile_key(building), box, faded=faded, locale=locale)
                _building_overlays(img, box, building, str(sq.get("square", "")), score, show_allocation)
                continue
            draw.rounded_rectangle(box, radius=max(3, cell // 12), fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=1)
            lines = _field_lines(city, sq, box[2] - box[0] - 12, locale) if expert and fields else None
            step = FIELD_TEXT + 4
            if lines and len(lines) * step <= cell - 12:
                for k, line in enumerate(reversed(lines)):
                    c.draw_text(draw, (box[0] + 7, box[3] - 6 - k * step), line, ffont, c.MUTED, "lb", key=False)
    # district borders: a thick line wherever two neighbouring squares lie in different districts
    half = CITY_GAP / 2
    for r in range(rows):
        for col in range(cols):
            d = (squares[r][col] or {}).get("district") if r < len(squares) else None
            if col + 1 < cols and (squares[r][col + 1] or {}).get("district") != d:
                b = geo.cell_box(r, col)
                draw.line((b[2] + half, b[1] - half, b[2] + half, b[3] + half), fill=c.INK, width=4)
            if r + 1 < rows and (squares[r + 1][col] or {}).get("district") != d:
                b = geo.cell_box(r, col)
                draw.line((b[0] - half, b[3] + half, b[2] + half, b[3] + half), fill=c.INK, width=4)
    if pending:
        pfont = c.font(max(c.MIN_TEXT + 5, cell // 5), True)
        for dest in pending.get("destinations") or []:
            name = str(dest.get("square", ""))
            cell_rc = _parse_square(name)
            if cell_rc is None or not (0 <= cell_rc[0] < rows and 0 <= cell_rc[1] < cols):
                continue
            box = geo.cell_box(*cell_rc)
            draw.rounded_rectangle(
                (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), radius=max(4, cell // 10), outline=c.INK, width=7
            )
            draw.rounded_rectangle(
                (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1),
                radius=max(4, cell // 10),
                outline=c.HIGHLIGHT,
                width=4,
            )
            floor = int(dest.get("floor", 1))
            label = f"{name} ↑{floor}" if floor > 1 else name
            c.draw_text(
                draw,
                ((box[0] + box[2]) / 2, box[1] + (box[3] - box[1]) * 0.3),
                label,
                pfont,
                c.INK,
                "mm",
                c.HIGHLIGHT,
                3,
                key=False,
            )
    return geo


def _parse_square(name: str) -> tuple[int, int] | None:
    """City square name "B3" -> (1, 2)."""
    try:
        return (ord(name[0].upper()) - ord("A"), int(name[1:]) - 1)
    except (IndexError, ValueError):
        return None
