"""The pictures every game shares, at phone sizes: the story chart, the league table, a player's rating
chart and each game's tile sheet, in every language, drawn through the pen. A key fact (a place, a name, a
score) is at least KEY_TEXT and every word at least MIN_TEXT in a picture IMAGE_WIDTH wide, so a phone
shows them at 11 px (inline) and 11 px (2x zoom). The games' own turn, board and end pictures have their
own tests (tests/render/test_<game>_phone.py)."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot import games
from bot.benches import legibility
from render import common as c
from render import leagues, pictures

LANGUAGES = ("en", "hu", "es", "ru", "pl")


def _small(draw: Callable[[], bytes]) -> tuple[list[tuple[str, float]], list[tuple[str, float]], int]:
    with c.record_text() as recorder:
        png = draw()
    width = Image.open(io.BytesIO(png)).width
    scale = c.IMAGE_WIDTH / width
    drawn = recorder.picture()
    keys = [(d.text, d.size * scale) for d in drawn if d.key and d.size * scale < c.KEY_TEXT]
    words = [
        (d.text, d.size * scale) for d in drawn if any(ch.isalnum() for ch in d.text) and d.size * scale < c.MIN_TEXT
    ]
    return keys, words, sum(1 for d in drawn if d.key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_story_charts_and_the_league_table_read_on_a_phone(lang: str) -> None:
    shared = [
        (kind, draw) for kind, draw in legibility.pictures(lang) if kind.endswith(".story") or kind == "league.table"
    ]
    assert len(shared) == len(games.GAMES) + 1
    for kind, draw in shared:
        keys, words, key_count = _small(draw)
        assert key_count >= 4, kind
        assert keys == [], (kind, keys[:5])
        assert words == [], (kind, words[:5])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tile_sheets_and_the_rating_chart_keep_every_word_readable(lang: str) -> None:
    for kind in games.GAMES:
        keys, words, _ = _small(lambda kind=kind: pictures.get(kind).render_tiles(locale=lang))
        assert (keys, words) == ([], []), kind
    keys, words, _ = _small(lambda: leagues.rating_chart_png("Ödön", [25.0, 26.5, 24.1, 27.9], loc=lang))
    assert (keys, words) == ([], []), (keys, words)


def test_the_size_check_sees_a_small_key_fact() -> None:
    """The check is not blind: a name drawn at 20 px as a key fact is reported."""

    def small() -> bytes:
        img, draw = c.canvas(c.IMAGE_WIDTH, 100)
        c.draw_text(draw, (10, 10), "Ödön", c.font(20, True), key=True)
        return c.png_bytes(img)

    keys, _, _ = _small(small)
    assert keys == [("Ödön", 20.0)]
