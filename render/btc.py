"""Between Two Cities images, drawn from a rules view (``RULES.view(state, seat)``; shape in
``bot/rules/btc/views.py``).

- :func:`render_turn` — for one seat: every player's status (chosen / still choosing / placing),
  that seat's hand, chosen tiles and tiles to place (only when the view is that seat's own view:
  a hand is secret), and the seat's two cities with their partners named, the cells a tile may go
  to, the revealed tiles coming to each city and the running score per category.
- :func:`render_board` — the whole table: every city with its two builders and its scores.
- :func:`render_end` — the whole table, then every player's two cities' scores, the final score
  (the lower city), ranks and the winner.

Each ``render_*`` returns PNG bytes; the matching ``*_image`` function returns the PIL image.
Player names are not in the view; pass them as ``names`` (by seat), else "Player n". Automas
(solo) use their own names. Every word drawn comes from the message catalogue (``render.*``,
``btc.render.*``) in the keyword ``locale`` (default English); city names, tile names and Automa
names in the view are the rules'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import resolve, t
from bot.rules.btc.viewtypes import BtcCity, BtcPlayer, BtcTile, BtcView
from render import common as c
from render.scores import decided_note, score_table

c.register_glyphs(
    "btc",
    {  # letters of the rules file, section 13; taverns "T" plus their kind
        "shop": c.Glyph(c.COMMERCE, c.PAINTERS["shop"], "S", "btc.render.kind.shop"),
        "factory": c.Glyph(c.INDUSTRY, c.PAINTERS["factory"], "F", "btc.render.kind.factory"),
        "tavern_drink": c.Glyph(c.LEISURE, c.PAINTERS["mug"], "T", "btc.render.kind.tavern_drink", "d"),
        "tavern_food": c.Glyph(c.LEISURE, c.PAINTERS["food"], "T", "btc.render.kind.tavern_food", "f"),
        "tavern_music": c.Glyph(c.LEISURE, c.PAINTERS["music"], "T", "btc.render.kind.tavern_music", "m"),
        "tavern_bed": c.Glyph(c.LEISURE, c.PAINTERS["bed"], "T", "btc.render.kind.tavern_bed", "b"),
        "tavern": c.Glyph(c.LEISURE, c.PAINTERS["tavern"], "T", "btc.render.kind.tavern"),
        "office": c.Glyph(c.OFFICE, c.PAINTERS["office"], "O", "btc.render.kind.office"),
        "park": c.Glyph(c.GREEN, c.PAINTERS["park"], "P", "btc.render.kind.park"),
        "house": c.Glyph(c.RESIDENTIAL, c.PAINTERS["house"], "H", "btc.render.kind.house"),
    },
    aliases={"drink": "tavern_drink", "food": "tavern_food", "music": "tavern_music", "bed": "tavern_bed",
             "s": "shop", "f": "factory", "o": "office", "p": "park", "h": "house", "d": "tavern_drink",
             "m": "tavern_music", "b": "tavern_bed"},
    exact_letters={"S": "shop", "F": "factory", "O": "office", "P": "park", "H": "house",
                   "d": "tavern_drink", "f": "tavern_food", "m": "tavern_music", "b": "tavern_bed"},
)

View = BtcView
"""The view this module draws (``bot.rules.btc.viewtypes``)."""

WIDTH = c.IMAGE_WIDTH
MARGIN = 20
GAP = 12
FRAME = 7
SIDE = 4
CITY_GAP = 4
LABEL_SPACE = 26
STATUS_HEIGHT = 50
CELL_CAP = 100

CATEGORIES: tuple[tuple[str, str, str], ...] = (
    ("shops", "btc.render.cat.shops", "btc.shop"),
    ("factories", "btc.render.cat.factories", "btc.factory"),
    ("taverns", "btc.render.cat.taverns", "btc.tavern"),
    ("offices", "btc.render.cat.offices", "btc.office"),
    ("parks", "btc.render.cat.parks", "btc.park"),
    ("houses", "btc.render.cat.houses", "btc.house"),
)
"""Score categories: (id in the view, catalogue id of its name, glyph)."""
KINDS = (
    "shop",
    "factory",
    "tavern_drink",
    "tavern_food",
    "tavern_music",
    "tavern_bed",
    "office",
    "park",
    "house",
)
MODES = ("two_player", "solo_simple", "solo_full")
"""Modes named in the subtitle (``btc.render.mode.<mode>``); the standard game is not named."""
PHASES = ("play", "assign", "place", "bonus", "over")
"""Phases with a sentence (``btc.render.phase.<phase>``)."""


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def player_names(view: View, names: Sequence[str] | None, locale: str = "en") -> list[str]:
    """A name per player index: the given names for seats, the Automas' own names, else "Player n"."""
    given = list(names or [])
    out = []
    for i, p in enumerate(view.get("players") or []):
        if p.get("automa"):
            out.append(str(resolve(p["automa"], locale)))
        elif i < len(given) and given[i]:
            out.append(given[i])
        else:
            out.append(t("render.player_n", locale, n=i + 1))
    return out


