"""Between Two Cities images, drawn from a rules view (``RULES.view(state, seat)``; shape in
``bot/rules/btc/views.py``), laid out for a phone (Discord shows a picture about 400 px wide): every key
fact (the title, who is awaited, names, scores) at least ``c.KEY_TEXT`` px, every word at least
``c.MIN_TEXT`` px, in a portrait picture ``c.IMAGE_WIDTH`` wide.

- :func:`turn_image` — for one seat: a strip per player (marker, name, what they are doing, their
  score; the awaited ones framed in the highlight colour with an hourglass), that seat's hand, chosen
  tiles and tiles to place (only when the view is that seat's own view: a hand is secret), then the
  seat's two cities one under the other, each headed by its partner: the grid with the cells a tile may
  go to named, and beside it the city's score, the category scores and the revealed tiles coming to it
  (on a highlighted band: what changes next).
- :func:`board_image` — the whole table: the players' strips, then every city, two per row, with its
  score, its two builders named, and its grid at the left with the six category scores in a column
  beside it (the factories' worth under them, or under the grid when it does not fit there).
- :func:`end_image` — the final ranking first (rank, name, the score that counts, both cities' scores,
  the winner and the scoring rule), then every city as on the board.

Each returns a PIL image; :mod:`render.pictures` binds them to the game behind the one PNG adapter.
Player names are not in the view; pass them as ``names`` (by seat), else "Player n". Automas
(solo) use their own names. Every word drawn comes from the message catalogue (``render.*``,
``btc.render.*``) in the keyword ``locale`` (default English); city names, tile names and Automa
names in the view are the rules'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.i18n import resolve, t
from bot.rules.btc.viewtypes import BtcCity, BtcPlayer, BtcTile, BtcView
from render import common as c
from render.scores import decided_note

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
LABEL_SPACE = 30
CELL_CAP = 100
CARD_CELL = 92
"""A cell of a city on the table (board and end pictures)."""
CARD_SCORE = 34
"""A category's tile in a card's scores (its number in a bold font of 0.72 of this): six in a column beside
the grid, else in rows under it."""
CARD_COLUMN_GAP = 28
"""Between a card's grid and the column of its category scores."""
PAD = 14
"""Inside a card's frame."""
STRIP = 76
"""A player's strip: one row per player."""
OWN_GRID = 640
"""The largest side of the seat's own city grid in the turn picture (7 x 7 cells while placing)."""
CHIP = 50
"""A city's score pill (its number in a bold font of 0.82 of this: a key fact)."""
RANK_ROW = 112
LEGEND_TILE = 44

# Font sizes in a picture WIDTH pixels wide (c.KEY_TEXT for key facts, c.MIN_TEXT for every word at least).
NAME_TEXT = 40
SCORE_TEXT = 44
HEADING_TEXT = 30
CAPTION_TEXT = 22
CAPTION_LINES = 4
"""A tile's name under it in the hand ("dúplex fábrica y oficina", "дуплекс «офис и фабрика»"): wrapped
whole onto up to this many lines (a smaller font first), never cut."""
DETAIL_TEXT = 26
NOTE_TEXT = 22
AXIS_TEXT = 24

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
                c.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), name, ofont, c.MUTED, "mm",
                            key=False)
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


