"""Quadropolis images, drawn from a rules view (``RULES.view(state, seat)``; shape in its docstring).

- :func:`turn_image` — the construction site (tiles with what they give, architects in their slots
  with their owners' markers, the urbanist, face-down squares, closed slots) beside the acting
  player's city, every player's resources, the round and the first player.
- :func:`city_image` — one city, large, with its current best allocation and score by category.
- :func:`board_image` — every city side by side.
- :func:`end_image` — every city with its optimal activation, then the score table with ranks and
  the winner.

Each returns a PIL image; :mod:`render.pictures` binds them to the game behind the one PNG adapter.
Player names are not part of the view; pass them as ``names`` (seat order), else "Player n".
Every word drawn comes from the message catalogue (``render.*``, ``quadropolis.render.*``) in the keyword
``locale`` (default English); tile labels in the view (``"a harbour (+2 energy)"``) are the rules'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import normalise_locale, resolve, t
from bot.rules.quadropolis.tiles import SLOTS, slot_term
from bot.rules.quadropolis.viewtypes import (
    QuadBuilding,
    QuadCity,
    QuadCitySquare,
    QuadPending,
    QuadScore,
    QuadTile,
    QuadView,
)
from render import common as c
from render.scores import SOFT_HYPHEN, decided_note, score_table_from_result

c.register_glyphs(
    "quadropolis",
    {  # letters of the rules file, section 4 (English; each language's badges are in its catalogue)
        "tower": c.Glyph(c.RESIDENTIAL, c.PAINTERS["tower"], "T", "quadropolis.render.kind.tower"),
        "shop": c.Glyph(c.COMMERCE, c.PAINTERS["shop"], "S", "quadropolis.render.kind.shop"),
        "public": c.Glyph(c.PUBLIC, c.PAINTERS["public"], "U", "quadropolis.render.kind.public"),
        "park": c.Glyph(c.GREEN, c.PAINTERS["park"], "P", "quadropolis.render.kind.park"),
        "playground": c.Glyph(c.GREEN, c.PAINTERS["playground"], "G", "quadropolis.render.kind.playground"),
        "factory": c.Glyph(c.INDUSTRY, c.PAINTERS["factory"], "F", "quadropolis.render.kind.factory"),
        "harbour": c.Glyph(c.WATER, c.PAINTERS["harbour"], "H", "quadropolis.render.kind.harbour"),
        "office": c.Glyph(c.OFFICE, c.PAINTERS["office"], "O", "quadropolis.render.kind.office"),
        "monument": c.Glyph(c.HERITAGE, c.PAINTERS["monument"], "M", "quadropolis.render.kind.monument"),
    },
    aliases={"tower_block": "tower", "public_service": "public", "harbor": "harbour", "office_tower": "office",
             "t": "tower", "s": "shop", "u": "public", "p": "park", "g": "playground", "f": "factory",
             "h": "harbour", "o": "office", "m": "monument"},
)

MARK_KINDS = ("tower", "shop", "public", "park", "playground", "factory", "harbour", "office", "monument")
"""The kinds whose badge each language writes (``quadropolis.render.badge.<kind>``, drawn by ``Glyph.badge``): a
letter from the kind's name in the language and at most a small second letter, unique within the language
(``tests/render/test_quadropolis_marks.py``)."""

View = QuadView
"""The view this module draws (``bot.rules.quadropolis.viewtypes``)."""

WIDTH = c.IMAGE_WIDTH
MARGIN = 20
GAP = 12
SITE_CELL = 96
SITE_SLOT = 58
SITE_GAP = 5
EXPERT_SITE_CELL = 84
"""The site's squares in Expert, whose wider city (five columns) takes the room: its squares stay large
enough (106 px) for an empty square's district and field in 17 px (Polish 'dzielnica', Hungarian 'mezőszám:')."""
CITY_GAP = 5
LABEL_SPACE = 30
LEGEND_ROOM = 440
"""Canvas height kept for the legend, which wraps onto more lines in wordier languages (then cropped)."""
BOARD_CELL = 112
"""A city's squares on the board and final pictures (two cities to a row)."""

NAME_SIZE = 36
"""A player's name (a key fact): at least :data:`render.common.KEY_TEXT`, on up to two lines."""
SCORE_SIZE = 40
HEADING_SIZE = 26
"""A section heading that is not a key fact ("Construction site")."""
NOTE_SIZE = 22
"""Other words (score categories, the pool)."""
STRIP_PAD = 8
STRIP_MARK = 50
STRIP_ITEM = 46
"""Height of a strip's second row: the 'to play' label, resources, architects left, first player."""
STRIP_GAP = 8
RESOURCE_ICON = 34
RESOURCE_SIZE = 28
"""A strip's inhabitants and energy: an icon and a number (not key facts)."""
LEGEND_SIZE = 36
"""Legend tiles and icons; their words are 55 % of it (20 px)."""
FIELD_TEXT = c.MIN_TEXT
"""An empty Expert square's district and field."""

