"""Urban Panic's pictures on a phone: every key fact at least ``c.KEY_TEXT`` pixels and every word at least
``c.MIN_TEXT`` (sizes for a picture 1200 px wide), every player named and scored by a key fact.

Discord shows a picture about 400 px wide on a phone and 800 px at 2x zoom: a 33 px key fact is then 11 px,
and a 17 px word 11 px at 2x zoom. The views are the legibility bench's samples (mid-game and finished,
the acting seat's own view) and the picture tests' views (every variant, the rare lines switched on),
drawn in every language with the bench's names (one of them too long for most boxes).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.benches import legibility
from bot.i18n import t
from render import common as c
from render import urbanpanic as u
from tests.render.test_i18n import up_views  # noqa: F401

NAMES = list(legibility.NAMES)


def _sample_views() -> list[tuple[Any, int]]:
    (s,) = [s for s in legibility.samples() if s.kind == "urbanpanic"]
    return [(s.turn, s.seat), (s.board, s.seat), (s.end, 0)]


def _drawn(kind: str, view: Any, seat: int, lang: str) -> tuple[list[c.DrawnText], float]:
    with c.record_text() as recorder:
        if kind == "turn":
            img = u.turn_image(view, seat, NAMES, locale=lang)
        elif kind == "board":
            img = u.board_image(view, NAMES, locale=lang)
        else:
            img = u.end_image(view, NAMES, locale=lang)
    return recorder.on(img), c.IMAGE_WIDTH / img.width


def _problems(label: str, kind: str, view: Any, texts: list[c.DrawnText], scale: float) -> list[str]:
    found = [
        f"{label}: key fact {d.text!r} at {d.size * scale:.1f} px"
        for d in texts
        if d.key and legibility.words(d.text) and d.size * scale < c.KEY_TEXT
    ]
    found += [
        f"{label}: {d.text!r} at {d.size * scale:.1f} px"
        for d in texts
        if legibility.words(d.text) and d.size * scale < c.MIN_TEXT
    ]
    key = [d.text for d in texts if d.key]
    players = view.get("players") or []
    for seat in range(len(players)):
        name = NAMES[seat]
        if not any(legibility.words(text) and (text.rstrip("…") in name or name in text) for text in key):
            found.append(f"{label}: no key fact names seat {seat} ({name!r})")
    return found


def _scores(kind: str, view: Any, lang: str) -> Counter[str]:
    """The key facts that carry the players' scores: the built counts, or at the end the totals."""
    result = view.get("result")
    if kind == "end" and result:
        return Counter(str(s["total"]) for s in result["seats"])
    return Counter(t("urbanpanic.render.built", lang, count=p.get("tiles", 0)) for p in view.get("players") or [])


def _check(kind: str, views: list[tuple[Any, int]], lang: str) -> list[str]:
    problems: list[str] = []
    for k, (view, seat) in enumerate(views):
        texts, scale = _drawn(kind, view, seat, lang)
        label = f"{kind} view {k} ({view.get('variant')}) {lang}"
        problems += _problems(label, kind, view, texts, scale)
        missing = _scores(kind, view, lang) - Counter(d.text for d in texts if d.key)
        problems += [f"{label}: no key fact carries the score {text!r}" for text in missing]
    return problems


@pytest.mark.parametrize("lang", legibility.LANGUAGES)
@pytest.mark.parametrize("kind", ["turn", "board", "end"])
def test_bench_pictures_are_sized_for_a_phone(kind: str, lang: str) -> None:
    assert _check(kind, _sample_views(), lang) == []


@pytest.mark.parametrize("lang", legibility.LANGUAGES)
@pytest.mark.parametrize("kind", ["turn", "board", "end"])
def test_every_variant_is_sized_for_a_phone(kind: str, lang: str, up_views: Any) -> None:  # noqa: F811
    variants = {view.get("variant") for view, _ in up_views}
    assert variants == {"basic", "advanced", "party"}
    views = [(view, seat) for view, seat in up_views if kind != "end" or view.get("result")]
    assert _check(kind, views, lang) == []


def test_the_check_sees_a_small_key_fact() -> None:
    """The size check is not blind: a name drawn at 24 px is reported."""
    view, seat = _sample_views()[0]
    texts, scale = _drawn("turn", view, seat, "en")
    small = [c.DrawnText(d.text, d.box, 24, d.bold, d.key) if d.text == "Bob" else d for d in texts]
    problems = _problems("sample", "turn", view, small, scale)
    assert problems == ["sample: key fact 'Bob' at 24.0 px"]


def test_the_latest_turn_is_outlined() -> None:
    """The plots the acting player built on this turn are the ones outlined."""
    view, seat = _sample_views()[0]
    plots = u.changed_plots(view, seat)
    assert plots and all(a["plot"] in plots for a in view["turn_log"] if a["kind"] == "planner")
    assert u.changed_plots(view, (seat + 1) % len(view["players"])) == [] or view["previous_turn"]
