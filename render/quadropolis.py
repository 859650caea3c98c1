"""Quadropolis images, drawn from a rules view (``RULES.view(state, seat)``; shape in its docstring).

- :func:`render_turn` — the construction site (tiles with what they give, architects in their slots
  with their owners' markers, the urbanist, face-down squares, closed slots) beside the acting
  player's city, every player's resources, the round and the first player.
- :func:`render_city` — one city, large, with its current best allocation and score by category.
- :func:`render_board` — every city side by side.
- :func:`render_end` — every city with its optimal activation, then the score table with ranks and
  the winner.

Each ``render_*`` returns PNG bytes; the matching ``*_image`` function returns the PIL image.
Player names are not part of the view; pass them as ``names`` (seat order), else "Player n".
Every word drawn comes from the message catalogue (``render.*``, ``quadropolis.render.*``) in the keyword
``locale`` (default English); tile labels in the view (``"a harbour (+2 energy)"``) are the rules'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import normalise_locale, resolve, t
from bot.rules.core import term
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
STRIP_HEIGHT = 58
SITE_CELL = 88
SITE_SLOT = 58
SITE_GAP = 5
CITY_GAP = 5
LABEL_SPACE = 30
SECTION_TITLE = 34
LEGEND_ROOM = 400
"""Canvas height kept for the legend, which wraps onto more lines in wordier languages (then cropped)."""

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


def _round_text(view: View, locale: str) -> str:
    return t("quadropolis.render.round", locale, round=view.get("round", 1), rounds=view.get("rounds", 4))


def _city_of(who: list[str], seat: int, locale: str) -> str:
    return t("render.city_of", locale, name=who[seat] if seat < len(who) else "?")


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
    x = box[2] - 3
    for icon, text in reversed(chips):
        b = c.chip(img, (x, box[3] - 3), icon, text, size, "rb")
        x = b[0] - 2


def _building_overlays(
    img: Image.Image,
    box: c.Box,
    building: QuadBuilding,
    square: str,
    score: QuadScore | None,
    show_allocation: bool,
) -> None:
    """Floors, printed points, customers, energy absorbed and 'not activated' on a city square."""
    size = max(14, (box[2] - box[0]) // 6)
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
    x = box[2] - 3
    for icon, text in reversed(bottom):
        b = c.chip(img, (x, box[3] - 3), icon, text, size, "rb")
        x = b[0] - 2
    if show_allocation and not building.get("active", True):
        isz = max(16, (box[2] - box[0]) // 4)
        c.draw_icon(img, "removed", (box[2] - isz - 4, box[1] + 4, box[2] - 4, box[1] + 4 + isz))


def _section_title(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, max_width: int) -> None:
    t, f = c.fit_text(text, max_width, 24, True, 14)
    c.draw_text(draw, xy, t, f, c.INK, "ls")


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
    the way its architect points and the row or column: :func:`slot_label`); returns the block's box."""
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
    chip_size = max(14, cell // 5)
    for r, row in enumerate(site.get("squares") or []):
        for col, square in enumerate(row):
            box = cell_box(r, col)
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
    lfont = c.font(max(12, slot // 3), True)
    marker = slot - 12
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
        placed = slots.get(name)
        if placed:
            seat = int(placed.get("seat", 0))
            style = c.player_style(seat)
            c.draw_marker(img, style.shape, box, style.colour, str(placed.get("architect", "?")))
        elif name in open_slots:
            draw.rounded_rectangle(box, radius=marker // 4, fill=c.PANEL, outline=c.GRID_LINE, width=1)
            c.draw_text(draw, (cx, cy), slot_label(name, locale), lfont, c.MUTED, "mm")
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


def draw_city(
    img: Image.Image,
    xy: tuple[int, int],
    city: QuadCity,
    cell: int,
    *,
    show_allocation: bool = True,
    pending: QuadPending | None = None,
    locale: str = "en",
) -> c.GridGeometry:
    """A city grid: buildings with floors and points, district borders, labels A-D / 1-4(5).

    ``show_allocation`` fades buildings the (best) allocation leaves inactive and shows customers
    and energy absorbed by parks. ``pending`` (the view's pending build) outlines the squares the
    tile may go to, with the floor it would become.
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
        label_size=max(16, LABEL_SPACE - 10),
        fill=None,
    )
    score = city.get("score")
    expert = any(sq.get("field") for row in squares for sq in row)
    small_size = max(11, cell // 8)
    for r in range(rows):
        for col in range(cols):
            box = geo.cell_box(r, col)
            sq = squares[r][col] if r < len(squares) and col < len(squares[r]) else cast(QuadCitySquare, {})
            building = sq.get("building")
            if building:
                faded = show_allocation and not building.get("active", True)
                c.draw_glyph(img, _tile_key(building), box, faded=faded, locale=locale)
                _building_overlays(img, box, building, str(sq.get("square", "")), score, show_allocation)
            else:
                draw.rounded_rectangle(
                    box, radius=max(3, cell // 12), fill=c.EMPTY_CELL, outline=c.GRID_LINE, width=1
                )
                if expert:
                    room = box[2] - box[0] - 12
                    district = t("quadropolis.render.district", locale, district=sq.get("district"))
                    field = t("quadropolis.render.field", locale, field=sq.get("field"))
                    y_district = box[3] - 6 - small_size - 3
                    c.draw_fitted(
                        draw, (box[0] + 7, y_district), district, room, small_size, True, c.MUTED, "lb", 8
                    )
                    c.draw_fitted(
                        draw, (box[0] + 7, box[3] - 6), field, room, small_size, True, c.MUTED, "lb", 8
                    )
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
        pfont = c.font(max(12, cell // 7), True)
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


def _player_strip(
    img: Image.Image, box: c.Box, view: View, seat: int, name: str, active: bool, locale: str = "en"
) -> None:
    """Marker, name, inhabitants and energy, architects left, first player, score so far."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    h = y1 - y0
    style = c.player_style(seat)
    draw.rounded_rectangle(
        box,
        radius=h // 4,
        fill=c.tint(style.colour, 0.84),
        outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2),
        width=5 if active else 2,
    )
    pad = 7
    c.seat_marker(img, seat, (x0 + pad, y0 + pad, x0 + h - pad, y1 - pad))
    cities = view.get("cities") or []
    city = cities[seat] if seat < len(cities) else cast(QuadCity, {})
    isz = h // 2 - 4
    right = x1 - pad
    # right to left: score, architects, energy, inhabitants, first-player crown, to-play label
    score = (city.get("score") or {}).get("total")
    if score is not None:
        sb = c.chip(img, (right, (y0 + y1) / 2), "points", str(score), isz, "rm")
        right = sb[0] - pad
    per_seat = (view.get("architects") or {}).get("per_seat")
    if per_seat and seat < len(per_seat):
        msz = h - 24
        for value in reversed(per_seat[seat]):
            c.draw_marker(
                img,
                style.shape,
                (right - msz, int((y0 + y1 - msz) / 2), right, int((y0 + y1 + msz) / 2)),
                style.colour,
                str(value),
            )
            right -= msz + 3
        right -= pad
    for icon, key in (("energy", "energy"), ("inhabitant", "inhabitants")):
        b = c.chip(img, (right, (y0 + y1) / 2), icon, str(city.get(key, 0)), isz, "rm")
        right = b[0] - 4
    if view.get("first_player") == seat:
        right -= pad
        c.draw_icon(
            img, "first", (right - isz - 6, int((y0 + y1 - isz - 6) / 2), right, int((y0 + y1 + isz + 6) / 2))
        )
        right -= isz + 10
    name_left = x0 + h + 2
    if active:
        to_play = t("render.strip.to_play", locale)
        c.draw_fitted(draw, (name_left, y0 + 6), to_play, right - name_left - 6, 16, True, c.INK, "la", 9)
        text, f = c.fit_text(name, right - name_left - 6, 22, True, 12)
        c.draw_text(draw, (name_left, y1 - 8), text, f, c.INK, "lb")
    else:
        text, f = c.fit_text(name, right - name_left - 6, 24, True, 12)
        c.draw_text(draw, (name_left, (y0 + y1) / 2), text, f, c.INK, "lm")


def _strips(
    img: Image.Image, top: int, view: View, names: list[str], active: int | None, locale: str = "en"
) -> int:
    """All players' strips, two per row; returns the y below them."""
    count = len(names)
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    for seat in range(count):
        r, col = divmod(seat, per_row)
        x = MARGIN + col * (w + GAP)
        y = top + r * (STRIP_HEIGHT + 8)
        _player_strip(img, (x, y, x + w, y + STRIP_HEIGHT), view, seat, names[seat], seat == active, locale)
    rows = (count + per_row - 1) // per_row
    return top + rows * (STRIP_HEIGHT + 8)


def _legend(img: Image.Image, top: int, view: View, end: bool = False, locale: str = "en") -> int:
    kinds = EXPERT_KINDS if view.get("mode") == "expert" else CLASSIC_KINDS
    entries = [(f"quadropolis.{k}", c.glyph_name(f"quadropolis.{k}", locale)) for k in kinds]
    icon_keys = list(LEGEND_ICONS)
    if end:
        icon_keys.append(("removed", "quadropolis.render.legend.inactive"))
    else:
        icon_keys += [("pawn", "quadropolis.render.legend.urbanist"), ("removed", "quadropolis.render.legend.closed")]
    icons = [(icon, t(key, locale)) for icon, key in icon_keys]
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    return c.legend(img, (MARGIN, top + 10), entries, WIDTH - 2 * MARGIN, 30, icons, locale) + 6


# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def turn_image(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """The construction site beside the acting player's city (see module docstring)."""
    who = _names(view, names, locale)
    cities = view.get("cities") or []
    city = cities[acting_seat] if 0 <= acting_seat < len(cities) else (cities[0] if cities else cast(QuadCity, {}))
    cols = int(city.get("columns", 4))
    site_w = site_size()
    city_w = WIDTH - 2 * MARGIN - site_w - 2 * GAP
    cell = min(128, (city_w - LABEL_SPACE - (cols - 1) * CITY_GAP) // cols)
    _, city_h = city_block_size(city, cell)
    pending = view.get("pending")
    mine = pending if pending and pending.get("seat") == acting_seat else None
    info_h = 150
    main_h = max(SECTION_TITLE + site_w, SECTION_TITLE + city_h + info_h)
    strips_h = ((len(who) + 1) // 2) * (STRIP_HEIGHT + 8)
    height = c.TITLE_HEIGHT + GAP + strips_h + GAP + main_h + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    turn = view.get("turn") or {}
    if view.get("over"):
        title = t("quadropolis.render.title.over", locale)
    elif turn.get("number"):
        title = t(
            "quadropolis.render.title.round_turn",
            locale,
            round=_round_text(view, locale),
            number=turn["number"],
            of=turn.get("of", "?"),
        )
    else:
        title = t("quadropolis.render.title.round", locale, round=_round_text(view, locale))
    c.title_bar(draw, WIDTH, title, _subtitle(view, locale))
    y = c.TITLE_HEIGHT + GAP
    y = _strips(img, y, view, who, turn.get("seat"), locale)
    y += GAP
    # site
    _section_title(draw, (MARGIN, y + 26), t("quadropolis.render.site", locale), site_w)
    draw_site(img, (MARGIN, y + SECTION_TITLE), view, locale=locale)
    # city
    cx = MARGIN + site_w + 2 * GAP
    _section_title(draw, (cx, y + 26), _city_of(who, acting_seat, locale), city_w)
    geo = draw_city(
        img, (cx, y + SECTION_TITLE), city, cell, show_allocation=False, pending=mine, locale=locale
    )
    iy = geo.box[3] + 14
    if mine:
        tsz = 96
        c.draw_glyph(img, _tile_key(mine["tile"]), (cx, iy, cx + tsz, iy + tsz), locale=locale)
        _gives_chips(img, (cx, iy, cx + tsz, iy + tsz), mine["tile"], 20)
        tf, rf = c.font(22, True), c.font(20)
        text_w = city_w - tsz - 16
        tile = mine["tile"].get("label") or term("quadropolis.render.a_tile")  # a term: the sentence declines it
        took = t("quadropolis.render.took", locale, architect=mine.get("architect"), tile=tile)
        lines = [(line, tf) for line in c.wrap(took, tf, text_w)]
        lines += [(line, rf) for line in c.wrap(t("quadropolis.render.build_hint", locale), rf, text_w)]
        for k, (line, f) in enumerate(lines[:5]):
            c.draw_text(draw, (cx + tsz + 14, iy + 4 + k * 27), line, f, c.INK, "la")
        iy += tsz + 12
    else:
        sf = c.font(20)
        score = city.get("score") or {}
        notes = [
            t("quadropolis.render.score_now", locale, total=score.get("total", 0)),
            t(
                "quadropolis.render.unused_now",
                locale,
                inhabitants=score.get("unused_inhabitants", 0),
                energy=score.get("unused_energy", 0),
            ),
        ]
        if turn.get("phase") == "take" and turn.get("seat") == acting_seat:
            notes.insert(0, t("quadropolis.render.take_hint", locale, name=who[acting_seat]))
        for k, note in enumerate(notes):
            c.draw_text(draw, (cx, iy + k * 28), c.ellipsize(note, sf, city_w), sf, c.INK, "la")
        pool = (view.get("architects") or {}).get("pool")
        if pool:
            py = iy + len(notes) * 28 + 4
            pool_w = c.draw_fitted(
                draw, (cx, py + 20), t("quadropolis.render.pool", locale), 120, 20, True, c.INK, "lm"
            )
            px = cx + max(64, pool_w + 7)
            for value, count in sorted(pool.items(), key=lambda kv: int(kv[0])):
                c.draw_marker(
                    img,
                    "circle",
                    (px, py, px + 40, py + 40),
                    (215, 215, 215) if count else c.EMPTY_CELL,
                    str(value),
                )
                c.draw_text(
                    draw, (px + 44, py + 20), f"×{count}", c.font(20, True), c.INK if count else c.MUTED, "lm"
                )
                px += 88
    bottom = y + main_h + GAP
    end = _legend(img, bottom, view, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def city_image(
    view: View, seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """One city, large, with its best allocation now and its score by category."""
    who = _names(view, names, locale)
    cities = view.get("cities") or []
    city = cities[seat] if 0 <= seat < len(cities) else cast(QuadCity, {})
    cols = int(city.get("columns", 4))
    side_w = 340
    grid_w = WIDTH - 2 * MARGIN - side_w - GAP
    cell = min(165, (grid_w - LABEL_SPACE - (cols - 1) * CITY_GAP) // cols)
    _, city_h = city_block_size(city, cell)
    height = c.TITLE_HEIGHT + GAP + STRIP_HEIGHT + GAP + city_h + 2 * GAP + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    c.title_bar(
        draw,
        WIDTH,
        _city_of(who, seat, locale),
        t("quadropolis.render.city_subtitle", locale, round=_round_text(view, locale)),
    )
    y = c.TITLE_HEIGHT + GAP
    _player_strip(
        img,
        (MARGIN, y, WIDTH - MARGIN, y + STRIP_HEIGHT),
        view,
        seat,
        who[seat] if seat < len(who) else "?",
        (view.get("turn") or {}).get("seat") == seat,
        locale,
    )
    y += STRIP_HEIGHT + GAP
    geo = draw_city(img, (MARGIN, y), city, cell, show_allocation=True, locale=locale)
    _score_column(
        img,
        (geo.box[2] + GAP + 10, y + LABEL_SPACE),
        WIDTH - MARGIN - geo.box[2] - GAP - 10,
        city.get("score") or {},
        bool(view.get("over")),
        view.get("mode") == "expert",
        locale,
    )
    end = _legend(img, max(geo.box[3], y + city_h) + GAP, view, end=True, locale=locale)
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
    """Category scores as a list: glyph, label, points; then the total."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    cats = score.get("categories") or {}
    vf = c.font(22, True)
    heading = t("quadropolis.render.final_score" if over else "quadropolis.render.score_if_now", locale)
    c.draw_fitted(draw, (x, y), heading, width - 6, 18, True, c.MUTED, "la")
    y += 30
    for cid, label_id, key in CATEGORIES:
        if cid not in cats:
            continue
        value = int(cats[cid])
        if not expert and cid in ("offices", "monuments"):
            continue
        box = (x, y, x + 34, y + 34)
        if key in c.ICONS:
            c.draw_icon(img, key, box)
        elif key:
            c.draw_glyph(img, key, box, locale=locale)
        label = t("quadropolis.render.cat.penalty_long" if cid == "penalty" else label_id, locale).replace(
            SOFT_HYPHEN, ""
        )
        c.draw_fitted(draw, (x + 44, y + 17), label, width - 44 - 56, 20, False, c.INK, "lm")
        colour = c.shade(c.VERMILLION, 0.2) if value < 0 else (c.MUTED if value == 0 else c.INK)
        c.draw_text(draw, (x + width - 6, y + 17), str(value), vf, colour, "rm")
        y += 40
    draw.line((x, y + 2, x + width - 6, y + 2), fill=c.INK, width=2)
    c.draw_icon(img, "points", (x, y + 10, x + 34, y + 44))
    c.draw_fitted(
        draw, (x + 44, y + 27), t("render.score.total", locale), width - 44 - 70, 24, True, c.INK, "lm"
    )
    c.draw_text(draw, (x + width - 6, y + 27), str(score.get("total", 0)), c.font(28, True), c.INK, "rm")
    y += 56
    alloc_note = []
    if score.get("unused_inhabitants"):
        alloc_note.append(t("quadropolis.render.unused_inhabitants", locale, count=score["unused_inhabitants"]))
    if score.get("unused_energy"):
        alloc_note.append(t("quadropolis.render.unused_energy", locale, count=score["unused_energy"]))
    note = c.join_names(alloc_note, locale)
    for k, line in enumerate(c.wrap(note, c.font(18), width - 6) if alloc_note else []):
        c.draw_text(draw, (x, y + k * 24), line, c.font(18), c.MUTED, "la")
    return y


def _city_card(
    img: Image.Image,
    xy: tuple[int, int],
    width: int,
    view: View,
    seat: int,
    name: str,
    show_allocation: bool,
    locale: str = "en",
) -> int:
    """A player strip over that player's city, sized to ``width``; returns the bottom y."""
    city = (view.get("cities") or [])[seat]
    cols = int(city.get("columns", 4))
    x, y = xy
    _player_strip(
        img,
        (x, y, x + width, y + STRIP_HEIGHT),
        view,
        seat,
        name,
        (view.get("turn") or {}).get("seat") == seat and not view.get("over"),
        locale,
    )
    y += STRIP_HEIGHT + 8
    cell = min(124, (width - LABEL_SPACE - (cols - 1) * CITY_GAP) // cols)
    bw, _ = city_block_size(city, cell)
    geo = draw_city(
        img, (x + (width - bw) // 2, y), city, cell, show_allocation=show_allocation, locale=locale
    )
    return geo.box[3]


def _cities_grid(
    img: Image.Image, top: int, view: View, names: list[str], show_allocation: bool, locale: str = "en"
) -> int:
    count = len(view.get("cities") or [])
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 2 * GAP) // per_row
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
                    img, (MARGIN + k * (w + 2 * GAP), y), w, view, seat, names[seat], show_allocation, locale
                ),
            )
        y = bottom + 2 * GAP
    return y


def _cities_height(view: View) -> int:
    cities = view.get("cities") or []
    count = len(cities)
    per_row = 1 if count == 1 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 2 * GAP) // per_row
    total = 0
    for r in range(0, count, per_row):
        city = cities[r]
        cols = int(city.get("columns", 4))
        cell = min(124, (w - LABEL_SPACE - (cols - 1) * CITY_GAP) // cols)
        total += STRIP_HEIGHT + 8 + city_block_size(city, cell)[1] + 2 * GAP
    return total


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every city with its owner's strip (resources, architects, score so far)."""
    who = _names(view, names, locale)
    height = c.TITLE_HEIGHT + GAP + _cities_height(view) + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, height)
    over = bool(view.get("over"))
    if over:
        title = t("quadropolis.render.title.board", locale)
    else:
        title = t("quadropolis.render.title.board_round", locale, round=_round_text(view, locale))
    c.title_bar(draw, WIDTH, title, _subtitle(view, locale))
    y = _cities_grid(img, c.TITLE_HEIGHT + GAP, view, who, over, locale)
    end = _legend(img, y, view, end=over, locale=locale)
    return img.crop((0, 0, WIDTH, end))


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """Every city with its optimal activation, then the score table by category with the winner."""
    who = _names(view, names, locale)
    cities_h = c.TITLE_HEIGHT + GAP + _cities_height(view) + LEGEND_ROOM
    img, draw = c.canvas(WIDTH, cities_h)
    c.title_bar(draw, WIDTH, t("quadropolis.render.title.final_cities", locale), _subtitle(view, locale))
    y = _cities_grid(img, c.TITLE_HEIGHT + GAP, view, who, True, locale)
    y = _legend(img, y, view, end=True, locale=locale)
    cities = img.crop((0, 0, WIDTH, y))
    result: Mapping[str, Any] = view.get("result") or _provisional_result(view)
    mode_cats = [
        (cid, t(label_id, locale), key)
        for cid, label_id, key in CATEGORIES
        if view.get("mode") == "expert" or cid not in ("offices", "monuments")
    ]
    note = decided_note(str(result.get("decided_by", "score")), locale)
    table = score_table_from_result(
        t("quadropolis.render.title.final_scores", locale),
        who,
        result,
        mode_cats,
        subtitle=_subtitle(view, locale),
        note=note,
        locale=locale,
    )
    return c.stack_vertical([cities, table], 0)


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


def render_turn(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> bytes:
    """PNG of :func:`turn_image`."""
    return c.png_bytes(turn_image(view, acting_seat, names, locale=locale))


def render_city(view: View, seat: int, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
    """PNG of :func:`city_image`."""
    return c.png_bytes(city_image(view, seat, names, locale=locale))


def render_board(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
    """PNG of :func:`board_image`."""
    return c.png_bytes(board_image(view, names, locale=locale))


def render_end(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
    """PNG of :func:`end_image`."""
    return c.png_bytes(end_image(view, names, locale=locale))


def render_tiles(*, locale: str = "en") -> bytes:
    """Every building of the game as the pictures draw it (``/game tiles``)."""
    title = t("tiles.title", locale, game=t("quadropolis.title", locale))
    return c.png_bytes(c.tile_sheet("quadropolis", title, locale))
