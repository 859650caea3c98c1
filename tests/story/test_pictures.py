"""The story's pictures: the score chart and the growing-board animation, in the game's language."""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageSequence

from bot import i18n
from bot import story as st
from render import common as c
from render import story as pictures
from tests.render.test_i18n import TEST_LOCALE, marked, offending, vocabulary

from .conftest import NAMES, Played, played

__all__ = ["marked"]  # the marker-catalogue fixture, shared with the render tests

ROOT = Path(__file__).resolve().parents[2]
DISCORD_LIMIT = 8 * 1024 * 1024


def _open(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _frames(gif: bytes) -> list[Image.Image]:
    return [f.convert("RGB") for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]


def _durations(gif: bytes) -> list[int]:
    return [int(f.info["duration"]) for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]


# ---------------------------------------------------------------------------------------------
# The chart
# ---------------------------------------------------------------------------------------------


def test_the_chart_opens_and_is_wide_enough_for_a_phone(game: Played) -> None:
    image = _open(pictures.chart_png(game.story, game.names))
    assert image.format == "PNG"
    assert image.width == 1200 >= c.MIN_WIDTH
    assert 800 < image.height < 2000


def test_each_place_is_a_line_marked_by_its_shape_and_named(
    game: Played, monkeypatch: pytest.MonkeyPatch, marked: list[str]
) -> None:
    """Every place (Automas too) gets its player shape with its letter, and its name in the legend."""
    markers: list[tuple[str, tuple[int, int, int], str]] = []
    real = c.draw_marker

    def spy(img: Image.Image, shape: str, box: Any, colour: Any, text: str = "") -> None:
        markers.append((shape, tuple(colour), text))
        real(img, shape, box, colour, text)

    monkeypatch.setattr(c, "draw_marker", spy)
    pictures.chart_image(game.story, game.names)
    names = pictures.place_names(game.story, game.names)
    for place in game.story.places:
        style = c.player_style(place.index)
        assert (style.shape, style.colour, style.mark) in markers
        assert sum(1 for m in markers if m[:2] == (style.shape, style.colour) and not m[2]) >= 3  # along the line
        assert any(names[place.index] in text for text in marked)
    assert len({c.player_style(p.index).shape for p in game.story.places}) == len(game.story.places)


def test_the_deciding_moments_are_told_under_the_chart() -> None:
    """The winner's last lead change says "for good", and the biggest gain names who made it and how much."""
    game = played("quadropolis-classic")
    names = pictures.place_names(game.story, game.names)
    marks, left_out = pictures.moments(game.story, names)
    texts = [m.text for m in marks]
    decisive = game.story.decisive
    assert decisive is not None
    assert f"Turn {decisive.turn}: {names[decisive.place]} takes the lead for good" in texts
    gain = game.story.biggest_gain
    assert gain is not None
    assert marks[-1].badge == f"+{gain.points}"
    assert marks[-1].text == f"Turn {gain.turn}: biggest gain, {names[gain.place]} +{gain.points}"
    assert left_out == max(0, len(game.story.lead_changes) - pictures.MOST_MOMENTS)


def _seesaw(changes: int) -> st.Story:
    """Two players taking the lead from each other ``changes`` times, the later leads lasting longer."""
    scores = [(0, 0)]
    a = b = 0
    for k in range(changes):
        for _ in range(1 + k % 3):
            if k % 2 == 0:
                a = b + 2
            else:
                b = a + 2
            scores.append((a, b))
    points = [st.Point(i, 0, i, s) for i, s in enumerate(scores)]
    places = (st.Place(0, 0), st.Place(1, 1))
    return st.Story(
        "quadropolis",
        "turn",
        places,
        tuple(points),
        tuple(st.lead_changes(points)),
        st.biggest_gain(points),
        tuple(st.ranking(None, points[-1].scores, places)),
        False,
    )


def test_many_lead_changes_keep_the_last_and_the_longest() -> None:
    told = _seesaw(12)
    assert len(told.lead_changes) == 12
    marks, left_out = pictures.moments(told, ["Ann", "Bob"])
    numbered = [m for m in marks if not m.badge.startswith("+")]
    assert len(numbered) == pictures.MOST_MOMENTS and left_out == 12 - pictures.MOST_MOMENTS
    assert numbered[-1].turn == told.lead_changes[-1].turn
    kept = {m.turn for m in numbered[:-1]}
    spells = told.spells()[:-1]
    shortest_kept = min(s.end - s.start for s in spells if s.start in kept)
    assert all(s.end - s.start <= shortest_kept for s in spells if s.start not in kept)
    image = pictures.chart_image(told, ["Ann", "Bob"])
    assert image.width == 1200


def test_a_name_cannot_reverse_the_words_after_it() -> None:
    """A name that opens a right-to-left override and never closes it ("Ann\u202eXY") reversed the rest of
    its line ("Anndael eht sekat YX", issue 35): the chart draws it, and every string, without the control,
    so the moments read "AnnXY takes the lead", and the chart is the very chart of the name without it."""
    told = _seesaw(4)
    charts = []
    for names in (["Ann\u202eXY", "Bob\u2067"], ["AnnXY", "Bob"]):
        with c.record_text() as drawn:
            image = pictures.chart_image(told, names)
        texts = [d.text for d in drawn.on(image)]
        charts.append((c.png_bytes(image), texts))
    (hostile_png, hostile), (plain_png, plain) = charts
    assert not [text for text in hostile if re.search("[\u202a-\u202e\u2066-\u2069]", text)]
    assert any("AnnXY takes the lead" in text for text in hostile), hostile
    assert hostile == plain
    assert hostile_png == plain_png


def test_the_chart_draws_only_catalogue_and_data_words(marked: list[str], game: Played) -> None:
    """In the marker locale, every word drawn is a catalogue marker, a player's name or an Automa's name."""
    pictures.chart_image(game.story, game.names, locale=TEST_LOCALE)
    automas = [p.automa for p in game.story.places if p.automa]
    assert marked and offending(marked, vocabulary(NAMES, automas)) == []


def test_the_chart_speaks_the_language_it_is_given(marked: list[str]) -> None:
    game = played("btc-solo-simple")
    english = pictures.chart_image(game.story, game.names)
    other = pictures.chart_image(game.story, game.names, locale=TEST_LOCALE)
    assert english.size[0] == other.size[0]
    assert english.size != other.size or ImageChops.difference(english, other).getbbox()


# ---------------------------------------------------------------------------------------------
# The animation
# ---------------------------------------------------------------------------------------------


def test_the_gif_opens_and_the_board_grows(game: Played) -> None:
    """From the start to the end: the first frame is the empty start, the last is held longest."""
    gif = pictures.growth_gif(game.story, game.names, most_frames=2)
    image = _open(gif)
    assert image.format == "GIF"
    assert image.width == pictures.GIF_WIDTH
    frames = _frames(gif)
    assert len(frames) == min(3, len(game.story.points)) > 1
    assert ImageChops.difference(frames[0], frames[-1]).getbbox() is not None
    durations = _durations(gif)
    assert durations[-1] == max(durations) >= 3000
    assert len(gif) < DISCORD_LIMIT


def test_the_longest_game_stays_far_under_discords_limit() -> None:
    """Four-seat Urban Panic (the most turns and the tallest boards) at full settings: under 8 MB."""
    game = played("urbanpanic-advanced")
    gif = pictures.growth_gif(game.story, game.names)
    frames = _frames(gif)
    assert 8 <= len(frames) <= pictures.MAX_FRAMES + 1
    assert len(gif) < DISCORD_LIMIT / 2
    assert all(f.size == frames[0].size for f in frames)


def test_frames_show_the_table_after_the_same_players_turn() -> None:
    """A long four-player game: a frame every whole number of table rounds, the last turn always shown."""
    chosen = pictures.frame_points(65, 12, 4)
    assert chosen[0] == 0 and chosen[-1] == 64
    assert all(turn % 4 == 0 for turn in chosen)
    assert len(chosen) - 1 <= 12
    assert pictures.frame_points(8, 12, 7) == list(range(8))
    assert pictures.frame_points(85, 12, 4)[-1] == 84


def test_the_gif_draws_only_catalogue_and_data_words(marked: list[str]) -> None:
    game = played("btc-solo-full")
    pictures.growth_gif(game.story, game.names, locale=TEST_LOCALE, most_frames=2)
    assert marked and offending(marked, vocabulary(NAMES, *game.story.views)) == []


def test_the_gif_needs_the_views() -> None:
    game = played("btc-two-player")
    with pytest.raises(ValueError):
        pictures.growth_gif(game.build(), game.names)


# ---------------------------------------------------------------------------------------------
# All at once, locales, the catalogue
# ---------------------------------------------------------------------------------------------


def test_a_recap_without_the_gif_is_the_chart_alone() -> None:
    """A server that turned the animation off gets the chart only."""
    game = played("btc-solo-simple")
    recap = pictures.recap(game.kind, game.options, game.seats, game.seed, game.log, game.names, gif=False)
    assert recap.gif is None and recap.story.views == ()
    assert _open(recap.chart).width == 1200
    assert recap.story.final == game.story.final


def test_public_functions_take_a_locale() -> None:
    for fn in (pictures.chart_image, pictures.chart_png, pictures.growth_gif, pictures.recap):
        param = inspect.signature(fn).parameters["locale"]
        assert param.default == "en" and param.kind is inspect.Parameter.KEYWORD_ONLY, fn.__qualname__


def _ids_in(path: Path) -> set[str]:
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"story\.[a-z_]+\.[a-z_]+", node.value)
    }


def test_every_story_message_is_in_the_catalogue_and_every_entry_is_used() -> None:
    english = json.loads((ROOT / "bot" / "locales" / "en" / "story.json").read_text(encoding="utf-8"))
    used = set().union(*map(_ids_in, (ROOT / "render" / "story").glob("*.py"))) | _ids_in(ROOT / "bot" / "story.py")
    assert used == set(english)
    assert all(i18n.t(key, "en") for key in english)


def test_a_game_stopped_early_still_has_its_pictures() -> None:
    """An abandoned game (no move, or a few) still gets a chart and an animation, ending where it stopped."""
    game = played("urbanpanic-basic")
    for moves in (0, 5):
        told = game.build(game.log[:moves], keep_views=True)
        assert not told.over
        assert _open(pictures.chart_png(told, game.names)).width == 1200
        frames = _frames(pictures.growth_gif(told, game.names))
        assert len(frames) == len(told.points)
