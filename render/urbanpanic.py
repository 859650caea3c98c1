"""Urban Panic images, drawn from a rules view (``RULES.view(state, seat)``; shape in its docstring).

Designed for a phone: Discord shows a picture about 400 px wide (800 px at 2x zoom), so the pictures are
portrait, the key facts (the title, whose turn, the players' names, the built counts and the tracks'
values, the final totals) are drawn at least ``c.KEY_TEXT`` px and every other word at least
``c.MIN_TEXT`` px (for a picture 1200 px wide; ``tests/render/test_urbanpanic_phone.py``).

- :func:`turn_image` — the players one per row (name, built count, reserve, "to play"), then the
  acting player's city with its roads (passages), so whether a tile is connected to the centre reads at
  a glance: linked roads run on unbroken, a passage that meets nothing ends in a dead-end bar, and tiles
  cut off from the centre are faded, hatched and crossed; the plots of the latest turn are framed.
  Beside the city the five tracks, each its name over a bar with its value and the −5 floor; under it
  the actions left, the main board's four face-up tiles and the stack, the reserve, the goals, the legend.
- :func:`board_image` — every city with its tracks, one per row.
- :func:`end_image` — the final ranking (names and totals, each category's points under them), then
  every city as scored (cut-off tiles removed), one per row.

Each returns a PIL image; :mod:`render.pictures` binds them to the game behind the one PNG adapter.
Player names are not in the view; pass them as ``names`` (by seat), else "Player n". Every word
drawn comes from the message catalogue (``render.*``, ``urbanpanic.render.*``, and the rules' own goal,
end and tie-break sentences) in the keyword ``locale`` (default English), and so do the letters: the
legend's track letters (``urbanpanic.render.letter.*``) and each building's badge letter
(``urbanpanic.render.badge.*``, drawn by the shared glyph: ``Glyph.badge``), chosen per language
so no badge repeats a track letter (tests/urbanpanic/test_badges.py). A tile's open sides are drawn as
roads; text names the same sides with arrows (``bot.rules.urbanpanic.tiles.tile_term``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.urbanpanic.viewtypes import (
    UpAction,
    UpCell,
    UpCentre,
    UpPlayer,
    UpPlot,
    UpSeatDetails,
    UpTileType,
    UpView,
)
from render import common as c
from render.scores import decided_note, score_table_from_result

c.register_glyphs(
    "urbanpanic",
    {  # letters of the rules file, section 2.2
        "housing": c.Glyph(c.RESIDENTIAL, c.PAINTERS["house"], "H", "urbanpanic.render.kind.housing"),
        "offices": c.Glyph(c.OFFICE, c.PAINTERS["office"], "O", "urbanpanic.render.kind.offices"),
        "amusement": c.Glyph(c.LEISURE, c.PAINTERS["ferris"], "A", "urbanpanic.render.kind.amusement"),
        "factory": c.Glyph(c.INDUSTRY, c.PAINTERS["factory"], "F", "urbanpanic.render.kind.factory"),
        "power": c.Glyph(c.ENERGY_SUPPLY, c.PAINTERS["power"], "P", "urbanpanic.render.kind.power"),
        "park": c.Glyph(c.GREEN, c.PAINTERS["park"], "G", "urbanpanic.render.kind.park"),
    },
    aliases={"hou": "housing", "off": "offices", "amu": "amusement", "fac": "factory", "pow": "power",
             "prk": "park", "house": "housing", "office": "offices", "amusement_park": "amusement",
             "power_plant": "power"},
)

View = UpView
"""The view this module draws (``bot.rules.urbanpanic.viewtypes``)."""

WIDTH = c.IMAGE_WIDTH
MARGIN = 20
GAP = 12
SIZE = 5
LABEL_SPACE = 36
ROAD = (70, 70, 74)
ROAD_OFF = (190, 186, 180)
LINKED_PLOT = (226, 238, 228)
CUT_PLOT = (236, 226, 222)
TRACKS = ("residents", "jobs", "ecology", "income", "satisfaction")
"""The five tracks in view order; each names its icon and its catalogue ids (``urbanpanic.render.track.<id>``)."""
TYPE_KEYS = {
    "HOU": "urbanpanic.housing",
    "OFF": "urbanpanic.offices",
    "AMU": "urbanpanic.amusement",
    "FAC": "urbanpanic.factory",
    "POW": "urbanpanic.power",
    "PRK": "urbanpanic.park",
}
CATEGORIES: tuple[tuple[str, str, str | None], ...] = (
    ("residents", "urbanpanic.render.cat.residents", "residents"),
    ("jobs", "urbanpanic.render.cat.jobs", "jobs"),
    ("ecology", "urbanpanic.render.cat.ecology", "ecology"),
    ("income", "urbanpanic.render.cat.income", "income"),
    ("satisfaction", "urbanpanic.render.cat.satisfaction", "satisfaction"),
    ("empty_plots", "urbanpanic.render.cat.empty_plots", "empty_plot"),
    ("unemployment", "urbanpanic.render.cat.unemployment", "penalty"),
    ("goals", "urbanpanic.render.cat.goals", "points"),
    ("bonus", "urbanpanic.render.cat.bonus", "first"),
)
"""Score categories in table order: (id in the result, catalogue id of the column label, icon)."""
DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
VARIANTS = ("basic", "advanced", "party")
"""Variants with a name in the catalogue (``urbanpanic.render.variant.<variant>``)."""


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _names(view: View, names: Sequence[str] | None, locale: str = "en") -> list[str]:
    count = len(view.get("players") or [])
    given = list(names or [])
    return [
        given[i] if i < len(given) and given[i] else t("render.player_n", locale, n=i + 1)
        for i in range(count)
    ]


def _type_of(code: str) -> str:
    return code.split("-")[0].upper()


def _passages_of(code: str) -> str:
    return code.split("-")[1].upper() if "-" in code else ""


def _key(type_id: str) -> str:
    return TYPE_KEYS.get(type_id.upper(), c.glyph_key("urbanpanic", type_id))


def _passages(cell: UpCell) -> str:
    if not cell:
        return ""
    if cell.get("centre"):
        return "NESW"
    return str(cell.get("passages") or _passages_of(str(cell.get("tile", ""))))


def _road(
    draw: ImageDraw.ImageDraw, box: c.Box, side: str, colour: c.RGB, inner: float, linked: bool
) -> None:
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
            (
                x0 + max(0, k),
                y0 + max(0, -k),
                x0 + min(x1 - x0, k + (y1 - y0)),
                y0 + min(y1 - y0, (x1 - x0) - k),
            ),
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
                c.draw_icon(
                    img, "centre", (inner[0] + ipad, inner[1] + ipad, inner[2] - ipad, inner[3] - ipad)
                )
                continue
            off = cut(info)
            c.draw_glyph(
                img, _key(str(info.get("type") or _type_of(str(info.get("tile", "?"))))), inner, faded=off,
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
    draw.rounded_rectangle(
        (0, 0, size - 1, size - 1), radius=size // 10, fill=LINKED_PLOT, outline=c.INK, width=2
    )
    for side in _passages_of(code):
        _road(draw, (0, 0, size, size), side, ROAD, INNER, True)
    pad = round(size * (1 - INNER) / 2)
    c.draw_glyph(img, _key(_type_of(code)), (pad, pad, size - pad, size - pad), locale=locale)
    return img


# ---------------------------------------------------------------------------------------------
# Phone sizes
# ---------------------------------------------------------------------------------------------

KEY = c.KEY_TEXT
"""A key fact (a name, a score, whose turn, the title) is drawn at least this size (11 px on a phone)."""
SMALL = c.MIN_TEXT
"""Every other word at least this size (11 px at 2x zoom)."""
NAME_SIZE = 38
VALUE_SIZE = 38
HEADING_SIZE = 30
TEXT_SIZE = 24


def _lines(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, width: int, size: int, bold: bool = False,
    fill: c.RGB = c.INK, *, key: bool, min_size: int = SMALL, max_lines: int = 4, anchor: str = "la",
) -> int:
    """``text`` wrapped under ``xy``; returns the y under the last line."""
    lines, fnt = c.fit_lines(text, width, size, bold, min_size, max_lines)
    x, y = xy
    step = round(fnt.size * 1.25)
    for line in lines:
        c.draw_text(draw, (x, y), line, fnt, fill, anchor, key=key)
        y += step
    return int(y)


def _heading(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int) -> int:
    """A section heading (not a key fact, but read at a glance); returns the y under it."""
    return _lines(draw, xy, text, width, HEADING_SIZE, True, key=False, min_size=22, max_lines=2) + 4


# ---------------------------------------------------------------------------------------------
# Tracks
# ---------------------------------------------------------------------------------------------

TRACK_ROW = 84
"""A track's height: its icon and name on one line, its bar and value under them."""
TRACK_MARKS = 30


