"""Colours: the Okabe-Ito palette and its neutrals, the concept colours' mixing helpers, and each player's
colour and marker shape (nothing depends on colour alone: a player also has a shape and a letter).

Colours come from the Okabe-Ito palette (safe for the common colour-vision deficiencies). Every module-level
RGB constant of ``render`` is a design colour the PNG palette always keeps (:func:`render.png.design_colours`).
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

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
