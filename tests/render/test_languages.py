"""Every picture in every language: each drawn word is a word of that language's catalogue (or of the game's
data), and nothing runs off the bottom of the picture."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot import i18n
from render import btc as b
from render import common as c
from render import leagues, pictures
from render import quadropolis as q
from render import urbanpanic as u
from tests.render.test_i18n import NAMES, _images, btc_views, qp_views, up_views, vocabulary  # noqa: F401

LANGUAGES = ("hu", "es", "ru", "pl")
WORD = re.compile(r"[^\W\d_]+")


def language_words(lang: str) -> set[str]:
    """Every word (letter run) of a language's catalogue, and of the English one's placeholder-free symbols."""
    words: set[str] = set()
    for key, message in i18n.catalogue(lang).items():
        if ".render.badge." in key and isinstance(message, str):
            words.add(message[1:])  # a badge draws its first letter large and the rest small (Glyph.badge)
        for text in [message] if isinstance(message, str) else [v for k, v in message.items() if k != "plural"]:
            plain = re.sub(r"\{[^}]*\}", " ", text)
            words.update(WORD.findall(plain.replace("\xad", "")))  # a word as written
            words.update(WORD.findall(plain.replace("\xad", " ")))  # its syllables, where a picture breaks it
    return words


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string drawn meanwhile."""
    seen: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(text))
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    yield seen


def foreign(seen: list[str], words: set[str]) -> list[str]:
    """Drawn strings with a word that is neither the language's nor the data's (a cut word ending in … passes)."""
    bad = []
    for text in seen:
        if len(text.strip()) <= 1:
            continue
        runs = WORD.findall(text)
        for k, run in enumerate(runs):
            if run in words or (text.endswith("…") and k == len(runs) - 1 and any(w.startswith(run) for w in words)):
                continue
            bad.append(text)
            break
    return bad


def fits(img: Image.Image) -> bool:
    """The last row is one colour, the background's: nothing was drawn past the picture's bottom (a PNG's
    palette may shift the background a little)."""
    rgb = img.convert("RGB")
    bottom = {rgb.getpixel((x, img.height - 1)) for x in range(0, img.width, 7)}
    return len(bottom) == 1 and all(abs(a - b) <= 8 for a, b in zip(next(iter(bottom)), c.BACKGROUND))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_picture_speaks_the_language(
    lang: str,
    drawn: list[str],
    qp_views: Any,  # noqa: F811
    btc_views: Any,  # noqa: F811
    up_views: Any,  # noqa: F811
) -> None:
    """Turn, board, city and end pictures of every game, the tile references and a league table, drawn in one
    language: every drawn word is that language's (or the data's: names, city names, tile labels), and every
    picture fits."""
    data: list[Any] = [NAMES]
    images: list[Image.Image] = []
    for module, views in ((q, qp_views), (b, btc_views), (u, up_views)):
        for view, seat in views:
            data.append(view)
            images += _images(module, view, seat, locale=lang)
        images.append(
            Image.open(io.BytesIO(pictures.get(module.__name__.rpartition(".")[2]).render_tiles(locale=lang)))
        )

    class Row:
        def __init__(self, name: str, n: int) -> None:
            self.name, self.games, self.wins, self.average_place, self.ordinal = name, n, n // 2, 1.5, 2.0 + n

    images.append(
        Image.open(
            io.BytesIO(
                leagues.standings_png(
                    "Liga", "Quadropolis", [Row(n, i) for i, n in enumerate(NAMES)], rated=True, loc=lang
                )
            )
        )
    )
    data.append(["Liga", "Quadropolis"])
    words = language_words(lang) | vocabulary(*data)
    assert foreign(drawn, words) == []
    assert [i for i, img in enumerate(images) if not fits(img)] == []
    assert all(img.width >= 1000 for img in images)


def test_the_check_catches_english_left_in_a_picture(drawn: list[str], qp_views: Any) -> None:  # noqa: F811
    """The checker is not blind: English words drawn into a Polish picture are caught."""
    view, seat = qp_views[0]
    q.turn_image(view, seat, NAMES, locale="pl")
    ImageDraw.Draw(Image.new("RGB", (10, 10))).text((0, 0), "Construction site")
    words = language_words("pl") | vocabulary(NAMES, view)
    assert foreign(drawn, words) == ["Construction site"]
