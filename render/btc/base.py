"""Between Two Cities' glyphs, picture sizes, the categories and modes the pictures name, and the
small helpers every part uses (names, a cell's name, the window of a city drawn, a tile's image)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import resolve, t
from bot.rules.btc.viewtypes import BtcCity, BtcTile, BtcView
from render import common as c

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
    aliases={
        "drink": "tavern_drink",
        "food": "tavern_food",
        "music": "tavern_music",
        "bed": "tavern_bed",
        "s": "shop",
        "f": "factory",
        "o": "office",
        "p": "park",
        "h": "house",
        "d": "tavern_drink",
        "m": "tavern_music",
        "b": "tavern_bed",
    },
    exact_letters={
        "S": "shop",
        "F": "factory",
        "O": "office",
        "P": "park",
        "H": "house",
        "d": "tavern_drink",
        "f": "tavern_food",
        "m": "tavern_music",
        "b": "tavern_bed",
    },
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
KINDS = ("shop", "factory", "tavern_drink", "tavern_food", "tavern_music", "tavern_bed", "office", "park", "house")
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
