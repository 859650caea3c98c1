"""Quadropolis' glyphs and marks, picture sizes, the categories the pictures name, and the small helpers
every part uses (names, slot labels, titles, chips, a building's overlays, headings)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import normalise_locale, resolve, t
from bot.rules.quadropolis.tiles import slot_term
from bot.rules.quadropolis.viewtypes import QuadBuilding, QuadScore, QuadTile, QuadView
from render import common as c

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
    aliases={
        "tower_block": "tower",
        "public_service": "public",
        "harbor": "harbour",
        "office_tower": "office",
        "t": "tower",
        "s": "shop",
        "u": "public",
        "p": "park",
        "g": "playground",
        "f": "factory",
        "h": "harbour",
        "o": "office",
        "m": "monument",
    },
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
    return [given[i] if i < len(given) and given[i] else t("render.player_n", locale, n=i + 1) for i in range(count)]


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
        c.draw_text(
            draw, (box[0] + pad + size + _chip_gap(size), (box[1] + box[3]) / 2 + 1), text, fnt, c.INK, "lm", key=False
        )
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
    img: Image.Image, box: c.Box, building: QuadBuilding, square: str, score: QuadScore | None, show_allocation: bool
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
