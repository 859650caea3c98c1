"""The analysed game's expected-margin curve under the story chart (issue 40).

For each seat, the values of its played moves as the after-game analysis weighed them (:mod:`bot.analysis`: the
expected final margin over the best opponent, as the seat could foresee it when it moved), placed at the story's
turn of each move (a turn of several decisions at its last one's value) and joined by a line in the seat's
colour, with the seat's shape along it (never the colour alone) and its marker and letter at the line's end; a
zero line (level with the best opponent) and the points up the side. The chart of a game not analysed has no
such panel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot import story as st
from bot.i18n import t
from render import common as c

PANEL_HEIGHT = 330
HEAD = 48
LINE_WIDTH = 5
MARKER = 22
END_MARKER = 30
MARKS_PER_LINE = 8

Margins = Mapping[int, Sequence[tuple[int, float]]]
"""Seat -> [(the move's number in the log, the played move's expected margin)], in the log's order."""


def curve(story: st.Story, margins: Margins) -> dict[int, list[tuple[int, float]]]:
    """Each scored place's curve: [(the story's turn of the move, expected margin)], a place index for each
    seat that has values (an Automa has none). A move lies in the first turn whose point counts it; a turn of
    several of the seat's decisions shows the value of its last one."""
    versions = [p.version for p in story.points]
    out: dict[int, list[tuple[int, float]]] = {}
    for place in story.places:
        if place.seat is None or not margins.get(place.seat):
            continue
        points: list[tuple[int, float]] = []
        for number, value in margins[place.seat]:
            k = next((i for i, v in enumerate(versions) if v >= number), len(versions) - 1)
            turn = story.points[k].turn
            if points and points[-1][0] == turn:
                points.pop()  # a turn of several decisions (a take and its placement): where its last one left it
            points.append((turn, float(value)))
        out[place.index] = points
    return out


def _step(span: float) -> float:
    """A tick step of 1, 2 or 5 times a power of ten giving at most six ticks over ``span``."""
    power = 10.0 ** math.floor(math.log10(max(span, 1.0) / 6))
    return float(next((f * power for f in (1, 2, 5, 10) if span / (f * power) <= 6), 10 * power))


def panel(
    img: Image.Image, top: int, x_range: tuple[int, int], story: st.Story, margins: Margins, locale: str
) -> tuple[int, dict[int, list[tuple[float, float]]]]:
    """The panel from ``top``, its plot spanning ``x_range`` like the score chart's: returns its bottom and each
    place's curve in pixels (for the tests)."""
    draw = ImageDraw.Draw(img)
    curves = curve(story, margins)
    left, right = 24, c.IMAGE_WIDTH - 24
    bottom = top + PANEL_HEIGHT
    c.panel(draw, (left, top, right, bottom))
    c.draw_fitted(
        draw,
        (left + 18, top + 12),
        t("story.chart.expected", locale),
        right - left - 36,
        24,
        True,
        c.MUTED,
        min_size=c.MIN_TEXT,
        key=False,
    )
    x0, x1 = x_range
    y0, y1 = top + HEAD + 10, bottom - 24
    values = [v for points in curves.values() for _, v in points] or [0.0]
    step = _step(max(values) - min(values) or 1.0)
    low = min(0.0, math.floor(min(values) / step) * step)
    high = max(step, math.ceil(max(values) / step) * step)
    turns = max(1, story.turns)

    def xy(turn: float, value: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * turn / turns, y1 - (y1 - y0) * (value - low) / (high - low)

    fnt = c.font(22)
    value = low
    while value <= high + 1e-9:
        y = xy(0, value)[1]
        draw.line((x0, y, x1, y), fill=c.INK if abs(value) < 1e-9 else c.GRID_LINE, width=2 if abs(value) < 1e-9 else 1)
        label = f"{value:+g}" if abs(value) >= 1e-9 else "0"
        c.draw_text(draw, (x0 - 10, y), label, fnt, c.INK, "rm", key=False)
        value += step
    drawn: dict[int, list[tuple[float, float]]] = {}
    for index, points in curves.items():
        style = c.player_style(index)
        line = [xy(turn, v) for turn, v in points]
        drawn[index] = line
        if len(line) > 1:
            draw.line(line, fill=c.WHITE, width=LINE_WIDTH + 4, joint="curve")
        draw.line(line if len(line) > 1 else line * 2, fill=style.colour, width=LINE_WIDTH, joint="curve")
    half = MARKER // 2
    for index, line in drawn.items():
        style = c.player_style(index)
        every = max(1, len(line) // MARKS_PER_LINE)
        for k in range(index % every, len(line) - 1, every):
            x, y = line[k]
            c.draw_marker(img, style.shape, (int(x - half), int(y - half), int(x + half), int(y + half)), style.colour)
        x, y = line[-1]
        end = END_MARKER // 2
        box = (int(x - end), int(y - end), int(x + end), int(y + end))
        c.draw_marker(img, style.shape, box, style.colour, style.mark)
    return bottom, drawn
