"""Small icons (resources, points, status: shape first, colour second), counts and pills beside them, and
the face-down tile."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.colour import (
    BLUE,
    BLUISH_GREEN,
    ENERGY,
    HIGHLIGHT,
    INHABITANT,
    INK,
    ORANGE,
    POINTS,
    REDDISH_PURPLE,
    RGB,
    SKY_BLUE,
    VERMILLION,
    WHITE,
    YELLOW,
    Box,
    mix,
    tint,
)
from render.glyphs import Painter
from render.shapes import SUPERSAMPLE, Pen, Point, paste
from render.text import draw_text, font, text_width

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
    pen.d.chord((*pen.p(0.32, 0.04), *pen.p(0.68, 0.44)), 180, 360, fill=pen.fill, outline=pen.ink, width=pen.lw(0.04))


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
    paste(img, face_down_image(size), (box[0] + (box[2] - box[0] - size) // 2, box[1] + (box[3] - box[1] - size) // 2))


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