def tracks_height(lost: bool = False) -> int:
    return len(TRACKS) * TRACK_ROW + TRACK_MARKS + (56 if lost else 0)


def draw_tracks(
    img: Image.Image,
    box: c.Box,
    tracks: Sequence[int],
    floor: int = -5,
    lost: Sequence[int] | None = None,
    *,
    locale: str = "en",
) -> int:
    """The five tracks, each as its icon and name over a horizontal bar from zero with the value (a key
    fact, with its sign) at its right; the floor (−5) and zero marked under the bars. Returns the bottom y.

    The scale runs from below the floor to the largest value; the colour of a bar never carries meaning
    on its own (the number and its sign do). ``lost`` draws, as a hollow extension, what removal at
    scoring took off each track, explained under the marks.
    """
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = box
    vf = c.font(VALUE_SIZE, True)
    value_w = c.text_width("+88", vf) + 24  # apart from the bar, so the sign reads as a sign
    lo = min(floor - 2, *(v for v in tracks))
    hi = max(12, *(v + (lost[i] if lost else 0) for i, v in enumerate(tracks)))
    bx0, bx1 = x0 + 4, x1 - value_w

    def xof(v: float) -> float:
        return bx0 + (v - lo) / (hi - lo) * (bx1 - bx0)

    zero, fl = xof(0), xof(floor)
    isz = 34
    bar_h = 36
    for i, track in enumerate(TRACKS):
        top = y0 + i * TRACK_ROW
        c.draw_icon(img, track, (x0, top, x0 + isz, top + isz))
        name = t(f"urbanpanic.render.track.{track}", locale)
        c.draw_fitted(draw, (x0 + isz + 8, top + isz / 2), name, x1 - x0 - isz - 8, 28, True, c.INK, "lm", 20,
                      key=False)
        bt, bb = top + isz + 6, top + isz + 6 + bar_h
        mid = (bt + bb) / 2
        draw.rectangle((bx0, bt, bx1, bb), fill=(235, 232, 225))
        value = int(tracks[i]) if i < len(tracks) else 0
        colour = c.BLUISH_GREEN if value >= 0 else c.VERMILLION
        if lost and i < len(lost) and lost[i]:
            xa, xb = xof(value), xof(value + lost[i])
            draw.rectangle((min(xa, xb), bt + 4, max(xa, xb), bb - 4), outline=c.INK, width=3)
        if value:
            draw.rectangle((min(zero, xof(value)), bt + 4, max(zero, xof(value)), bb - 4), fill=colour,
                           outline=c.INK, width=2)
        text = f"{'+' if value > 0 else '-'}\u200a{abs(value)}" if value else "0"  # a hair space: OCR read "+1" as "41"
        c.draw_text(draw, (x1, mid), text, vf, c.INK, "rm", key=True)
    bottom = y0 + len(TRACKS) * TRACK_ROW
    for k in range(len(TRACKS)):
        top = y0 + k * TRACK_ROW + isz + 6
        draw.line((zero, top, zero, top + bar_h), fill=c.INK, width=3)
        for yy in range(top, top + bar_h, 9):
            draw.line((fl, yy, fl, yy + 5), fill=c.VERMILLION, width=3)
    mark = c.font(20, True)
    c.draw_text(draw, (zero, bottom - 8), "0", mark, c.INK, "ma", key=False)
    # the floor's dashes as a sample, then its words, right of the zero (the floor's own x is too near the edge)
    sx = zero + c.text_width("0", mark) / 2 + 16
    for yy in range(bottom - 8, bottom + 14, 9):
        draw.line((sx, yy, sx, yy + 5), fill=c.VERMILLION, width=3)
    floor_text = t("urbanpanic.render.floor", locale, floor=floor)
    c.draw_fitted(draw, (sx + 10, bottom - 8), floor_text, int(x1 - sx - 10), 20, True, c.shade(c.VERMILLION, 0.2),
                  "la", SMALL, key=False)
    bottom += TRACK_MARKS - 8
    if lost and any(lost):
        bottom = _lines(draw, (x0, bottom), t("urbanpanic.render.lost", locale), x1 - x0, 21, False, c.MUTED,
                        key=False, max_lines=2)
    return bottom