def _face_key(face: str) -> str:
    return c.glyph_key("btc", face)


def _parse(name: str) -> tuple[int, int]:
    """Frame cell "D4" -> (3, 3)."""
    return (ord(name[0].upper()) - ord("A"), int(name[1:]) - 1)


def _cell_name(r: int, col: int) -> str:
    return f"{chr(ord('A') + r)}{col + 1}"


def _window(city: BtcCity, placing: bool) -> tuple[int, int, int, int]:
    """(first row, first column, rows, columns) of the frame to draw.

    ``placing``: every frame row and column the city may still grow into (up to 7 x 7, shrinking
    to 4 x 4 as the city reaches its size). Otherwise the 4 x 4 square from the city's top-left.
    """
    cells = [_parse(k) for k in (city.get("cells") or {})]
    if not cells:
        return (0, 0, FRAME, FRAME) if placing else (2, 2, SIDE, SIDE)
    rmin, rmax = min(r for r, _ in cells), max(r for r, _ in cells)
    cmin, cmax = min(col for _, col in cells), max(col for _, col in cells)
    if placing:
        r0, r1 = max(0, rmax - SIDE + 1), min(FRAME - 1, rmin + SIDE - 1)
        c0, c1 = max(0, cmax - SIDE + 1), min(FRAME - 1, cmin + SIDE - 1)
        return (r0, c0, r1 - r0 + 1, c1 - c0 + 1)
    r0 = min(rmin, FRAME - SIDE)
    c0 = min(cmin, FRAME - SIDE)
    return (r0, c0, SIDE, SIDE)


def _tile_image(tile: BtcTile, size: int, locale: str = "en") -> Image.Image:
    """A tile as drawn in a hand: a single square, or a duplex as two joined squares."""
    faces = list(tile.get("faces") or [tile.get("kind", "?")])
    if len(faces) == 1:
        out = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        c.paste(out, c.glyph_image(_face_key(faces[0]), size, locale=locale), (0, 0))
        return out
    horizontal = tile.get("orientation") != "vertical"
    w, h = (2 * size + 4, size) if horizontal else (size, 2 * size + 4)
    out = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(out)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=size // 8, fill=c.INK)
    c.paste(out, c.glyph_image(_face_key(faces[0]), size, locale=locale), (0, 0))
    second = (size + 4, 0) if horizontal else (0, size + 4)
    c.paste(out, c.glyph_image(_face_key(faces[1]), size, locale=locale), second)
    return out