CATEGORIES: tuple[tuple[str, str, str | None], ...] = (
    ("towers", "quadropolis.render.cat.towers", "quadropolis.tower"),
    ("shops", "quadropolis.render.cat.shops", "quadropolis.shop"),
    ("public_services", "quadropolis.render.cat.public_services", "quadropolis.public"),
    ("parks", "quadropolis.render.cat.parks", "quadropolis.park"),
    ("factories", "quadropolis.render.cat.factories", "quadropolis.factory"),
    ("harbours", "quadropolis.render.cat.harbours", "quadropolis.harbour"),
    ("offices", "quadropolis.render.cat.offices", "quadropolis.office"),
    ("monuments", "quadropolis.render.cat.monuments", "quadropolis.monument"),
    ("penalty", "quadropolis.render.cat.penalty", "penalty"),
)
"""Score categories in table order: (id in the view, catalogue id of the column label, glyph or icon)."""
LEGEND_ICONS = (
    ("inhabitant", "quadropolis.render.legend.inhabitants"),
    ("energy", "quadropolis.render.legend.energy"),
    ("points", "quadropolis.render.legend.points"),
    ("floors", "quadropolis.render.legend.floors"),
    ("first", "quadropolis.render.legend.first"),
)

CLASSIC_KINDS = ("tower", "shop", "public", "park", "playground", "factory", "harbour")
EXPERT_KINDS = (*CLASSIC_KINDS, "office", "monument")
STACKABLE = {"TOWER", "OFFICE"}


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _names(view: View, names: Sequence[str] | None, locale: str = "en") -> list[str]:
    count = int(view.get("players") or len(view.get("cities", [])))
    given = list(names or [])
    return [
        given[i] if i < len(given) and given[i] else t("render.player_n", locale, n=i + 1)
        for i in range(count)
    ]


def marks(locale: str = "en") -> dict[str, str]:
    """Each kind's badge mark in ``locale`` (``{"tower": "Мн", ...}``), from the catalogue."""
    return {kind: c.glyph(f"quadropolis.{kind}").badge(normalise_locale(locale)) for kind in MARK_KINDS}


def _tile_key(tile: QuadTile | QuadBuilding) -> str:
    """Registry key of a tile or building (parks split into plain parks and playgrounds by code)."""
    code = str(tile.get("code") or "")
    if code == "G":
        key = "quadropolis.playground"
    elif code:
        key = c.glyph_key("quadropolis", code)
    else:
        key = c.glyph_key("quadropolis", str(tile.get("type", "?")))
    return key


def slot_label(slot: str, locale: str = "en") -> str:
    """A slot as players read it (``→3`` for the stored ``L3``), the same words as the sentences'."""
    return str(resolve(slot_term(slot), locale))


def _mode_title(view: View, locale: str) -> str:
    key = "quadropolis.render.mode.expert" if view.get("mode") == "expert" else "quadropolis.render.mode.classic"
    return t(key, locale)


def _subtitle(view: View, locale: str) -> str:
    players = view.get("players", len(view.get("cities", [])))
    return t("quadropolis.render.subtitle", locale, mode=_mode_title(view, locale), players=players)


def turn_in_round(view: View) -> tuple[int, int]:
    """Which go of the round this is, and how many a round has: the rulebooks' count (hu "fordulóként 4-4
    kör", es "todos los jugadores hayan realizado 4 turnos", ru "все игроки сделают по 4 хода"), where one go
    is a move of every player, not the view's count of single moves (8 of 8 with two players)."""
    turn = view.get("turn") or {}
    players = max(1, len(view.get("cities") or []) or 1)
    number, of = int(turn.get("number") or 1), int(turn.get("of") or players)
    return (number - 1) // players + 1, max(1, of // players)


def _round_text(view: View, locale: str) -> str:
    return t("quadropolis.render.round", locale, round=view.get("round", 1), rounds=view.get("rounds", 4))


def _city_of(who: list[str], seat: int, locale: str) -> str:
    return t("render.city_of", locale, name=who[seat] if seat < len(who) else "?")


