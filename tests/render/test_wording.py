"""What the pictures write, read through the pen's record (``render.common.record_text``): the words a
player meets on the picture, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import t
from render import common as c
from render import urbanpanic as u
from bot.rules.quadropolis.rules import RULES as QP
from render import quadropolis as q
from tests.render.test_i18n import NAMES, _play_qp, up_views  # noqa: F401

LANGUAGES = ("en", "hu", "es", "ru", "pl")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_urban_panic_goals_show_the_cards_title_not_its_id(locale: str, up_views: Any) -> None:  # noqa: F811
    """The rulebook numbers no goal card: "Legtöbb munkahely", never "G14: Legtöbb munkahely"."""
    advanced = next(v for v, _ in up_views if v.get("goals"))
    with c.record_text() as drawn:
        u.turn_image(advanced, 0, NAMES, locale=locale)
    texts = [d.full or d.text for d in drawn.texts]
    titles = [t(str(g["title_key"]), locale) for g in advanced["goals"]]
    for title in titles:
        assert any(title in text for text in texts), (locale, title)
    ids = [text for text in texts if re.search(r"\bG\d\d\b", text)]
    assert not ids, f"{locale}: goal card ids drawn: {ids}"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_an_empty_expert_square_shows_its_district_and_field_numbers(locale: str) -> None:
    """The rules page promises both numbers on every square (hu "A kép minden mezőn mutatja mindkét
    számot"); Hungarian dropped them, as "mezőszám: 1" did not fit an empty square."""
    view = QP.view(_play_qp("expert", 2, 7, 6), 0)
    empty = [sq for row in view["cities"][0]["squares"] for sq in row if not sq.get("building")]
    assert empty
    with c.record_text() as drawn:
        q.turn_image(view, int(view["turn"]["seat"] or 0), NAMES, locale=locale)
    texts = {d.text for d in drawn.texts}
    assert not [d.text for d in drawn.texts if d.shortened], "a label was cut"
    for sq in empty:
        assert t("quadropolis.render.district", locale, district=sq["district"]) in texts, (locale, sq)
        assert t("quadropolis.render.field", locale, field=sq["field"]) in texts, (locale, sq)
