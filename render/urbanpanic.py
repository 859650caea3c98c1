"""Urban Panic images, drawn from a rules view (``RULES.view(state, seat)``; shape in its docstring).

- :func:`render_turn` — the acting player's city with its roads (passages), so whether a tile is
  connected to the centre reads at a glance: linked roads run on unbroken, a passage that meets
  nothing ends in a dead-end bar, and tiles cut off from the centre are faded, hatched and crossed.
  Beside it: the main board's four face-up tiles and the stack, the player's reserve, the five
  tracks as bars with their values and the −5 floor, and the actions left.
- :func:`render_board` — every city with its tracks.
- :func:`render_end` — every city as scored (cut-off tiles removed), then the score table.

Each ``render_*`` returns PNG bytes; the matching ``*_image`` function returns the PIL image.
Player names are not in the view; pass them as ``names`` (by seat), else "Player n". Every word
drawn comes from the message catalogue (``render.*``, ``urbanpanic.render.*``, and the rules' own goal,
end and tie-break sentences) in the keyword ``locale`` (default English), and so do the letters: the
legend's track letters (``urbanpanic.render.letter.*``) and each building's badge letter
(``urbanpanic.render.badge.*``, drawn by the shared glyph: ``Glyph.badge``), chosen per language
so no badge repeats a track letter (tests/urbanpanic/test_badges.py). A tile's open sides are drawn as
roads; text names the same sides with arrows (``bot.rules.urbanpanic.tiles.tile_term``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.rules.urbanpanic.viewtypes import UpCell, UpCentre, UpPlayer, UpPlot, UpSeatDetails, UpTileType, UpView
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
STRIP_HEIGHT = 56
LABEL_SPACE = 28
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
    ("empty_plots", "urbanpanic.render.cat.empty_plots", "penalty"),
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
    locale: str = "en",
) -> c.GridGeometry:
    """A 5 x 5 city with its roads; returns the geometry.

    A passage links only when the neighbouring tile (or the centre) has the facing passage: then
    the road runs to the edge and continues. Tiles not reachable from the centre (or listed in
    ``removed`` at scoring) are hatched, faded and crossed.
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
        label_size=18,
        fill=None,
    )
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
# Tracks
# ---------------------------------------------------------------------------------------------


def draw_tracks(
    img: Image.Image,
    box: c.Box,
    tracks: Sequence[int],
    floor: int = -5,
    lost: Sequence[int] | None = None,
    *,
    locale: str = "en",
) -> int:
    """Five horizontal bars from zero, with the value printed and the floor (−5) marked; returns the x
    just right of the words under the bars (the floor's and zero's marks).

    The scale runs from below the floor to the largest value; every bar carries its number (and
    its sign), so the colour of a bar never carries meaning on its own. ``lost`` draws, as a hollow
    extension, what removal at scoring took off each track.
    """
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    label_w = 178
    value_w = 52
    row_h = (y1 - y0) / len(TRACKS)
    lo = min(floor - 2, *(v for v in tracks))
    hi = max(12, *(v + (lost[i] if lost else 0) for i, v in enumerate(tracks)))
    bx0, bx1 = x0 + label_w, x1 - value_w

    def xof(v: float) -> float:
        return bx0 + (v - lo) / (hi - lo) * (bx1 - bx0)

    zero, fl = xof(0), xof(floor)
    vf = c.font(20, True)
    for i, track in enumerate(TRACKS):
        name = t(f"urbanpanic.render.track.{track}", locale)
        top = y0 + i * row_h
        mid = top + row_h / 2
        isz = int(min(row_h - 8, 30))
        c.draw_icon(img, track, (x0, int(mid - isz / 2), x0 + isz, int(mid + isz / 2)))
        c.draw_fitted(draw, (x0 + isz + 6, mid), name, label_w - isz - 12, 18, True, c.INK, "lm")
        draw.rectangle((bx0, mid - row_h * 0.3, bx1, mid + row_h * 0.3), fill=(235, 232, 225))
        value = int(tracks[i]) if i < len(tracks) else 0
        colour = c.BLUISH_GREEN if value >= 0 else c.VERMILLION
        if lost and i < len(lost) and lost[i]:
            xa, xb = xof(value), xof(value + lost[i])
            draw.rectangle(
                (min(xa, xb), mid - row_h * 0.22, max(xa, xb), mid + row_h * 0.22), outline=c.MUTED, width=2
            )
        if value:
            draw.rectangle(
                (min(zero, xof(value)), mid - row_h * 0.22, max(zero, xof(value)), mid + row_h * 0.22),
                fill=colour,
                outline=c.INK,
                width=1,
            )
        text = f"{value:+d}" if value else "0"
        c.draw_text(draw, (x1, mid), text, vf, c.INK, "rm")
    # zero axis and the floor
    draw.line((zero, y0 + 2, zero, y1 - 2), fill=c.INK, width=2)
    for yy in range(int(y0), int(y1), 10):
        draw.line((fl, yy, fl, yy + 5), fill=c.VERMILLION, width=3)
    floor_text = t("urbanpanic.render.floor", locale, floor=floor)
    c.draw_text(draw, (fl, y1 + 2), floor_text, c.font(14, True), c.shade(c.VERMILLION, 0.2), "ma")
    c.draw_text(draw, (zero, y1 + 2), "0", c.font(14, True), c.INK, "ma")
    mark = c.font(14, True)
    return int(max(fl + c.text_width(floor_text, mark) / 2, zero + c.text_width("0", mark) / 2)) + 1


