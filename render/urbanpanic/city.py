"""Urban Panic: a city drawn (its plots, roads, tiles) and a tile's sprite."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.rules.urbanpanic.viewtypes import UpCell, UpCentre, UpPlot
from render import common as c
from render.urbanpanic.base import (
    CUT_PLOT,
    DIRS,
    LABEL_SPACE,
    LINKED_PLOT,
    OPPOSITE,
    ROAD,
    ROAD_OFF,
    SIZE,
    _key,
    _passages,
    _passages_of,
    _type_of,
)


def _road(draw: ImageDraw.ImageDraw, box: c.Box, side: str, colour: c.RGB, inner: float, linked: bool) -> None:
    """A road from the tile's inner square to the edge on ``side``; a dead end stops short with a bar."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    w = max(6, round(s * 0.15))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    reach = s / 2 if linked else s / 2 - max(4, s * 0.08)
    start = s * inner / 2
    if side in "NS":
        sign = -1 if side == "N" else 1
        a, b = cy + sign * start, cy + sign * reach
        draw.rectangle((cx - w / 2, min(a, b), cx + w / 2, max(a, b)), fill=colour)
        if not linked:
            draw.rectangle((cx - w, b - sign * 3 - 2, cx + w, b - sign * 3 + 2), fill=colour)
        else:
            for k in range(3):
                ya = a + sign * (4 + k * (abs(b - a) / 3))
                draw.line((cx, ya, cx, ya + sign * abs(b - a) / 7), fill=c.WHITE, width=max(1, w // 6))
    else:
        sign = -1 if side == "W" else 1
        a, b = cx + sign * start, cx + sign * reach
        draw.rectangle((min(a, b), cy - w / 2, max(a, b), cy + w / 2), fill=colour)
        if not linked:
            draw.rectangle((b - sign * 3 - 2, cy - w, b - sign * 3 + 2, cy + w), fill=colour)
        else:
            for k in range(3):
                xa = a + sign * (4 + k * (abs(b - a) / 3))
                draw.line((xa, cy, xa + sign * abs(b - a) / 7, cy), fill=c.WHITE, width=max(1, w // 6))


INNER = 0.62
"""The building glyph takes this fraction of a plot; roads run in the margin around it."""


def _hatch(draw: ImageDraw.ImageDraw, box: c.Box, colour: c.RGB) -> None:
    x0, y0, x1, y1 = box
    step = max(8, (x1 - x0) // 7)
    for k in range(-(y1 - y0), x1 - x0, step):
        draw.line(
            (x0 + max(0, k), y0 + max(0, -k), x0 + min(x1 - x0, k + (y1 - y0)), y0 + min(y1 - y0, (x1 - x0) - k)),
            fill=colour,
            width=2,
        )


def draw_city(
    img: Image.Image,
    xy: tuple[int, int],
    grid: Sequence[Sequence[UpCell]],
    cell: int,
    *,
    removed: Sequence[str] = (),
    highlight: Sequence[str] = (),
    locale: str = "en",
) -> c.GridGeometry:
    """A 5 x 5 city with its roads; returns the geometry.

    A passage links only when the neighbouring tile (or the centre) has the facing passage: then
    the road runs to the edge and continues. Tiles not reachable from the centre (or listed in
    ``removed`` at scoring) are hatched, faded and crossed. Plots in ``highlight`` ("C4": column letter,
    row number) get a thick double frame (highlight colour outside, ink inside): what just changed.
    """
    draw = ImageDraw.Draw(img)
    geo = c.labelled_grid(
        draw,
        xy,
        SIZE,
        SIZE,
        cell,
        row_labels=[str(i + 1) for i in range(SIZE)],
        col_labels=[chr(ord("A") + i) for i in range(SIZE)],
        gap=0,
        label_space=LABEL_SPACE,
        label_size=24,
        fill=None,
    )
    for r in range(SIZE):
        for col in range(SIZE):
            c.mark_region(img, f"plot:{chr(ord('A') + col)}{r + 1}", geo.cell_box(r, col))
    removed_set = set(removed)

    def at(r: int, col: int) -> UpCell:
        if 0 <= r < SIZE and 0 <= col < SIZE and r < len(grid) and col < len(grid[r]):
            return grid[r][col]
        return None

    def cut(cell_info: UpPlot | UpCentre) -> bool:
        return (not cell_info.get("centre")) and (
            not cell_info.get("reachable", True) or cell_info.get("plot") in removed_set
        )

    for r in range(SIZE):
        for col in range(SIZE):
            box = geo.cell_box(r, col)
            info = at(r, col)
            if info is None:
                draw.rectangle(box, fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=1)
                continue
            draw.rectangle(box, fill=CUT_PLOT if cut(info) else LINKED_PLOT, outline=c.GRID_LINE, width=1)
            if cut(info):
                _hatch(draw, box, (214, 196, 188))
    # roads first, then the buildings on top of their inner squares
    for r in range(SIZE):
        for col in range(SIZE):
            info = at(r, col)
            if info is None:
                continue
            box = geo.cell_box(r, col)
            off = cut(info)
            for side in _passages(info):
                dr, dc = DIRS[side]
                other = at(r + dr, col + dc)
                linked = bool(other) and OPPOSITE[side] in _passages(other)
                _road(draw, box, side, ROAD_OFF if off else ROAD, INNER, linked)
    for r in range(SIZE):
        for col in range(SIZE):
            info = at(r, col)
            if info is None:
                continue
            box = geo.cell_box(r, col)
            pad = round(cell * (1 - INNER) / 2)
            inner = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
            if info.get("centre"):
                draw.rounded_rectangle(inner, radius=cell // 12, fill=c.PANEL, outline=c.INK, width=3)
                ipad = (inner[2] - inner[0]) // 8
                c.draw_icon(img, "centre", (inner[0] + ipad, inner[1] + ipad, inner[2] - ipad, inner[3] - ipad))
                continue
            off = cut(info)
            c.draw_glyph(
                img,
                _key(str(info.get("type") or _type_of(str(info.get("tile", "?"))))),
                inner,
                faded=off,
                locale=locale,
            )
            if off:
                isz = cell // 4
                c.draw_icon(img, "removed", (box[2] - isz - 3, box[1] + 3, box[2] - 3, box[1] + 3 + isz))
    for plot in highlight:
        col, row = ord(plot[:1].upper()) - ord("A"), int(plot[1:] or 0) - 1
        if 0 <= row < SIZE and 0 <= col < SIZE:
            x0, y0, x1, y1 = geo.cell_box(row, col)
            draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=c.HIGHLIGHT, width=7)
            draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=c.INK, width=2)
    return geo


@lru_cache(maxsize=256)
def tile_sprite(code: str, size: int, locale: str = "en") -> Image.Image:
    """A loose tile (main board, reserve, hand): plot, its roads to every open edge, the building."""
    img = Image.new("RGB", (size, size), c.PANEL)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 10, fill=LINKED_PLOT, outline=c.INK, width=2)
    for side in _passages_of(code):
        _road(draw, (0, 0, size, size), side, ROAD, INNER, True)
    pad = round(size * (1 - INNER) / 2)
    c.draw_glyph(img, _key(_type_of(code)), (pad, pad, size - pad, size - pad), locale=locale)
    return img
