"""Glyphs: how a building kind looks in every game (colour, shape painter, letter, its name in the
catalogue), the registry of every game's kinds (each game's renderer registers its own), and the
tile images: drawn once per (kind, size) at 3x and scaled down, then cached and pasted, which keeps a
whole board well under the 200 ms budget. A building *concept* keeps its colour and shape across
games: residential is blue, commerce yellow, industry vermillion, green spaces green, offices orange."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import t, t_or
from render.colour import (
    BLUE,
    BLUISH_GREEN,
    INK,
    ORANGE,
    REDDISH_PURPLE,
    RGB,
    SKY_BLUE,
    STONE,
    VERMILLION,
    WHITE,
    YELLOW,
    Box,
    mix,
    shade,
    tint,
)
from render.painters import (
    _bed,
    _factory,
    _ferris,
    _food,
    _harbour,
    _house,
    _monument,
    _mug,
    _music,
    _office,
    _park,
    _playground,
    _power,
    _public,
    _shop,
    _skyscraper_stub,
    _tavern_any,
    _tower,
)
from render.shapes import SUPERSAMPLE, Pen, paste
from render.text import draw_text, font, text_width

Painter = Callable[[Pen], None]


@dataclass(frozen=True)
class Glyph:
    """How one building kind looks: colour, shape painter, letter (and a small suffix letter).

    ``name_id`` is the catalogue id of the kind's name (``<game>.render.kind.<kind>``); :meth:`label`
    gives it in a locale, :attr:`name` in English.
    """

    colour: RGB
    painter: Painter
    letter: str
    name_id: str
    suffix: str = ""

    @property
    def name(self) -> str:
        """The kind's name in English."""
        return t(self.name_id)

    def label(self, locale: str = "en") -> str:
        """The kind's name in ``locale``."""
        return t(self.name_id, locale)

    def badge(self, locale: str = "en") -> str:
        """The badge drawn on the tile in ``locale``: its first letter large, the rest small. A game whose
        catalogue has ``<game>.render.badge.<kind>`` takes each language's own letters from it; else the
        glyph's letter and suffix."""
        return t_or(self.name_id.replace(".kind.", ".badge.", 1), self.letter + self.suffix, locale)


# Concept colours, the same in every game.
RESIDENTIAL, COMMERCE, INDUSTRY, GREEN, OFFICE, WATER, PUBLIC, LEISURE, ENERGY_SUPPLY, HERITAGE = (
    BLUE,
    YELLOW,
    VERMILLION,
    BLUISH_GREEN,
    ORANGE,
    SKY_BLUE,
    REDDISH_PURPLE,
    REDDISH_PURPLE,
    YELLOW,
    STONE,
)

PAINTERS: dict[str, Painter] = {
    "tower": _tower,
    "house": _house,
    "shop": _shop,
    "public": _public,
    "park": _park,
    "playground": _playground,
    "factory": _factory,
    "harbour": _harbour,
    "office": _office,
    "monument": _monument,
    "mug": _mug,
    "food": _food,
    "music": _music,
    "bed": _bed,
    "tavern": _tavern_any,
    "ferris": _ferris,
    "power": _power,
}
"""The shared building shapes; each game picks its kinds' shapes from these (render/<game>.py)."""

GLYPHS: dict[str, Glyph] = {}
"""Every building kind of every game, keyed ``"<game>.<kind>"``; each game's renderer registers its own."""
ALIASES: dict[str, str] = {}
"""Other spellings the rules packages may use (manifest codes, one-letter codes, American English)."""
EXACT_LETTERS: dict[str, dict[str, str]] = {}
"""game -> case-sensitive one-letter codes (e.g. ``F`` factory, ``f`` food tavern)."""


def register_glyphs(
    game: str,
    glyphs: dict[str, Glyph],
    aliases: dict[str, str] | None = None,
    exact_letters: dict[str, str] | None = None,
) -> None:
    """Add one game's building kinds (``kind -> Glyph``), keyed ``"<game>.<kind>"``.

    ``aliases`` maps other spellings to kinds; ``exact_letters`` maps one-letter codes, read as written.
    """
    GLYPHS.update({f"{game}.{kind}": g for kind, g in glyphs.items()})
    ALIASES.update({f"{game}.{alias}": f"{game}.{kind}" for alias, kind in (aliases or {}).items()})
    EXACT_LETTERS[game] = {letter: f"{game}.{kind}" for letter, kind in (exact_letters or {}).items()}