# ---------------------------------------------------------------------------------------------
# Strips and legend
# ---------------------------------------------------------------------------------------------


def _player_strip(img: Image.Image, box: c.Box, view: View, seat: int, name: str, locale: str = "en") -> None:
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    h = y1 - y0
    player = (view.get("players") or [])[seat]
    style = c.player_style(seat)
    active = view.get("current") == seat and not view.get("over")
    draw.rounded_rectangle(
        box,
        radius=h // 4,
        fill=c.tint(style.colour, 0.84),
        outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2),
        width=5 if active else 2,
    )
    c.seat_marker(img, seat, (x0 + 7, y0 + 7, x0 + h - 7, y1 - 7))
    right = x1 - 8
    f = c.font(18, True)
    text = t("urbanpanic.render.built", locale, count=player.get("tiles", 0))
    c.draw_text(draw, (right, (y0 + y1) / 2), text, f, c.INK, "rm")
    right -= c.text_width(text, f) + 12
    if player.get("finisher"):
        c.draw_icon(img, "first", (right - 30, y0 + 12, right, y1 - 12))
        right -= 36
    reserve = player.get("reserve")
    if reserve:
        for code in reversed(reserve):
            sz = h - 16
            img.paste(tile_sprite(code, sz, locale), (right - sz, y0 + 8))
            right -= sz + 3
        right -= 6
    name_left = x0 + h + 2
    if active:
        to_play = t("render.strip.to_play", locale)
        c.draw_fitted(draw, (name_left, y0 + 5), to_play, right - name_left - 6, 15, True, c.INK, "la", 9)
        label, nf = c.fit_text(name, right - name_left - 6, 20, True, 12)
        c.draw_text(draw, (name_left, y1 - 7), label, nf, c.INK, "lb")
    else:
        label, nf = c.fit_text(name, right - name_left - 6, 22, True, 12)
        c.draw_text(draw, (name_left, (y0 + y1) / 2), label, nf, c.INK, "lm")


