"""Text: the shipped fonts (which keep the masks they rendered), fitting and shortening, and the pen: every
string is drawn by :func:`draw_text`, which inside :func:`record_text` records each one (its box, font size,
whether it was shortened, whether it is a key fact) for the tests and the legibility bench.

Fonts ship in ``render/fonts`` (DejaVu Sans, Bitstream Vera licence in ``LICENSE.txt``): Latin with
Hungarian and Polish letters, Greek and Cyrillic, so player names never turn into boxes. Every word drawn
comes from the message catalogue (``bot/locales/<locale>/render.json``, keys ``render.*``) through
:func:`bot.i18n.t`; every public drawing function takes ``locale``.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageDraw, ImageFont

from render.colour import INK, RGB, Box

Font = ImageFont.FreeTypeFont

FONTS_DIR = Path(__file__).with_name("fonts")
FONT_REGULAR = FONTS_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"

KEY_TEXT = 33
"""The smallest font of a key fact (whose turn, names, scores) in a picture :data:`IMAGE_WIDTH` wide: 11 px on a
phone (``python -m bot.bench --only legibility`` measures it)."""
MIN_TEXT = 17
"""The smallest font of any word in a picture :data:`IMAGE_WIDTH` wide: 11 px at 2x zoom on a phone."""

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
        recorder.shortened[without_bidi_controls(out)] = (without_bidi_controls(original), mid_word)
    return out


def fit_text(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 12) -> tuple[str, Font]:
    """Shrink to fit, down to ``min_size``; past that, cut with an ellipsis (see :func:`ellipsize`)."""
    fnt = fit_font(text, max_width, size, bold, min_size)
    return ellipsize(text, fnt, max_width), fnt


# ---------------------------------------------------------------------------------------------
# The pen: every string goes through draw_text, which can record what it drew
# ---------------------------------------------------------------------------------------------

BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""The bidirectional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI). A player's
name is drawn inside longer strings ("Ann takes the lead"): one left open (a name ending in RLO) would reverse
the rest of the line, so the pen draws no string with them (:func:`draw_text`)."""


def without_bidi_controls(text: str) -> str:
    """``text`` without :data:`BIDI_CONTROLS`: what the pen draws and records of it."""
    return BIDI_CONTROLS.sub("", text)


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

    def add(
        self,
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        fnt: Font,
        anchor: str,
        stroke: int,
        key: bool | None,
    ) -> None:
        image = getattr(draw, "_image", None)
        surface = image.info.get(SURFACE) if image is not None else None
        if not surface or not text.strip():
            return  # a sprite (glyph letter, marker), a scratch picture, or nothing to read
        left, top, right, bottom = draw.textbbox(xy, text, font=fnt, anchor=anchor, stroke_width=stroke)
        bold = getattr(fnt, "path", "") == str(FONT_BOLD)
        full, mid_word = self.shortened.get(text, (text, False))
        self.texts.append(
            DrawnText(
                text,
                (math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)),
                int(fnt.size),
                bold,
                bold if key is None else key,
                text in self.shortened,
                mid_word,
                full,
                surface,
            )
        )

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
        self.texts = [
            replace(d, box=(d.box[0] + dx, d.box[1] + dy, d.box[2] + dx, d.box[3] + dy), surface=now)
            if d.surface == was
            else d
            for d in self.texts
        ]
        self.regions = [
            replace(r, box=(r.box[0] + dx, r.box[1] + dy, r.box[2] + dx, r.box[3] + dy), surface=now)
            if r.surface == was
            else r
            for r in self.regions
        ]

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
    recorder; left as None, bold text counts as one (the pictures' own emphasis). The bidirectional
    controls are left out (:data:`BIDI_CONTROLS`), so no name can reorder the words drawn after it."""
    text = without_bidi_controls(text)
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
