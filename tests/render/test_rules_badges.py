"""The rules pages name each building by the badge its picture draws, in every language and game.

A bold mark of a rules page (``**Ü** Üzlet``) is a badge a tile draws (``Glyph.badge``, from
``<game>.render.badge.<kind>``) or, in Urban Panic, a track letter of the legend
(``urbanpanic.render.letter.<track>``); and every badge the pictures draw is taught on the page.
"""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.i18n import catalogue
from render import btc as _btc  # noqa: F401  (registers the game's glyphs)
from render import common as c
from render import quadropolis as _quadropolis  # noqa: F401
from render import urbanpanic as u

LANGUAGES = ("en", "hu", "es", "ru", "pl")
GAMES = ("btc", "quadropolis", "urbanpanic")
BOLD = re.compile(r"\*\*([^*\s]{1,4})\*\*")


def drawn_badges(game: str, locale: str) -> dict[str, str]:
    """What the pictures draw in ``locale``: each building's badge, and Urban Panic's track letters."""
    marks = {key: g.badge(locale) for key, g in c.GLYPHS.items() if key.startswith(f"{game}.")}
    if game == "urbanpanic":
        marks |= {track: i18n.t(f"urbanpanic.render.letter.{track}", locale) for track in u.TRACKS}
    return marks


def rules_marks(game: str, locale: str) -> set[str]:
    """The bold letter marks of the game's rules pages about its buildings, as a reader gets them."""
    keys = [k for k in catalogue("en") if re.fullmatch(rf"{game}\.rules\.buildings\.\d+", k)]
    assert keys
    return {m for k in keys for m in BOLD.findall(i18n.t(k, locale)) if m.isalpha()}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_badge_the_rules_name_is_one_the_pictures_draw(game: str, locale: str) -> None:
    named = rules_marks(game, locale)
    drawn = set(drawn_badges(game, locale).values())
    assert named, f"{game} {locale}: the rules page names no badge"
    assert named <= drawn, f"{game} {locale}: the rules name {sorted(named - drawn)}, the pictures draw {sorted(drawn)}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_badge_the_pictures_draw_is_taught_by_the_rules(game: str, locale: str) -> None:
    named = rules_marks(game, locale)
    missing = {key: mark for key, mark in drawn_badges(game, locale).items() if mark not in named}
    assert not missing, f"{game} {locale}: the rules page does not teach {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_take_the_badges_from_the_renderers_catalogue_keys(game: str) -> None:
    """Same source: each language's buildings page quotes ``{@<game>.render.badge.<kind>}``, so a changed
    badge changes the page too."""
    for locale in LANGUAGES:
        pages = [str(v) for k, v in catalogue(locale).items() if re.fullmatch(rf"{game}\.rules\.buildings\.\d+", k)]
        for mark in BOLD.findall("".join(pages)):
            assert not mark.isalpha(), f"{game} {locale}: **{mark}** is written by hand, not quoted from the catalogue"