# ---------------------------------------------------------------------------------------------
# A city
# ---------------------------------------------------------------------------------------------


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
    outlined and named."""
    draw = ImageDraw.Draw(img)
    r0, c0, rows, cols = _window(city, placing)
    cell = min(
        cell_cap or CELL_CAP, (max_side - LABEL_SPACE - (max(rows, cols) - 1) * CITY_GAP) // max(rows, cols)
    )
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
        row_labels=[chr(ord("A") + r0 + r) for r in range(rows)],
        col_labels=[str(c0 + col + 1) for col in range(cols)],
        gap=CITY_GAP,
        label_space=LABEL_SPACE,
        label_size=16,
        fill=fill,
    )
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
        ofont = c.font(max(12, cell // 5), True)
        for name in open_cells:
            r, col = _parse(name)
            if r0 <= r < r0 + rows and c0 <= col < c0 + cols:
                box = geo.cell_box(r - r0, col - c0)
                draw.rounded_rectangle(box, radius=max(3, cell // 12), outline=c.INK, width=2)
                c.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), name, ofont, c.MUTED, "mm",
                            key=False)
    return geo


def _score_chips(
    img: Image.Image, xy: tuple[int, int], width: int, city: BtcCity, locale: str = "en"
) -> int:
    """Six category scores as [glyph] n (one or two rows), then the total; returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    scores = city.get("scores") or {}
    size = 30
    room = width - 90
    per_row = len(CATEGORIES) if room // len(CATEGORIES) >= 62 else (len(CATEGORIES) + 1) // 2
    step = room // per_row
    vfont = c.font(20, True)
    for k, (cid, _, key) in enumerate(CATEGORIES):
        r, col = divmod(k, per_row)
        bx, by = x + col * step, y + r * (size + 6)
        c.draw_glyph(img, key, (bx, by, bx + size, by + size), locale=locale)
        value = int(scores.get(cid, 0))
        c.draw_text(
            draw, (bx + size + 5, by + size / 2), str(value), vfont, c.INK if value else c.MUTED, "lm"
        )
    rows = (len(CATEGORIES) + per_row - 1) // per_row
    mid = y + (rows * (size + 6) - 6) / 2
    total = int(city.get("total", 0))
    tb = c.chip(img, (x + width, mid), "points", str(total), 28, "rm")
    modifier = int(city.get("modifier") or 0)
    if modifier:
        text = t("btc.render.difficulty", locale, modifier=f"{modifier:+d}")
        c.draw_text(draw, (tb[2], tb[3] + 2), text, c.font(14), c.MUTED, "ra")
    return y + rows * (size + 6)