# ---------------------------------------------------------------------------------------------
# Strips and legend
# ---------------------------------------------------------------------------------------------


def _player_strip(
    img: Image.Image, box: c.Box, view: View, seat: int, name: str, locale: str = "en"
) -> int:
    """A player's strip: marker, name, then on the right the "to play" tag, the reserve, the first-finisher
    hat and the built count (the names and the count are key facts). A long name takes two lines at a key
    fact's size rather than shrinking. Returns the strip's height."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, _ = box
    player = (view.get("players") or [])[seat]
    active = view.get("current") == seat and not view.get("over")
    bf = c.font(34, True)
    built = t("urbanpanic.render.built", locale, count=player.get("tiles", 0))
    to_play = t("render.banner.to_play", locale)
    reserve = list(player.get("reserve") or [])
    tag_w = c.text_width(to_play, bf) + 78 if active else 0
    right_w = c.text_width(built, bf) + 16 + (46 if player.get("finisher") else 0) + len(reserve) * 51 + tag_w
    marker = 56
    room = int(x1 - x0 - marker - 36 - right_w - 16)
    lines, nf = c.fit_lines(name, max(120, room), NAME_SIZE, True, KEY, 2)
    h = max(66, 16 + len(lines) * round(nf.size * 1.3))
    y1 = y0 + h
    style = c.player_style(seat)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=18, fill=c.tint(style.colour, 0.88),
                           outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2), width=6 if active else 2)
    mid = (y0 + y1) / 2
    c.seat_marker(img, seat, (x0 + 10, int(mid - marker / 2), x0 + 10 + marker, int(mid + marker / 2)))
    right = x1 - 12
    if active:
        pill = (right - tag_w + 8, mid - 24, right, mid + 24)
        draw.rounded_rectangle(pill, radius=24, fill=c.HIGHLIGHT, outline=c.INK, width=2)
        c.draw_icon(img, "waiting", (int(pill[0] + 8), int(mid - 18), int(pill[0] + 44), int(mid + 18)))
        c.draw_text(draw, (right - 12, mid), to_play, bf, c.INK, "rm", key=True)
        right -= tag_w + 4
    c.draw_text(draw, (right, mid), built, bf, c.INK, "rm", key=True)
    right -= c.text_width(built, bf) + 16
    if player.get("finisher"):
        c.draw_icon(img, "first", (right - 40, int(mid - 20), right, int(mid + 20)))
        right -= 46
    for code in reversed(reserve):
        img.paste(tile_sprite(code, 48, locale), (right - 48, int(mid - 24)))
        right -= 51
    step = round(nf.size * 1.3)
    top = mid - step * len(lines) / 2 + step / 2
    for k, line in enumerate(lines):
        c.draw_text(draw, (x0 + marker + 36, top + k * step), line, nf, c.INK, "lm", key=True)
    return h


def _strips(img: Image.Image, top: int, view: View, who: list[str], locale: str = "en") -> int:
    """One strip per player, one per row."""
    y = top
    for seat, name in enumerate(who):
        y += _player_strip(img, (MARGIN, y, WIDTH - MARGIN, y), view, seat, name, locale) + 8
    return y


def _effects(deltas: Sequence[int], letters: Sequence[str]) -> str:
    return " ".join(f"{letters[i]}{d:+d}" for i, d in enumerate(deltas) if d)


def _type_name(tp: UpTileType, locale: str) -> str:
    """A tile type's name: the catalogue's for the six known types, else the view's, capitalised."""
    key = _key(str(tp.get("id", "")))
    if key in c.GLYPHS:
        return c.glyph_name(key, locale)
    return str(tp.get("name", "")).capitalize()


