"""The analysed game's expected-margin curve on the story chart (issue 40): each seat's played moves' values at
the story's turn of each move, a line in the seat's colour with its shape along it, the panel's words through
the catalogue; a game not analysed keeps the chart it had."""

from __future__ import annotations

import io
import itertools

from PIL import Image

from bot.i18n import t
from render import common as c
from render.story import chart_image, chart_png
from render.story import margins as curves
from tests.story.conftest import played


def margins_of(log: list[tuple[int, dict[str, object]]], seats: int) -> dict[int, list[tuple[int, float]]]:
    """A curve per seat over its moves: a value that rises for seat 0 and falls for the others."""
    out: dict[int, list[tuple[int, float]]] = {}
    for number, (seat, _) in enumerate(log, start=1):
        if 0 <= seat < seats:
            out.setdefault(seat, []).append((number, number / 4 if seat == 0 else -number / 8 - seat))
    return out


def test_each_move_is_drawn_at_the_story_turn_that_counts_it() -> None:
    game = played("quadropolis-classic")
    margins = margins_of(game.log, game.seats)
    drawn = curves.curve(game.story, margins)
    assert set(drawn) == set(range(game.seats))
    versions = [(p.version, p.turn) for p in game.story.points]
    for seat, points in drawn.items():
        # Each move at the first turn whose point counts it; a turn of several decisions at its last one's value.
        expected: dict[int, float] = {}
        for number, value in margins[seat]:
            expected[next(turn for version, turn in versions if version >= number)] = value
        assert points == sorted(expected.items())
        assert len(points) < len(margins[seat]), "a Quadropolis turn is a take and a placement"


def test_the_curve_is_drawn_in_each_seat_colour_under_a_worded_title() -> None:
    game = played("quadropolis-classic")
    margins = margins_of(game.log, game.seats)
    with c.record_text() as words:
        img, _ = c.canvas(c.IMAGE_WIDTH, 600)
        bottom, pixels = curves.panel(img, 10, (120, 1100), game.story, margins, "pl")
    assert bottom == 10 + curves.PANEL_HEIGHT
    assert [d.text for d in words.on(img) if d.full == t("story.chart.expected", "pl")] == [
        t("story.chart.expected", "pl")
    ]  # whole, not shortened
    assert all(d.size >= c.MIN_TEXT for d in words.on(img)), "every word readable on a phone"
    rgb = img.convert("RGB")
    for seat, line in pixels.items():
        colour = c.player_style(seat).colour
        # Between two points of its own line (off the markers), the seat's colour is there, give or take.
        middles = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in itertools.pairwise(line)]
        hits = sum(
            1
            for x, y in middles
            if any(
                max(abs(p - q) for p, q in zip(rgb.getpixel((int(x) + dx, int(y) + dy)), colour, strict=True)) < 40
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
            )
        )
        assert hits >= len(middles) // 2, (seat, hits, len(middles))
    # Seat 0 rises and the others fall: its line ends above theirs.
    assert all(pixels[0][-1][1] < pixels[s][-1][1] for s in pixels if s)


def test_an_analysed_game_has_another_chart_and_an_unanalysed_one_keeps_its_own() -> None:
    game = played("btc-standard")
    plain = chart_png(game.story, game.names)
    assert chart_png(game.story, game.names, margins={}) == plain
    margins = margins_of(game.log, game.seats)
    with c.record_text() as words:
        analysed = chart_image(game.story, game.names, locale="hu", margins=margins)
    assert analysed.height > Image.open(io.BytesIO(plain)).height
    assert t("story.chart.expected", "hu") in [d.text for d in words.on(analysed)]
    assert chart_png(game.story, game.names, margins=margins) != plain