def city_card(
    img: Image.Image,
    xy: tuple[int, int],
    width: int,
    city: BtcCity,
    who: list[str],
    *,
    placing: bool = False,
    max_grid: int | None = None,
    winners: frozenset[int] = frozenset(),
    locale: str = "en",
) -> int:
    """A city: name and builders (markers), the grid, incoming tiles, score chips. Returns the bottom."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    top = y
    grid_side = min(width - 16, max_grid or width)
    # header: name, then the two builders with their markers
    name_font = c.font(24, True)
    c.draw_text(
        draw,
        (x + 8, y + 4),
        c.ellipsize(str(resolve(city.get("name"), locale) or t("btc.render.city", locale)), name_font, width - 16),
        name_font,
        c.INK,
        "la",
    )
    y += 34
    bx = x + 8
    msz = 26
    for b in city.get("builders") or []:
        c.seat_marker(img, b, (bx, y, bx + msz, y + msz))
        room = (width - 16) // 2 - msz - 14 - (msz + 4 if b in winners else 0)
        label, f = c.fit_text(who[b] if 0 <= b < len(who) else "?", room, 18, True, 12)
        c.draw_text(draw, (bx + msz + 6, y + msz / 2), label, f, c.INK, "lm")
        if b in winners:
            lx = bx + msz + 10 + c.text_width(label, f)
            c.draw_icon(img, "winner", (lx, y, lx + msz, y + msz))
        bx += (width - 16) // 2
    y += msz + 8
    if city.get("grid", True):
        _, _, rows, cols = _window(city, placing)
        cell = min(CELL_CAP, (grid_side - LABEL_SPACE - (max(rows, cols) - 1) * CITY_GAP) // max(rows, cols))
        block_w = LABEL_SPACE + cols * cell + (cols - 1) * CITY_GAP
        geo = draw_city_grid(
            img, (x + (width - block_w) // 2 - LABEL_SPACE // 2, y), city, grid_side, placing=placing,
            locale=locale,
        )
        y = geo.box[3] + 8
    else:  # Automacity: its tiles in a heap, no grid
        y = _loose(img, (x + 8, y), width - 16, city, locale)
    incoming = city.get("incoming") or []
    if incoming:
        coming = t("btc.render.coming", locale)
        c.draw_text(draw, (x + 8, y + 18), coming, c.font(18, True), c.INK, "lm")
        ix = x + 8 + c.text_width(coming, c.font(18, True)) + 10
        for tile in incoming:
            timg = _tile_image(tile, 36, locale)
            if ix + timg.width > x + width - 8:
                break
            c.paste(img, timg, (ix, y))
            ix += timg.width + 4
            frm = tile.get("from")
            if isinstance(frm, int):
                c.seat_marker(img, frm, (ix, y + 6, ix + 20, y + 26))
                ix += 26
        y += 84 if any(t.get("orientation") == "vertical" for t in incoming) else 44
    y = _score_chips(img, (x + 8, y), width - 16, city, locale)
    factories = int(city.get("factories") or 0)
    if factories:
        text = t("btc.render.factories", locale, count=factories, points=city.get("per_factory", 0))
        c.draw_fitted(draw, (x + 8, y + 2), text, width - 16, 16, False, c.MUTED, "la", 10)
    y += 26
    draw.rounded_rectangle((x, top - 4, x + width, y), radius=12, outline=c.PANEL_EDGE, width=2)
    return y


def _loose(img: Image.Image, xy: tuple[int, int], width: int, city: BtcCity, locale: str = "en") -> int:
    x, y = xy
    size = 48
    per_row = max(1, width // (size + 4))
    loose = city.get("loose") or []
    for k, item in enumerate(loose):
        r, col = divmod(k, per_row)
        c.draw_glyph(
            img,
            _face_key(str(item.get("face", "?"))),
            (
                x + col * (size + 4),
                y + r * (size + 4),
                x + col * (size + 4) + size,
                y + r * (size + 4) + size,
            ),
            locale=locale,
        )
    rows = max(1, (len(loose) + per_row - 1) // per_row)
    return y + rows * (size + 4) + 6


def city_card_height(
    city: BtcCity,
    width: int,
    placing: bool = False,
    max_grid: int | None = None,
    locale: str = "en",
) -> int:
    """The height :func:`city_card` will take (drawn once off-screen)."""
    scratch = Image.new("RGB", (width + 10, 2000))
    card = city_card(
        scratch, (0, 4), width, city, [""] * 8, placing=placing, max_grid=max_grid, locale=locale
    )
    return card - 4


# ---------------------------------------------------------------------------------------------
# Status
# ---------------------------------------------------------------------------------------------


def _status(view: View, index: int, locale: str = "en") -> tuple[str, str]:
    """(icon, words) for a player's state in this step."""
    p = (view.get("players") or [])[index]
    awaiting = set(view.get("awaiting") or [])
    if view.get("phase") == "over":
        return ("ok", t("btc.render.status.done", locale))
    if p.get("committed"):
        return ("ok", t("btc.render.status.chosen", locale))
    if p.get("seat") is not None and p.get("seat") in awaiting:
        if p.get("to_place"):
            return ("waiting", t("btc.render.status.placing", locale, count=len(p["to_place"])))
        return ("waiting", t("btc.render.status.choosing", locale))
    return ("ok", t("btc.render.status.ready", locale))


def _status_strips(
    img: Image.Image, top: int, view: View, who: list[str], acting: int | None, locale: str = "en"
) -> int:
    players = view.get("players") or []
    per_row = {1: 1, 2: 2, 3: 3, 4: 4, 5: 3, 6: 3}.get(len(players), 4)
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 8) // per_row
    draw = ImageDraw.Draw(img)
    for i, _ in enumerate(players):
        r, col = divmod(i, per_row)
        x = MARGIN + col * (w + 8)
        y = top + r * (STATUS_HEIGHT + 8)
        style = c.player_style(i)
        active = i == acting
        draw.rounded_rectangle(
            (x, y, x + w, y + STATUS_HEIGHT),
            radius=12,
            fill=c.tint(style.colour, 0.84),
            outline=c.HIGHLIGHT if active else c.shade(style.colour, 0.2),
            width=5 if active else 2,
        )
        c.seat_marker(img, i, (x + 6, y + 6, x + STATUS_HEIGHT - 6, y + STATUS_HEIGHT - 6))
        icon, words = _status(view, i, locale)
        room = (w - STATUS_HEIGHT - 40) // 2  # the rest is the player's name
        ww = c.draw_fitted(draw, (x + w - 10, y + STATUS_HEIGHT / 2), words, room, 16, True, c.INK, "rm")
        c.draw_icon(img, icon, (x + w - ww - 40, y + 13, x + w - ww - 16, y + 37))
        name, f = c.fit_text(who[i], w - STATUS_HEIGHT - ww - 50, 20, True, 12)
        c.draw_text(draw, (x + STATUS_HEIGHT, y + STATUS_HEIGHT / 2), name, f, c.INK, "lm")
    rows = (len(players) + per_row - 1) // per_row
    return top + rows * (STATUS_HEIGHT + 8)