def _legend(img: Image.Image, top: int, view: View, locale: str = "en") -> int:
    """Each tile type with what it does to the tracks, the track letters, and what the cross means."""
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    legend = view.get("legend") or {}
    # The reader's letters (the catalogue's, e.g. Hungarian L M Ö B E); the rules' own only if a track is unknown.
    letters = [t(f"urbanpanic.render.letter.{track}", locale) for track in TRACKS] or legend.get("letters") or []
    entries = [
        (
            _key(str(tp["id"])),
            t(
                "urbanpanic.render.legend.type",
                locale,
                name=_type_name(tp, locale),
                effects=_effects(tp.get("deltas") or [], letters),
            ),
        )
        for tp in legend.get("types") or []
    ]
    y = c.legend(img, (MARGIN, top + 10), entries, WIDTH - 2 * MARGIN, 42, locale=locale)
    icons = [
        (track, t(f"urbanpanic.render.legend.track.{track}", locale, letter=letters[i]))
        for i, track in enumerate(TRACKS)
    ]
    icons += [("removed", t("urbanpanic.render.legend.cut_off", locale))]
    return c.legend(img, (MARGIN, y), [], WIDTH - 2 * MARGIN, 40, icons) + 4


def _title(view: View, locale: str = "en") -> str:
    if view.get("over"):
        return t("urbanpanic.render.title.over", locale)
    if view.get("variant") == "party":
        return t("urbanpanic.render.title.party", locale)
    return t("urbanpanic.render.title.turn", locale, turn=int(view.get("turn", 0)) + 1)