def _chip_size(text: str, size: int) -> tuple[int, int, c.Font]:
    fnt = c.font(max(c.MIN_TEXT, round(size * 0.82)), True)
    pad = max(2, size // 6)
    tw = c.text_width(text, fnt) if text else 0
    return pad * 2 + size + (_chip_gap(size) + tw if text else 0), size + pad, fnt


def _chip_gap(size: int) -> int:
    """Room between a chip's icon and its number (so a reader does not take the icon for a digit)."""
    return max(3, size // 5)


def _chip(img: Image.Image, xy: tuple[float, float], icon: str, text: str, size: int, anchor: str = "lt") -> c.Box:
    """A white pill holding an icon and a short number (``[person] 2``), its number at least
    :data:`render.common.MIN_TEXT` and not a key fact; returns its box (anchor as :func:`render.common.chip`)."""
    draw = ImageDraw.Draw(img)
    w, h, fnt = _chip_size(text, size)
    pad = max(2, size // 6)
    x, y = xy
    x0 = x if anchor[0] == "l" else (x - w if anchor[0] == "r" else x - w / 2)
    y0 = y if anchor[1] == "t" else (y - h if anchor[1] == "b" else y - h / 2)
    box = (int(x0), int(y0), int(x0 + w), int(y0 + h))
    draw.rounded_rectangle(box, radius=h // 2, fill=c.WHITE, outline=c.INK, width=max(1, size // 14))
    c.paste(img, c.icon_image(icon, size - 2), (box[0] + pad, box[1] + pad // 2 + 1))
    if text:
        c.draw_text(draw, (box[0] + pad + size + _chip_gap(size), (box[1] + box[3]) / 2 + 1), text, fnt, c.INK, "lm",
                    key=False)
    return box


def _chips_in(img: Image.Image, box: c.Box, chips: list[tuple[str, str]], size: int) -> None:
    """Chips along the bottom edge of a tile, right to left, a row above when a row is full."""
    if not chips:
        return
    inner = box[2] - box[0] - 6
    rows: list[list[tuple[str, str, int]]] = [[]]
    used = 0
    for icon, text in chips:
        w = _chip_size(text, size)[0]
        if rows[-1] and used + 2 + w > inner:
            rows.append([])
            used = 0
        rows[-1].append((icon, text, w))
        used += w + (2 if used else 0)
    y = box[3] - 3
    for row in rows:
        x = box[2] - 3
        h = 0
        for icon, text, _ in reversed(row):
            b = _chip(img, (x, y), icon, text, size, "rb")
            x = b[0] - 2
            h = b[3] - b[1]
        y -= h + 2


def _gives_chips(img: Image.Image, box: c.Box, tile: QuadTile, size: int) -> None:
    """What a site tile gives (people, energy, printed points, mayor) along the tile's bottom edge."""
    chips: list[tuple[str, str]] = []
    if tile.get("mayor"):
        chips.append(("first", ""))
    if tile.get("inhabitants"):
        chips.append(("inhabitant", str(tile["inhabitants"])))
    if tile.get("energy"):
        chips.append(("energy", str(tile["energy"])))
    if tile.get("vp"):
        chips.append(("points", str(tile["vp"])))
    _chips_in(img, box, chips, size)


def _tile_chip_size(cell: int) -> int:
    """Chips on a tile: 22 px (their numbers 18 px) on a site square, up to 30 px on larger squares."""
    return max(22, min(30, round(cell / 4.6)))


def _building_overlays(
    img: Image.Image,
    box: c.Box,
    building: QuadBuilding,
    square: str,
    score: QuadScore | None,
    show_allocation: bool,
) -> None:
    """Floors, printed points, customers, energy absorbed and 'not activated' on a city square."""
    size = _tile_chip_size(box[2] - box[0])
    alloc = score.get("allocation") if score else None
    bottom: list[tuple[str, str]] = []
    if building.get("type") in STACKABLE or int(building.get("floors", 1)) > 1:
        bottom.append(("floors", str(building.get("floors", 1))))
    if building.get("vp"):
        bottom.append(("points", str(building["vp"])))
    customers = ((alloc.get("customers") if alloc else None) or {}).get(square)
    if show_allocation and customers:
        bottom.append(("inhabitant", str(customers)))
    if show_allocation and square in ((alloc.get("absorbing_parks") if alloc else None) or []):
        bottom.append(("energy", "−1"))
    _chips_in(img, box, bottom, size)
    if show_allocation and not building.get("active", True):
        isz = max(20, (box[2] - box[0]) // 4)
        c.draw_icon(img, "removed", (box[2] - isz - 4, box[1] + 4, box[2] - 4, box[1] + 4 + isz))


def _heading(
    draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: int, *, key: bool, dry: bool = False
) -> int:
    """A section heading (a key fact at :data:`render.common.KEY_TEXT`, else :data:`HEADING_SIZE`) on up to
    two lines; returns its height."""
    size = c.KEY_TEXT if key else HEADING_SIZE
    lines, f = c.fit_lines(text, width, size, True, size if key else c.MIN_TEXT + 3)
    step = int(f.size) + 8
    if not dry:
        for k, line in enumerate(lines):
            c.draw_text(draw, (xy[0], xy[1] + k * step), line, f, c.INK, "la", key=key)
    return len(lines) * step


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
                draw.rounded_rectangle(
                    box, radius=cell // 10, fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=1
                )
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
            c.draw_icon(
                img, "removed", (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), (200, 196, 188)
            )
    return (x0, y0, x0 + side, y0 + side)


# ---------------------------------------------------------------------------------------------
# Cities
# ---------------------------------------------------------------------------------------------


def city_block_size(city: QuadCity, cell: int) -> tuple[int, int]:
    """(width, height) of a city grid with its labels."""
    rows, cols = int(city.get("rows", 4)), int(city.get("columns", 4))
    return (
        LABEL_SPACE + cols * cell + (cols - 1) * CITY_GAP,
        LABEL_SPACE + rows * cell + (rows - 1) * CITY_GAP,
    )


def _cell_for(city: QuadCity, width: int, most: int) -> int:
    """The largest square (at most ``most``) with which the city's grid fits ``width``."""
    cols = int(city.get("columns", 4))
    return min(most, (width - LABEL_SPACE - (cols - 1) * CITY_GAP) // cols)


def _field_lines(city: QuadCity, sq: QuadCitySquare, room: int, locale: str) -> list[str] | None:
    """An empty Expert square's district and field in lines of :data:`FIELD_TEXT` px that fit ``room``,
    whole words only; None when they do not."""
    fnt = c.font(FIELD_TEXT)
    lines: list[str] = []
    for text in (t("quadropolis.render.district", locale, district=sq.get("district")),
                 t("quadropolis.render.field", locale, field=sq.get("field"))):
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
            draw.rounded_rectangle(
                box, radius=max(3, cell // 12), fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=1
            )
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
                (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2),
                radius=max(4, cell // 10),
                outline=c.INK,
                width=7,
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


# ---------------------------------------------------------------------------------------------
# Player strips
# ---------------------------------------------------------------------------------------------

StripItem = tuple[int, Callable[[Image.Image, int, float], None]]
"""(width, draw at (left x, middle y)) of one thing on a strip's second row."""


def _strip_items(view: View, seat: int, city: QuadCity, active: bool, locale: str) -> list[StripItem]:
    """The 'to play' label (a key fact, with an hourglass), inhabitants, energy, architects left, and the
    first player's hat."""
    items: list[StripItem] = []
    if active:
        label = t("render.banner.to_play", locale)
        lfont = c.font(c.KEY_TEXT, True)
        isz = STRIP_ITEM - 14
        width = 10 + isz + 8 + c.text_width(label, lfont) + 14

        def to_play(img: Image.Image, x: int, cy: float) -> None:
            draw = ImageDraw.Draw(img)
            box = (x, int(cy - STRIP_ITEM / 2), x + width, int(cy + STRIP_ITEM / 2))
            draw.rounded_rectangle(box, radius=STRIP_ITEM // 2, fill=c.HIGHLIGHT, outline=c.INK, width=2)
            c.draw_icon(img, "waiting", (x + 10, int(cy - isz / 2), x + 10 + isz, int(cy + isz / 2)))
            c.draw_text(draw, (x + 10 + isz + 8, cy), label, lfont, c.INK, "lm", key=True)

        items.append((width, to_play))
    rfont = c.font(RESOURCE_SIZE, True)
    for icon, key in (("inhabitant", "inhabitants"), ("energy", "energy")):
        text = str(city.get(key, 0))

        def resource(img: Image.Image, x: int, cy: float, icon: str = icon, text: str = text) -> None:
            c.draw_icon(img, icon, (x, int(cy - RESOURCE_ICON / 2), x + RESOURCE_ICON, int(cy + RESOURCE_ICON / 2)))
            c.draw_text(ImageDraw.Draw(img), (x + RESOURCE_ICON + 8, cy), text, rfont, c.INK, "lm", key=False)

        items.append((RESOURCE_ICON + 8 + c.text_width(text, rfont), resource))
    per_seat = (view.get("architects") or {}).get("per_seat")
    if per_seat and seat < len(per_seat) and per_seat[seat]:
        values = list(per_seat[seat])
        msz = 40
        style = c.player_style(seat)

        def architects(img: Image.Image, x: int, cy: float) -> None:
            for k, value in enumerate(values):
                left = x + k * (msz + 4)
                c.draw_marker(img, style.shape, (left, int(cy - msz / 2), left + msz, int(cy + msz / 2)),
                              style.colour, str(value))

        items.append((len(values) * (msz + 4) - 4, architects))
    if view.get("first_player") == seat:
        hsz = 40

        def first(img: Image.Image, x: int, cy: float) -> None:
            c.draw_icon(img, "first", (x, int(cy - hsz / 2), x + hsz, int(cy + hsz / 2)))

        items.append((hsz, first))
    return items


def _player_strip(
    img: Image.Image,
    xy: tuple[int, int],
    width: int,
    view: View,
    seat: int,
    name: str,
    active: bool,
    locale: str = "en",
    *,
    dry: bool = False,
) -> int:
    """One player: marker, name (a key fact, up to two lines) and score (a key fact) on the first row;
    'to play', inhabitants, energy, architects left and the first player's hat beside the name when they
    fit, else on rows under the name. Returns the strip's height (``dry``: only that)."""
    x, y = xy
    pad, mark = STRIP_PAD, STRIP_MARK
    cities = view.get("cities") or []
    city = cities[seat] if seat < len(cities) else cast(QuadCity, {})
    total = (city.get("score") or {}).get("total")
    sfont = c.font(SCORE_SIZE, True)
    score = "" if total is None else str(total)
    ssz = 40
    score_w = ssz + 10 + c.text_width(score, sfont) if score else 0
    left = x + pad + mark + 12
    right = x + width - pad - (score_w + 16 if score else 0)
    lines, nfont = c.fit_lines(name, right - left, NAME_SIZE, True, c.KEY_TEXT)
    step = int(nfont.size) + 8
    row1 = max(mark, len(lines) * step)
    name_w = max(c.text_width(line, nfont) for line in lines)
    items = _strip_items(view, seat, city, active, locale)
    gap = 22
    along = sum(w for w, _ in items) + gap * max(0, len(items) - 1)
    placed: list[tuple[int, float, Callable[[Image.Image, int, float], None]]] = []
    if len(lines) == 1 and left + name_w + 24 + along <= right:
        px = right - along
        for w, fn in items:
            placed.append((px, y + pad + row1 / 2, fn))
            px += w + gap
        h = 2 * pad + row1
    else:
        px, row = left, 0
        for w, fn in items:
            if px > left and px + w > x + width - pad:
                px, row = left, row + 1
            placed.append((px, y + pad + row1 + 6 + row * (STRIP_ITEM + 6) + STRIP_ITEM / 2, fn))
            px += w + gap
        h = 2 * pad + row1 + ((row + 1) * (STRIP_ITEM + 6) if items else 0)
    if dry:
        return h
    draw = ImageDraw.Draw(img)
    style = c.player_style(seat)
    draw.rounded_rectangle(
        (x, y, x + width, y + h),
        radius=18,
        fill=c.tint(style.colour, 0.84),
        outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2),
        width=6 if active else 2,
    )
    if active:
        draw.rounded_rectangle((x + 6, y + 6, x + width - 6, y + h - 6), radius=14, outline=c.INK, width=1)
    mid = y + pad + row1 / 2
    c.seat_marker(img, seat, (x + pad, int(mid - mark / 2), x + pad + mark, int(mid + mark / 2)))
    for k, line in enumerate(lines):
        c.draw_text(draw, (left, mid + (k - (len(lines) - 1) / 2) * step), line, nfont, c.INK, "lm", key=True)
    if score:
        sx = x + width - pad - score_w
        c.draw_icon(img, "points", (sx, int(mid - ssz / 2), sx + ssz, int(mid + ssz / 2)))
        c.draw_text(draw, (x + width - pad, mid), score, sfont, c.INK, "rm", key=True)
    for px, cy, fn in placed:
        fn(img, px, cy)
    return h


def _strips(
    img: Image.Image, top: int, view: View, names: list[str], active: int | None, locale: str = "en",
    *, dry: bool = False,
) -> int:
    """All players' strips, one per row across the picture; returns the y below them."""
    y = top
    for seat, name in enumerate(names):
        y += _player_strip(img, (MARGIN, y), WIDTH - 2 * MARGIN, view, seat, name, seat == active, locale,
                           dry=dry) + STRIP_GAP
    return y


def _legend(
    img: Image.Image, top: int, view: View, *, site: bool = False, inactive: bool = False, strips: bool = True,
    locale: str = "en",
) -> int:
    """The buildings and icons drawn, each named (``site``: the urbanist and a closed slot too; ``inactive``:
    the cross on a building left inactive; ``strips``: the first player's hat, which only strips show)."""
    kinds = EXPERT_KINDS if view.get("mode") == "expert" else CLASSIC_KINDS
    entries = [(f"quadropolis.{k}", c.glyph_name(f"quadropolis.{k}", locale)) for k in kinds]
    icon_keys = [(icon, key) for icon, key in LEGEND_ICONS if strips or icon != "first"]
    if site:
        icon_keys += [("pawn", "quadropolis.render.legend.urbanist"), ("removed", "quadropolis.render.legend.closed")]
    if inactive:
        icon_keys.append(("removed", "quadropolis.render.legend.inactive"))
    icons = [(icon, t(key, locale)) for icon, key in icon_keys]
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    return c.legend(img, (MARGIN, top + 12), entries, WIDTH - 2 * MARGIN, LEGEND_SIZE, icons, locale) + 8


# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _turn_title(view: View, locale: str) -> str:
    turn = view.get("turn") or {}
    if view.get("over"):
        return t("quadropolis.render.title.over", locale)
    if turn.get("number"):
        number, of = turn_in_round(view)
        return t("quadropolis.render.title.round_turn", locale, round=_round_text(view, locale), number=number, of=of)
    return t("quadropolis.render.title.round", locale, round=_round_text(view, locale))


turn_title = _turn_title
"""The turn counter this module draws in a turn picture's title (the web page's slider shows the same)."""


def _pending_block(img: Image.Image, xy: tuple[int, int], pending: QuadPending, locale: str) -> int:
    """The tile just taken, large, with what it gives, after the architect that took it (its owner's
    marker); the squares it may go to are outlined on the city. Returns the bottom y."""
    x, y = xy
    tsz, msz = 128, 64
    style = c.player_style(int(pending.get("seat", 0)))
    c.draw_marker(img, style.shape, (x, y + (tsz - msz) // 2, x + msz, y + (tsz + msz) // 2), style.colour,
                  str(pending.get("architect", "?")))
    asz = 40
    c.draw_icon(img, "here", (x + msz + 10, y + (tsz - asz) // 2, x + msz + 10 + asz, y + (tsz + asz) // 2))
    tx = x + msz + 20 + asz + 10
    box = (tx, y, tx + tsz, y + tsz)
    c.draw_glyph(img, _tile_key(pending["tile"]), box, locale=locale)
    _gives_chips(img, box, pending["tile"], 28)
    return y + tsz


def _pool_block(img: Image.Image, xy: tuple[int, int], width: int, pool: Mapping[str, int], locale: str) -> int:
    """Expert's shared pool of architects: each value with how many are left. Returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    label = t("quadropolis.render.pool", locale)
    lfont = c.font(NOTE_SIZE + 2, True)
    msz = 46
    c.draw_text(draw, (x, y + msz / 2), label, lfont, c.INK, "lm", key=False)
    px = x + c.text_width(label, lfont) + 14
    vfont = c.font(NOTE_SIZE + 2, True)
    for value, count in sorted(pool.items(), key=lambda kv: int(kv[0])):
        step = msz + 6 + c.text_width(f"×{count}", vfont) + 16
        if px + step > x + width:
            px, y = x, y + msz + 8
        c.draw_marker(img, "circle", (px, y, px + msz, y + msz), (215, 215, 215) if count else c.EMPTY_CELL,
                      str(value))
        c.draw_text(draw, (px + msz + 6, y + msz / 2), f"×{count}", vfont, c.INK if count else c.MUTED, "lm",
                    key=False)
        px += step
    return y + msz


def turn_image(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """Every player's strip (whose turn it is, names, scores), then the construction site beside the
    acting player's city, then the legend (see module docstring)."""
    who = _names(view, names, locale)
    cities = view.get("cities") or []
    city = cities[acting_seat] if 0 <= acting_seat < len(cities) else (cities[0] if cities else cast(QuadCity, {}))
    cols = int(city.get("columns", 4))
    expert = view.get("mode") == "expert" or cols > 4
    site_cell = EXPERT_SITE_CELL if expert else SITE_CELL
    site_w = site_size(site_cell)
    city_w = WIDTH - 2 * MARGIN - site_w - 2 * GAP
    cell = _cell_for(city, city_w, 150)
    _, city_h = city_block_size(city, cell)
    pending = view.get("pending")
    mine = pending if pending and pending.get("seat") == acting_seat else None
    turn = view.get("turn") or {}
    pool = (view.get("architects") or {}).get("pool")
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    cx = MARGIN + site_w + 2 * GAP
    head_h = max(
        _heading(scratch, (0, 0), t("quadropolis.render.site", locale), site_w, key=False, dry=True),
        _heading(scratch, (0, 0), _city_of(who, acting_seat, locale), city_w, key=True, dry=True),
    ) + 4
    strips_h = _strips(Image.new("RGB", (1, 1)), 0, view, who, turn.get("seat"), locale, dry=True)
    info_h = (128 + 2 * GAP) if mine else (3 * 54 + 2 * GAP if pool else 0)
    main_h = head_h + max(site_w, city_h + info_h)
    height = c.TITLE_HEIGHT + GAP + strips_h + GAP + main_h + GAP + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    c.title_bar(draw, WIDTH, _turn_title(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, turn.get("seat"), locale) + GAP
    site_head = t("quadropolis.render.site", locale)
    _heading(draw, (MARGIN, y + head_h - 4 - _heading(draw, (0, 0), site_head, site_w, key=False, dry=True)),
             site_head, site_w, key=False)
    _heading(draw, (cx, y), _city_of(who, acting_seat, locale), city_w, key=True)
    draw_site(img, (MARGIN, y + head_h), view, site_cell, locale=locale)
    geo = draw_city(img, (cx, y + head_h), city, cell, show_allocation=False, pending=mine, locale=locale)
    iy = geo.box[3] + 2 * GAP
    if mine:
        _pending_block(img, (cx + LABEL_SPACE, iy), mine, locale)
    elif pool:
        _pool_block(img, (cx, iy), city_w, pool, locale)
    end = _legend(img, y + main_h + GAP, view, site=True, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def city_image(
    view: View, seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """One city, large, with its best allocation now and its score by category."""
    who = _names(view, names, locale)
    cities = view.get("cities") or []
    city = cities[seat] if 0 <= seat < len(cities) else cast(QuadCity, {})
    side_w = 420
    grid_w = WIDTH - 2 * MARGIN - side_w - 2 * GAP
    cell = _cell_for(city, grid_w, 170)
    _, city_h = city_block_size(city, cell)
    name = who[seat] if seat < len(who) else "?"
    active = (view.get("turn") or {}).get("seat") == seat and not view.get("over")
    strip_h = _player_strip(Image.new("RGB", (1, 1)), (0, 0), WIDTH - 2 * MARGIN, view, seat, name, active, locale,
                            dry=True)
    height = c.TITLE_HEIGHT + GAP + strip_h + GAP + max(city_h, 720) + 2 * GAP + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    c.title_bar(draw, WIDTH, _city_of(who, seat, locale),
           t("quadropolis.render.city_subtitle", locale, round=_round_text(view, locale)))
    y = c.TITLE_HEIGHT + GAP
    y += _player_strip(img, (MARGIN, y), WIDTH - 2 * MARGIN, view, seat, name, active, locale) + GAP
    geo = draw_city(img, (MARGIN, y), city, cell, show_allocation=True, locale=locale)
    sx = geo.box[2] + 2 * GAP
    bottom = _score_column(
        img,
        (sx, y + LABEL_SPACE),
        WIDTH - MARGIN - sx,
        city.get("score") or {},
        bool(view.get("over")),
        view.get("mode") == "expert",
        locale,
    )
    end = _legend(img, max(geo.box[3], bottom) + GAP, view, inactive=True, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def _score_column(
    img: Image.Image,
    xy: tuple[int, int],
    width: int,
    score: QuadScore,
    over: bool,
    expert: bool,
    locale: str = "en",
) -> int:
    """Category scores as a list: glyph, label, points; then the total (a key fact); returns the bottom."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    cats = score.get("categories") or {}
    vf = c.font(26, True)
    heading = t("quadropolis.render.final_score" if over else "quadropolis.render.score_if_now", locale)
    hl, hf = c.fit_lines(heading, width - 6, NOTE_SIZE, True, c.MIN_TEXT + 1)
    for k, line in enumerate(hl):
        c.draw_text(draw, (x, y + k * (int(hf.size) + 6)), line, hf, c.MUTED, "la", key=False)
    y += len(hl) * (int(hf.size) + 6) + 8
    row = 46
    for cid, label_id, key in CATEGORIES:
        if cid not in cats:
            continue
        value = int(cats[cid])
        if not expert and cid in ("offices", "monuments"):
            continue
        box = (x, y + 4, x + 38, y + 42)
        if key in c.ICONS:
            c.draw_icon(img, key, box)
        elif key:
            c.draw_glyph(img, key, box, locale=locale)
        label = t("quadropolis.render.cat.penalty_long" if cid == "penalty" else label_id, locale).replace(
            SOFT_HYPHEN, ""
        )
        lines, lf = c.fit_lines(label, width - 48 - 60, NOTE_SIZE, False, c.MIN_TEXT + 1)
        for k, line in enumerate(lines):
            c.draw_text(draw, (x + 48, y + row / 2 + (k - (len(lines) - 1) / 2) * (int(lf.size) + 3)), line, lf, c.INK,
                        "lm", key=False)
        colour = c.shade(c.VERMILLION, 0.2) if value < 0 else (c.MUTED if value == 0 else c.INK)
        c.draw_text(draw, (x + width - 6, y + row / 2), str(value), vf, colour, "rm", key=False)
        y += max(row, len(lines) * (int(lf.size) + 3) + 8)
    draw.line((x, y + 2, x + width - 6, y + 2), fill=c.INK, width=2)
    c.draw_icon(img, "points", (x, y + 10, x + 40, y + 50))
    tf = c.font(SCORE_SIZE, True)
    total = str(score.get("total", 0))
    c.draw_fitted(draw, (x + 48, y + 30), t("render.score.total", locale),
                  width - 48 - c.text_width(total, tf) - 20, NOTE_SIZE + 4, True, c.INK, "lm", c.MIN_TEXT, key=False)
    c.draw_text(draw, (x + width - 6, y + 30), total, tf, c.INK, "rm", key=True)
    y += 64
    alloc_note = []
    if score.get("unused_inhabitants"):
        alloc_note.append(t("quadropolis.render.unused_inhabitants", locale, count=score["unused_inhabitants"]))
    if score.get("unused_energy"):
        alloc_note.append(t("quadropolis.render.unused_energy", locale, count=score["unused_energy"]))
    note = c.join_names(alloc_note, locale)
    nf = c.font(20)
    for line in c.wrap(note, nf, width - 6) if alloc_note else []:
        c.draw_text(draw, (x, y), line, nf, c.MUTED, "la", key=False)
        y += 26
    return y


def _city_header(
    img: Image.Image, xy: tuple[int, int], width: int, seat: int, name: str, *, height: int = 0, dry: bool = False
) -> int:
    """Whose city: the owner's marker and name (a key fact, up to two lines); returns its height."""
    x, y = xy
    mark = 44
    lines, nfont = c.fit_lines(name, width - mark - 12, c.KEY_TEXT, True, c.KEY_TEXT)
    step = int(nfont.size) + 8
    h = max(height, mark, len(lines) * step)
    if not dry:
        mid = y + h / 2
        c.seat_marker(img, seat, (x, int(mid - mark / 2), x + mark, int(mid + mark / 2)))
        draw = ImageDraw.Draw(img)
        for k, line in enumerate(lines):
            c.draw_text(draw, (x + mark + 12, mid + (k - (len(lines) - 1) / 2) * step), line, nfont, c.INK, "lm",
                        key=True)
    return h


def _unlabelled(view: View) -> int:
    """How much of a city's label band a finished game's cities (drawn without labels) leave out."""
    return LABEL_SPACE - 8 if view.get("over") else 0


def _cities_layout(view: View, names: list[str]) -> tuple[int, int, list[tuple[int, int]]]:
    """Cities two to a row (one when alone): (card width, square size, [(header height, row height)])."""
    cities = view.get("cities") or []
    count = len(cities)
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 2 * GAP) // per_row
    cell = min((_cell_for(city, w, BOARD_CELL if per_row == 2 else 170) for city in cities), default=100)
    scratch = Image.new("RGB", (1, 1))
    unlabelled = _unlabelled(view)
    rows = []
    for r in range(0, count, per_row):
        seats = range(r, min(count, r + per_row))
        head_h = max(_city_header(scratch, (0, 0), w, seat, names[seat], dry=True) for seat in seats)
        city_h = max(city_block_size(cities[seat], cell)[1] for seat in seats) - unlabelled
        rows.append((head_h, head_h + 4 + city_h + 2 * GAP))
    return w, cell, rows


def _cities_grid(
    img: Image.Image, top: int, view: View, names: list[str], show_allocation: bool, locale: str = "en"
) -> int:
    """Each city under its owner's marker and name, two to a row; returns the y below them."""
    cities = view.get("cities") or []
    count = len(cities)
    per_row = 1 if count == 1 else 2
    w, cell, rows = _cities_layout(view, names)
    over = bool(view.get("over"))
    y = top
    for r, (head_h, row_h) in zip(range(0, count, per_row), rows, strict=True):
        for k in range(per_row):
            seat = r + k
            if seat >= count:
                break
            x = MARGIN + k * (w + 2 * GAP)
            _city_header(img, (x, y), w, seat, names[seat], height=head_h)
            bw, _ = city_block_size(cities[seat], cell)
            draw_city(img, (x + (w - bw) // 2, y + head_h + 4 - _unlabelled(view)), cities[seat], cell,
                      show_allocation=show_allocation, fields=False, labels=not over, locale=locale)
        y += row_h
    return y


def _cities_height(view: View, names: list[str]) -> int:
    return sum(h for _, h in _cities_layout(view, names)[2])


def board_title(view: View, locale: str = "en") -> str:
    """The board picture's title (its round while the game runs; the web page's slider shows the same)."""
    if view.get("over"):
        return t("quadropolis.render.title.board", locale)
    return t("quadropolis.render.title.board_round", locale, round=_round_text(view, locale))


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every player's strip (whose turn it is, names, scores, resources, architects left), then every city
    under its owner's name."""
    who = _names(view, names, locale)
    turn_seat = None if view.get("over") else (view.get("turn") or {}).get("seat")
    strips_h = _strips(Image.new("RGB", (1, 1)), 0, view, who, turn_seat, locale, dry=True)
    height = c.TITLE_HEIGHT + GAP + strips_h + GAP + _cities_height(view, who) + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    over = bool(view.get("over"))
    c.title_bar(draw, WIDTH, board_title(view, locale))
    y = _strips(img, c.TITLE_HEIGHT + GAP, view, who, turn_seat, locale) + GAP
    y = _cities_grid(img, y, view, who, over, locale)
    end = _legend(img, y, view, inactive=over, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The final scores first (ranks, names, totals, each category, the winner), then every city with its
    optimal activation."""
    who = _names(view, names, locale)
    result: Mapping[str, Any] = view.get("result") or _provisional_result(view)
    mode_cats = [
        (cid, t(label_id, locale), key)
        for cid, label_id, key in CATEGORIES
        if view.get("mode") == "expert" or cid not in ("offices", "monuments")
    ]
    table = score_table_from_result(t("quadropolis.render.title.final_scores", locale), who, result, mode_cats,
                                    subtitle=_subtitle(view, locale),
                                    note=decided_note(str(result.get("decided_by", "score")), locale),
                                    locale=locale)
    cities_h = c.TITLE_HEIGHT + GAP + _cities_height(view, who) + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, cities_h)
    c.title_bar(draw, WIDTH, t("quadropolis.render.title.final_cities", locale))
    y = _cities_grid(img, c.TITLE_HEIGHT + GAP, view, who, True, locale)
    y = _legend(img, y, view, inactive=True, strips=False, locale=locale)
    cities = img.crop((0, 0, WIDTH, y))
    return c.stack_vertical([table, cities], 0)


def _provisional_result(view: View) -> dict[str, Any]:
    """A Result-shaped dict from the cities' current scores (for a view before the end)."""
    seats = []
    totals = [int((city.get("score") or {}).get("total", 0)) for city in view.get("cities") or []]
    for i, city in enumerate(view.get("cities") or []):
        score = city.get("score") or {}
        seats.append(
            {
                "seat": i,
                "total": totals[i],
                "breakdown": dict(score.get("categories") or {}),
                "rank": 1 + sum(1 for t in totals if t > totals[i]),
            }
        )
    return {"seats": seats, "decided_by": "score"}
