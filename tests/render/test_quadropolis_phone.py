"""Quadropolis pictures read on a phone: Discord shows a picture about 400 px wide (800 px at 2x zoom), so in a
picture :data:`render.common.IMAGE_WIDTH` wide every key fact (the title, whose turn it is, the players' names and
scores) is drawn at :data:`render.common.KEY_TEXT` px or more and every word at :data:`render.common.MIN_TEXT` px
or more (sizes scaled for a picture of another width).

Every picture kind (turn, city, board, end) of the legibility bench's sample game and of the picture tests'
views (every mode, both phases, finished games, tie notes) in every language, with the bench's names (one of
them too long for most boxes), the pen's recorder on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from bot.benches import legibility
from bot.i18n import t
from render import common as c
from render import quadropolis as q
from tests.render.test_i18n import qp_views  # noqa: F401

NAMES = list(legibility.NAMES)


def _bench_views() -> list[tuple[Any, int]]:
    (sample,) = [s for s in legibility.samples() if s.kind == "quadropolis"]
    return [(sample.turn, sample.seat), (sample.board, sample.seat), (sample.end, 0)]


def _pictures(views: list[tuple[Any, int]], lang: str) -> Iterator[tuple[str, Any, Image.Image, list[c.DrawnText]]]:
    """(what, view, picture, strings drawn on it) for every kind of every view."""
    for k, (view, seat) in enumerate(views):
        calls: list[tuple[str, Any, tuple[Any, ...]]] = [
            ("turn", q.turn_image, (view, seat, NAMES)),
            ("city", q.city_image, (view, seat, NAMES)),
            ("board", q.board_image, (view, NAMES)),
            ("end", q.end_image, (view, NAMES)),
        ]
        for kind, function, args in calls:
            with c.record_text() as drawn:
                img = function(*args, locale=lang)
            yield f"view {k} {kind} {lang}", view, img, drawn.on(img)


def _players(view: Any) -> int:
    return int(view.get("players") or len(view.get("cities") or []))


def _totals(view: Any, kind: str) -> list[int]:
    """Each player's score as the picture should tell it: the result's totals on the final scores, else
    the cities' scores so far."""
    if kind == "end" and view.get("result"):
        return [int(s["total"]) for s in sorted(view["result"]["seats"], key=lambda s: s["seat"])]
    return [int(city["score"]["total"]) for city in view["cities"]]


def _problems(what: str, view: Any, img: Image.Image, texts: list[c.DrawnText]) -> list[str]:
    kind = what.split()[2]
    scale = img.width / c.IMAGE_WIDTH
    found = []
    key = [d for d in texts if d.key]
    for d in texts:
        if not legibility.words(d.text):
            continue
        if d.key and d.size < c.KEY_TEXT * scale:
            found.append(f"{what}: key fact {d.text!r} at {d.size} px")
        if d.size < c.MIN_TEXT * scale:
            found.append(f"{what}: {d.text!r} at {d.size} px")
    joined = " ".join(d.text for d in key)  # a name wrapped onto two lines is drawn line after line
    players = _players(view)
    names = NAMES[:players] if kind != "city" else []
    found += [f"{what}: no key fact names {name!r}" for name in names if name not in joined]
    if kind != "city":
        drawn_numbers = Counter(d.text for d in key)
        wanted = Counter(str(total) for total in _totals(view, kind))
        found += [f"{what}: no key fact carries the score {n}" for n in wanted - drawn_numbers]
    if kind in ("turn", "board") and not view.get("over") and (view.get("turn") or {}).get("seat") is not None:
        lang = what.split()[-1]
        if t("render.banner.to_play", lang) not in {d.text for d in key}:
            found.append(f"{what}: whose turn it is is not a key fact")
    return found


@pytest.mark.parametrize("lang", legibility.LANGUAGES)
def test_key_facts_and_every_word_are_large_enough_on_a_phone(lang: str, qp_views: Any) -> None:  # noqa: F811
    """Key facts at least KEY_TEXT px, every word at least MIN_TEXT px; each player named and each score
    told by a key fact; whose turn it is told in words (with the hourglass) on the turn and board pictures."""
    problems: list[str] = []
    for what, view, img, texts in _pictures(_bench_views() + list(qp_views), lang):
        assert len(texts) >= 10, what
        problems += _problems(what, view, img, texts)
    assert problems == []


def test_the_check_sees_a_small_key_fact_and_a_missing_score(qp_views: Any) -> None:  # noqa: F811
    """The check is not blind: a name drawn at 30 px, a word at 14 px and a score left out are caught."""
    view, _ = qp_views[0]
    with c.record_text() as drawn:
        img, draw = c.canvas(c.IMAGE_WIDTH, 200)
        for k, name in enumerate(NAMES[: _players(view)]):
            c.draw_text(draw, (10, 10 + 40 * k), name, c.font(30, True), key=True)
        c.draw_text(draw, (700, 10), "tiny", c.font(14), key=False)
    problems = _problems(f"sample {0} board en", view, img, drawn.on(img))
    assert any("key fact 'Bob' at 30 px" in p for p in problems)
    assert any("'tiny' at 14 px" in p for p in problems)
    assert any("no key fact carries the score" in p for p in problems)
    assert any("whose turn" in p for p in problems)