turn_title = board_title = _title
"""The turn counter this module draws in a turn or board picture's title (the web page's slider shows the same)."""


def _subtitle(view: View, locale: str = "en") -> str:
    variant = str(view.get("variant", ""))
    name = t(f"urbanpanic.render.variant.{variant}", locale) if variant in VARIANTS else variant
    return t("urbanpanic.render.subtitle", locale, variant=name, players=len(view.get("players") or []))


def changed_plots(view: View, seat: int) -> list[str]:
    """The plots of ``seat``'s city that its latest turn built on or changed (this turn's actions while it
    plays, else its previous turn's when it was the last to play): what the pictures outline."""
    actions: Sequence[UpAction] = ()
    if view.get("current") == seat and view.get("turn_log"):
        actions = view.get("turn_log") or []
    else:
        previous = view.get("previous_turn")
        if previous and previous.get("seat") == seat:
            actions = previous.get("actions") or []
    plots = []
    for action in actions:
        if action.get("kind") in ("planner", "engineer_board", "engineer_reserve", "spy"):
            plots += [str(p) for p in (action.get("plot"), action.get("other")) if p]
    return plots


# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _main_board(img: Image.Image, xy: tuple[int, int], width: int, view: View, locale: str = "en") -> int:
    """The four face-up tiles, numbered, and the stack (the party game: the open table and the pool);
    returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    board = view.get("main_board")
    party = view.get("party")
    if board is None and party is not None:
        y = _heading(draw, (x, y), t("urbanpanic.render.open_table", locale), width)
        size = 96
        per_row = max(1, width // (size + 8))
        opened = party.get("open_table") or []
        for k, code in enumerate(opened):
            r, col = divmod(k, per_row)
            img.paste(tile_sprite(code, size, locale), (x + col * (size + 8), y + r * (size + 8)))
            c.mark_region(img, f"table:{k}", (x + col * (size + 8), y + r * (size + 8),
                                               x + col * (size + 8) + size, y + r * (size + 8) + size))
        if not opened:
            y = _lines(draw, (x, y), t("urbanpanic.render.nothing_face_up", locale), width, TEXT_SIZE, False,
                       c.MUTED, key=False)
        else:
            y += ((len(opened) + per_row - 1) // per_row) * (size + 8)
        y += 6
        if party.get("timer_running"):
            c.draw_icon(img, "waiting", (x, y, x + 36, y + 36))
            y = max(y + 40, _lines(draw, (x + 44, y + 2), t("urbanpanic.render.hourglass", locale), width - 44,
                                   28, True, key=False))
        pool = t("urbanpanic.render.pool", locale, count=party.get("pool", 0))
        return _lines(draw, (x, y), pool, width, TEXT_SIZE, key=False) + 6
    y = _heading(draw, (x, y), t("urbanpanic.render.main_board", locale), width)
    size = 104
    nf = c.font(28, True)
    for k, slot in enumerate(((board.get("slots") if board else None) or [None] * 4)[:4]):
        sx = x + k * (size + 14)
        if slot:
            img.paste(tile_sprite(slot, size, locale), (sx, y))
        else:
            draw.rounded_rectangle((sx, y, sx + size, y + size), radius=size // 10, fill=c.EMPTY_CELL,
                                   outline=c.GRID_LINE, width=2)
            empty = t("urbanpanic.render.empty", locale)
            c.draw_fitted(draw, (sx + size / 2, y + size / 2), empty, size - 8, 22, False, c.MUTED, "mm", SMALL,
                          key=False)
        c.draw_text(draw, (sx + size / 2, y + size + 4), str(k + 1), nf, c.INK, "ma", key=False)
        c.mark_region(img, f"board:{k + 1}", (sx, y, sx + size, y + size + 36))
    sx = x + 4 * (size + 14) + 10
    c.draw_face_down(img, (sx, y + 6, sx + size - 12, y + size - 6))
    c.mark_region(img, "stack", (sx, y, sx + size - 12, y + size + 36))
    stack = t("urbanpanic.render.stack", locale, count=board.get("stack", 0) if board else 0)
    c.draw_fitted(draw, (sx + (size - 12) / 2, y + size + 4), stack, WIDTH - MARGIN - sx + 40, 26, True, c.INK,
                  "ma", 20, key=False)
    return y + size + 40


def _reserve(img: Image.Image, xy: tuple[int, int], width: int, player: UpPlayer, title: str,
             locale: str = "en") -> int:
    draw = ImageDraw.Draw(img)
    x, y = xy
    y = _heading(draw, (x, y), title, width)
    size = 96
    if "hand" in player:
        items = [player.get("hand")]
        slots = 1
    else:
        items = list(player.get("reserve") or [])
        slots = 3
    for k in range(slots):
        sx = x + k * (size + 12)
        code = items[k] if k < len(items) else None
        c.mark_region(img, "hand" if "hand" in player else f"reserve:{k}", (sx, y, sx + size, y + size))
        if code and code != "hidden":
            img.paste(tile_sprite(str(code), size, locale), (sx, y))
        elif code == "hidden":
            c.draw_face_down(img, (sx, y, sx + size, y + size))
        else:
            draw.rounded_rectangle((sx, y, sx + size, y + size), radius=size // 10, outline=c.GRID_LINE, width=2)
    return y + size + 12


CITIES_TOP = 400
"""At most the title and the legend around the cities of the board and end pictures."""
CITY_ROW = 640
"""About the height of one city card (its strip, the city beside its tracks, the gap): the sample games'
are 590-620; a picture whose cities are taller is drawn again on a taller canvas (:func:`render.common.sized`)."""
CITY_WIDTH = 496
"""The city grid's width with its labels, left of the tracks (a 92 px plot: 31 px on a phone)."""