def _strips(img: Image.Image, top: int, view: View, who: list[str], locale: str = "en") -> int:
    count = len(who)
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    for seat in range(count):
        r, col = divmod(seat, per_row)
        x = MARGIN + col * (w + GAP)
        y = top + r * (STRIP_HEIGHT + 8)
        _player_strip(img, (x, y, x + w, y + STRIP_HEIGHT), view, seat, who[seat], locale)
    return top + ((count + per_row - 1) // per_row) * (STRIP_HEIGHT + 8)


def _effects(deltas: Sequence[int], letters: Sequence[str]) -> str:
    return " ".join(f"{letters[i]}{d:+d}" for i, d in enumerate(deltas) if d)


def _type_name(tp: UpTileType, locale: str) -> str:
    """A tile type's name: the catalogue's for the six known types, else the view's, capitalised."""
    key = _key(str(tp.get("id", "")))
    if key in c.GLYPHS:
        return c.glyph_name(key, locale)
    return str(tp.get("name", "")).capitalize()


def _legend(img: Image.Image, top: int, view: View, locale: str = "en") -> int:
    """Each tile type with what it does to the tracks, the track icons, and how roads read."""
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
    y = c.legend(img, (MARGIN, top + 10), entries, WIDTH - 2 * MARGIN, 30, locale=locale)
    icons = [
        (track, t(f"urbanpanic.render.legend.track.{track}", locale, letter=letters[i]))
        for i, track in enumerate(TRACKS)
    ]
    icons += [("removed", t("urbanpanic.render.legend.cut_off", locale))]
    return c.legend(img, (MARGIN, y), [], WIDTH - 2 * MARGIN, 28, icons) + 4


def _title(view: View, locale: str = "en") -> str:
    if view.get("over"):
        return t("urbanpanic.render.title.over", locale)
    if view.get("variant") == "party":
        return t("urbanpanic.render.title.party", locale)
    return t("urbanpanic.render.title.turn", locale, turn=int(view.get("turn", 0)) + 1)


def _subtitle(view: View, locale: str = "en") -> str:
    variant = str(view.get("variant", ""))
    name = t(f"urbanpanic.render.variant.{variant}", locale) if variant in VARIANTS else variant
    return t("urbanpanic.render.subtitle", locale, variant=name, players=len(view.get("players") or []))


# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _main_board(img: Image.Image, xy: tuple[int, int], width: int, view: View, locale: str = "en") -> int:
    """The four face-up tiles, numbered, and the stack; returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    board = view.get("main_board")
    party = view.get("party")
    if board is None and party is not None:
        c.draw_fitted(draw, (x, y), t("urbanpanic.render.open_table", locale), width, 22, True, c.INK, "la")
        y += 32
        size = 64
        per_row = max(1, width // (size + 6))
        for k, code in enumerate(party.get("open_table") or []):
            r, col = divmod(k, per_row)
            img.paste(tile_sprite(code, size, locale), (x + col * (size + 6), y + r * (size + 6)))
        opened = party.get("open_table") or []
        if not opened:
            nothing = t("urbanpanic.render.nothing_face_up", locale)
            c.draw_fitted(draw, (x, y + size / 2), nothing, width, 18, False, c.MUTED, "lm")
        rows = max(1, (len(opened) + per_row - 1) // per_row)
        y += rows * (size + 6) + 4
        if party.get("timer_running"):
            c.draw_icon(img, "waiting", (x, y, x + 24, y + 24))
            running = t("urbanpanic.render.hourglass", locale)
            c.draw_fitted(draw, (x + 30, y + 12), running, width - 30, 18, True, c.INK, "lm")
            y += 30
        pool = t("urbanpanic.render.pool", locale, count=party.get("pool", 0))
        c.draw_fitted(draw, (x, y), pool, width, 18, False, c.INK, "la")
        return y + 28
    c.draw_fitted(draw, (x, y), t("urbanpanic.render.main_board", locale), width, 22, True, c.INK, "la")
    y += 32
    size = min(104, (width - 140) // 4 - 8)
    for k, slot in enumerate(((board.get("slots") if board else None) or [None] * 4)[:4]):
        sx = x + k * (size + 10)
        if slot:
            img.paste(tile_sprite(slot, size, locale), (sx, y))
        else:
            draw.rounded_rectangle(
                (sx, y, sx + size, y + size),
                radius=size // 10,
                fill=c.EMPTY_CELL,
                outline=c.GRID_LINE,
                width=2,
            )
            empty = t("urbanpanic.render.empty", locale)
            c.draw_fitted(draw, (sx + size / 2, y + size / 2), empty, size - 6, 15, False, c.MUTED, "mm", 9)
        c.draw_text(draw, (sx + size / 2, y + size + 4), str(k + 1), c.font(18, True), c.INK, "ma")
    sx = x + 4 * (size + 10) + 6
    c.draw_face_down(img, (sx, y + 8, sx + size - 16, y + size - 8))
    stack = t("urbanpanic.render.stack", locale, count=board.get("stack", 0) if board else 0)
    c.draw_fitted(draw, (sx + (size - 16) / 2, y + size + 4), stack, size + 8, 16, True, c.INK, "ma", 10)
    return y + size + 30


def _reserve(img: Image.Image, xy: tuple[int, int], player: UpPlayer, title: str, locale: str = "en") -> int:
    draw = ImageDraw.Draw(img)
    x, y = xy
    c.draw_fitted(draw, (x, y), title, WIDTH - MARGIN - x, 22, True, c.INK, "la")
    y += 32
    size = 84
    if "hand" in player:
        items = [player.get("hand")]
        slots = 1
    else:
        items = list(player.get("reserve") or [])
        slots = 3
    for k in range(slots):
        sx = x + k * (size + 10)
        code = items[k] if k < len(items) else None
        if code and code != "hidden":
            img.paste(tile_sprite(str(code), size, locale), (sx, y))
        elif code == "hidden":
            c.draw_face_down(img, (sx, y, sx + size, y + size))
        else:
            draw.rounded_rectangle(
                (sx, y, sx + size, y + size), radius=size // 10, outline=c.GRID_LINE, width=2
            )
    return y + size + 10


def turn_image(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """The acting player's city with roads, the main board, the reserve, tracks and actions left."""
    who = _names(view, names, locale)
    players = view.get("players") or []
    player = players[acting_seat] if 0 <= acting_seat < len(players) else (players[0] if players
                                                                         else cast(UpPlayer, {}))
    img, draw = c.canvas(WIDTH, 1600)
    c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, locale) + GAP
    city_w = 560
    cell = (city_w - LABEL_SPACE) // SIZE
    name = who[acting_seat] if 0 <= acting_seat < len(who) else "?"
    ct, cf = c.fit_text(t("render.city_of", locale, name=name), city_w, 24, True, 14)
    c.draw_text(draw, (MARGIN, y + 26), ct, cf, c.INK, "ls")
    geo = draw_city(img, (MARGIN, y + 34), player.get("grid") or [], cell, locale=locale)
    linked = int(player.get("reachable", 0))
    built = int(player.get("tiles", 0))
    if built - linked > 0:
        note = t("urbanpanic.render.plots_cut", locale, built=built, linked=linked, cut=built - linked)
    else:
        note = t("urbanpanic.render.plots", locale, built=built, linked=linked)
    c.draw_fitted(draw, (MARGIN, geo.box[3] + 10), note, city_w, 19, False, c.INK, "la")
    left_bottom = geo.box[3] + 40
    rx = MARGIN + city_w + 2 * GAP
    rw = WIDTH - MARGIN - rx
    ry = _main_board(img, (rx, y + 6), rw, view, locale)
    ry = _reserve(
        img, (rx, ry + 4), player,
        t("urbanpanic.render.hand" if "hand" in player else "urbanpanic.render.reserve", locale), locale,
    )
    c.draw_fitted(draw, (rx, ry + 4), t("urbanpanic.render.tracks", locale), rw, 22, True, c.INK, "la")
    tracks_box = (rx, ry + 36, WIDTH - MARGIN, ry + 36 + 210)
    draw_tracks(
        img,
        tracks_box,
        player.get("tracks") or [0] * 5,
        int((view.get("legend") or {}).get("floor", -5)),
        locale=locale,
    )
    ry = tracks_box[3] + 26
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
    for k, line in enumerate(lines):
        c.draw_text(draw, (rx, ry + k * 26), c.ellipsize(line, c.font(19), rw), c.font(19), c.INK, "la")
    ry += 26 * len(lines)
    ry = _goals(img, (rx, ry + 6), rw, view, locale)
    end = _legend(img, max(left_bottom, ry) + GAP, view, locale)
    return img.crop((0, 0, WIDTH, end))


