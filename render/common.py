"""The drawing foundation shared by every game: palette, fonts, glyphs, layout helpers, PNG encoding.

The look (issue 4): images a person reads at a glance on a phone, at least 1000 px wide; every
building type has its own **shape and letter** as well as its colour, so nothing depends on colour
alone; the same look in every view of every game.

- Colours come from the Okabe-Ito palette (safe for the common colour-vision deficiencies). A
  building *concept* keeps its colour and shape across games: residential is blue, commerce yellow,
  industry vermillion, green spaces green, offices orange.
- Players have a colour **and** a marker shape (circle, square, triangle, ...), so an architect or
  a banner is told apart by its outline too.
- Fonts ship in ``render/fonts`` (DejaVu Sans, Bitstream Vera licence in ``LICENSE.txt``): Latin with
  Hungarian and Polish letters, Greek and Cyrillic, so player names never turn into boxes.
- Glyphs are drawn once per (kind, size) at 3x and scaled down (anti-aliased), then cached and
  pasted, which keeps a whole board well under the 200 ms budget.
- Every word drawn comes from the message catalogue (``bot/locales/<locale>/render.json``, keys
  ``render.*``) through :func:`bot.i18n.t`; every public drawing function takes ``locale``. What
  stays as code: the one-letter marks of tiles and seats, grid coordinates, numbers and symbols.
"""

from __future__ import annotations

import io
import itertools
import math
import re
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import t, t_or

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont

FONTS_DIR = Path(__file__).with_name("fonts")
FONT_REGULAR = FONTS_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"

IMAGE_WIDTH = 1200
"""Default width of every image (issue 4: at least 1000 px, so it stays sharp on a phone)."""
PHONE_WIDTH = 400
"""How wide Discord shows a picture on a phone, inline and full screen; 2x zoom shows it twice as wide."""
KEY_TEXT = 33
"""The smallest font of a key fact (whose turn, names, scores) in a picture :data:`IMAGE_WIDTH` wide: 11 px on a
phone (``python -m bot.bench --only legibility`` measures it)."""
MIN_TEXT = 17
"""The smallest font of any word in a picture :data:`IMAGE_WIDTH` wide: 11 px at 2x zoom on a phone."""
MIN_WIDTH = 1000
SUPERSAMPLE = 3
"""Glyphs and markers are drawn this many times larger, then scaled down (anti-aliasing)."""
PNG_COLOURS = 256
"""Images are quantised to a palette of this many colours before PNG encoding (small files)."""
PNG_LEVEL = 3
"""zlib level. On a 1200 x 1000 turn picture (measured): 3 takes 8 ms for 82 KB, 6 takes 20 ms
for 71 KB, 9 takes 85 ms for 65 KB; above 3 the time grows much faster than the file shrinks."""
PALETTE_PIXELS = 300_000
"""A taller picture (a phone's portrait layout) samples sparser, so the palette costs about what a 1200 x 1000
picture's does (:func:`palette_of`): a 1200 x 2755 board took 16 ms for its palette at every 2nd pixel."""
PALETTE_SAMPLE = 2
"""The palette is chosen from every ``PALETTE_SAMPLE``-th pixel of each row and column (exact colours, no
blending) plus a band of each design colour (:func:`design_colours`, so a one-pixel line of one of them is
never missed), then every pixel takes its nearest palette colour: about 8 ms instead of 21 ms for the
octree over the whole picture, and on our turn pictures about as close to the true colours (mean
difference about 1.1 of 255, against 1.04)."""

# ---------------------------------------------------------------------------------------------
# Palette (Okabe & Ito, "Color Universal Design") and neutrals
# ---------------------------------------------------------------------------------------------

BLACK: RGB = (0, 0, 0)
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)
OKABE_ITO: tuple[RGB, ...] = (ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILLION, REDDISH_PURPLE, BLACK)

WHITE: RGB = (255, 255, 255)
INK: RGB = (28, 28, 30)
"""Text and outlines."""
MUTED: RGB = (96, 96, 100)
"""Secondary text."""
BACKGROUND: RGB = (244, 241, 234)
PANEL: RGB = (255, 255, 255)
PANEL_EDGE: RGB = (190, 186, 178)
GRID_LINE: RGB = (160, 156, 148)
EMPTY_CELL: RGB = (234, 230, 221)
HIGHLIGHT: RGB = (255, 214, 0)
"""The acting player's frame and the winner's row; always paired with a text label or icon."""
STONE: RGB = (140, 140, 140)

INHABITANT: RGB = BLUE
"""Inhabitants (drawn as a person, never a bare dot)."""
ENERGY: RGB = VERMILLION
"""Energy (drawn as a lightning bolt)."""
POINTS: RGB = ORANGE
"""Victory points (drawn as a star)."""


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def tint(colour: RGB, t: float = 0.6) -> RGB:
    """A light version of ``colour`` (towards white)."""
    return mix(colour, WHITE, t)


def shade(colour: RGB, t: float = 0.35) -> RGB:
    """A dark version of ``colour`` (towards black)."""
    return mix(colour, BLACK, t)


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG), 0 = black, 1 = white."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    return INK if luminance(colour) > 0.33 else WHITE


# ---------------------------------------------------------------------------------------------
# Players: a colour and a marker shape each
# ---------------------------------------------------------------------------------------------

