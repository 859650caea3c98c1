"""Shapes: the players' marker shapes and sprites, pasting a sprite, and :class:`Pen`, which draws in
unit coordinates inside a pixel box (the glyph and icon painters draw through it). Sprites are drawn
:data:`SUPERSAMPLE` times larger, then scaled down (anti-aliased), and cached."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.colour import INK, RGB, WHITE, Box, player_style, text_on
from render.text import draw_text, fit_font

SUPERSAMPLE = 3
"""Glyphs and markers are drawn this many times larger, then scaled down (anti-aliasing)."""

# ---------------------------------------------------------------------------------------------
# Shapes (markers for players, and pieces of glyphs)
# ---------------------------------------------------------------------------------------------


def _star_points(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / points
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out


def _regular(cx: float, cy: float, r: float, sides: int, rotation: float = -90.0) -> list[tuple[float, float]]:
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
def marker_image(shape: str, size: int, colour: RGB, text: str = "", text_colour: RGB | None = None) -> Image.Image:
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

    def __init__(self, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: RGB, fill: RGB) -> None:
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

    def poly(self, pts: Iterable[Point], fill: RGB | None = None, outline: bool = True, width: float = 0.05) -> None:
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
        self.d.line([self.p(u, v) for u, v in pts], fill=colour or self.ink, width=self.lw(width), joint="curve")

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
        self.d.arc((*self.p(u0, v0), *self.p(u1, v1)), start, end, fill=colour or self.ink, width=self.lw(width))