def _goals(img: Image.Image, xy: tuple[int, int], width: int, view: View, locale: str = "en") -> int:
    goals = view.get("goals") or []
    if not goals:
        return xy[1]
    draw = ImageDraw.Draw(img)
    x, y = xy
    c.draw_fitted(draw, (x, y), t("urbanpanic.render.goals", locale), width, 20, True, c.INK, "la")
    y += 28
    for g in goals:
        text = t(
            "urbanpanic.render.goal_line", locale, id=g.get("id", ""), title=t(str(g.get("title_key", "")), locale)
        )
        c.draw_text(draw, (x, y), c.ellipsize(text, c.font(17), width), c.font(17), c.INK, "la")
        y += 24
    return y


def _city_card(
    img: Image.Image,
    xy: tuple[int, int],
    width: int,
    view: View,
    seat: int,
    name: str,
    scored: UpSeatDetails | None,
    locale: str = "en",
) -> int:
    x, y = xy
    player = (view.get("players") or [])[seat]
    _player_strip(img, (x, y, x + width, y + STRIP_HEIGHT), view, seat, name, locale)
    y += STRIP_HEIGHT + 8
    cell = min(96, (width - LABEL_SPACE) // SIZE)
    removed = [r.get("plot") for r in (scored.get("removed") if scored else None) or []]
    geo = draw_city(img, (x, y), player.get("grid") or [], cell, removed=removed, locale=locale)
    tracks = list((scored.get("tracks_final") if scored else None) or player.get("tracks") or [0] * 5)
    lost = None
    if scored:
        played = list(scored.get("tracks_played") or tracks)
        lost = [played[i] - tracks[i] if played[i] > tracks[i] else 0 for i in range(len(tracks))]
    top = geo.box[3] + 10
    marks_end = draw_tracks(
        img,
        (x, top, x + width, top + 170),
        tracks,
        int((view.get("legend") or {}).get("floor", -5)),
        lost,
        locale=locale,
    )
    if lost and any(lost):
        lost_text = t("urbanpanic.render.lost", locale)
        c.draw_fitted(  # right of the floor's and zero's marks, on their line
            ImageDraw.Draw(img), (x + width, top + 174), lost_text, x + width - marks_end - 10, 14, False, c.MUTED,
            "ra", 9
        )
    return top + 196


def _cities(img: Image.Image, top: int, view: View, who: list[str], scored: bool, locale: str = "en") -> int:
    count = len(who)
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 2 * GAP) // per_row
    details: dict[int, UpSeatDetails] = {}
    result = view.get("result")
    if scored and result:
        # a seat without details is drawn as unscored, like an empty one
        details = {s["seat"]: s["details"] for s in result.get("seats") or [] if s.get("details")}
    y = top
    for r in range(0, count, per_row):
        bottom = y
        for k in range(per_row):
            seat = r + k
            if seat >= count:
                break
            bottom = max(
                bottom,
                _city_card(
                    img, (MARGIN + k * (w + 2 * GAP), y), w, view, seat, who[seat], details.get(seat), locale
                ),
            )
        y = bottom + GAP
    return y


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every city with its roads and tracks."""
    who = _names(view, names, locale)
    img, draw = c.canvas(WIDTH, 3200)
    c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
    y = _cities(img, c.TITLE_HEIGHT + GAP, view, who, False, locale)
    end = _legend(img, y, view, locale)
    return img.crop((0, 0, WIDTH, end))


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every city as scored (cut-off tiles removed, final tracks), then the score table."""
    who = _names(view, names, locale)
    img, draw = c.canvas(WIDTH, 3200)
    c.title_bar(draw, WIDTH, t("urbanpanic.render.title.final_cities", locale), _subtitle(view, locale))
    y = _cities(img, c.TITLE_HEIGHT + GAP, view, who, True, locale)
    y = _legend(img, y, view, locale)
    cities = img.crop((0, 0, WIDTH, y))
    result = view.get("result")
    if not result:
        return cities
    variant = str(view.get("variant"))
    cats = [
        (cid, t(label_id, locale), key)
        for cid, label_id, key in CATEGORIES
        if (cid != "goals" or variant == "advanced") and (cid != "bonus" or variant == "party")
    ]
    reason = str((result.get("details") or {}).get("end_reason") or view.get("end_reason") or "")
    notes = []
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
    table = score_table_from_result(
        t("urbanpanic.render.title.final_scores", locale),
        who,
        result,
        cats,
        subtitle=_subtitle(view, locale),
        note=" ".join(notes),
        locale=locale,
    )
    return c.stack_vertical([cities, table])


def render_turn(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> bytes:
    """PNG of :func:`turn_image`."""
    return c.png_bytes(turn_image(view, acting_seat, names, locale=locale))


def render_board(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
    """PNG of :func:`board_image`."""
    return c.png_bytes(board_image(view, names, locale=locale))


def render_end(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
    """PNG of :func:`end_image`."""
    return c.png_bytes(end_image(view, names, locale=locale))


def render_tiles(*, locale: str = "en") -> bytes:
    """Every building of the game as the pictures draw it (``/game tiles``), with the reader's badges."""
    return c.png_bytes(c.tile_sheet("urbanpanic", t("tiles.title", locale, game=t("urbanpanic.title", locale)), locale))