SHAPES = ("circle", "square", "triangle", "diamond", "star", "hexagon", "pentagon")


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat is drawn: colour, marker shape and a one-letter mark (A, B, C ...)."""

    colour: RGB
    shape: str
    mark: str


PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle(BLUE, "circle", "A"),
    PlayerStyle(VERMILLION, "square", "B"),
    PlayerStyle(BLUISH_GREEN, "triangle", "C"),
    PlayerStyle(ORANGE, "diamond", "D"),
    PlayerStyle(REDDISH_PURPLE, "star", "E"),
    PlayerStyle(SKY_BLUE, "hexagon", "F"),
    PlayerStyle((70, 70, 70), "pentagon", "G"),
)


def player_style(seat: int) -> PlayerStyle:
    """The style of a seat (seats beyond seven reuse styles in order)."""
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


# ---------------------------------------------------------------------------------------------
# Fonts
# ---------------------------------------------------------------------------------------------


GLYPH_MASKS = 4096
"""Rendered text masks (and text widths) kept at most, over every font (a few KB each)."""
_kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_kept_lock = threading.Lock()


def _recall(key: tuple[Any, ...]) -> Any:
    with _kept_lock:
        value = _kept.get(key)
        if value is not None:
            _kept.move_to_end(key)
        return value


def _keep(key: tuple[Any, ...], value: Any) -> Any:
    with _kept_lock:
        _kept[key] = value
        while len(_kept) > GLYPH_MASKS:
            _kept.popitem(last=False)
    return value


class KeptFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the masks it rendered and the widths it measured: every picture
    draws the same labels (tile names, players, scores...), and FreeType's rendering was a fifth of a
    picture's time. Pictures are drawn in several threads at once, hence the lock; a mask is only read
    once made."""

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        key = ("mask", self.path, self.size, text, mode, args, tuple(sorted(kwargs.items())))
        try:
            kept = _recall(key)
        except TypeError:  # unhashable arguments (a list of features): not worth keeping
            return super().getmask2(text, mode, *args, **kwargs)
        if kept is None:
            kept = _keep(key, super().getmask2(text, mode, *args, **kwargs))
        return cast("tuple[Any, tuple[int, int]]", kept)

    def getlength(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> float:
        if args or kwargs:
            return super().getlength(text, mode, *args, **kwargs)
        key = ("length", self.path, self.size, text, mode)
        kept = _recall(key)
        if kept is None:
            kept = _keep(key, super().getlength(text, mode))
        return cast(float, kept)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The shipped DejaVu Sans (regular or bold) at ``size`` pixels, cached, with its masks kept."""
    return KeptFont(str(FONT_BOLD if bold else FONT_REGULAR), max(6, int(size)))


def text_width(text: str, fnt: Font) -> int:
    """Advance width of ``text`` in pixels."""
    return math.ceil(fnt.getlength(text))


def fit_font(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 12) -> Font:
    """The largest font not above ``size`` in which ``text`` fits ``max_width`` (at least ``min_size``)."""
    while size > min_size and text_width(text, font(size, bold)) > max_width:
        size -= 1
    return font(size, bold)


ELLIPSIS = "…"
SYLLABLE_BREAK = re.compile(r"(?<=[^\W\d_])- (?=[^\W\d_])")
"""A word broken where a soft hyphen allowed it ("miesz- kalne"): not a place to end a shortened text."""


def ellipsize(text: str, fnt: Font, max_width: int) -> str:
    """``text`` shortened so it fits ``max_width``: whole words then "…"; a character cut only when even
    the first word does not fit with its "…" (a single word longer than the box). A word broken at a
    syllable is first joined again, which may be enough."""
    if text_width(text, fnt) <= max_width:
        return text
    joined = SYLLABLE_BREAK.sub("", text)
    if joined != text and text_width(joined, fnt) <= max_width:
        return joined
    text, original = joined, text
    words = text.split()
    kept = ""
    for k in range(len(words) - 1, 0, -1):  # the most whole words that fit before the ellipsis
        trial = " ".join(words[:k]).rstrip(",;:–—-")
        if trial and text_width(trial + ELLIPSIS, fnt) <= max_width:
            kept = trial
            break
    mid_word = not kept
    if mid_word:
        kept = text.strip()
        while kept and text_width(kept + ELLIPSIS, fnt) > max_width:
            kept = kept[:-1]
        kept = kept.rstrip()
    out = kept + ELLIPSIS
    recorder = _RECORDER.get()
    if recorder is not None:
        recorder.shortened[out] = (original, mid_word)
    return out


def fit_text(
    text: str, max_width: int, size: int, bold: bool = False, min_size: int = 12
) -> tuple[str, Font]:
    """Shrink to fit, down to ``min_size``; past that, cut with an ellipsis (see :func:`ellipsize`)."""
    fnt = fit_font(text, max_width, size, bold, min_size)
    return ellipsize(text, fnt, max_width), fnt


# ---------------------------------------------------------------------------------------------
# The pen: every string goes through draw_text, which can record what it drew
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawnText:
    """One string as drawn: its box in picture pixels (left, top, right, bottom), the font's size in
    pixels, whether it was shortened (``full`` is the string before), whether it was cut inside a word,
    and whether it is a key fact (whose turn, a score, a name, a heading: what a player must read)."""

    text: str
    box: Box
    size: int
    bold: bool
    key: bool
    shortened: bool = False
    mid_word: bool = False
    full: str = ""
    surface: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True)
class Region:
    """A place a player may tap, as the renderer drew it: an id the page's choices name (``"square:B3"``)
    and its box in picture pixels; recorded by :func:`mark_region` while :func:`record_text` is open."""

    id: str
    box: Box
    surface: int = field(default=0, compare=False, repr=False)


SURFACE = "drawn_text_surface"
"""While recording, :func:`canvas` tags each picture's ``info`` with a number (a crop keeps it), so a
string drawn on a sprite or a scratch image is told apart from one drawn on a picture."""


class TextRecorder:
    """What the pen drew while :func:`record_text` was open."""

    def __init__(self) -> None:
        self.texts: list[DrawnText] = []
        self.shortened: dict[str, tuple[str, bool]] = {}
        self.encoded: list[int] = []
        self.regions: list[Region] = []
        self._numbers = itertools.count(1)

    def tag(self, image: Image.Image) -> int:
        number = next(self._numbers)
        image.info[SURFACE] = number
        return number

    def add(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: Font, anchor: str,
            stroke: int, key: bool | None) -> None:
        image = getattr(draw, "_image", None)
        surface = image.info.get(SURFACE) if image is not None else None
        if not surface or not text.strip():
            return  # a sprite (glyph letter, marker), a scratch picture, or nothing to read
        left, top, right, bottom = draw.textbbox(xy, text, font=fnt, anchor=anchor, stroke_width=stroke)
        bold = getattr(fnt, "path", "") == str(FONT_BOLD)
        full, mid_word = self.shortened.get(text, (text, False))
        self.texts.append(DrawnText(text, (math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)),
                                    int(fnt.size), bold, bold if key is None else key, text in self.shortened,
                                    mid_word, full, surface))

    def on(self, image: Image.Image) -> list[DrawnText]:
        """The strings drawn on ``image`` (a picture made by :func:`canvas`, or a crop or stack of them)."""
        surface = image.info.get(SURFACE)
        return [d for d in self.texts if surface and d.surface == surface]

    def picture(self) -> list[DrawnText]:
        """The strings of the last picture encoded by :func:`png_bytes`."""
        return [d for d in self.texts if self.encoded and d.surface == self.encoded[-1]]

    def moved(self, source: Image.Image, target: Image.Image, dx: int, dy: int) -> None:
        """``source`` was pasted into ``target`` at (dx, dy): its strings are now the target's."""
        was, now = source.info.get(SURFACE), target.info.get(SURFACE) or self.tag(target)
        if not was:
            return
        self.texts = [replace(d, box=(d.box[0] + dx, d.box[1] + dy, d.box[2] + dx, d.box[3] + dy), surface=now)
                      if d.surface == was else d for d in self.texts]
        self.regions = [replace(r, box=(r.box[0] + dx, r.box[1] + dy, r.box[2] + dx, r.box[3] + dy), surface=now)
                        if r.surface == was else r for r in self.regions]

    def picture_regions(self) -> list[Region]:
        """The regions of the last picture encoded by :func:`png_bytes` (the last one marked wins)."""
        found = {r.id: r for r in self.regions if self.encoded and r.surface == self.encoded[-1]}
        return list(found.values())


_RECORDER: ContextVar[TextRecorder | None] = ContextVar("render_text_recorder", default=None)


@contextmanager
def record_text() -> Iterator[TextRecorder]:
    """``with record_text() as drawn: render(...)`` — every string the pen draws meanwhile lands in
    ``drawn.texts`` (``drawn.on(image)``, ``drawn.picture()``). Off by default: the pen then only
    looks up an empty context variable."""
    token = _RECORDER.set(TextRecorder())
    try:
        recorder = _RECORDER.get()
        assert recorder is not None
        yield recorder
    finally:
        _RECORDER.reset(token)


def mark_region(image: Image.Image, region: str, box: Box) -> None:
    """While recording, note that ``box`` of ``image`` is the place ``region`` (a square, slot or tile);
    draws nothing, so a picture is the same with or without it."""
    recorder = _RECORDER.get()
    surface = image.info.get(SURFACE) if recorder is not None else None
    if recorder is not None and surface:
        recorder.regions.append(Region(region, (int(box[0]), int(box[1]), int(box[2]), int(box[3])), surface))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB = INK,
    anchor: str = "la",
    outline: RGB | None = None,
    outline_width: int | None = None,
    *,
    key: bool | None = None,
) -> None:
    """Text, optionally with an outline (halo) so it stays legible on any background: the one way a
    string is drawn. ``key`` marks a key fact (whose turn, a score, a name, a heading) for the
    recorder; left as None, bold text counts as one (the pictures' own emphasis)."""
    width = 0 if outline is None else (outline_width if outline_width is not None else max(1, round(fnt.size / 9)))
    if outline is None:
        draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    else:
        draw.text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=width, stroke_fill=outline)
    recorder = _RECORDER.get()
    if recorder is not None:
        recorder.add(draw, xy, text, fnt, anchor, width, key)


def draw_fitted(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    max_width: int,
    size: int,
    bold: bool = False,
    fill: RGB = INK,
    anchor: str = "la",
    min_size: int = 11,
    *,
    key: bool | None = None,
) -> int:
    """Text at ``size`` if it fits ``max_width``, else shrunk (to ``min_size``) then cut; returns its width.

    For words from the catalogue: a translation longer than the English stays inside its space.
    """
    line, fnt = fit_text(text, max(1, max_width), size, bold, min_size)
    draw_text(draw, xy, line, fnt, fill, anchor, key=key)
    return text_width(line, fnt)


