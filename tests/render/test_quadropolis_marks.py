"""The badge marks on Quadropolis tiles come from each language's catalogue: letters of the building's
name in that language, one mark per kind, none that the picture uses for something else, and in Russian
only Cyrillic letters; the pictures draw them."""

from __future__ import annotations

import io
import unicodedata
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot import i18n
from bot.rules.quadropolis.rules import RULES
from render import common as c
from render import glyphs, pictures
from render import quadropolis as q

QP = pictures.get("quadropolis")
"""The game's pictures as the bot draws them (PNG)."""

LANGUAGES = ("en", "hu", "es", "ru", "pl")
SCRIPT = {"en": "LATIN", "hu": "LATIN", "es": "LATIN", "pl": "LATIN", "ru": "CYRILLIC"}
TAKEN = {"A", "B", "C", "D"}
"""Letters the pictures already use: the city rows and the player markers (a Quadropolis table seats 4)."""
LOOKALIKES = {
    "А": "A",
    "В": "B",
    "С": "C",
    "Е": "E",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "Т": "T",
    "Х": "X",
}
"""Cyrillic capitals drawn like a Latin one."""


def _subsequence(mark: str, name: str) -> bool:
    rest = iter(name.lower())
    return all(ch in rest for ch in mark.lower())


@pytest.mark.parametrize("locale", LANGUAGES)
def test_marks_are_unique_letters_of_the_names(locale: str) -> None:
    marks = q.marks(locale)
    assert set(marks) == set(q.MARK_KINDS)
    assert len(set(marks.values())) == len(marks), f"{locale}: two kinds share a mark: {marks}"
    for kind, mark in marks.items():
        name = i18n.t(f"quadropolis.render.kind.{kind}", locale)
        assert 1 <= len(mark) <= 2 and mark[0].isupper() and (len(mark) == 1 or mark[1:].islower()), mark
        assert _subsequence(mark, name), f"{locale}: {mark} is not taken from {name}"
        assert all(SCRIPT[locale] in unicodedata.name(ch) for ch in mark), f"{locale}: {mark} mixes scripts"
        assert mark[0] not in TAKEN and LOOKALIKES.get(mark[0]) not in TAKEN, f"{locale}: {mark} clashes"
    if locale != "en":
        assert i18n.catalogue(locale).get("quadropolis.render.badge.tower") is not None  # the language chose its own


def test_english_marks_are_the_rules_letters() -> None:
    """English keeps the letters of the rules file (T S U P G F H O M), so its pictures are unchanged."""
    assert "".join(q.marks("en").values()) == "TSUPGFHOM"
    assert all(c.GLYPHS[f"quadropolis.{k}"].letter == m for k, m in q.marks("en").items())


@pytest.mark.parametrize("locale", ["hu", "es", "ru", "pl"])
def test_each_language_draws_its_marks(locale: str) -> None:
    """A tile's badge carries the language's mark; shape and colour stay the kind's."""
    for kind, mark in q.marks(locale).items():
        assert c.glyph(f"quadropolis.{kind}").badge(locale) == mark
    english_marks = q.marks("en")
    kind = next(kind for kind, mark in q.marks(locale).items() if mark != english_marks[kind])
    key = f"quadropolis.{kind}"
    assert c.glyph_image(key, 64, locale=locale).tobytes() != c.glyph_image(key, 64).tobytes()
    assert (
        c.glyph_image(key, 64, letter=False, locale=locale).tobytes() == c.glyph_image(key, 64, letter=False).tobytes()
    )


def _view(mode: str, seats: int, seed: int, moves: int | None) -> Any:
    state = RULES.setup({"mode": mode}, seats, seed)
    i = 0
    while not RULES.is_over(state) and (moves is None or i < moves):
        (seat,) = RULES.awaiting(state)
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", seed + i))
        i += 1
    return RULES.view(state, None)


@pytest.fixture(scope="module")
def views() -> dict[str, Any]:
    return {"classic": _view("classic", 3, 11, 9), "expert_end": _view("expert", 2, 13, None)}


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_picture_draws_in_every_language(views: dict[str, Any], locale: str) -> None:
    """Turn, city, board, end and the tile sheet render in each language, and the badges differ from
    the English ones where the marks do."""
    mid, end = views["classic"], views["expert_end"]
    seat = mid["turn"]["seat"] or 0
    pictures = [
        QP.render_turn(mid, seat, locale=locale),
        QP.render_city(mid, seat, locale=locale),
        QP.render_board(mid, locale=locale),
        QP.render_end(end, locale=locale),
        QP.render_tiles(locale=locale),
    ]
    for data in pictures:
        assert Image.open(io.BytesIO(data)).size[0] >= c.MIN_WIDTH
    sheet = Image.open(io.BytesIO(QP.render_tiles(locale=locale))).convert("RGB")
    english = Image.open(io.BytesIO(QP.render_tiles(locale="en"))).convert("RGB")
    assert (ImageChops.difference(sheet, english).getbbox() is None) == (locale == "en")


@pytest.mark.parametrize("locale", ["hu", "es", "ru", "pl"])
def test_no_picture_draws_an_english_badge(views: dict[str, Any], locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every building tile drawn in a picture of ``locale`` (site, cities, pending tile, legend, score
    columns and the final table) carries that language's marks."""
    drawn: list[tuple[str, str]] = []
    real = c.glyph_image

    def spy(key: str, size: int, letter: bool = True, faded: bool = False, locale: str = "en") -> Image.Image:
        drawn.append((key, locale))
        return real(key, size, letter, faded, locale)

    monkeypatch.setattr(glyphs, "glyph_image", spy)  # draw_glyph calls it there
    mid, end = views["classic"], views["expert_end"]
    seat = mid["turn"]["seat"] or 0
    q.turn_image(mid, seat, locale=locale)
    q.city_image(mid, seat, locale=locale)
    q.board_image(mid, locale=locale)
    q.end_image(end, locale=locale)
    assert len(drawn) > 40
    assert all(lang == locale for key, lang in drawn), sorted({k for k, lang in drawn if lang != locale})
