"""A league's standings as a picture: rank, player marker and name, games, wins, average place and
(rated leagues) the rating, with the shared palette and the shipped font.

Pure drawing: the caller passes the words (title, game name) and the standings; nothing here reads
the store or speaks to Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.i18n import t
from render import common as c

ROW_HEIGHT = 54
MAX_ROWS = 25
"""Rows one picture draws at most (the caller pages longer tables), so its size is bounded."""
HEAD_HEIGHT = 56
HEADER_FONT = 22
"""The column headings' size, shrunk to fit a column (a longer translation)."""
MARGIN = 24


class StandingLike(Protocol):
    """One member's line of the table (:class:`bot.community.leagues.Standing` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def games(self) -> int: ...

    @property
    def wins(self) -> int: ...

    @property
    def average_place(self) -> float: ...

    @property
    def ordinal(self) -> float: ...


def standings_png(
    title: str, game_name: str, rows: Sequence[StandingLike], *, rated: bool, loc: str, first: int = 1
) -> bytes:
    """The standings, best first, as PNG bytes: at most :data:`MAX_ROWS` rows, the first of them at
    place ``first`` (a later page of a long table)."""
    rows = rows[:MAX_ROWS]
    width = c.IMAGE_WIDTH
    row_h, head_h, margin = ROW_HEIGHT, HEAD_HEIGHT, MARGIN
    height = c.TITLE_HEIGHT + margin + head_h + row_h * max(1, len(rows)) + margin
    img, draw = c.canvas(width, height)
    c.title_bar(draw, width, title, game_name)
    cols = [("rank", 70), ("player", 0), ("games", 130), ("wins", 130), ("place", 160)]
    if rated:
        cols.append(("rating", 170))
    fixed = sum(w for _, w in cols)
    cols = [(name, w or width - 2 * margin - fixed) for name, w in cols]
    top = c.TITLE_HEIGHT + margin
    c.panel(draw, (margin // 2, top - 8, width - margin // 2, height - margin // 2))
    x = margin
    for name, w in cols:
        label = "#" if name == "rank" else t(f"community.league.col.{name}", loc)
        anchor, tx = ("lm", x + 8) if name == "player" else ("mm", x + w / 2)
        c.draw_fitted(
            draw, (tx, top + head_h / 2), label, w - 16, HEADER_FONT, True, c.MUTED, anchor, c.MIN_TEXT, key=False
        )
        x += w
    body = c.font(24)
    key_font = c.font(c.KEY_TEXT, True)
    key_columns = {"rank", "rating"} if rated else {"rank", "wins"}  # with the name: what a phone must show
    for i, s in enumerate(rows):
        y = top + head_h + i * row_h
        if i + first == 1 and s.games:
            draw.rectangle((margin, y, width - margin, y + row_h), fill=c.tint(c.HIGHLIGHT, 0.7))
        elif i % 2:
            draw.rectangle((margin, y, width - margin, y + row_h), fill=c.tint(c.PANEL_EDGE, 0.75))
        values = {
            "rank": str(i + first),
            "games": str(s.games),
            "wins": str(s.wins),
            "place": f"{s.average_place:.2f}" if s.games else "-",
            "rating": f"{s.ordinal:.1f}" if s.games else "-",
        }
        x = margin
        for name, w in cols:
            cy = y + row_h / 2
            if name == "player":
                c.seat_marker(img, i, (x + 6, int(cy - 16), x + 38, int(cy + 16)))
                text = c.ellipsize(s.name, key_font, w - 60)
                c.draw_text(draw, (x + 48, cy), text, key_font, c.INK, "lm", key=True)
            elif name in key_columns:
                c.draw_text(draw, (x + w / 2, cy), values[name], key_font, c.INK, "mm", key=True)
            else:
                c.draw_text(draw, (x + w / 2, cy), values[name], body, c.INK, "mm", key=False)
            x += w
    if not rows:
        c.draw_text(draw, (width / 2, top + head_h + row_h / 2), t("community.league.empty", loc), body, c.MUTED, "mm")
    return c.png_bytes(img)


CHART_HEIGHT = 520
CHART_MARGIN = 70


def rating_chart_png(title: str, ratings: Sequence[float], *, loc: str, seat: int = 0) -> bytes:
    """A player's rating after each counted game as a line with the player's marker at every point
    (shape and letter as well as colour), the games numbered along the bottom."""
    width = c.IMAGE_WIDTH
    img, draw = c.canvas(width, c.TITLE_HEIGHT + CHART_HEIGHT)
    c.title_bar(draw, width, title)
    left, right = CHART_MARGIN + 40, width - CHART_MARGIN
    top, bottom = c.TITLE_HEIGHT + 40, c.TITLE_HEIGHT + CHART_HEIGHT - CHART_MARGIN
    values = list(ratings) or [0.0]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    if high - low < 1:
        high, low = high + 0.5, low - 0.5
    step = (right - left) / max(1, len(values) - 1)

    def at(i: int, v: float) -> tuple[float, float]:
        return left + i * step, bottom - (v - low) / (high - low) * (bottom - top)

    axis_font = c.font(18)
    for frac in (0.0, 0.5, 1.0):
        v = low + (high - low) * frac
        y = at(0, v)[1]
        draw.line((left, y, right, y), fill=c.PANEL_EDGE, width=1)
        c.draw_text(draw, (left - 24, y), f"{v:.1f}", axis_font, c.MUTED, "rm")
    c.draw_text(
        draw, ((left + right) / 2, bottom + 40), t("community.league.chart.games", loc), axis_font, c.MUTED, "mm"
    )
    style = c.player_style(seat)
    points = [at(i, v) for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=style.colour, width=4)
    marker = 22
    for i, (x, y) in enumerate(points):
        c.seat_marker(img, seat, (int(x - marker / 2), int(y - marker / 2), int(x + marker / 2), int(y + marker / 2)))
        if len(points) <= 30 or i % max(1, len(points) // 15) == 0:
            c.draw_text(draw, (x, bottom + 22), str(i + 1), axis_font, c.MUTED, "mm")
    return c.png_bytes(img)