# ---------------------------------------------------------------------------------------------
# Shapes (markers for players, and pieces of glyphs)
# ---------------------------------------------------------------------------------------------


def _star_points(
    cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45
) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / points
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out


def _regular(
    cx: float, cy: float, r: float, sides: int, rotation: float = -90.0
) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(math.radians(rotation + i * 360 / sides)),
            cy + r * math.sin(math.radians(rotation + i * 360 / sides)),
        )
        for i in range(sides)
    ]


def shape_polygon(shape: str, box: tuple[float, float, float, float]) -> list[tuple[float, float]] | None:
    """Outline points of a marker shape inscribed in ``box`` (None for the circle)."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0) / 2
    if shape == "circle":
        return None
    if shape == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return [(cx, cy - r), (cx + r * 0.98, cy + r * 0.8), (cx - r * 0.98, cy + r * 0.8)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "star":
        return _star_points(cx, cy + r * 0.06, r * 1.02, 5, 0.5)
    if shape == "hexagon":
        return _regular(cx, cy, r, 6, 0)
    if shape == "pentagon":
        return _regular(cx, cy + r * 0.06, r, 5)
    raise ValueError(f"unknown shape {shape!r}")


@lru_cache(maxsize=512)
def marker_image(
    shape: str, size: int, colour: RGB, text: str = "", text_colour: RGB | None = None
) -> Image.Image:
    """A player marker: ``shape`` filled with ``colour``, dark outline, optional centred text."""
    s = SUPERSAMPLE
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    pad = size * s * 0.04
    box = (pad, pad, size * s - pad, size * s - pad)
    width = max(2, round(size * s * 0.06))
    poly = shape_polygon(shape, box)
    if poly is None:
        d.ellipse(box, fill=colour, outline=INK, width=width)
    else:
        d.polygon(poly, fill=colour, outline=INK, width=width)
    small = big.resize((size, size), Image.Resampling.LANCZOS)
    if text:
        sd = ImageDraw.Draw(small)
        cy = size * (0.58 if shape == "triangle" else 0.52)
        fnt = fit_font(
            text,
            int(size * (0.5 if shape in ("triangle", "star") else 0.7)),
            int(size * (0.42 if shape in ("triangle", "star") else 0.6)),
            True,
            8,
        )
        fill = text_colour or text_on(colour)
        outline = INK if fill == WHITE else WHITE
        draw_text(sd, (size / 2, cy), text, fnt, fill, "mm", outline, max(1, size // 24))
    return small


def paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA sprite with its transparency."""
    img.paste(sprite, (int(xy[0]), int(xy[1])), sprite)