def _title(view: View, locale: str = "en") -> str:
    if view.get("phase") == "over":
        return t("btc.render.title.over", locale)
    part = str(view.get("part") or "")
    return t("btc.render.title.turn", locale, round=view.get("round", 1), part=part, turn=view.get("turn", 1))


def _mode_title(mode: str, locale: str) -> str:
    if mode in MODES:
        return t(f"btc.render.mode.{mode}", locale)
    return "" if mode == "standard" else mode


def _subtitle(view: View, locale: str = "en") -> str:
    count = len([p for p in view.get("players") or [] if p.get("seat") is not None])
    mode = _mode_title(str(view.get("mode", "")), locale)
    text = t("btc.render.players", locale, count=count)
    return t("btc.render.subtitle_mode", locale, players=text, mode=mode) if mode else text


def _legend(img: Image.Image, top: int, locale: str = "en") -> int:
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    entries = [(f"btc.{k}", c.glyph_name(f"btc.{k}", locale)) for k in KINDS]
    icons = [("points", t("btc.render.legend.city_score", locale))]
    return c.legend(img, (MARGIN, top + 10), entries, WIDTH - 2 * MARGIN, 30, icons, locale) + 6


# ---------------------------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------------------------


def _hand_section(img: Image.Image, top: int, view: View, seat: int, locale: str = "en") -> int:
    """The seat's own hand, chosen tiles and tiles to place, side by side (only from that seat's view)."""
    you = view.get("you")
    if not you or you.get("seat") != seat:
        return top
    draw = ImageDraw.Draw(img)
    groups: list[tuple[str, Sequence[BtcTile]]] = [
        (t("btc.render.hand.yours", locale), you.get("hand") or []),
        (t("btc.render.hand.chosen", locale), you.get("choice") or []),
        (t("btc.render.hand.to_place", locale), you.get("to_place") or []),
    ]
    cities = {cty.get("city"): resolve(cty.get("name"), locale) for cty in view.get("cities") or []}
    size = 84
    caption_h = 46
    x, y = MARGIN, top
    line_h = 0
    for label, tiles in groups:
        if not tiles:
            continue
        widths = [max(_tile_image(t, size, locale).width, 110) for t in tiles]
        group_w = max(sum(widths) + 16 * (len(widths) - 1), c.text_width(label, c.font(20, True)))
        if x > MARGIN and x + group_w > WIDTH - MARGIN:
            x, y = MARGIN, y + line_h + 8
            line_h = 0
        c.draw_text(draw, (x, y + 2), label, c.font(20, True), c.INK, "la")
        tx, ty = x, y + 32
        row_h = 0
        for tile, cw in zip(tiles, widths, strict=True):
            timg = _tile_image(tile, size, locale)
            if tx + cw > WIDTH - MARGIN:
                tx, ty = x, ty + row_h + 8
                row_h = 0
            c.paste(img, timg, (int(tx + (cw - timg.width) / 2), ty))
            caption = str(resolve(tile.get("name", ""), locale))
            target = tile.get("city")
            sub = f"→ {cities.get(target, '?')}" if isinstance(target, int) else f"#{tile.get('id')}"
            f = c.fit_font(caption, cw, 16, True, 13)
            lines = [caption] if c.text_width(caption, f) <= cw else c.wrap(caption, f, cw)  # a duplex: two lines
            if len(lines) > 2:
                lines = [lines[0], " ".join(lines[1:])]
            extra = (len(lines) - 1) * int(f.size + 3)
            for k, line in enumerate(lines):
                c.draw_text(draw, (tx + cw / 2, ty + timg.height + 4 + k * (f.size + 3)), c.ellipsize(line, f, cw),
                            f, c.INK, "ma", key=False)
            sub_text, sub_font = c.fit_text(sub, cw, 15, False, 12)
            c.draw_text(draw, (tx + cw / 2, ty + timg.height + 24 + extra), sub_text, sub_font, c.MUTED, "ma",
                        key=False)
            row_h = max(row_h, timg.height + caption_h + extra)
            tx += cw + 16
        line_h = max(line_h, ty + row_h - y)
        x = x + group_w + 40
    if line_h:
        draw.line((MARGIN, y + line_h + 6, WIDTH - MARGIN, y + line_h + 6), fill=c.PANEL_EDGE, width=1)
    return y + line_h + 14


