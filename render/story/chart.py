"""The chart of a game's story (:func:`chart_png`): one line per place, the rounds, the deciding moments
marked and told, the legend. The names and words it draws (:func:`place_names`, :func:`moments`) are
:mod:`render.story.words`, re-exported here.

Split from ``render/story/__init__.py`` (the module budget, ARCHITECTURE.md), which re-exports its names."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot import games
from bot import story as st
from bot.i18n import t
from render import common as c
from render.story.margins import Margins
from render.story.margins import panel as margin_panel
from render.story.words import MOST_MOMENTS as MOST_MOMENTS
from render.story.words import Moment as Moment
from render.story.words import _when as _when
from render.story.words import moments as moments
from render.story.words import place_names as place_names

WIDTH = c.IMAGE_WIDTH
PLOT_HEIGHT = 560
MARGIN = 24
AXIS_FONT = 24
LINE_WIDTH = 6
MARKER = 26
END_MARKER = 36
BADGE = 34
MARKS_PER_LINE = 10
"""Shape markers along each line (spread so that places' markers fall at different turns)."""
LINE_GAP = 4
"""Pixels between the lines of places with the same score."""
BAND = 40
"""The strip above the plot that names the rounds."""


# ---------------------------------------------------------------------------------------------
# The chart
# ---------------------------------------------------------------------------------------------


def nice_step(span: float, most: int) -> int:
    """A tick step of 1, 2 or 5 times a power of ten giving at most ``most`` ticks over ``span``."""
    span = max(1.0, span)
    power = 10 ** max(0, math.floor(math.log10(span / most)))
    for factor in (1, 2, 5, 10, 20, 50):
        if span / (factor * power) <= most:
            return int(factor * power)
    return int(100 * power)


class _Plot:
    """Turns and points -> pixels inside the plot box."""

    def __init__(self, box: c.Box, turns: int, low: int, high: int) -> None:
        self.box = box
        self.turns = max(1, turns)
        self.low, self.high = low, max(high, low + 1)

    def x(self, turn: float) -> float:
        x0, _, x1, _ = self.box
        return x0 + (x1 - x0) * turn / self.turns

    def y(self, points: float) -> float:
        _, y0, _, y1 = self.box
        return y1 - (y1 - y0) * (points - self.low) / (self.high - self.low)


def _legend(img: Image.Image, top: int, story: st.Story, names: Sequence[str], locale: str) -> int:
    """The final ranking as a panel of rows (two columns past four places); returns its bottom."""
    draw = ImageDraw.Draw(img)
    rows = story.ranking
    columns = 2 if len(rows) > 4 else 1
    per_column = math.ceil(len(rows) / columns)
    row_h = 56
    head = 44
    bottom = top + head + per_column * row_h + 14
    c.panel(draw, (MARGIN, top, WIDTH - MARGIN, bottom))
    c.draw_fitted(
        draw,
        (MARGIN + 18, top + 12),
        t("story.legend.title", locale),
        WIDTH - 4 * MARGIN,
        24,
        True,
        c.MUTED,
        min_size=c.MIN_TEXT,
        key=False,
    )
    col_w = (WIDTH - 2 * MARGIN - 24) // columns
    for i, standing in enumerate(rows):
        x = MARGIN + 12 + (i // per_column) * col_w
        y = top + head + (i % per_column) * row_h
        style = c.player_style(standing.place)
        c.draw_marker(img, style.shape, (x + 6, y + 6, x + 48, y + 48), style.colour, style.mark)
        key_font = c.font(c.KEY_TEXT + 1, True)
        c.draw_text(draw, (x + 58, y + 27), f"{standing.rank}.", key_font, c.INK, "lm", key=True)
        total = str(standing.total)
        right = x + col_w - 18
        c.draw_text(draw, (right, y + 27), total, key_font, c.INK, "rm", key=True)
        name_left = x + 58 + c.text_width(f"{standing.rank}.", key_font) + 14
        space = right - c.text_width(total, key_font) - 16 - name_left
        line, fnt = c.fit_text(names[standing.place], space, c.KEY_TEXT + 1, standing.rank == 1, c.KEY_TEXT)
        c.draw_text(draw, (name_left, y + 27), line, fnt, c.INK, "lm", key=True)
    return bottom


def _rounds(story: st.Story) -> list[tuple[int, int, int]]:
    """(round, first turn, last turn) spans of the points after the start (none: no rounds)."""
    spans: list[tuple[int, int, int]] = []
    for point in story.points[1:]:
        if point.round <= 0:
            return []
        if spans and spans[-1][0] == point.round:
            spans[-1] = (point.round, spans[-1][1], point.turn)
        else:
            spans.append((point.round, point.turn, point.turn))
    return spans if len(spans) > 1 else []


def _axes(img: Image.Image, plot: _Plot, story: st.Story, locale: str) -> None:
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = plot.box
    fnt = c.font(AXIS_FONT)
    for k, (number, first, last) in enumerate(_rounds(story)):
        left, right = plot.x(first - 1), plot.x(last)
        if k % 2 == 0:
            draw.rectangle((left, y0 - BAND, right, y1), fill=c.tint(c.SKY_BLUE, 0.86))
        label, lfont = c.fit_text(
            t("story.chart.round", locale, round=number), int(right - left) - 8, 22, True, c.MIN_TEXT
        )
        c.draw_text(draw, ((left + right) / 2, y0 - BAND / 2), label, lfont, c.MUTED, "mm", key=False)
    step = nice_step(plot.high - plot.low, 7)
    value = math.ceil(plot.low / step) * step
    while value <= plot.high:
        y = plot.y(value)
        draw.line((x0, y, x1, y), fill=c.GRID_LINE if value else c.INK, width=1 if value else 2)
        c.draw_text(draw, (x0 - 10, y), str(value), fnt, c.INK, "rm", key=False)
        value += step
    xstep = nice_step(plot.turns, 12)
    for turn in range(0, plot.turns + 1, xstep):
        x = plot.x(turn)
        draw.line((x, y1, x, y1 + 8), fill=c.INK, width=2)
        c.draw_text(draw, (x, y1 + 12), str(turn), fnt, c.INK, "ma", key=False)
    draw.line((x0, y1, x1, y1), fill=c.INK, width=2)
    draw.line((x0, y0, x0, y1), fill=c.INK, width=2)
    axis = t("story.axis.round" if story.axis == "round" else "story.axis.turn", locale)
    c.draw_fitted(draw, ((x0 + x1) / 2, y1 + 46), axis, x1 - x0, 24, True, c.MUTED, "ma", c.MIN_TEXT, key=False)
    c.draw_fitted(
        draw,
        (x0 - 10, y0 - BAND / 2),
        t("story.axis.points", locale),
        x0 - MARGIN - 16,
        22,
        True,
        c.MUTED,
        "rm",
        c.MIN_TEXT,
        key=False,
    )


def _offset(place: int, places: int) -> float:
    """A few pixels up or down per place, so lines that run together show side by side."""
    return (place - (places - 1) / 2) * LINE_GAP


def _settle(
    wanted: dict[int, float], gap: float, low: float, high: float, order: Sequence[int] | None = None
) -> dict[int, float]:
    """Positions near ``wanted`` (by key), at least ``gap`` apart, within [low, high]: labels that
    would overlap gather in a column centred where they wanted to be. ``order`` breaks ties."""
    rank = {k: i for i, k in enumerate(order or sorted(wanted))}
    keys = sorted(wanted, key=lambda k: (wanted[k], rank[k]))
    groups: list[list[int]] = []
    tops: list[float] = []
    for key in keys:
        groups.append([key])
        tops.append(wanted[key])
        while len(groups) > 1 and tops[-2] + gap * len(groups[-2]) > tops[-1]:
            merged = groups[-2] + groups[-1]
            groups[-2:] = [merged]
            mean = sum(wanted[k] for k in merged) / len(merged)
            tops[-2:] = [mean - gap * (len(merged) - 1) / 2]
    out: dict[int, float] = {}
    for group, top in zip(groups, tops):
        for i, key in enumerate(group):
            out[key] = top + gap * i
    total = gap * (len(keys) - 1)
    shift = max(0.0, low - min(out.values(), default=low)) or min(0.0, high - max(out.values(), default=high))
    if total > high - low:
        shift = low - min(out.values(), default=low)
    return {k: y + shift for k, y in out.items()}


def _along(story: st.Story, place: int, turn: float) -> float:
    """A place's score at a fractional turn, on the straight line between two points."""
    points = story.points
    k = min(int(turn), len(points) - 2)
    a, b = points[k].scores[place], points[k + 1].scores[place]
    return a + (b - a) * (turn - k)


def _lines(img: Image.Image, plot: _Plot, story: st.Story) -> None:
    """Every place's line (drawn 2x and scaled down) with its shape along it, and its marker and
    letter beside the end of the chart, joined to where its line ends."""
    scale = 2
    x0, y0, x1, y1 = plot.box
    pad = END_MARKER
    count = len(story.places)
    layer = Image.new("RGBA", ((x1 - x0 + 2 * pad) * scale, (y1 - y0 + 2 * pad) * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)

    def y_of(place: int, points: float) -> float:
        return plot.y(points) + _offset(place, count)

    def local(turn: int, y: float) -> tuple[float, float]:
        return ((plot.x(turn) - x0 + pad) * scale, (y - y0 + pad) * scale)

    order = sorted(story.places, key=lambda p: -story.final[p.index])  # the leader's line on top
    for place in reversed(order):
        xy = [local(p.turn, y_of(place.index, p.scores[place.index])) for p in story.points]
        colour = c.player_style(place.index).colour
        draw.line(xy, fill=(*c.WHITE, 255), width=(LINE_WIDTH + 4) * scale, joint="curve")
        draw.line(xy, fill=(*colour, 255), width=LINE_WIDTH * scale, joint="curve")
    small = layer.resize((x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), Image.Resampling.LANCZOS)
    img.paste(small, (x0 - pad, y0 - pad), small)
    turns = story.turns
    spacing = turns / MARKS_PER_LINE
    half = MARKER // 2
    for place in reversed(order):
        style = c.player_style(place.index)
        at = spacing * (place.index + 0.5) / count
        while at < turns - spacing / 4:
            x, y = plot.x(at), y_of(place.index, _along(story, place.index, at))
            c.draw_marker(img, style.shape, (int(x - half), int(y - half), int(x + half), int(y + half)), style.colour)
            at += spacing
    draw = ImageDraw.Draw(img)
    ends = {p.index: y_of(p.index, story.final[p.index]) for p in story.places}
    labels = _settle(
        ends, END_MARKER + 2, y0 - BAND + END_MARKER / 2, y1 + END_MARKER, [s.place for s in story.ranking]
    )
    half = END_MARKER // 2
    lx = x1 + 12 + half
    for place in order:
        style = c.player_style(place.index)
        draw.line((x1, ends[place.index], lx - half, labels[place.index]), fill=style.colour, width=3)
        y = labels[place.index]
        c.draw_marker(
            img, style.shape, (int(lx - half), int(y - half), int(lx + half), int(y + half)), style.colour, style.mark
        )


def _badges(img: Image.Image, plot: _Plot, story: st.Story, marks: Sequence[Moment]) -> None:
    """A badge above each moment's point on its place's line, joined to it by a short stem."""
    draw = ImageDraw.Draw(img)
    _, y0, _, y1 = plot.box
    taken: list[tuple[float, float]] = []
    for moment in marks:
        point = next(p for p in story.points if p.turn == moment.turn)
        x, y = plot.x(point.turn), plot.y(point.scores[moment.place]) + _offset(moment.place, len(story.places))
        tries = [y - BADGE * (1.4 + 1.1 * k) for k in range(6)] + [y + BADGE * (1.4 + 1.1 * k) for k in range(6)]
        inside = [b for b in tries if y0 + BADGE / 2 - 6 <= b <= y1 - BADGE / 2]
        free = [b for b in inside if not any(abs(b - ty) < BADGE and abs(x - tx) < BADGE * 1.8 for tx, ty in taken)]
        by = (free or inside or tries)[0]
        taken.append((x, by))
        style = c.player_style(moment.place)
        draw.line((x, y, x, by), fill=c.INK, width=2)
        fnt = c.font(22, True)
        w = max(BADGE, c.text_width(moment.badge, fnt) + 16)
        box = (x - w / 2, by - BADGE / 2, x + w / 2, by + BADGE / 2)
        draw.rounded_rectangle(box, radius=BADGE // 2, fill=c.HIGHLIGHT, outline=style.colour, width=4)
        c.draw_text(draw, (x, by + 1), moment.badge, fnt, c.INK, "mm", key=False)


def _moment_list(
    img: Image.Image, top: int, story: st.Story, marks: Sequence[Moment], left_out: int, locale: str
) -> int:
    """The moments as sentences under the chart, each behind its badge; returns the bottom."""
    draw = ImageDraw.Draw(img)
    lines: list[tuple[Moment | None, str]] = [(m, m.text) for m in marks]
    if left_out:
        lines.append((None, t("story.moment.left_out", locale, count=left_out)))
    if not story.lead_changes:
        lines.append((None, t("story.moment.no_leader", locale)))
    row_h = 44
    head = 46
    bottom = top + head + row_h * len(lines) + 12
    c.panel(draw, (MARGIN, top, WIDTH - MARGIN, bottom))
    c.draw_fitted(
        draw,
        (MARGIN + 18, top + 12),
        t("story.moments.title", locale),
        WIDTH - 4 * MARGIN,
        24,
        True,
        c.MUTED,
        min_size=c.MIN_TEXT,
        key=False,
    )
    for i, (moment, text) in enumerate(lines):
        y = top + head + i * row_h + row_h / 2
        x = MARGIN + 20
        if moment is not None:
            style = c.player_style(moment.place)
            bfont = c.font(22, True)
            w = max(BADGE, c.text_width(moment.badge, bfont) + 16)
            draw.rounded_rectangle(
                (x, y - BADGE / 2, x + w, y + BADGE / 2),
                radius=BADGE // 2,
                fill=c.HIGHLIGHT,
                outline=style.colour,
                width=4,
            )
            c.draw_text(draw, (x + w / 2, y + 1), moment.badge, bfont, c.INK, "mm", key=False)
            c.draw_marker(
                img, style.shape, (int(x + w + 10), int(y - 14), int(x + w + 38), int(y + 14)), style.colour, style.mark
            )
            x += w + 50
        line, lfont = c.fit_text(text, WIDTH - MARGIN - 20 - x, 26, False, c.MIN_TEXT)
        c.draw_text(draw, (x, y), line, lfont, c.INK, "lm", key=False)
    return bottom


def chart_image(
    story: st.Story, names: Sequence[str] | None = None, *, locale: str = "en", margins: Margins | None = None
) -> Image.Image:
    """The score-over-time chart of a story (see the module's docstring); an analysed game's ``margins`` add
    each seat's expected margin under it (:mod:`render.story.margins`)."""
    who = place_names(story, names, locale)
    marks, left_out = moments(story, who, locale)
    height = 3000  # cut to what is drawn
    img, draw = c.canvas(WIDTH, height)
    title = t(games.get(story.kind).title_key, locale)
    c.title_bar(draw, WIDTH, t("story.chart.title", locale), title)
    y = _legend(img, c.TITLE_HEIGHT + 16, story, who, locale) + 16
    panel = (MARGIN, y, WIDTH - MARGIN, y + PLOT_HEIGHT + 110)
    c.panel(draw, panel)
    scores = [s for p in story.points for s in p.scores]
    low, high = min(scores), max(scores)
    step = nice_step(high - low, 7)
    low = min(0, math.floor(low / step) * step)
    high = max(step, math.ceil(high / step) * step)
    box = (panel[0] + 96, panel[1] + 20 + BAND, panel[2] - END_MARKER - 36, panel[1] + PLOT_HEIGHT)
    plot = _Plot(box, story.turns, low, high)
    _axes(img, plot, story, locale)
    _lines(img, plot, story)
    _badges(img, plot, story, marks)
    bottom = panel[3]
    if margins:
        bottom, _ = margin_panel(img, bottom + 16, (box[0], box[2]), story, margins, locale)
    bottom = _moment_list(img, bottom + 16, story, marks, left_out, locale) + MARGIN
    return img.crop((0, 0, WIDTH, bottom))


def chart_png(
    story: st.Story, names: Sequence[str] | None = None, *, locale: str = "en", margins: Margins | None = None
) -> bytes:
    """PNG of :func:`chart_image`."""
    return c.png_bytes(chart_image(story, names, locale=locale, margins=margins))
