"""Badges from the language: the letters drawn on a game's tiles come from each language's own words, no
two kinds of a game share one, and a Russian picture draws no Latin letter (Latin P beside Cyrillic Р)."""

from __future__ import annotations

import re

import pytest

import render.btc
import render.quadropolis
import render.urbanpanic  # noqa: F401
from bot import i18n
from render import common as c

LANGUAGES = ("en", "hu", "es", "ru", "pl")
LOCALISED_GAMES = ("btc", "quadropolis", "urbanpanic")
"""Games whose badges come from the catalogue (``<game>.render.badge.<kind>``)."""


def badges(game: str, lang: str) -> dict[str, str]:
    return {key: g.badge(lang) for key, g in c.GLYPHS.items() if key.startswith(game + ".")}


@pytest.mark.parametrize("game", LOCALISED_GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_kind_has_its_own_badge_from_the_catalogue(game: str, lang: str) -> None:
    """Every kind's badge is written in the catalogue of every language, and no two kinds share one."""
    found = badges(game, lang)
    for key, glyph in c.GLYPHS.items():
        if key.startswith(game + "."):
            assert glyph.name_id.replace(".kind.", ".badge.") in i18n.catalogue(lang), (lang, key)
    assert len(set(found.values())) == len(found), (lang, found)


@pytest.mark.parametrize("game", LOCALISED_GAMES)
def test_russian_badges_are_cyrillic(game: str) -> None:
    """A Russian reader sees Cyrillic letters only: no Latin P, H, C, O, T that reads as another letter."""
    for key, badge in badges(game, "ru").items():
        assert not re.search(r"[A-Za-z]", badge), (key, badge)


@pytest.mark.parametrize("game", LOCALISED_GAMES)
@pytest.mark.parametrize("lang", ("hu", "es", "ru", "pl"))
def test_a_badge_starts_with_a_letter_of_its_kinds_name(game: str, lang: str) -> None:
    """A badge is taken from the kind's name in that language (the big letter is in the name)."""
    for key, glyph in c.GLYPHS.items():
        if key.startswith(game + "."):
            badge, name = glyph.badge(lang), glyph.label(lang).lower()
            assert badge[0].lower() in name, (lang, key, badge, name)


def test_the_badge_is_drawn_in_the_pictures_language() -> None:
    """The same kind draws differently in English and Russian (the badge is part of the tile)."""
    english = c.glyph_image("btc.house", 64, locale="en").tobytes()
    russian = c.glyph_image("btc.house", 64, locale="ru").tobytes()
    assert english != russian
    assert (
        c.glyph_image("btc.house", 64, letter=False, locale="en").tobytes()
        == c.glyph_image("btc.house", 64, letter=False, locale="ru").tobytes()
    )
