"""The shared building shapes: each painter draws one kind's icon into a unit box through a :class:`Pen`
(unit coordinates -> pixels); each game picks its kinds' shapes from :data:`render.glyphs.PAINTERS`."""

from __future__ import annotations

import math

from render.colour import INK, WHITE, shade, tint
from render.shapes import Pen, Point
from render.text import draw_text, font


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
            (*pen.p(u, 0.28), *pen.p(u + 0.24, 0.46)), 0, 180, fill=pen.fill, outline=pen.ink, width=pen.lw(0.035)
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