def glyph_key(game: str, kind: str) -> str:
    """The registry key of a kind as a rules package spells it (``"HARBOR"`` -> ``<game>.harbour``).

    One-letter codes a game reads case-sensitively are looked up as written first.
    """
    if len(kind) == 1:
        key = EXACT_LETTERS.get(game, {}).get(kind)
        if key:
            return key
    key = f"{game}.{kind.strip().lower().replace('-', '_').replace(' ', '_')}"
    return ALIASES.get(key, key)


def glyph(key: str) -> Glyph:
    """The glyph of a registry key (or alias); unknown kinds get a grey "?" block."""
    key = ALIASES.get(key, key)
    found = GLYPHS.get(key)
    if found is None:
        return Glyph(STONE, _skyscraper_stub, "?", key)
    return found


def glyph_name(key: str, locale: str = "en") -> str:
    """The name of a building kind (registry key or alias) in ``locale``, for legends."""
    return glyph(key).label(locale)


@lru_cache(maxsize=1024)
def glyph_image(key: str, size: int, letter: bool = True, faded: bool = False, locale: str = "en") -> Image.Image:
    """A building tile of ``key`` as a ``size`` x ``size`` RGBA image (cached).

    A rounded tile in a light tint of the kind's colour with a dark border, the kind's shape in
    its full colour, and the badge of ``locale`` (:meth:`Glyph.badge`) in white in the top-left corner.
    ``faded`` draws it washed out (an inactive or removed building) - the shape and letter stay readable.
    """
    g = glyph(key)
    badge = g.badge(locale)
    initial, suffix = badge[:1], badge[1:]
    s = SUPERSAMPLE
    n = size * s
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    colour = mix(g.colour, (200, 200, 200), 0.75) if faded else g.colour
    border = max(2, round(n * 0.035))
    d.rounded_rectangle(
        (border / 2, border / 2, n - border / 2, n - border / 2),
        radius=n * 0.1,
        fill=tint(colour, 0.72),
        outline=shade(colour, 0.45),
        width=border,
    )
    inset = 0.2 if letter else 0.12
    icon_box = (
        (n * inset + n * 0.05, n * 0.17, n * (1 - 0.1), n * 0.93)
        if letter
        else (n * inset, n * inset, n * (1 - inset), n * (1 - inset))
    )
    side = min(icon_box[2] - icon_box[0], icon_box[3] - icon_box[1])
    cx, cy = (icon_box[0] + icon_box[2]) / 2, (icon_box[1] + icon_box[3]) / 2
    square = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
    g.painter(Pen(d, square, mix(INK, WHITE, 0.35) if faded else INK, colour))
    small = big.resize((size, size), Image.Resampling.LANCZOS)
    if letter:
        sd = ImageDraw.Draw(small)
        r = max(6, round(size * 0.17))
        cxl, cyl = round(size * 0.05) + r, round(size * 0.05) + r
        fnt = font(max(8, round(r * 1.45)), True)
        if suffix:
            sfnt = font(max(7, round(r * 1.05)), True)
            lw, sw = text_width(initial, fnt), text_width(suffix, sfnt)
            x0 = cxl - r
            x1 = x0 + max(2 * r, lw + sw + r)
            sd.rounded_rectangle(
                (x0, cyl - r, x1, cyl + r), radius=r, fill=WHITE, outline=INK, width=max(1, size // 60)
            )
            start = (x0 + x1 - lw - sw) / 2
            draw_text(sd, (start, cyl + 1), initial, fnt, INK, "lm")
            draw_text(sd, (start + lw, cyl + r * 0.35), suffix, sfnt, INK, "lm")
        else:
            sd.ellipse((cxl - r, cyl - r, cxl + r, cyl + r), fill=WHITE, outline=INK, width=max(1, size // 60))
            draw_text(sd, (cxl, cyl + 1), initial, fnt, INK, "mm")
    return small


def draw_glyph(
    img: Image.Image, key: str, box: Box, letter: bool = True, faded: bool = False, locale: str = "en"
) -> None:
    """Paste the tile of ``key`` into the square ``box`` (centred if the box is not square), its badge
    in ``locale``."""
    size = min(box[2] - box[0], box[3] - box[1])
    sprite = glyph_image(key, size, letter, faded, locale)
    paste(img, sprite, (box[0] + (box[2] - box[0] - size) // 2, box[1] + (box[3] - box[1] - size) // 2))
