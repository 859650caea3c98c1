"""Between Two Cities: a city drawn (its score column, notes, incoming tiles) and a city's card. Its grid and
Automacity's heap are :mod:`render.btc.grid`, re-exported here."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import resolve, t
from bot.rules.btc.viewtypes import BtcCity
from render import common as c
from render.btc.base import (
    CARD_CELL,
    CARD_COLUMN_GAP,
    CARD_SCORE,
    CATEGORIES,
    CHIP,
    NAME_TEXT,
    NOTE_TEXT,
    PAD,
    _tile_image,
)
from render.btc.grid import _cell_size as _cell_size
from render.btc.grid import _grid_side as _grid_side
from render.btc.grid import _grid_width as _grid_width
from render.btc.grid import _label_space as _label_space
from render.btc.grid import _loose as _loose
from render.btc.grid import draw_city_grid as draw_city_grid

# ---------------------------------------------------------------------------------------------
# A city
# ---------------------------------------------------------------------------------------------


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
        c.draw_text(
            draw,
            (x + width / 2 if centred else x, y),
            c.ellipsize(line, fnt, width),
            fnt,
            fill,
            "ma" if centred else "la",
            key=key,
        )
        y += step
    return int(y)


def _score_grid(img: Image.Image, xy: tuple[int, int], width: int, city: BtcCity, size: int, locale: str = "en") -> int:
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
        c.draw_text(
            draw, (bx + size + 12, by + size / 2), str(value), vfont, c.INK if value else c.MUTED, "lm", key=False
        )
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
        c.draw_text(
            draw, (x + size + 12, by + size / 2), str(value), vfont, c.INK if value else c.MUTED, "lm", key=False
        )
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
    draw.rounded_rectangle((x, y, x + width, bottom), radius=10, fill=c.tint(c.HIGHLIGHT, 0.75), outline=c.INK, width=2)
    c.draw_text(draw, (x + 12, y + 8), c.ellipsize(label, lfont, width - 24), lfont, c.INK, "la", key=False)
    for (timg, frm), (sx, sy) in zip(tiles, spots, strict=True):
        c.paste(img, timg, (sx, sy))
        if isinstance(frm, int):
            c.seat_marker(
                img,
                frm,
                (
                    sx + timg.width + 6,
                    sy + (timg.height - mark) // 2,
                    sx + timg.width + 6 + mark,
                    sy + (timg.height + mark) // 2,
                ),
            )
    return bottom


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
    lines = (
        [builders] if sum(span(b) for b in builders) + 24 * (len(builders) - 1) <= inner else [[b] for b in builders]
    )
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