def turn_image(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """One seat's turn: statuses, their hand (own view only), their two cities (see module docstring)."""
    who = player_names(view, names, locale)
    players = view.get("players") or []
    me = players[acting_seat] if 0 <= acting_seat < len(players) else cast(BtcPlayer, {})
    city_ids = [i for i in (me.get("left_city"), me.get("right_city")) if isinstance(i, int)]
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    card_w = (WIDTH - 2 * MARGIN - GAP) // 2
    placing = view.get("phase") in ("play", "place", "assign")
    grid_max = 520
    cards_h = max(
        [city_card_height(cities[i], card_w, placing, grid_max, locale) for i in city_ids if i in cities]
        or [0]
    )
    img, draw = c.canvas(WIDTH, 2400)
    c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
    y = _status_strips(img, c.TITLE_HEIGHT + GAP, view, who, acting_seat, locale) + 4
    phase_id = str(view.get("phase", ""))
    phase = t(f"btc.render.phase.{phase_id}", locale) if phase_id in PHASES else phase_id
    waiting = [who[i] for i in view.get("awaiting") or [] if i < len(who)]
    if waiting and view.get("phase") != "over":
        line = t("btc.render.now_waiting", locale, phase=phase, names=c.join_names(waiting, locale))
    else:
        line = t("btc.render.now", locale, phase=phase)
    text, f = c.fit_text(line, WIDTH - 2 * MARGIN, 22, False, 14)
    c.draw_text(draw, (MARGIN, y + 4), text, f, c.INK, "la")
    y += 40
    y = _hand_section(img, y, view, acting_seat, locale)
    labels = {
        me.get("left_city"): t("btc.render.left_city", locale),
        me.get("right_city"): t("btc.render.right_city", locale),
    }
    for k, cid in enumerate(city_ids):
        if cid not in cities:
            continue
        x = MARGIN + k * (card_w + GAP)
        partner = _partner(cities[cid], acting_seat, who, locale)
        label = labels.get(cid, "")
        if partner:
            heading = t("btc.render.heading.with", locale, city=label, partner=partner)
        else:
            heading = t("btc.render.heading.alone", locale, city=label)
        c.draw_fitted(draw, (x + 4, y + 2), heading, card_w - 8, 18, True, c.MUTED, "la")
        city_card(
            img, (x, y + 30), card_w, cities[cid], who, placing=placing, max_grid=grid_max, locale=locale
        )
    y += 30 + cards_h + GAP
    end = _legend(img, y, locale)
    return img.crop((0, 0, WIDTH, end))


def _partner(city: BtcCity, seat: int, who: list[str], locale: str = "en") -> str:
    others = [b for b in city.get("builders") or [] if b != seat]
    return c.join_names((who[b] if 0 <= b < len(who) else "?" for b in others), locale)


def _table(
    img: Image.Image, top: int, view: View, who: list[str], winners: frozenset[int], locale: str = "en"
) -> int:
    """Every city, three per row, in table order."""
    cities = view.get("cities") or []
    per_row = 3 if len(cities) > 4 or len(cities) == 3 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    grid_max = min(w - 16, 420)
    y = top
    for r in range(0, len(cities), per_row):
        row = cities[r : r + per_row]
        bottom = y
        for k, city in enumerate(row):
            bottom = max(
                bottom,
                city_card(
                    img,
                    (MARGIN + k * (w + GAP), y + 4),
                    w,
                    city,
                    who,
                    max_grid=grid_max,
                    winners=winners,
                    locale=locale,
                ),
            )
        y = bottom + GAP
    return y


def _table_height(view: View, locale: str = "en") -> int:
    cities = view.get("cities") or []
    per_row = 3 if len(cities) > 4 or len(cities) == 3 else 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    grid_max = min(w - 16, 420)
    total = 0
    for r in range(0, len(cities), per_row):
        total += (
            max(
                city_card_height(city, w, max_grid=grid_max, locale=locale)
                for city in cities[r : r + per_row]
            )
            + GAP
            + 4
        )
    return total


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The whole table: every city with its builders and running scores."""
    who = player_names(view, names, locale)
    img, draw = c.canvas(WIDTH, c.TITLE_HEIGHT + 2 * GAP + _table_height(view, locale) + 400)
    c.title_bar(draw, WIDTH, _title(view, locale), _subtitle(view, locale))
    result: Mapping[str, Any] = view.get("result") or {}
    ranked = [*(result.get("seats") or []), *((result.get("details") or {}).get("automas") or [])]
    winners = frozenset(s["seat"] for s in ranked if s.get("rank") == 1)
    y = _table(img, c.TITLE_HEIGHT + GAP, view, who, winners, locale)
    end = _legend(img, y, locale)
    return img.crop((0, 0, WIDTH, end))


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The whole table, then each player's two city scores, final score (the lower), ranks, winner."""
    who = player_names(view, names, locale)
    board = board_image(view, names, locale=locale)
    result: Mapping[str, Any] = view.get("result") or _provisional(view)
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    automas = (result.get("details") or {}).get("automas") or []
    seats = sorted([*(result.get("seats") or []), *automas], key=lambda s: s["seat"])
    players = view.get("players") or []
    rows: list[list[int | str | None]] = []
    for s in seats:
        p = players[s["seat"]] if s["seat"] < len(players) else cast(BtcPlayer, {})
        row: list[int | str | None] = []
        for key, own in (("left_city", p.get("left_city")), ("right_city", p.get("right_city"))):
            cid = (s.get("details") or {}).get(key, own)
            city = cities.get(cid)
            row.append(f"{city.get('total', '?')}  {resolve(city.get('name', ''), locale)}".strip() if city else None)
        rows.append(row)
    rule = {
        "two_player": "btc.render.rule.two_player",
        "solo_simple": "btc.render.rule.solo",
        "solo_full": "btc.render.rule.solo",
    }.get(str(view.get("mode")), "btc.render.rule.lower")
    decided = decided_note(str(result.get("decided_by", "score")), locale)
    note = " ".join(part for part in (t(rule, locale), decided) if part)
    table = score_table(
        t("btc.render.title.final_scores", locale),
        [who[s["seat"]] if s["seat"] < len(who) else "?" for s in seats],
        [t("btc.render.left_city", locale), t("btc.render.right_city", locale)],
        rows,
        totals=[s["total"] for s in seats],
        ranks=[s["rank"] for s in seats],
        seats=[s["seat"] for s in seats],
        category_keys=[None, None],
        subtitle=_subtitle(view, locale),
        note=note,
        locale=locale,
    )
    return c.stack_vertical([board, table])


def _provisional(view: View) -> dict[str, Any]:
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    seats: list[dict[str, Any]] = []
    for i, p in enumerate(view.get("players") or []):
        totals = [int(cities.get(cid, cast(BtcCity, {})).get("total", 0))
                  for cid in (p.get("left_city"), p.get("right_city"))]
        seats.append({"seat": i, "total": min(totals), "breakdown": {}, "details": {}})
    for s in seats:
        s["rank"] = 1 + sum(1 for o in seats if o["total"] > s["total"])
    return {"seats": seats, "decided_by": "score"}


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
    """Every building of the game as the pictures draw it (``/game tiles``)."""
    title = t("tiles.title", locale, game=t("btc.title", locale))
    return c.png_bytes(c.tile_sheet("btc", title, locale))