def _city_and_tracks(
    img: Image.Image,
    top: int,
    view: View,
    seat: int,
    scored: UpSeatDetails | None,
    highlight: Sequence[str],
    locale: str = "en",
) -> int:
    """A city (left) and its tracks (right); returns the bottom y."""
    player = (view.get("players") or [])[seat]
    cell = (CITY_WIDTH - LABEL_SPACE) // SIZE
    removed = [str(r.get("plot")) for r in (scored.get("removed") if scored else None) or []]
    geo = draw_city(img, (MARGIN, top), player.get("grid") or [], cell, removed=removed, highlight=highlight,
                    locale=locale)
    tracks = list((scored.get("tracks_final") if scored else None) or player.get("tracks") or [0] * 5)
    lost = None
    if scored:
        played = list(scored.get("tracks_played") or tracks)
        lost = [played[i] - tracks[i] if played[i] > tracks[i] else 0 for i in range(len(tracks))]
    rx = MARGIN + CITY_WIDTH + 2 * GAP
    bottom = draw_tracks(img, (rx, top + 4, WIDTH - MARGIN, top + 4 + tracks_height()), tracks,
                         int((view.get("legend") or {}).get("floor", -5)), lost, locale=locale)
    return max(geo.box[3], bottom)


def turn_image(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """Portrait, for a phone: the players one per row (whose turn, built counts), the acting player's city
    with its roads (this turn's plots outlined) beside its tracks, the main board and the reserve, the
    actions left, the goals and the legend."""
    who = _names(view, names, locale)
    players = view.get("players") or []
    if not 0 <= acting_seat < len(players):
        acting_seat = 0
    player = players[acting_seat] if players else cast(UpPlayer, {})
    estimate = 1400 + 110 * len(players) + 100 * len(view.get("goals") or [])
    return c.sized(WIDTH, estimate, lambda img, draw: _paint_turn(img, draw, view, acting_seat, player, who, locale))


def _paint_turn(img: Image.Image, draw: ImageDraw.ImageDraw, view: View, acting_seat: int, player: UpPlayer,
                who: list[str], locale: str) -> int:
    players = view.get("players") or []
    c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, locale) + GAP
    name = who[acting_seat] if who else "?"
    y = _lines(draw, (MARGIN, y), t("render.city_of", locale, name=name), WIDTH - 2 * MARGIN, NAME_SIZE, True,
               key=True, min_size=KEY, max_lines=2) + 14
    if players:
        y = _city_and_tracks(img, y, view, acting_seat, None, changed_plots(view, acting_seat), locale)
    linked = int(player.get("reachable", 0))
    built = int(player.get("tiles", 0))
    if built - linked > 0:
        note = t("urbanpanic.render.plots_cut", locale, built=built, linked=linked, cut=built - linked)
    else:
        note = t("urbanpanic.render.plots", locale, built=built, linked=linked)
    y = _lines(draw, (MARGIN, y + 10), note, WIDTH - 2 * MARGIN, TEXT_SIZE, key=False) + GAP
    lines = []
    if view.get("current") == acting_seat and not view.get("over") and "points" in view:
        lines.append(t("urbanpanic.render.actions_left", locale, count=view.get("points", 0)))
        if view.get("architect_owed"):
            lines.append(t("urbanpanic.render.architect_owed", locale))
    if view.get("last_turn"):
        lines.append(t("urbanpanic.render.last_turn", locale))
    first = view.get("first_finisher")
    if first is not None and not view.get("over"):
        lines.append(t("urbanpanic.render.filled", locale, name=who[int(first)]))
    for line in lines:
        y = _lines(draw, (MARGIN, y), line, WIDTH - 2 * MARGIN, 28, True, key=False)
    y += 6 if lines else 0
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=c.PANEL_EDGE, width=2)
    y += GAP
    board_w = 4 * 118 + 10 + 104 + 60
    by = _main_board(img, (MARGIN, y), board_w, view, locale)
    rx = MARGIN + board_w + 2 * GAP
    ry = _reserve(img, (rx, y), WIDTH - MARGIN - rx, player,
                  t("urbanpanic.render.hand" if "hand" in player else "urbanpanic.render.reserve", locale), locale)
    y = max(by, ry) + GAP
    y = _goals(img, (MARGIN, y), WIDTH - 2 * MARGIN, view, locale)
    return _legend(img, y + GAP, view, locale)


