"""The letters in the Urban Panic pictures come from the reader's language.

Each tile type's badge (``urbanpanic.render.badge.<kind>``) is the start of a word of that type's name in
the language (its initial, with a second small letter where the initial alone would be a track letter
or another badge: Polish "El" Elektrownia, as "E" is ecology there; Spanish tracks "Em" empleo and "Ec"
ecología), different from the other badges
and from every track letter of the same legend, as in the other two games; in Russian every letter
is Cyrillic, so no Latin letter poses as a Cyrillic one. The rules help's tiles page teaches the same
letters, and a drawn badge shows its letter and nothing of the registry's one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
from PIL import ImageChops

from bot import i18n
from render import common as c
from render import layout, pictures
from render import urbanpanic as u

UP = pictures.get("urbanpanic")
"""The game's pictures as the bot draws them (PNG)."""

LANGUAGES = ("en", "hu", "es", "ru", "pl")
KNOWN_EXCEPTIONS = {("en", "urbanpanic.park"): "G"}
"""English keeps G for the park (not a letter of "Park"): its pictures are pinned by the golden
references of tests/render/test_i18n.py. K would be the park's letter there (P is the power plant's)."""


def badges(locale: str) -> dict[str, str]:
    return {key: c.glyph(key).badge(locale) for key in u.TYPE_KEYS.values()}


def track_letters(locale: str) -> dict[str, str]:
    return {track: i18n.t(f"urbanpanic.render.letter.{track}", locale) for track in u.TRACKS}


@pytest.mark.parametrize("locale", LANGUAGES)
def test_badges_are_single_letters_unique_and_clash_with_no_track_letter(locale: str) -> None:
    marks = badges(locale)
    tracks = track_letters(locale)
    assert set(marks) == set(u.TYPE_KEYS.values())
    for mark in [*marks.values(), *tracks.values()]:
        assert mark.isalpha() and mark[0].isupper() and mark[1:] == mark[1:].lower() and len(mark) <= 2, (locale, mark)
    assert len(set(marks.values())) == len(marks), f"{locale}: two tile types share a badge letter"
    clash = set(marks.values()) & set(tracks.values())
    assert not clash, f"{locale}: badge letters {clash} also name a track in the legend"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_each_badge_begins_a_word_of_the_types_name_in_that_language(locale: str) -> None:
    """The reader can guess it: "La" Lakások, not "K" (la**K**ások); "Pa" Park, not "K" (par**K**)."""
    for key, letter in badges(locale).items():
        if (locale, key) in KNOWN_EXCEPTIONS:
            assert letter == KNOWN_EXCEPTIONS[locale, key]
            continue
        name = c.glyph_name(key, locale)
        words = re.split(r"[\s-]+", name.casefold())
        assert any(w.startswith(letter.casefold()) for w in words), f"{locale}: {letter} begins no word of {name}"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_russian_letters_are_cyrillic_and_the_others_latin(locale: str) -> None:
    """In Russian a Latin P, C, O or H would look like a Cyrillic letter with another meaning."""
    script = "CYRILLIC" if locale == "ru" else "LATIN"
    for letter in "".join([*badges(locale).values(), *track_letters(locale).values()]):
        assert unicodedata.name(letter).startswith(script), (locale, letter, unicodedata.name(letter))


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_rules_help_lists_the_letters_the_pictures_draw(locale: str) -> None:
    page = i18n.t("urbanpanic.rules.buildings.1", locale)
    for key, letter in badges(locale).items():
        assert f"**{letter}** {c.glyph_name(key, locale)}" in page, (locale, letter)
    for letter in track_letters(locale).values():
        assert f"**{letter}**" in page


def _badge_inside(key: str, locale: str, size: int = 96) -> object:
    """The inside of the badge circle of a drawn building tile."""
    r = max(6, round(size * 0.17))
    centre = round(size * 0.05) + r
    inner = round(r * 0.65)
    img = c.glyph_image(key, size, locale=locale)
    return img.crop((centre - inner, centre - inner, centre + inner, centre + inner)).convert("RGB")


def test_a_drawn_badge_shows_only_the_readers_letter() -> None:
    """The Hungarian amusement park (Vidámpark) and the Spanish housing (Viviendas) both read V: their badges
    are the same pixels, though the shared registry marks them A and H; the Polish power plant's El is not
    the English P."""
    assert badges("hu")["urbanpanic.amusement"] == badges("es")["urbanpanic.housing"] == "V"
    same = ImageChops.difference(_badge_inside("urbanpanic.amusement", "hu"), _badge_inside("urbanpanic.housing", "es"))
    assert same.getbbox() is None
    other = ImageChops.difference(_badge_inside("urbanpanic.power", "pl"), _badge_inside("urbanpanic.power", "en"))
    assert other.getbbox() is not None


@pytest.mark.parametrize("locale", ["pl", "ru"])
def test_the_tile_sheet_names_each_building_with_the_readers_letter(
    locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/game tiles: each building beside its badge letter and its name, both in the reader's language."""
    drawn: list[str] = []
    real = c.draw_fitted

    def spy(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(layout, "draw_fitted", spy)  # the tile sheet calls it there
    UP.render_tiles(locale=locale)
    for key, letter in badges(locale).items():
        assert f"{letter}  {c.glyph_name(key, locale)}" in drawn
