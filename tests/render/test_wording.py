"""What the pictures write, read through the pen's record (``render.common.record_text``): the words a
player meets on the picture, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import i18n
from bot.i18n import t
from bot.rules.btc.rules import RULES as BTC
from bot.rules.quadropolis.rules import RULES as QP
from render import btc as b
from render import common as c
from render import quadropolis as q
from render import urbanpanic as u
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


def _btc_duplex_round() -> dict[str, Any]:
    state = BTC.setup({"mode": "standard"}, 3, 5)
    i = 0
    while not (BTC.view(state, 0).get("round") == 2 and BTC.view(state, 0)["you"].get("hand")):
        seat = min(BTC.awaiting(state))
        state = BTC.apply(state, seat, BTC.ai_move(state, seat, "random", i))
        i += 1
    return dict(BTC.view(state, 0))


def _duplex(a: str, b: str, number: int) -> dict[str, Any]:
    return {
        "id": 900 + number,
        "kind": f"DUPLEX_H{number:02d}",
        "faces": [a.upper(), b.upper()],
        "orientation": "horizontal",
        "name": {"$term": "btc.tile.duplex", "a": {"$term": f"btc.tile.{a}"}, "b": {"$term": f"btc.tile.{b}"}},
    }


@pytest.mark.parametrize("locale", LANGUAGES)
def test_btc_hand_and_to_place_labels_are_whole(locale: str) -> None:
    """ "dúplex fábrica y…", "дуплекс «офис и…": a tile's name under it wraps, never cut (nor the quote
    left open), in the hand and among the tiles to place, with the city each goes to."""
    view = _btc_duplex_round()
    long_ones = [
        _duplex("tavern_music", "tavern_drink", 1),
        _duplex("factory", "office", 2),
        _duplex("tavern_bed", "tavern_food", 3),
    ]
    view["you"] = {
        **view["you"],
        "hand": long_ones,
        "choice": [],
        "to_place": [
            {**long_ones[1], "city": view["cities"][0]["city"]},
            {**long_ones[2], "city": view["cities"][1]["city"]},
        ],
    }
    with c.record_text() as drawn:
        b.turn_image(view, 0, NAMES, locale=locale)
    cut = [d.full for d in drawn.texts if d.shortened]
    names = [str(i18n.resolve(tile["name"], locale)) for tile in long_ones]
    for name in names:
        assert not [full for full in cut if full in name or name in full], (locale, name, cut)
    told = " ".join(d.text for d in drawn.texts)
    for name in names:
        assert all(word in told.split() for word in name.split()), (locale, name)
    for label in ("btc.render.hand.yours", "btc.render.hand.to_place"):
        assert t(label, locale) not in cut