def _goals(img: Image.Image, xy: tuple[int, int], width: int, view: View, locale: str = "en") -> int:
    goals = view.get("goals") or []
    if not goals:
        return xy[1]
    draw = ImageDraw.Draw(img)
    x, y = xy
    y = _heading(draw, (x, y), t("urbanpanic.render.goals", locale), width)
    for g in goals:
        text = t(
            "urbanpanic.render.goal_line", locale, id=g.get("id", ""), title=t(str(g.get("title_key", "")), locale)
        )
        y = _lines(draw, (x, y), text, width, TEXT_SIZE, key=False, max_lines=3) + 4
    return y


def _city_card(
    img: Image.Image,
    y: int,
    view: View,
    seat: int,
    name: str,
    scored: UpSeatDetails | None,
    locale: str = "en",
) -> int:
    """A player's strip over their city and tracks; returns the bottom y."""
    y += _player_strip(img, (MARGIN, y, WIDTH - MARGIN, y), view, seat, name, locale) + 10
    highlight = () if scored else changed_plots(view, seat)
    return _city_and_tracks(img, y, view, seat, scored, highlight, locale)


def _cities(img: Image.Image, top: int, view: View, who: list[str], scored: bool, locale: str = "en") -> int:
    """Every city, one per row."""
    details: dict[int, UpSeatDetails] = {}
    result = view.get("result")
    if scored and result:
        # a seat without details is drawn as unscored, like an empty one
        details = {s["seat"]: s["details"] for s in result.get("seats") or [] if s.get("details")}
    y = top
    for seat, name in enumerate(who):
        y = _city_card(img, y, view, seat, name, details.get(seat), locale) + 2 * GAP
    return y


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every city with its roads and tracks, one per row (the last turn's plots outlined)."""
    who = _names(view, names, locale)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
        return _legend(img, _cities(img, c.TITLE_HEIGHT + GAP, view, who, False, locale), view, locale)

    return c.sized(WIDTH, CITIES_TOP + len(who) * CITY_ROW, paint)


def _categories(view: View, locale: str) -> list[tuple[str, str, str | None]]:
    variant = str(view.get("variant"))
    return [
        (cid, t(label_id, locale), key)
        for cid, label_id, key in CATEGORIES
        if (cid != "goals" or variant == "advanced") and (cid != "bonus" or variant == "party")
    ]


def _end_notes(view: View, result: Mapping[str, Any], who: list[str], locale: str) -> list[str]:
    """What ended the game, what decided a tie, and who won which goal, as sentences under the scores."""
    notes = []
    reason = str((result.get("details") or {}).get("end_reason") or view.get("end_reason") or "")
    if reason:
        notes.append(t(f"urbanpanic.end.{reason}", locale))
    decided = decided_note(str(result.get("decided_by", "")), locale, ("score", "urbanpanic.tiebreak.score"))
    if decided:
        notes.append(decided)
    won = []
    for s in result.get("seats") or []:
        goals = (s.get("details") or {}).get("goals_won") or []
        if goals:
            titles = c.join_names((t(f"urbanpanic.goal.{g}", locale) for g in goals), locale)
            won.append(t("urbanpanic.render.goals_won_item", locale, name=who[s["seat"]], goals=titles))
    if won:
        notes.append(
            t("urbanpanic.render.goals_won", locale, list=t("render.list.group_separator", locale).join(won))
        )
    return notes


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The final scores first (the shared score table: names and totals at a glance, each category's points),
    then every city as scored (cut-off tiles removed, final tracks, what removal lost outlined), one per row."""
    who = _names(view, names, locale)
    result = view.get("result")
    table = score_table_from_result(t("urbanpanic.render.title.final_scores", locale), who, result,
                                    _categories(view, locale), subtitle=_subtitle(view, locale),
                                    note=" ".join(_end_notes(view, result, who, locale)),
                                    locale=locale) if result else None
    top = table.height if table is not None else 0

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        c.title_bar(draw, WIDTH, t("urbanpanic.render.title.final_cities", locale), _subtitle(view, locale), top=top)
        return _legend(img, _cities(img, top + c.TITLE_HEIGHT + GAP, view, who, True, locale), view, locale)

    return c.sized(WIDTH, CITIES_TOP + len(who) * CITY_ROW, paint, table)