def draw_marker(img: Image.Image, shape: str, box: Box, colour: RGB, text: str = "") -> None:
    """A player marker (see :func:`marker_image`) centred in ``box``."""
    size = min(box[2] - box[0], box[3] - box[1])
    sprite = marker_image(shape, size, colour, text)
    paste(img, sprite, (box[0] + (box[2] - box[0] - size) // 2, box[1] + (box[3] - box[1] - size) // 2))


def seat_marker(img: Image.Image, seat: int, box: Box, text: str | None = None) -> None:
    """The marker of a seat, with its mark letter unless ``text`` says otherwise."""
    style = player_style(seat)
    draw_marker(img, style.shape, box, style.colour, style.mark if text is None else text)


# ---------------------------------------------------------------------------------------------
# Glyph painters. Each draws an icon into a unit box through ``p`` (unit coords -> pixels).
# ---------------------------------------------------------------------------------------------

Point = tuple[float, float]


class Pen:
    """Draws in unit coordinates (0..1) inside a pixel box; line widths are fractions of the box."""

    def __init__(
        self, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: RGB, fill: RGB
    ) -> None:
        self.d = draw
        self.x0, self.y0, self.x1, self.y1 = box
        self.w = self.x1 - self.x0
        self.h = self.y1 - self.y0
        self.ink = ink
        self.fill = fill

    def p(self, u: float, v: float) -> Point:
        return (self.x0 + u * self.w, self.y0 + v * self.h)

    def lw(self, f: float = 0.05) -> int:
        return max(1, round(self.w * f))

    def poly(
        self, pts: Iterable[Point], fill: RGB | None = None, outline: bool = True, width: float = 0.05
    ) -> None:
        self.d.polygon(
            [self.p(u, v) for u, v in pts],
            fill=fill or self.fill,
            outline=self.ink if outline else None,
            width=self.lw(width) if outline else 0,
        )

    def rect(
        self,
        u0: float,
        v0: float,
        u1: float,
        v1: float,
        fill: RGB | None = None,
        outline: bool = True,
        width: float = 0.05,
    ) -> None:
        self.d.rectangle(
            (*self.p(u0, v0), *self.p(u1, v1)),
            fill=fill or self.fill,
            outline=self.ink if outline else None,
            width=self.lw(width) if outline else 0,
        )

    def ellipse(
        self,
        u0: float,
        v0: float,
        u1: float,
        v1: float,
        fill: RGB | None = None,
        outline: bool = True,
        width: float = 0.05,
    ) -> None:
        self.d.ellipse(
            (*self.p(u0, v0), *self.p(u1, v1)),
            fill=fill or self.fill,
            outline=self.ink if outline else None,
            width=self.lw(width) if outline else 0,
        )

    def line(self, pts: Sequence[Point], width: float = 0.05, colour: RGB | None = None) -> None:
        self.d.line(
            [self.p(u, v) for u, v in pts], fill=colour or self.ink, width=self.lw(width), joint="curve"
        )

    def arc(
        self,
        u0: float,
        v0: float,
        u1: float,
        v1: float,
        start: float,
        end: float,
        width: float = 0.05,
        colour: RGB | None = None,
    ) -> None:
        self.d.arc(
            (*self.p(u0, v0), *self.p(u1, v1)), start, end, fill=colour or self.ink, width=self.lw(width)
        )


def _tower(pen: Pen) -> None:
    """Tower block: a tall narrow block, floors marked by bands, windows in pairs."""
    pen.rect(0.36, 0.02, 0.64, 0.1, fill=shade(pen.fill, 0.3))
    pen.rect(0.24, 0.08, 0.76, 0.96)
    for i in range(5):
        v = 0.15 + i * 0.16
        pen.line([(0.24, v - 0.035), (0.76, v - 0.035)], width=0.025)
        pen.rect(0.32, v, 0.45, v + 0.08, fill=WHITE, width=0.03)
        pen.rect(0.55, v, 0.68, v + 0.08, fill=WHITE, width=0.03)


def _house(pen: Pen) -> None:
    """House: pitched roof over a square body, with a door."""
    pen.poly([(0.5, 0.06), (0.95, 0.46), (0.05, 0.46)], fill=shade(pen.fill, 0.25))
    pen.rect(0.16, 0.46, 0.84, 0.94)
    pen.rect(0.42, 0.64, 0.58, 0.94, fill=WHITE, width=0.04)


def _shop(pen: Pen) -> None:
    """Shop: a striped awning with a scalloped edge over a shop window."""
    pen.rect(0.1, 0.42, 0.9, 0.94)
    pen.rect(0.2, 0.58, 0.56, 0.86, fill=WHITE, width=0.035)
    pen.rect(0.64, 0.58, 0.8, 0.94, fill=shade(pen.fill, 0.3), width=0.035)
    pen.poly([(0.14, 0.08), (0.86, 0.08), (0.98, 0.36), (0.02, 0.36)], fill=WHITE)
    for i in range(4):
        u0 = 0.02 + i * 0.24
        pen.poly(
            [(0.14 + i * 0.18, 0.08), (0.23 + i * 0.18, 0.08), (u0 + 0.18, 0.36), (u0 + 0.06, 0.36)],
            fill=pen.fill,
            outline=False,
        )
    for i in range(4):
        u = 0.02 + i * 0.24
        pen.d.chord(
            (*pen.p(u, 0.28), *pen.p(u + 0.24, 0.46)),
            0,
            180,
            fill=pen.fill,
            outline=pen.ink,
            width=pen.lw(0.035),
        )
    pen.poly([(0.14, 0.08), (0.86, 0.08), (0.98, 0.36), (0.02, 0.36)], fill=None, outline=True)


def _public(pen: Pen) -> None:
    """Public service: a bold plus-shaped cross."""
    a, b = 0.34, 0.66
    pen.poly(
        [
            (a, 0.06),
            (b, 0.06),
            (b, a),
            (0.94, a),
            (0.94, b),
            (b, b),
            (b, 0.94),
            (a, 0.94),
            (a, b),
            (0.06, b),
            (0.06, a),
            (a, a),
        ]
    )


def _tree(pen: Pen, u: float = 0.5, scale: float = 1.0) -> None:
    def q(du: float, dv: float) -> Point:
        return (u + du * scale, dv)

    pen.rect(*q(-0.07, 0.6), *q(0.07, 0.95), fill=(120, 80, 40))
    pen.ellipse(*q(-0.4, 0.05), *q(0.4, 0.72))


def _park(pen: Pen) -> None:
    """Park: a round tree."""
    _tree(pen)


def _playground(pen: Pen) -> None:
    """Playground: a swing (A-frame, seat on two ropes)."""
    pen.line([(0.12, 0.95), (0.3, 0.12), (0.48, 0.95)], width=0.07)
    pen.line([(0.52, 0.95), (0.7, 0.12), (0.88, 0.95)], width=0.07)
    pen.line([(0.22, 0.14), (0.78, 0.14)], width=0.08)
    pen.line([(0.4, 0.14), (0.4, 0.68)], width=0.035)
    pen.line([(0.6, 0.14), (0.6, 0.68)], width=0.035)
    pen.rect(0.32, 0.66, 0.68, 0.76)


def _factory(pen: Pen) -> None:
    """Factory: saw-tooth roof and a chimney."""
    pen.rect(0.7, 0.06, 0.84, 0.5)
    pen.poly(
        [
            (0.06, 0.94),
            (0.06, 0.42),
            (0.26, 0.26),
            (0.26, 0.42),
            (0.46, 0.26),
            (0.46, 0.42),
            (0.66, 0.26),
            (0.66, 0.42),
            (0.94, 0.42),
            (0.94, 0.94),
        ]
    )
    for u in (0.16, 0.36, 0.56, 0.76):
        pen.rect(u, 0.58, u + 0.1, 0.72, fill=WHITE, width=0.03)


def _harbour(pen: Pen) -> None:
    """Harbour: three rows of waves under a small boat."""
    pen.poly([(0.12, 0.3), (0.88, 0.3), (0.74, 0.48), (0.26, 0.48)])
    pen.line([(0.5, 0.3), (0.5, 0.04)], width=0.045)
    pen.poly([(0.52, 0.06), (0.78, 0.26), (0.52, 0.26)], fill=WHITE, width=0.03)
    for i, v in enumerate((0.58, 0.72, 0.86)):
        pts = []
        for k in range(25):
            u = 0.04 + k * 0.92 / 24
            pts.append((u, v + 0.05 * math.sin((u * 4 + i * 0.5) * math.pi)))
        pen.line(pts, width=0.06)


def _office(pen: Pen) -> None:
    """Office: a wide glass block with a grid of windows and a slanted roof."""
    pen.poly([(0.12, 0.2), (0.88, 0.06), (0.88, 0.96), (0.12, 0.96)])
    for r in range(4):
        for c in range(3):
            u = 0.2 + c * 0.23
            v = 0.3 + r * 0.16
            pen.rect(u, v, u + 0.15, v + 0.1, fill=WHITE, width=0.025)


def _monument(pen: Pen) -> None:
    """Monument: an obelisk on a stepped plinth."""
    pen.rect(0.12, 0.84, 0.88, 0.96)
    pen.rect(0.24, 0.74, 0.76, 0.84)
    pen.poly([(0.38, 0.74), (0.42, 0.2), (0.5, 0.04), (0.58, 0.2), (0.62, 0.74)])


def _mug(pen: Pen) -> None:
    """Tavern (drink): a beer mug with foam."""
    pen.arc(0.56, 0.36, 0.9, 0.74, 270, 90, width=0.08)
    pen.rect(0.16, 0.26, 0.66, 0.94)
    pen.ellipse(0.1, 0.08, 0.4, 0.34, fill=WHITE, width=0.035)
    pen.ellipse(0.3, 0.04, 0.6, 0.32, fill=WHITE, width=0.035)
    pen.ellipse(0.46, 0.1, 0.72, 0.34, fill=WHITE, width=0.035)
    pen.line([(0.32, 0.44), (0.32, 0.84)], width=0.04)
    pen.line([(0.5, 0.44), (0.5, 0.84)], width=0.04)


def _food(pen: Pen) -> None:
    """Tavern (food): a plate between a fork and a knife."""
    pen.ellipse(0.22, 0.22, 0.78, 0.78, fill=WHITE)
    pen.ellipse(0.33, 0.33, 0.67, 0.67)
    pen.line([(0.1, 0.06), (0.1, 0.3)], width=0.035)
    pen.line([(0.04, 0.06), (0.04, 0.26), (0.16, 0.26), (0.16, 0.06)], width=0.035)
    pen.line([(0.1, 0.26), (0.1, 0.94)], width=0.06)
    pen.poly([(0.86, 0.06), (0.96, 0.1), (0.96, 0.5), (0.86, 0.5)])
    pen.line([(0.91, 0.5), (0.91, 0.94)], width=0.06)


def _music(pen: Pen) -> None:
    """Tavern (music): a pair of beamed notes."""
    pen.poly([(0.3, 0.2), (0.86, 0.06), (0.86, 0.2), (0.3, 0.34)])
    pen.line([(0.33, 0.26), (0.33, 0.76)], width=0.06)
    pen.line([(0.83, 0.12), (0.83, 0.64)], width=0.06)
    pen.ellipse(0.08, 0.66, 0.36, 0.9)
    pen.ellipse(0.58, 0.54, 0.86, 0.78)


def _bed(pen: Pen) -> None:
    """Tavern (bed): a bed seen from the side, with a pillow."""
    pen.rect(0.06, 0.3, 0.14, 0.9)
    pen.rect(0.86, 0.52, 0.94, 0.9)
    pen.rect(0.06, 0.58, 0.94, 0.76)
    pen.ellipse(0.16, 0.4, 0.4, 0.58, fill=WHITE)
    pen.poly([(0.42, 0.42), (0.9, 0.46), (0.94, 0.58), (0.42, 0.58)], fill=tint(pen.fill, 0.3))


def _tavern_any(pen: Pen) -> None:
    """Tavern (any kind, for score headings): a hanging inn sign on its bracket."""
    pen.line([(0.1, 0.96), (0.1, 0.08), (0.9, 0.08)], width=0.07)
    pen.line([(0.3, 0.08), (0.3, 0.24)], width=0.035)
    pen.line([(0.8, 0.08), (0.8, 0.24)], width=0.035)
    pen.rect(0.22, 0.24, 0.88, 0.8)
    pen.rect(0.38, 0.38, 0.62, 0.7, fill=WHITE, width=0.035)
    pen.arc(0.56, 0.44, 0.74, 0.62, 270, 90, width=0.035)


def _ferris(pen: Pen) -> None:
    """Amusement park: a Ferris wheel on its stand."""
    pen.line([(0.3, 0.96), (0.5, 0.46), (0.7, 0.96)], width=0.07)
    pen.ellipse(0.1, 0.06, 0.9, 0.86, fill=WHITE, width=0.06)
    cx, cy = 0.5, 0.46
    for k in range(8):
        a = k * math.pi / 4
        pen.line([(cx, cy), (cx + 0.4 * math.cos(a), cy + 0.4 * math.sin(a))], width=0.03)
        pen.ellipse(
            cx + 0.4 * math.cos(a) - 0.06,
            cy + 0.4 * math.sin(a) - 0.06,
            cx + 0.4 * math.cos(a) + 0.06,
            cy + 0.4 * math.sin(a) + 0.06,
            width=0.025,
        )


def _power(pen: Pen) -> None:
    """Power plant: a cooling tower with a lightning bolt."""
    pen.poly([(0.16, 0.96), (0.28, 0.5), (0.22, 0.06), (0.78, 0.06), (0.72, 0.5), (0.84, 0.96)])
    pen.poly(
        [(0.56, 0.16), (0.34, 0.56), (0.5, 0.56), (0.42, 0.88), (0.68, 0.44), (0.52, 0.44), (0.62, 0.16)],
        fill=INK,
        outline=False,
    )


def _skyscraper_stub(pen: Pen) -> None:
    """Unknown kind: a plain block with a question mark."""
    pen.rect(0.15, 0.15, 0.85, 0.85)
    draw_text(pen.d, pen.p(0.5, 0.5), "?", font(max(8, int(pen.w * 0.5)), True), INK, "mm")


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
    "tower": _tower, "house": _house, "shop": _shop, "public": _public, "park": _park,
    "playground": _playground, "factory": _factory, "harbour": _harbour, "office": _office,
    "monument": _monument, "mug": _mug, "food": _food, "music": _music, "bed": _bed,
    "tavern": _tavern_any, "ferris": _ferris, "power": _power,
}
"""The shared building shapes; each game picks its kinds' shapes from these (render/<game>.py)."""

GLYPHS: dict[str, Glyph] = {}
"""Every building kind of every game, keyed ``"<game>.<kind>"``; each game's renderer registers its own."""
ALIASES: dict[str, str] = {}
"""Other spellings the rules packages may use (manifest codes, one-letter codes, American English)."""
EXACT_LETTERS: dict[str, dict[str, str]] = {}
"""game -> case-sensitive one-letter codes (e.g. ``F`` factory, ``f`` food tavern)."""


def register_glyphs(game: str, glyphs: dict[str, Glyph], aliases: dict[str, str] | None = None,
                    exact_letters: dict[str, str] | None = None) -> None:
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
            sd.ellipse(
                (cxl - r, cyl - r, cxl + r, cyl + r), fill=WHITE, outline=INK, width=max(1, size // 60)
            )
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


# ---------------------------------------------------------------------------------------------
# Small icons (resources, points, status) - again shape first, colour second
# ---------------------------------------------------------------------------------------------


def _icon_person(pen: Pen) -> None:
    pen.ellipse(0.32, 0.04, 0.68, 0.4)
    pen.poly([(0.14, 0.96), (0.2, 0.52), (0.34, 0.44), (0.66, 0.44), (0.8, 0.52), (0.86, 0.96)])


def _icon_bolt(pen: Pen) -> None:
    pen.poly([(0.62, 0.02), (0.18, 0.56), (0.46, 0.56), (0.34, 0.98), (0.84, 0.4), (0.54, 0.4), (0.7, 0.02)])


def _icon_star(pen: Pen) -> None:
    pen.poly(_unit_star())


def _unit_star() -> list[Point]:
    return [
        (
            0.5 + 0.48 * math.cos(-math.pi / 2 + i * math.pi / 5) * (1 if i % 2 == 0 else 0.45),
            0.54 + 0.48 * math.sin(-math.pi / 2 + i * math.pi / 5) * (1 if i % 2 == 0 else 0.45),
        )
        for i in range(10)
    ]


def _icon_crown(pen: Pen) -> None:
    pen.poly([(0.06, 0.82), (0.06, 0.26), (0.3, 0.52), (0.5, 0.14), (0.7, 0.52), (0.94, 0.26), (0.94, 0.82)])
    pen.rect(0.06, 0.76, 0.94, 0.92)


def _icon_top_hat(pen: Pen) -> None:
    """The mayor / first player: a top hat."""
    pen.rect(0.26, 0.08, 0.74, 0.74)
    pen.rect(0.26, 0.56, 0.74, 0.68, fill=VERMILLION, width=0.03)
    pen.ellipse(0.04, 0.7, 0.96, 0.92)
    pen.rect(0.26, 0.62, 0.74, 0.78, outline=False)


def _icon_cross(pen: Pen) -> None:
    pen.line([(0.12, 0.12), (0.88, 0.88)], width=0.2)
    pen.line([(0.88, 0.12), (0.12, 0.88)], width=0.2)


def _icon_check(pen: Pen) -> None:
    pen.line([(0.1, 0.55), (0.4, 0.85), (0.92, 0.18)], width=0.18)


def _icon_hourglass(pen: Pen) -> None:
    pen.poly([(0.16, 0.06), (0.84, 0.06), (0.54, 0.5), (0.84, 0.94), (0.16, 0.94), (0.46, 0.5)])


def _icon_pawn(pen: Pen) -> None:
    """The urbanist / a generic pawn."""
    pen.ellipse(0.3, 0.04, 0.7, 0.42)
    pen.poly([(0.36, 0.38), (0.64, 0.38), (0.8, 0.86), (0.2, 0.86)])
    pen.rect(0.12, 0.84, 0.88, 0.96)


def _icon_card(pen: Pen) -> None:
    """A face-down tile or card."""
    pen.rect(0.12, 0.04, 0.88, 0.96)
    pen.line([(0.24, 0.16), (0.76, 0.84)], width=0.05)
    pen.line([(0.76, 0.16), (0.24, 0.84)], width=0.05)


def _icon_floors(pen: Pen) -> None:
    """Stacked floors (slabs)."""
    for i in range(3):
        v = 0.66 - i * 0.3
        pen.poly([(0.1, v + 0.12), (0.5, v + 0.28), (0.9, v + 0.12), (0.5, v - 0.04)])


def _icon_minus(pen: Pen) -> None:
    """A penalty: a minus sign in a circle."""
    pen.ellipse(0.04, 0.04, 0.96, 0.96)
    pen.rect(0.22, 0.42, 0.78, 0.58, fill=WHITE)


def _icon_empty_plot(pen: Pen) -> None:
    """An empty plot: a square left unbuilt, with the penalty's minus inside (a shape apart from the plain
    minus, so two penalties in one table are told apart without colour)."""
    pen.rect(0.06, 0.06, 0.94, 0.94, fill=WHITE, width=0.1)
    pen.rect(0.24, 0.42, 0.76, 0.58)


def _icon_arrow(pen: Pen) -> None:
    """A pointer (this one / here)."""
    pen.poly([(0.1, 0.3), (0.55, 0.3), (0.55, 0.08), (0.94, 0.5), (0.55, 0.92), (0.55, 0.7), (0.1, 0.7)])


def _icon_briefcase(pen: Pen) -> None:
    """Jobs: a briefcase."""
    pen.rect(0.34, 0.1, 0.66, 0.3, fill=WHITE)
    pen.rect(0.06, 0.26, 0.94, 0.9)
    pen.line([(0.06, 0.52), (0.94, 0.52)], width=0.05)
    pen.rect(0.42, 0.44, 0.58, 0.6, fill=WHITE, width=0.04)


def _icon_leaf(pen: Pen) -> None:
    """Ecology: a leaf with its vein."""
    pen.poly([(0.12, 0.9), (0.1, 0.5), (0.3, 0.2), (0.9, 0.08), (0.8, 0.6), (0.5, 0.86)])
    pen.line([(0.12, 0.9), (0.66, 0.36)], width=0.05)


def _icon_coin(pen: Pen) -> None:
    """Income: a coin with a currency mark."""
    pen.ellipse(0.06, 0.06, 0.94, 0.94)
    pen.ellipse(0.18, 0.18, 0.82, 0.82, fill=tint(pen.fill, 0.35), width=0.03)
    draw_text(pen.d, pen.p(0.5, 0.52), "$", font(max(8, int(pen.w * 0.55)), True), INK, "mm")


def _icon_smile(pen: Pen) -> None:
    """Satisfaction: a smiling face."""
    pen.ellipse(0.04, 0.04, 0.96, 0.96)
    pen.ellipse(0.3, 0.3, 0.4, 0.42, fill=INK, outline=False)
    pen.ellipse(0.6, 0.3, 0.7, 0.42, fill=INK, outline=False)
    pen.arc(0.24, 0.3, 0.76, 0.78, 20, 160, width=0.07)


def _icon_centre(pen: Pen) -> None:
    """A city centre: a town hall with a dome and columns."""
    pen.rect(0.08, 0.84, 0.92, 0.96)
    pen.rect(0.14, 0.42, 0.86, 0.84)
    for u in (0.24, 0.42, 0.58, 0.76):
        pen.rect(u - 0.04, 0.5, u + 0.04, 0.84, fill=WHITE, width=0.025)
    pen.poly([(0.06, 0.44), (0.5, 0.24), (0.94, 0.44)])
    pen.d.chord(
        (*pen.p(0.32, 0.04), *pen.p(0.68, 0.44)), 180, 360, fill=pen.fill, outline=pen.ink, width=pen.lw(0.04)
    )


ICONS: dict[str, tuple[Painter, RGB]] = {
    "inhabitant": (_icon_person, INHABITANT),
    "energy": (_icon_bolt, ENERGY),
    "points": (_icon_star, POINTS),
    "first": (_icon_top_hat, (60, 60, 64)),
    "winner": (_icon_crown, HIGHLIGHT),
    "removed": (_icon_cross, VERMILLION),
    "ok": (_icon_check, BLUISH_GREEN),
    "waiting": (_icon_hourglass, SKY_BLUE),
    "pawn": (_icon_pawn, (120, 120, 120)),
    "facedown": (_icon_card, (150, 140, 128)),
    "floors": (_icon_floors, (200, 200, 200)),
    "penalty": (_icon_minus, VERMILLION),
    "empty_plot": (_icon_empty_plot, VERMILLION),
    "here": (_icon_arrow, HIGHLIGHT),
    "residents": (_icon_person, BLUE),
    "jobs": (_icon_briefcase, ORANGE),
    "ecology": (_icon_leaf, BLUISH_GREEN),
    "income": (_icon_coin, YELLOW),
    "satisfaction": (_icon_smile, REDDISH_PURPLE),
    "centre": (_icon_centre, (200, 200, 200)),
}


@lru_cache(maxsize=512)
def icon_image(name: str, size: int, colour: RGB | None = None) -> Image.Image:
    """A small icon (``inhabitant``, ``energy``, ``points``, ``first``...) as an RGBA image."""
    painter, default = ICONS[name]
    s = SUPERSAMPLE
    n = size * s
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    pad = n * 0.04
    painter(Pen(ImageDraw.Draw(big), (pad, pad, n - pad, n - pad), INK, colour or default))
    return big.resize((size, size), Image.Resampling.LANCZOS)


def draw_icon(img: Image.Image, name: str, box: Box, colour: RGB | None = None) -> None:
    """Paste an icon centred in ``box``."""
    size = min(box[2] - box[0], box[3] - box[1])
    paste(
        img,
        icon_image(name, size, colour),
        (box[0] + (box[2] - box[0] - size) // 2, box[1] + (box[3] - box[1] - size) // 2),
    )


def icon_count(
    img: Image.Image,
    name: str,
    xy: tuple[int, int],
    count: int | str,
    size: int,
    fill: RGB = INK,
    outline: RGB | None = WHITE,
) -> int:
    """An icon followed by a number ("[person] 3"); returns the x just after it."""
    x, y = xy
    paste(img, icon_image(name, size), (x, y))
    fnt = font(round(size * 0.9), True)
    draw = ImageDraw.Draw(img)
    text = str(count)
    draw_text(draw, (x + size + 2, y + size / 2), text, fnt, fill, "lm", outline)
    return x + size + 4 + text_width(text, fnt)


def badge(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB = WHITE,
    ink: RGB = INK,
    anchor: str = "mm",
) -> Box:
    """A number or short text in a rounded pill (for floors, customers, points on a tile)."""
    fnt = font(size, True)
    w = max(text_width(text, fnt) + size // 2, size + 4)
    h = size + size // 3
    x, y = xy
    if anchor[0] == "l":
        x0 = x
    elif anchor[0] == "r":
        x0 = x - w
    else:
        x0 = x - w / 2
    if anchor[1] == "t":
        y0 = y
    elif anchor[1] == "b":
        y0 = y - h
    else:
        y0 = y - h / 2
    box = (int(x0), int(y0), int(x0 + w), int(y0 + h))
    draw.rounded_rectangle(box, radius=h // 2, fill=fill, outline=ink, width=max(1, size // 12))
    draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), text, fnt, ink, "mm", key=False)
    return box


@lru_cache(maxsize=64)
def face_down_image(size: int) -> Image.Image:
    """A face-down tile: a dark card with a diagonal lattice and a question mark (never colour alone)."""
    s = SUPERSAMPLE
    n = size * s
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    back = (112, 104, 96)
    d.rounded_rectangle((0, 0, n - 1, n - 1), radius=n * 0.1, fill=back, outline=INK, width=max(2, n // 30))
    step = n / 6
    for k in range(-6, 7):
        d.line((k * step, 0, k * step + n, n), fill=mix(back, WHITE, 0.18), width=max(1, n // 60))
        d.line((k * step + n, 0, k * step, n), fill=mix(back, WHITE, 0.18), width=max(1, n // 60))
    small = big.resize((size, size), Image.Resampling.LANCZOS)
    draw_text(
        ImageDraw.Draw(small),
        (size / 2, size / 2),
        "?",
        font(max(8, size // 2), True),
        WHITE,
        "mm",
        INK,
        max(1, size // 30),
    )
    return small


def draw_face_down(img: Image.Image, box: Box) -> None:
    """Paste a face-down tile into ``box``."""
    size = min(box[2] - box[0], box[3] - box[1])
    paste(
        img,
        face_down_image(size),
        (box[0] + (box[2] - box[0] - size) // 2, box[1] + (box[3] - box[1] - size) // 2),
    )


# ---------------------------------------------------------------------------------------------
# Layout helpers
# ---------------------------------------------------------------------------------------------


def canvas(width: int, height: int, colour: RGB = BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A new RGB image and its drawing context."""
    img = Image.new("RGB", (max(width, MIN_WIDTH), max(1, height)), colour)
    recorder = _RECORDER.get()
    if recorder is not None:
        recorder.tag(img)
    return img, ImageDraw.Draw(img)


TITLE_HEIGHT = 64


def title_bar(
    draw: ImageDraw.ImageDraw,
    width: int,
    title: str,
    subtitle: str = "",
    height: int = TITLE_HEIGHT,
    colour: RGB = INK,
    *,
    top: int = 0,
) -> int:
    """A dark band across the top (at ``top``) with the title (left) and a subtitle (right); returns its
    height. The title is a key fact: the subtitle is left out rather than shrink it below :data:`KEY_TEXT`."""
    draw.rectangle((0, top, width, top + height), fill=colour)
    sub_font = font(22)
    sub_w = min(text_width(subtitle, sub_font), width // 2) if subtitle else 0
    if subtitle and text_width(title, font(KEY_TEXT, True)) > width - sub_w - 60:
        subtitle, sub_w = "", 0
    text, fnt = fit_text(title, width - sub_w - 60, 34, True, KEY_TEXT)
    draw_text(draw, (20, top + height / 2), text, fnt, WHITE, "lm", key=True)
    if subtitle:
        sub = ellipsize(subtitle, sub_font, width // 2)
        draw_text(draw, (width - 20, top + height / 2), sub, sub_font, tint(HIGHLIGHT, 0.2), "rm")
    return height


def panel(
    draw: ImageDraw.ImageDraw,
    box: Box,
    fill: RGB = PANEL,
    edge: RGB = PANEL_EDGE,
    width: int = 2,
    radius: int = 12,
) -> None:
    """A rounded white panel."""
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=edge, width=width)


def row_letters(n: int) -> list[str]:
    """Row labels A, B, C ..."""
    return [chr(ord("A") + i) for i in range(n)]


def col_numbers(n: int) -> list[str]:
    """Column labels 1, 2, 3 ..."""
    return [str(i + 1) for i in range(n)]


@dataclass(frozen=True)
class GridGeometry:
    """Where a labelled grid landed: the cell boxes and the outer box."""

    origin: tuple[int, int]
    cell: int
    rows: int
    cols: int
    gap: int

    def cell_box(self, r: int, c: int) -> Box:
        x = self.origin[0] + c * (self.cell + self.gap)
        y = self.origin[1] + r * (self.cell + self.gap)
        return (x, y, x + self.cell, y + self.cell)

    @property
    def box(self) -> Box:
        last = self.cell_box(self.rows - 1, self.cols - 1)
        return (self.origin[0], self.origin[1], last[2], last[3])


def labelled_grid(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    rows: int,
    cols: int,
    cell: int,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    gap: int = 4,
    label_size: int | None = None,
    fill: RGB | Callable[[int, int], RGB | None] | None = EMPTY_CELL,
    label_space: int | None = None,
) -> GridGeometry:
    """Draw empty cells with row labels on the left and column labels on top.

    ``xy`` is the top-left corner of the whole block including the labels; the cells start
    ``label_space`` pixels right of and below it. Returns the geometry so the caller can fill cells.
    ``fill`` may be a function of (row, col) returning a colour or None (cell left undrawn).
    """
    lsize = label_size or max(14, cell // 5)
    space = label_space if label_space is not None else lsize + 10
    rl = list(row_labels) if row_labels is not None else row_letters(rows)
    cl = list(col_labels) if col_labels is not None else col_numbers(cols)
    geo = GridGeometry((xy[0] + space, xy[1] + space), cell, rows, cols, gap)
    fnt = font(lsize, True)
    for c in range(cols):
        x0, y0, x1, _ = geo.cell_box(0, c)
        if cl:
            draw_text(draw, ((x0 + x1) / 2, y0 - space / 2), cl[c], fnt, MUTED, "mm", key=False)
    for r in range(rows):
        x0, y0, _, y1 = geo.cell_box(r, 0)
        if rl:
            draw_text(draw, (x0 - space / 2, (y0 + y1) / 2), rl[r], fnt, MUTED, "mm", key=False)
    for r in range(rows):
        for c in range(cols):
            colour = fill(r, c) if callable(fill) else fill
            if colour is not None:
                draw.rounded_rectangle(
                    geo.cell_box(r, c), radius=max(3, cell // 14), fill=colour, outline=GRID_LINE, width=1
                )
    return geo


def legend(
    img: Image.Image,
    xy: tuple[int, int],
    entries: Sequence[tuple[str, str]],
    max_width: int,
    size: int = 34,
    icon_entries: Sequence[tuple[str, str]] = (),
    locale: str = "en",
) -> int:
    """A wrapped row of "[tile] label" entries (glyph keys) then "[icon] label" ones; returns the bottom y.
    The tiles' badges are drawn in ``locale``."""
    draw = ImageDraw.Draw(img)
    fnt = font(max(MIN_TEXT, round(size * 0.55)))
    x, y = xy
    line_h = size + 8
    items: list[tuple[str, str, bool]] = [(k, t, True) for k, t in entries] + [
        (k, t, False) for k, t in icon_entries
    ]
    for key, text, is_glyph in items:
        w = size + 6 + text_width(text, fnt) + 18
        if x + w > xy[0] + max_width and x > xy[0]:
            x = xy[0]
            y += line_h
        box = (x, y, x + size, y + size)
        if is_glyph:
            draw_glyph(img, key, box, locale=locale)
        else:
            draw_icon(img, key, box)
        draw_text(draw, (x + size + 6, y + size / 2), text, fnt, INK, "lm")
        x += w
    return y + line_h


def player_banner(
    img: Image.Image,
    box: Box,
    seat: int,
    name: str,
    detail: str = "",
    active: bool = False,
    active_label: str | None = None,
    *,
    locale: str = "en",
) -> None:
    """A strip naming a player: marker (shape + letter), name, a detail text on the right.

    ``active`` frames it in the highlight colour and adds ``active_label`` (default: "to play" in
    ``locale``) with an hourglass, so the acting player is marked by words and an icon, not by
    colour alone.
    """
    if active_label is None:
        active_label = t("render.banner.to_play", locale)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    h = y1 - y0
    style = player_style(seat)
    draw.rounded_rectangle(
        box,
        radius=h // 4,
        fill=tint(style.colour, 0.82),
        outline=HIGHLIGHT if active else shade(style.colour, 0.2),
        width=max(3, h // 10) if active else 2,
    )
    pad = max(4, h // 8)
    seat_marker(img, seat, (x0 + pad, y0 + pad, x0 + h - pad, y1 - pad))
    right = x1 - pad * 2
    if active:
        label_font = font(max(12, round(h * 0.48)), True)
        lw = text_width(active_label, label_font)
        lbox = (right - lw - h * 0.7 - pad, y0 + pad, right, y1 - pad)
        draw.rounded_rectangle(lbox, radius=(lbox[3] - lbox[1]) // 2, fill=HIGHLIGHT, outline=INK, width=2)
        isz = int((lbox[3] - lbox[1]) * 0.7)
        draw_icon(
            img,
            "waiting",
            (int(lbox[0] + pad), int(y0 + (h - isz) / 2), int(lbox[0] + pad + isz), int(y0 + (h + isz) / 2)),
        )
        draw_text(draw, (right - pad, (y0 + y1) / 2), active_label, label_font, INK, "rm", key=True)
        right = int(lbox[0]) - pad
    if detail:
        dfont = font(max(12, round(h * 0.48)))
        detail = ellipsize(detail, dfont, max(40, (right - x0) // 2))
        draw_text(draw, (right, (y0 + y1) / 2), detail, dfont, INK, "rm", key=True)
        right -= text_width(detail, dfont) + pad * 2
    name_text, nfont = fit_text(name, right - (x0 + h + pad), round(h * 0.5), True, 12)
    draw_text(draw, (x0 + h + pad, (y0 + y1) / 2), name_text, nfont, INK, "lm", key=True)


def wrap(text: str, fnt: Font, max_width: int) -> list[str]:
    """Greedy word wrap."""
    words = text.split()
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(trial, fnt) <= max_width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def fit_lines(
    text: str, width: int, size: int, bold: bool = False, min_size: int = MIN_TEXT, max_lines: int = 2
) -> tuple[list[str], Font]:
    """``text`` in the largest font from ``size`` down to ``min_size`` on one line, else wrapped onto at
    most ``max_lines`` lines; past that the last line ends after a whole word with "…". A name or heading
    that must stay a key fact passes ``min_size=KEY_TEXT``: it wraps rather than shrinks below it."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if text_width(text, f) <= width:
            return [text], f
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        lines = wrap(text, f, width)
        if len(lines) <= max_lines and all(text_width(line, f) <= width for line in lines):
            return lines, f
    f = font(min_size, bold)
    lines = wrap(text, f, width)
    head = [ellipsize(line, f, width) for line in lines[: max_lines - 1]]
    return [*head, ellipsize(" ".join(lines[max_lines - 1:]), f, width)], f


def join_names(items: Iterable[str], locale: str = "en") -> str:
    """Names (or phrases) as one list in ``locale`` ("Ann, Bob")."""
    return t("render.list.separator", locale).join(items)


def sized(width: int, height: int, paint: Callable[[Image.Image, ImageDraw.ImageDraw], int],
          under: Image.Image | None = None) -> Image.Image:
    """What ``paint`` draws (it returns its bottom y) on a canvas ``height`` tall, an estimate, cropped to
    the drawing (not copied when it fills the canvas exactly); drawn again taller when the estimate fell
    short. ``under``: a picture pasted at the top first (``paint`` then starts below it), so a table
    and what follows it are drawn on one canvas instead of two stacked ones."""
    recorder = _RECORDER.get()
    top = under.height if under is not None else 0
    while True:
        img, draw = canvas(width, top + height)
        if under is not None:
            img.paste(under, (0, 0))
            if recorder is not None:
                recorder.moved(under, img, 0, 0)
        end = paint(img, draw)
        if end <= top + height:
            return img if end == img.height else img.crop((0, 0, img.width, end))
        height = end - top + 40


def stack_vertical(images: Sequence[Image.Image], gap: int = 0, colour: RGB = BACKGROUND) -> Image.Image:
    """Images one under another, left-aligned, on the background colour."""
    width = max(i.width for i in images)
    height = sum(i.height for i in images) + gap * (len(images) - 1)
    out = Image.new("RGB", (width, height), colour)
    recorder = _RECORDER.get()
    y = 0
    for im in images:
        out.paste(im, (0, y))
        if recorder is not None:
            recorder.moved(im, out, 0, y)
        y += im.height + gap
    return out


# ---------------------------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------------------------


DESIGN_SHARE = 0.01
"""Each design colour's share of the pixels the palette is chosen from (enough to win a palette entry)."""


def design_colours() -> tuple[RGB, ...]:
    """Every colour the renderers name (this module's and the games' module-level RGB constants, of
    the renderers loaded so far)."""
    import sys

    loaded = tuple(sorted(n for n in sys.modules if n == "render" or n.startswith("render.")))
    return _design_colours(loaded)


@lru_cache(maxsize=8)
def _design_colours(modules: tuple[str, ...]) -> tuple[RGB, ...]:
    import sys

    found: dict[RGB, None] = {}
    for name in modules:
        for key, value in vars(sys.modules[name]).items():
            if key.isupper() and isinstance(value, tuple) and len(value) == 3 and all(
                    isinstance(v, int) and 0 <= v <= 255 for v in value):
                found[value] = None
    return tuple(found)


def palette_of(image: Image.Image, colours: int = PNG_COLOURS) -> Image.Image:
    """A palette image of at most ``colours`` colours for an RGB ``image`` (see :data:`PALETTE_SAMPLE`)."""
    step = max(PALETTE_SAMPLE, math.ceil(math.sqrt(image.width * image.height / PALETTE_PIXELS)))
    if min(image.size) < 64 * step:
        return image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    sample = image.resize((image.width // step, image.height // step), Image.Resampling.NEAREST)
    design = design_colours()
    # Under the sample, one band per design colour, each about DESIGN_SHARE of the sample's pixels.
    rows = max(1, math.ceil(sample.height * DESIGN_SHARE * len(design)))
    bands = Image.new("RGB", (len(design), 1))
    bands.putdata(list(design))
    canvas = Image.new("RGB", (sample.width, sample.height + rows))
    canvas.paste(sample, (0, 0))
    canvas.paste(bands.resize((sample.width, rows), Image.Resampling.NEAREST), (0, sample.height))
    return canvas.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, colours: int = PNG_COLOURS) -> bytes:
    """The image as PNG bytes: quantised to a ``colours`` palette (no dithering) and deflated.

    A 1200 px board comes out around 40-150 KB; pass ``colours=0`` for a true-colour PNG.
    """
    recorder = _RECORDER.get()
    if recorder is not None and image.info.get(SURFACE):
        recorder.encoded.append(image.info[SURFACE])
    img = image.convert("RGB") if image.mode not in ("RGB", "P") else image
    if colours and img.mode == "RGB":
        return palette_png(img.quantize(palette=palette_of(img, colours), dither=Image.Dither.NONE))
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=PNG_LEVEL)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image) -> bytes:
    """A palette image (mode ``P``, no transparency) as PNG bytes, written here rather than by Pillow: every
    row unfiltered (filter 0), the rows deflated at :data:`PNG_LEVEL` in one zlib call. The same pixels
    and palette as Pillow's file and within 1 % of its size, about 10 % faster (measured: a 1200 x 2755
    board 8.2 ms instead of 9.2; an "Up" filter on every row made files 10-20 % larger and slower)."""
    width, height = image.size
    rows = Image.new("P", (width + 1, height), 0)  # column 0: each row's filter byte (0, none)
    rows.paste(image, (1, 0))
    palette = bytes((image.getpalette() or [0, 0, 0])[: 3 * 256])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, deflate, no interlace
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", zlib.compress(rows.tobytes(), PNG_LEVEL)), _chunk(b"IEND", b"")))


def chip(
    img: Image.Image,
    xy: tuple[float, float],
    icon: str | None,
    text: str,
    size: int,
    anchor: str = "lt",
    fill: RGB = WHITE,
    ink: RGB = INK,
) -> Box:
    """A small white pill holding an icon and a short text ("[person] 2"); returns its box.

    ``anchor`` is two letters: l/m/r horizontally and t/m/b vertically.
    """
    draw = ImageDraw.Draw(img)
    fnt = font(max(8, round(size * 0.82)), True)
    pad = max(2, size // 6)
    icon_w = size if icon else 0
    tw = text_width(text, fnt) if text else 0
    w = pad * 2 + icon_w + (pad // 2 if icon and text else 0) + tw
    h = size + pad
    x, y = xy
    x0 = x if anchor[0] == "l" else (x - w if anchor[0] == "r" else x - w / 2)
    y0 = y if anchor[1] == "t" else (y - h if anchor[1] == "b" else y - h / 2)
    box = (int(x0), int(y0), int(x0 + w), int(y0 + h))
    draw.rounded_rectangle(box, radius=h // 2, fill=fill, outline=ink, width=max(1, size // 14))
    cx = box[0] + pad
    if icon:
        paste(img, icon_image(icon, size - 2), (cx, box[1] + pad // 2 + 1))
        cx += icon_w + pad // 2
    if text:
        draw_text(draw, (cx, (box[1] + box[3]) / 2 + 1), text, fnt, ink, "lm")
    return box


TILE_SHEET_COLUMNS = 3
TILE_SHEET_SIZE = 96
"""A reference sheet's glyphs: large enough to read the letter on a phone."""


def tile_sheet(game: str, title: str, locale: str = "en") -> Image.Image:
    """Every building kind of ``game`` as drawn in its pictures: the glyph, its letter and its name."""
    keys = [k for k in GLYPHS if k.startswith(game + ".")]
    rows = max(1, -(-len(keys) // TILE_SHEET_COLUMNS))
    cell_w = IMAGE_WIDTH // TILE_SHEET_COLUMNS
    cell_h = TILE_SHEET_SIZE + 28
    img, draw = canvas(IMAGE_WIDTH, TITLE_HEIGHT + 24 + rows * cell_h)
    title_bar(draw, IMAGE_WIDTH, title)
    for i, key in enumerate(keys):
        x = (i % TILE_SHEET_COLUMNS) * cell_w + 24
        y = TITLE_HEIGHT + 24 + (i // TILE_SHEET_COLUMNS) * cell_h
        draw_glyph(img, key, (x, y, x + TILE_SHEET_SIZE, y + TILE_SHEET_SIZE), locale=locale)
        g = glyph(key)
        label = f"{g.badge(locale)}  {g.label(locale)}"
        draw_fitted(draw, (x + TILE_SHEET_SIZE + 16, y + TILE_SHEET_SIZE // 2), label,
                    cell_w - TILE_SHEET_SIZE - 56, 28, True, INK, "lm", MIN_TEXT, key=False)
    return img