def _score_pill(img: Image.Image, xy: tuple[float, float], total: int, size: int, anchor: str = "lt") -> c.Box:
    """A city's score as a white pill, a star then the number (a key fact), apart enough to read as two and
    clear of the pill's light edge; ``anchor`` as :func:`render.common.chip`'s. Returns its box."""
    draw = ImageDraw.Draw(img)
    fnt = c.font(round(size * 0.82), True)
    text = str(total)
    pad, gap = 10, 12
    w = pad + size + gap + c.text_width(text, fnt) + pad + 6
    h = size + 12
    x, y = xy
    x0 = x if anchor[0] == "l" else (x - w if anchor[0] == "r" else x - w / 2)
    y0 = y if anchor[1] == "t" else (y - h if anchor[1] == "b" else y - h / 2)
    box = (int(x0), int(y0), int(x0 + w), int(y0 + h))
    draw.rounded_rectangle(box, radius=h // 2, fill=c.WHITE, outline=c.PANEL_EDGE, width=2)
    c.draw_icon(img, "points", (box[0] + pad, box[1] + 6, box[0] + pad + size, box[1] + 6 + size))
    c.draw_text(draw, (box[0] + pad + size + gap, (box[1] + box[3]) / 2), text, fnt, c.INK, "lm", key=True)
    return box


def _wrap_layout(
    text: str, width: int, size: int, bold: bool, min_size: int, max_lines: int
) -> tuple[c.Font, list[str]]:
    """The font and lines :func:`_wrapped` draws ``text`` in (its height: lines x ``round(size * 1.22)``): a
    smaller font, down to ``min_size``, before any word is cut past ``max_lines``."""
    fnt = c.font(size, bold)
    longest = max(text.split(), key=lambda w: c.text_width(w, fnt), default="")
    fnt = c.fit_font(longest, width, size, bold, min_size)
    lines = c.wrap(text, fnt, width)
    while len(lines) > max_lines and int(fnt.size) > min_size:
        fnt = c.font(int(fnt.size) - 1, bold)
        lines = c.wrap(text, fnt, width)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return fnt, lines


def _wrapped(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    width: int,
    size: int,
    bold: bool = False,
    fill: c.RGB = c.INK,
    *,
    key: bool,
    min_size: int = c.MIN_TEXT,
    max_lines: int = 3,
    centred: bool = False,
) -> int:
    """``text`` wrapped onto lines of ``width`` from ``xy`` (its top left; ``centred``: each line centred in
    the width), its longest word shrinking the font, not below ``min_size``; past ``max_lines`` the rest is
    cut after a whole word. Returns the y under the last line."""
    fnt, lines = _wrap_layout(text, width, size, bold, min_size, max_lines)
    x, y = xy
    step = round(fnt.size * 1.22)
    for line in lines:
        c.draw_text(draw, (x + width / 2 if centred else x, y), c.ellipsize(line, fnt, width), fnt, fill,
                    "ma" if centred else "la", key=key)
        y += step
    return int(y)


def _score_grid(
    img: Image.Image, xy: tuple[int, int], width: int, city: BtcCity, size: int, locale: str = "en"
) -> int:
    """The six category scores as [glyph] n, as many per row as fit; returns the bottom y."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    scores = city.get("scores") or {}
    vfont = c.font(round(size * 0.72), True)
    cell_w = size + 14 + c.text_width("88", vfont) + 10
    per_row = max(1, min(len(CATEGORIES), width // cell_w))
    if per_row < len(CATEGORIES):
        per_row = min(per_row, (len(CATEGORIES) + 1) // 2) if per_row >= 3 else per_row
    step = width // per_row
    for k, (cid, _, key) in enumerate(CATEGORIES):
        r, col = divmod(k, per_row)
        bx, by = x + col * step, y + r * (size + 8)
        c.draw_glyph(img, key, (bx, by, bx + size, by + size), locale=locale)
        value = int(scores.get(cid, 0))
        c.draw_text(draw, (bx + size + 12, by + size / 2), str(value), vfont, c.INK if value else c.MUTED, "lm",
                    key=False)
    rows = (len(CATEGORIES) + per_row - 1) // per_row
    return y + rows * (size + 8)


def _score_column_width(city: BtcCity, size: int) -> int:
    """The width of :func:`_score_column`: a glyph, a gap and the widest number (at least two digits)."""
    scores = city.get("scores") or {}
    vfont = c.font(round(size * 0.72), True)
    numbers = ["88", *(str(int(scores.get(cid, 0))) for cid, _, _ in CATEGORIES)]
    return size + 12 + max(c.text_width(n, vfont) for n in numbers)


def _score_column(img: Image.Image, xy: tuple[int, int], city: BtcCity, size: int, locale: str = "en") -> int:
    """The six category scores as [glyph] n, one under another (beside a card's grid); returns the bottom y
    (``6 * (size + 8) - 8`` under ``xy``)."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    scores = city.get("scores") or {}
    vfont = c.font(round(size * 0.72), True)
    for k, (cid, _, key) in enumerate(CATEGORIES):
        by = y + k * (size + 8)
        c.draw_glyph(img, key, (x, by, x + size, by + size), locale=locale)
        value = int(scores.get(cid, 0))
        c.draw_text(draw, (x + size + 12, by + size / 2), str(value), vfont, c.INK if value else c.MUTED, "lm",
                    key=False)
    return y + len(CATEGORIES) * (size + 8) - 8


def _note_texts(city: BtcCity, locale: str) -> list[str]:
    """Automacity's difficulty and the factories' worth, those the city has."""
    texts = []
    modifier = int(city.get("modifier") or 0)
    if modifier:
        texts.append(t("btc.render.difficulty", locale, modifier=f"{modifier:+d}"))
    factories = int(city.get("factories") or 0)
    if factories:
        texts.append(t("btc.render.factories", locale, count=factories, points=city.get("per_factory", 0)))
    return texts


def _note_lines(text: str, width: int) -> tuple[c.Font, list[str]]:
    """A note's font and lines in ``width``: one line when it fits, else broken before its "×" (the count
    on one line, the worth on the next) when both halves fit, else wrapped as :func:`_wrapped` does."""
    fnt = c.font(NOTE_TEXT)
    head, sep, tail = text.partition(" × ")
    if c.text_width(text, fnt) > width and sep:
        halves = [head, f"× {tail}"]
        if all(c.text_width(h, fnt) <= width for h in halves):
            return fnt, halves
    return _wrap_layout(text, width, NOTE_TEXT, False, c.MIN_TEXT, 3)


def _notes_height(width: int, city: BtcCity, locale: str) -> int:
    """The height :func:`_notes` takes in ``width``."""
    total = 0
    for text in _note_texts(city, locale):
        fnt, lines = _note_lines(text, width)
        total += len(lines) * round(fnt.size * 1.22)
    return total


def _notes(draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, city: BtcCity, locale: str) -> int:
    """Automacity's difficulty and the factories' worth, in small type; returns the bottom y."""
    x, y = xy
    for text in _note_texts(city, locale):
        fnt, lines = _note_lines(text, width)
        for line in lines:
            c.draw_text(draw, (x, y), c.ellipsize(line, fnt, width), fnt, c.MUTED, "la", key=False)
            y += round(fnt.size * 1.22)
    return y


def _incoming(img: Image.Image, xy: tuple[int, int], width: int, city: BtcCity, size: int, locale: str) -> int:
    """The revealed tiles coming to the city (what changes next), on a highlighted band; returns the bottom."""
    incoming = city.get("incoming") or []
    if not incoming:
        return xy[1]
    draw = ImageDraw.Draw(img)
    x, y = xy
    tiles = [(_tile_image(tile, size, locale), tile.get("from")) for tile in incoming]
    mark = round(size * 0.6)
    label = t("btc.render.coming", locale)
    lfont = c.fit_font(label, width - 24, NOTE_TEXT + 4, True, c.MIN_TEXT)
    # lay the tiles out first, to size the band
    spots: list[tuple[int, int]] = []
    tx, ty, row_h = x + 12, y + int(lfont.size) + 18, 0
    for timg, frm in tiles:
        w = timg.width + (mark + 8 if isinstance(frm, int) else 0)
        if tx > x + 12 and tx + w > x + width - 12:
            tx, ty, row_h = x + 12, ty + row_h + 8, 0
        spots.append((tx, ty))
        tx += w + 14
        row_h = max(row_h, timg.height)
    bottom = ty + row_h + 10
    draw.rounded_rectangle((x, y, x + width, bottom), radius=10, fill=c.tint(c.HIGHLIGHT, 0.75), outline=c.INK,
                           width=2)
    c.draw_text(draw, (x + 12, y + 8), c.ellipsize(label, lfont, width - 24), lfont, c.INK, "la", key=False)
    for (timg, frm), (sx, sy) in zip(tiles, spots, strict=True):
        c.paste(img, timg, (sx, sy))
        if isinstance(frm, int):
            c.seat_marker(img, frm, (sx + timg.width + 6, sy + (timg.height - mark) // 2,
                                     sx + timg.width + 6 + mark, sy + (timg.height + mark) // 2))
    return bottom


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


def _city_name(city: BtcCity, locale: str) -> str:
    return str(resolve(city.get("name"), locale) or t("btc.render.city", locale))


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
    frame: bool = True,
) -> int:
    """A city of the table: its name and score, its two builders (marker and name), the grid (or
    Automacity's heap), the tiles coming to it, the category scores. Returns the bottom; ``frame``: with its
    frame (else the caller frames the cards of a row to one height)."""
    draw = ImageDraw.Draw(img)
    x, y = xy
    top = y
    inner = width - 2 * PAD
    chip = _score_pill(img, (x + width - PAD, y + PAD), int(city.get("total", 0)), CHIP, "rt")
    name_room = chip[0] - (x + PAD) - 10
    name, nfont = c.fit_text(_city_name(city, locale), name_room, 30, True, 22)
    c.draw_text(draw, (x + PAD, (chip[1] + chip[3]) / 2), name, nfont, c.INK, "lm", key=False)
    y = chip[3] + 6
    msz = 44
    builders = list(city.get("builders") or [])
    nfont = c.font(NAME_TEXT - 2, True)

    def span(b: int) -> int:  # a builder's marker, name and crown
        name = who[b] if 0 <= b < len(who) else "?"
        return msz + 10 + c.text_width(name, nfont) + (msz + 8 if b in winners else 0)

    # both builders on one line when they fit, else one line each
    lines = [builders] if sum(span(b) for b in builders) + 24 * (len(builders) - 1) <= inner else \
        [[b] for b in builders]
    for line in lines:
        bx = x + PAD
        for b in line:
            c.seat_marker(img, b, (bx, y, bx + msz, y + msz))
            room = x + PAD + inner - bx - msz - 10 - (msz + 8 if b in winners else 0)
            label, f = c.fit_text(who[b] if 0 <= b < len(who) else "?", room, NAME_TEXT - 2, True, c.KEY_TEXT)
            c.draw_text(draw, (bx + msz + 10, y + msz / 2), label, f, c.INK, "lm", key=True)
            bx += msz + 10 + c.text_width(label, f)
            if b in winners:
                c.draw_icon(img, "winner", (bx + 8, y, bx + 8 + msz, y + msz))
                bx += msz + 8
            bx += 24
        y += msz + 8
    scored = False  # the category scores drawn beside the grid
    if city.get("grid", True):
        side = max_grid or min(inner, _grid_side(CARD_CELL, 4, placing))
        gw, gh = _grid_width(city, side, placing)
        col_x = x + PAD + gw + CARD_COLUMN_GAP
        col_w = x + width - PAD - col_x
        column_h = len(CATEGORIES) * (CARD_SCORE + 8) - 8
        scored = col_w >= _score_column_width(city, CARD_SCORE) and column_h <= gh
        gx = x + PAD if scored else x + (width - gw) // 2
        geo = draw_city_grid(img, (gx, y if scored else y + 4), city, side, placing=placing, locale=locale)
        if scored:
            # the six scores in a column beside the grid, the notes under them when they fit there too
            below = _score_column(img, (col_x, geo.box[1]), city, CARD_SCORE, locale) + 8
            noted = below + _notes_height(col_w, city, locale) <= geo.box[3]
            if noted:
                _notes(draw, (col_x, below), col_w, city, locale)
            y = geo.box[3]  # the frame's padding under it, or what follows
            if not noted and _note_texts(city, locale):
                y = _notes(draw, (x + PAD, y + 8), inner, city, locale)
            if city.get("incoming"):
                y += 12
        else:
            y = geo.box[3] + 12
    else:
        y = _loose(img, (x + PAD, y + 4), inner, city, locale) + 8
    y = _incoming(img, (x + PAD, y), inner, city, 44, locale)
    if city.get("incoming") and not scored:
        y += 10
    if not scored:
        y = _score_grid(img, (x + PAD, y), inner, city, CARD_SCORE, locale)
        y = _notes(draw, (x + PAD, y + 2), inner, city, locale)
    y += PAD
    if frame:
        draw.rounded_rectangle((x, top, x + width, y), radius=14, outline=c.PANEL_EDGE, width=2)
    return y


# ---------------------------------------------------------------------------------------------
# Players
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


def _awaited(view: View, index: int) -> bool:
    p = (view.get("players") or [])[index]
    return (view.get("phase") != "over" and not p.get("committed") and p.get("seat") is not None
            and p.get("seat") in set(view.get("awaiting") or []))


def player_scores(view: View) -> list[int]:
    """Each player's score by index: the result's once the game is over, else the running one (the lower
    of their two cities; with two players, the sum of both)."""
    players = view.get("players") or []
    result: Mapping[str, Any] = view.get("result") or {}
    ranked = [*(result.get("seats") or []), *((result.get("details") or {}).get("automas") or [])]
    totals = {int(cty.get("city", -1)): int(cty.get("total", 0)) for cty in view.get("cities") or []}
    out = []
    for i, p in enumerate(players):
        found = [int(s["total"]) for s in ranked if s.get("seat") == i]
        if found:
            out.append(found[0])
            continue
        pair = [totals.get(int(cid), 0) for cid in (p.get("left_city"), p.get("right_city")) if isinstance(cid, int)]
        out.append((sum(pair) if view.get("mode") == "two_player" else min(pair)) if pair else 0)
    return out


def _strips(img: Image.Image, top: int, view: View, who: list[str], locale: str = "en") -> int:
    """One row per player: marker, name, what they are doing (the awaited ones framed in the highlight colour
    with an hourglass), and their score. Returns the bottom y."""
    draw = ImageDraw.Draw(img)
    scores = player_scores(view)
    sfont = c.font(SCORE_TEXT, True)
    y = top
    for i in range(len(view.get("players") or [])):
        style = c.player_style(i)
        waited = _awaited(view, i)
        x0, x1 = MARGIN, WIDTH - MARGIN
        draw.rounded_rectangle((x0, y, x1, y + STRIP), radius=16, fill=c.tint(style.colour, 0.84),
                               outline=c.HIGHLIGHT if waited else c.shade(style.colour, 0.2), width=7 if waited else 2)
        if waited:
            draw.rounded_rectangle((x0 + 7, y + 7, x1 - 7, y + STRIP - 7), radius=12, outline=c.INK, width=1)
        pad = 10
        c.seat_marker(img, i, (x0 + pad, y + pad, x0 + STRIP - pad, y + STRIP - pad))
        cy = y + STRIP / 2
        score = str(scores[i] if i < len(scores) else 0)
        right = x1 - 18
        c.draw_text(draw, (right, cy), score, sfont, c.INK, "rm", key=True)
        right -= c.text_width(score, sfont) + 12
        c.draw_icon(img, "points", (right - 40, int(cy - 20), right, int(cy + 20)))
        right -= 40 + 26
        icon, words = _status(view, i, locale)
        words, wfont = c.fit_text(words, 420, c.KEY_TEXT + 1, True, c.KEY_TEXT)
        c.draw_text(draw, (right, cy), words, wfont, c.INK, "rm", key=True)
        right -= c.text_width(words, wfont) + 8
        c.draw_icon(img, icon, (right - 38, int(cy - 19), right, int(cy + 19)))
        right -= 38 + 22
        left = x0 + STRIP + 2
        name, nfont = c.fit_text(who[i] if i < len(who) else "?", right - left, NAME_TEXT, True, c.KEY_TEXT)
        c.draw_text(draw, (left, cy), name, nfont, c.INK, "lm", key=True)
        y += STRIP + 8
    return y


def _title(view: View, locale: str = "en") -> str:
    if view.get("phase") == "over":
        return t("btc.render.title.over", locale)
    part = str(view.get("part") or "")
    return t("btc.render.title.turn", locale, round=view.get("round", 1), part=part, turn=view.get("turn", 1))


turn_title = board_title = _title
"""The turn counter this module draws in a turn or board picture's title (the web page's slider shows the same)."""


def _mode_title(mode: str, locale: str) -> str:
    if mode in MODES:
        return t(f"btc.render.mode.{mode}", locale)
    return "" if mode == "standard" else mode


def _subtitle(view: View, locale: str = "en") -> str:
    count = len([p for p in view.get("players") or [] if p.get("seat") is not None])
    mode = _mode_title(str(view.get("mode", "")), locale)
    text = t("btc.render.players", locale, count=count)
    return t("btc.render.subtitle_mode", locale, players=text, mode=mode) if mode else text


def _title_bar(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> str:
    """The shared title bar, its title at the key size: the subtitle goes beside it when both fit, else it is
    returned for a line of its own."""
    sub_w = min(c.text_width(subtitle, c.font(22)), WIDTH // 2) if subtitle else 0
    if subtitle and c.text_width(title, c.font(34, True)) > WIDTH - sub_w - 60:
        c.title_bar(draw, WIDTH, title)
        return subtitle
    c.title_bar(draw, WIDTH, title, subtitle)
    return ""


def _legend(img: Image.Image, top: int, locale: str = "en") -> int:
    draw = ImageDraw.Draw(img)
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.PANEL_EDGE, width=2)
    entries = [(f"btc.{k}", c.glyph_name(f"btc.{k}", locale)) for k in KINDS]
    icons = [("points", t("btc.render.legend.city_score", locale))]
    return c.legend(img, (MARGIN, top + 12), entries, WIDTH - 2 * MARGIN, LEGEND_TILE, icons, locale) + 8


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
    cities = {cty.get("city"): _city_name(cty, locale) for cty in view.get("cities") or []}
    size = 104
    x, y = MARGIN, top
    line_h = 0
    for label, tiles in groups:
        if not tiles:
            continue
        images = [_tile_image(tile, size, locale) for tile in tiles]
        widths = [max(timg.width, 150) for timg in images]
        tiles_w = sum(widths) + 16 * (len(widths) - 1)
        label_w = max(tiles_w, min(c.text_width(label, c.font(HEADING_TEXT, True)), 480))
        group_w = min(max(tiles_w, label_w), WIDTH - 2 * MARGIN)
        if x > MARGIN and x + group_w > WIDTH - MARGIN:
            x, y = MARGIN, y + line_h + 10
            line_h = 0
        ty = _wrapped(draw, (x, y), label, group_w, HEADING_TEXT, True, c.INK, key=False, max_lines=3) + 4
        tx, row_top, row_h = x, ty, 0
        for tile, timg, cw in zip(tiles, images, widths, strict=True):
            if tx > x and tx + cw > WIDTH - MARGIN:
                tx, row_top, row_h = x, row_top + row_h + 10, 0
            c.paste(img, timg, (int(tx + (cw - timg.width) / 2), row_top))
            below = _wrapped(draw, (tx, row_top + timg.height + 6), str(resolve(tile.get("name", ""), locale)), cw,
                             CAPTION_TEXT, True, c.INK, key=False, max_lines=CAPTION_LINES, centred=True)
            target = tile.get("city")
            if isinstance(target, int):
                below = _wrapped(draw, (tx, below), f"→ {cities.get(target, '?')}", cw, CAPTION_TEXT, False,
                                 c.MUTED, key=False, max_lines=CAPTION_LINES, centred=True)
            row_h = max(row_h, below - row_top)
            c.mark_region(img, f"tile:{tile.get('id')}", (int(tx), row_top, int(tx + cw), below))
            tx += cw + 16
        line_h = max(line_h, row_top + row_h - y)
        x = x + group_w + 44
    if line_h:
        draw.line((MARGIN, y + line_h + 8, WIDTH - MARGIN, y + line_h + 8), fill=c.PANEL_EDGE, width=2)
    return y + line_h + 18


def _own_city(
    img: Image.Image, top: int, city: BtcCity, heading: str, *, placing: bool, locale: str = "en"
) -> int:
    """One of the seat's cities across the picture: the heading (which city, built with whom), then the
    grid on the left and, on the right, the city's score, the category scores and the tiles coming to it."""
    draw = ImageDraw.Draw(img)
    y = _wrapped(draw, (MARGIN + 4, top), heading, WIDTH - 2 * MARGIN - 8, NAME_TEXT - 2, True, c.INK, key=True,
                 min_size=c.KEY_TEXT) + 4
    card_top = y
    x = MARGIN + PAD
    max_side = OWN_GRID
    if city.get("grid", True):
        gw, _ = _grid_width(city, max_side, placing)
        geo = draw_city_grid(img, (x, y + PAD), city, max_side, placing=placing, locale=locale)
        left_bottom = geo.box[3] + PAD
        info_x = x + gw + 28
    else:
        left_bottom = _loose(img, (x, y + PAD), max_side, city, locale) + PAD
        info_x = x + max_side + 28
    info_w = WIDTH - MARGIN - PAD - info_x
    iy = y + PAD
    chip = _score_pill(img, (info_x, iy), int(city.get("total", 0)), CHIP + 4, "lt")
    iy = chip[3] + 10
    iy = _wrapped(draw, (info_x, iy), _city_name(city, locale), info_w, 30, True, c.INK, key=False, max_lines=2)
    iy = _score_grid(img, (info_x, iy + 8), info_w, city, 44, locale)
    iy = _notes(draw, (info_x, iy + 2), info_w, city, locale)
    iy = _incoming(img, (info_x, iy + 8), info_w, city, 52, locale)
    bottom = max(left_bottom, iy + PAD)
    draw.rounded_rectangle((MARGIN, card_top, WIDTH - MARGIN, bottom), radius=14, outline=c.PANEL_EDGE, width=2)
    return bottom


def turn_image(
    view: View, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
) -> Image.Image:
    """One seat's turn: the phase, every player's strip (who is awaited, scores), their hand (own view only),
    their two cities (see module docstring)."""
    who = player_names(view, names, locale)
    players = view.get("players") or []
    me = players[acting_seat] if 0 <= acting_seat < len(players) else cast(BtcPlayer, {})
    city_ids = [i for i in (me.get("left_city"), me.get("right_city")) if isinstance(i, int)]
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    estimate = (c.TITLE_HEIGHT + 200 + len(players) * (STRIP + 8) + (800 if view.get("you") else 0)
                + sum(_own_bound(cities[i]) for i in city_ids if i in cities) + LEGEND_BOUND)
    return _sized(lambda img, draw: _paint_turn(img, draw, view, acting_seat, who, locale), estimate)


def _paint_turn(img: Image.Image, draw: ImageDraw.ImageDraw, view: View, acting_seat: int, who: list[str],
                locale: str) -> int:
    players = view.get("players") or []
    me = players[acting_seat] if 0 <= acting_seat < len(players) else cast(BtcPlayer, {})
    city_ids = [i for i in (me.get("left_city"), me.get("right_city")) if isinstance(i, int)]
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    placing = view.get("phase") in ("play", "place", "assign")
    rest = _title_bar(draw, _title(view, locale), _subtitle(view, locale))
    y = c.TITLE_HEIGHT + GAP
    phase_id = str(view.get("phase", ""))
    phase = t(f"btc.render.phase.{phase_id}", locale) if phase_id in PHASES else phase_id
    for line in (rest, t("btc.render.now", locale, phase=phase)):
        if line:
            y = _wrapped(draw, (MARGIN, y), line, WIDTH - 2 * MARGIN, HEADING_TEXT, False, c.INK, key=False,
                         max_lines=2) + 2
    y = _strips(img, y + 6, view, who, locale) + 6
    y = _hand_section(img, y, view, acting_seat, locale)
    labels = {
        me.get("left_city"): t("btc.render.left_city", locale),
        me.get("right_city"): t("btc.render.right_city", locale),
    }
    for cid in city_ids:
        if cid not in cities:
            continue
        partner = _partner(cities[cid], acting_seat, who, locale)
        label = labels.get(cid, "")
        if partner:
            heading = t("btc.render.heading.with", locale, city=label, partner=partner)
        else:
            heading = t("btc.render.heading.alone", locale, city=label)
        y = _own_city(img, y, cities[cid], heading, placing=placing, locale=locale) + GAP + 4
    return _legend(img, y, locale)


LEGEND_BOUND = 280
"""At most the legend's height (ten entries on up to four lines)."""


BOUND_SHARE = 0.8
"""The share of the summed bounds the canvas starts at: over 105 sample views (1-7 seats, three seeds, early,
mid-game and finished; turn, board and end pictures) the pictures came out 46-76 % of it, so a canvas of
the whole bound was filled and copied for nothing."""


def _sized(paint: Callable[[Image.Image, ImageDraw.ImageDraw], int], height: int) -> Image.Image:
    """What ``paint`` draws, on a canvas :data:`BOUND_SHARE` of ``height`` (the sum of the parts' bounds),
    drawn again taller in the rare case that falls short (:func:`render.common.sized`)."""
    return c.sized(WIDTH, int(height * BOUND_SHARE), paint)


def _own_bound(city: BtcCity) -> int:
    """At most the height of :func:`_own_city`."""
    return 200 + max(OWN_GRID + 2 * PAD, 400 + 120 * len(city.get("incoming") or []))


def _card_bound(city: BtcCity) -> int:
    """At most the height of :func:`city_card` on the table (a grid's scores beside it: a 4 x 4 grid in half
    the picture's width leaves room for them)."""
    h = 2 * PAD + CHIP + 40 + 52 * len(city.get("builders") or []) + 170
    if city.get("grid", True):
        h += 4 * (CARD_CELL + CITY_GAP) + 12
    else:
        h += (len(city.get("loose") or []) // 7 + 1) * 66 + 8 + 2 * (CARD_SCORE + 8)
    incoming = city.get("incoming") or []
    return h + (60 + 110 * len(incoming) if incoming else 0)


def _table_bound(view: View) -> int:
    cities = view.get("cities") or []
    return sum(max(_card_bound(cty) for cty in cities[r : r + 2]) + GAP for r in range(0, len(cities), 2))


def _partner(city: BtcCity, seat: int, who: list[str], locale: str = "en") -> str:
    others = [b for b in city.get("builders") or [] if b != seat]
    return c.join_names((who[b] if 0 <= b < len(who) else "?" for b in others), locale)


def _table(
    img: Image.Image, top: int, view: View, who: list[str], winners: frozenset[int], locale: str = "en"
) -> int:
    """Every city, two per row, in table order; returns the bottom y."""
    cities = view.get("cities") or []
    per_row = 2
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    y = top
    for r in range(0, len(cities), per_row):
        row = cities[r : r + per_row]
        bottom = max(city_card(img, (MARGIN + k * (w + GAP), y), w, city, who, winners=winners, locale=locale,
                               frame=False) for k, city in enumerate(row))
        draw = ImageDraw.Draw(img)
        for k in range(len(row)):
            x = MARGIN + k * (w + GAP)
            draw.rounded_rectangle((x, y, x + w, bottom), radius=14, outline=c.PANEL_EDGE, width=2)
        y = bottom + GAP
    return y


def _winners(view: View) -> frozenset[int]:
    result: Mapping[str, Any] = view.get("result") or {}
    ranked = [*(result.get("seats") or []), *((result.get("details") or {}).get("automas") or [])]
    return frozenset(s["seat"] for s in ranked if s.get("rank") == 1)


def board_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The whole table: every player's strip (status and score), then every city with its builders and
    scores."""
    who = player_names(view, names, locale)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        rest = _title_bar(draw, _title(view, locale), _subtitle(view, locale))
        y = c.TITLE_HEIGHT + GAP
        if rest:
            y = _wrapped(draw, (MARGIN, y), rest, WIDTH - 2 * MARGIN, HEADING_TEXT, False, c.INK, key=False) + 2
        y = _strips(img, y + 6, view, who, locale) + 6
        y = _table(img, y, view, who, _winners(view), locale)
        return _legend(img, y, locale)

    players = len(view.get("players") or [])
    return _sized(paint, c.TITLE_HEIGHT + 140 + players * (STRIP + 8) + _table_bound(view) + LEGEND_BOUND)


def _ranked(result: Mapping[str, Any]) -> list[Any]:
    """The seats and Automas of a result, best first."""
    automas = (result.get("details") or {}).get("automas") or []
    return sorted([*(result.get("seats") or []), *automas], key=lambda s: (s["rank"], s["seat"]))


def _ranking_bound(seats: Sequence[Any]) -> int:
    return c.TITLE_HEIGHT + 140 + len(seats) * (RANK_ROW + 8) + 400


def _paint_ranking(img: Image.Image, draw: ImageDraw.ImageDraw, view: View, result: Mapping[str, Any],
                   seats: list[Any], who: list[str], locale: str) -> int:
    cities = {cty.get("city"): cty for cty in view.get("cities") or []}
    players = view.get("players") or []
    rest = _title_bar(draw, t("btc.render.title.final_scores", locale), _subtitle(view, locale))
    y = c.TITLE_HEIGHT + GAP
    if rest:
        y = _wrapped(draw, (MARGIN, y), rest, WIDTH - 2 * MARGIN, HEADING_TEXT, False, c.INK, key=False) + 2
    rank_font, total_font = c.font(44, True), c.font(52, True)
    detail_font = c.font(DETAIL_TEXT)
    for pos, s in enumerate(seats):
        seat = int(s["seat"])
        p = players[seat] if seat < len(players) else cast(BtcPlayer, {})
        first = s.get("rank") == 1
        y0, y1 = y, y + RANK_ROW
        colour = c.tint(c.HIGHLIGHT, 0.6) if first else (c.PANEL if pos % 2 == 0 else (247, 245, 240))
        draw.rounded_rectangle((MARGIN, y0, WIDTH - MARGIN, y1), radius=14, fill=colour,
                               outline=c.INK if first else c.PANEL_EDGE, width=3 if first else 2)
        cy = (y0 + y1) / 2
        x = MARGIN + 14
        if first:
            c.draw_icon(img, "winner", (x, int(cy - 22), x + 44, int(cy + 22)))
        c.draw_text(draw, (x + 78, cy), str(s["rank"]), rank_font, c.INK, "mm", key=True)
        x += 112
        msz = 60
        c.seat_marker(img, seat, (x, int(cy - msz / 2), x + msz, int(cy + msz / 2)))
        x += msz + 14
        total = str(s["total"])
        right = WIDTH - MARGIN - 18
        c.draw_text(draw, (right, cy), total, total_font, c.INK, "rm", key=True)
        right -= c.text_width(total, total_font) + 14
        c.draw_icon(img, "points", (right - 46, int(cy - 23), right, int(cy + 23)))
        right -= 46 + 24
        name, nfont = c.fit_text(who[seat] if seat < len(who) else "?", right - x, NAME_TEXT, True, c.KEY_TEXT)
        c.draw_text(draw, (x, y0 + 10), name, nfont, c.INK, "la", key=True)
        parts = []
        for key in ("left_city", "right_city"):
            cid = (s.get("details") or {}).get(key, p.get(key))
            city = cities.get(cid)
            if city:
                parts.append(f"{city.get('total', '?')} {_city_name(city, locale)}")
        detail = c.ellipsize(" · ".join(parts), detail_font, right - x)
        c.draw_text(draw, (x, y1 - 10), detail, detail_font, c.MUTED, "ld", key=False)
        y = y1 + 8
    winners = [who[s["seat"]] if s["seat"] < len(who) else "?" for s in seats if s.get("rank") == 1]
    if len(winners) == 1:
        line = t("render.score.winner_line", locale, label=t("render.score.winner", locale), name=winners[0])
    else:
        line = t("render.score.shared_line", locale, label=t("render.score.shared", locale),
                 names=c.join_names(winners, locale))
    y += 8
    c.draw_icon(img, "winner", (MARGIN, y + 2, MARGIN + 44, y + 46))
    y = _wrapped(draw, (MARGIN + 56, y), line, WIDTH - 2 * MARGIN - 56, NAME_TEXT, True, c.INK, key=True,
                 min_size=c.KEY_TEXT) + 6
    rule = {
        "two_player": "btc.render.rule.two_player",
        "solo_simple": "btc.render.rule.solo",
        "solo_full": "btc.render.rule.solo",
    }.get(str(view.get("mode")), "btc.render.rule.lower")
    decided = decided_note(str(result.get("decided_by", "score")), locale)
    note = " ".join(part for part in (t(rule, locale), decided) if part)
    y = _wrapped(draw, (MARGIN, y), note, WIDTH - 2 * MARGIN, DETAIL_TEXT, False, c.MUTED, key=False,
                 max_lines=4) + 10
    return y


def end_image(view: View, names: Sequence[str] | None = None, *, locale: str = "en") -> Image.Image:
    """The final scores first (ranks, names, the score that counts, the winner), then every city."""
    who = player_names(view, names, locale)
    result: Mapping[str, Any] = view.get("result") or _provisional(view)
    seats = _ranked(result)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> int:
        y = _paint_ranking(img, draw, view, result, seats, who, locale)
        return _legend(img, _table(img, y + GAP, view, who, _winners(view), locale), locale)

    return _sized(paint, _ranking_bound(seats) + GAP + _table_bound(view) + LEGEND_BOUND)


def _provisional(view: View) -> dict[str, Any]:
    scores = player_scores(view)
    seats: list[dict[str, Any]] = [{"seat": i, "total": total, "breakdown": {}, "details": {}}
                                   for i, total in enumerate(scores)]
    for s in seats:
        s["rank"] = 1 + sum(1 for o in seats if o["total"] > s["total"])
    return {"seats": seats, "decided_by": "score"}
