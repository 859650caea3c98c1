"""The rules name tiles, buildings and cities with terms, never English words: a Hungarian, Spanish,
Russian or Polish player reads them in their own language in every summary, button label, refusal
and picture caption."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot import games, i18n, labels
from bot.rules import core

LOCALES = Path(i18n.__file__).with_name("locales")
OTHER_LANGUAGES = ("hu", "es", "ru", "pl")
GAMES = [
    ("quadropolis", {"mode": "classic"}, 2),
    ("quadropolis", {"mode": "expert"}, 3),
    ("btc", {"mode": "standard"}, 3),
    ("btc", {"mode": "solo_full"}, 1),
    ("btc", {"mode": "solo_simple"}, 1),
    ("urbanpanic", {"variant": "basic"}, 2),
    ("urbanpanic", {"variant": "advanced"}, 3),
    ("urbanpanic", {"variant": "party"}, 3),
]


def _words(lang: str, kind: str) -> set[str]:
    messages = json.loads((LOCALES / lang / f"{kind}_terms.json").read_text(encoding="utf-8"))
    texts = [m for m in messages.values() if isinstance(m, str)]
    texts += [v for m in messages.values() if isinstance(m, dict) for k, v in m.items() if k != "plural"]
    return {w.lower() for text in texts for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", text))}


def english_words(kind: str) -> set[str]:
    """The English words of a game's terms that no other language uses too (so "park" is left out)."""
    others: set[str] = set().union(*(_words(lang, kind) for lang in OTHER_LANGUAGES))
    return _words("en", kind) - others


def texts_of_a_game(kind: str, options: dict[str, Any], seats: int, locale: str) -> list[str]:
    """Every summary and every offered move's label of a seeded game played to the end by the AI."""
    rules = games.rules(kind)
    state = rules.setup(options, seats, 5)
    out: list[str] = []
    step = 0
    while not rules.is_over(state) and step < 400:
        for seat in sorted(rules.awaiting(state)):
            view = rules.view(state, seat)
            out += [labels.move_label(kind, m, view, locale) for m in rules.legal_moves(state, seat)[:40]]
            move = rules.ai_move(state, seat, "greedy", step)
            after = rules.apply(state, seat, move)
            key, params = rules.describe(state, seat, move, after)
            out.append(i18n.t(key, locale, **params, player="P"))
            state, step = after, step + 1
            if rules.is_over(state):
                break
    return out


@pytest.mark.parametrize("kind, options, seats", GAMES)
@pytest.mark.parametrize("locale", OTHER_LANGUAGES)
def test_summaries_and_labels_name_things_in_the_players_language(
    kind: str, options: dict[str, Any], seats: int, locale: str
) -> None:
    english = english_words(kind)
    assert len(english) > 5
    missing: set[tuple[str, str, str]] = set()
    i18n.watch_missing_forms(lambda *asked: missing.add(asked))
    try:
        texts = texts_of_a_game(kind, options, seats, locale)
    finally:
        i18n.watch_missing_forms(None)
    found = {w for text in texts for w in re.findall(r"[A-Za-z]{4,}", text) if w.lower() in english}
    assert not found, f"English words in {locale}: {sorted(found)}"
    assert not missing, f"sentences asked for forms these words lack: {sorted(missing)[:5]}"


def test_english_summaries_read_as_before() -> None:
    """The same terms read as plain English: a tile with its gains, a duplex, a city, a reveal."""
    from bot.rules.btc import engine as E
    from bot.rules.quadropolis import tiles as QT
    from bot.rules.quadropolis.views import tile_label

    mayor = next(k.id for k in QT.KINDS if k.mayor)
    assert i18n.resolve(tile_label(mayor)).startswith("the mayor's tower block (+")
    two = next(k.id for k in QT.KINDS if k.type == "TOWER" and k.gives_inh == 2 and not k.mayor)
    assert i18n.resolve(tile_label(two)) == "a tower block (+2 inhabitants)"
    assert i18n.resolve(tile_label(two), "ru") == "многоэтажка (+2 жителя)"
    duplex = core.term("btc.tile.duplex", a=E.face_term("OFFICE"), b=E.face_term("SHOP"))
    assert i18n.resolve(duplex) == "office and shop duplex"
    assert i18n.resolve(duplex, "pl") == "dupleks „biuro i sklep”"
    assert i18n.resolve(E.city_term("Left City"), "hu") == "Balfalva"
    assert (
        i18n.t("btc.bonus.city", "en", city=[E.city_term("Lighthouse")])
        == "The bonus comes from your lower city: Lighthouse."
    )
