"""Between Two Cities pictures read on a phone (issue 27): in every mode (standard with 3 to 7 players,
two-player, both solos), mid-game and finished, in every language, the turn, board and end pictures draw
every key fact (whose turn, names, scores, the title) at least :data:`render.common.KEY_TEXT` pixels high
and every word at least :data:`render.common.MIN_TEXT`, in a picture :data:`render.common.IMAGE_WIDTH`
wide (scaled for another width); each player is named by a key fact and each player's score is one."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from bot.benches import legibility
from bot.rules.btc.rules import RULES
from render import btc as b
from render import common as c
from tests.render.test_i18n import _play, btc_views  # noqa: F401

NAMES = [*legibility.NAMES, "Fay", "Gus"]
"""The bench's names (every script, one too long for most boxes), then two more for seven players."""
KINDS = ("turn", "board", "end")


@pytest.fixture(scope="module")
def views(btc_views: Any) -> list[tuple[str, dict[str, Any], int]]:  # noqa: F811
    """(label, view, seat): the picture tests' views (every mode, the rare lines), the standard game with 3,
    4, 6 and 7 players mid-game and finished, and the legibility bench's views."""
    out = [(f"i18n view {k}", view, seat) for k, (view, seat) in enumerate(btc_views)]
    for seats in (3, 4, 6, 7):
        out.append((f"{seats} players mid", RULES.view(_play(RULES, {}, seats, 31, 3 * seats), 0), 0))
        out.append((f"{seats} players end", RULES.view(_play(RULES, {}, seats, 32, None), 0), 0))
    sample = next(s for s in legibility.samples() if s.kind == "btc")
    out += [
        ("bench turn", sample.turn, sample.seat),
        ("bench board", sample.board, sample.seat),
        ("bench end", sample.end, sample.seat),
    ]
    return out


def _draw(kind: str, view: dict[str, Any], seat: int, locale: str) -> tuple[Image.Image, list[c.DrawnText]]:
    with c.record_text() as drawn:
        if kind == "turn":
            img = b.turn_image(view, seat, NAMES, locale=locale)
        elif kind == "board":
            img = b.board_image(view, NAMES, locale=locale)
        else:
            img = b.end_image(view, NAMES, locale=locale)
    return img, drawn.on(img)


def _problems(label: str, view: dict[str, Any], img: Image.Image, texts: list[c.DrawnText], locale: str) -> list[str]:
    scale = c.IMAGE_WIDTH / img.width
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
    for name in b.player_names(view, NAMES, locale):
        if not any(name in text for text in key):
            found.append(f"{label}: no key fact names {name!r}")
    for i, score in enumerate(b.player_scores(view)):
        if str(score) not in key:
            found.append(f"{label}: no key fact carries player {i}'s score {score}")
    found += [f"{label}: {a.text!r} overlaps {o.text!r}" for a, o in legibility.overlaps(texts)]
    found += [f"{label}: {d.full!r} cut inside a word" for d in texts if d.mid_word]
    return found


@pytest.mark.parametrize("locale", legibility.LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_key_facts_and_every_word_are_big_enough_for_a_phone(views: Any, kind: str, locale: str) -> None:
    problems: list[str] = []
    for label, view, seat in views:
        img, texts = _draw(kind, view, seat, locale)
        assert texts, label
        problems += _problems(f"{kind} {label}", view, img, texts, locale)
    assert problems == []


def test_the_check_sees_a_small_key_fact_and_a_missing_score(views: Any) -> None:
    """The check is not blind: a key fact drawn too small and a player whose score is not drawn."""
    label, view, seat = views[0]
    img, texts = _draw("board", view, seat, "en")
    small = c.DrawnText("Bob", (0, 0, 10, 10), c.KEY_TEXT - 1, True, True)
    scores = [str(s) for s in b.player_scores(view)]
    kept = [d for d in texts if not (d.key and d.text in scores)]
    problems = _problems(label, view, img, [*kept, small], "en")
    assert any("key fact 'Bob'" in p for p in problems)
    assert any("score" in p for p in problems)


def test_scores_are_the_lower_city_or_both_with_two_players(views: Any) -> None:
    """The running score of a player: the lower of their two cities (two players: the sum of both)."""
    for _, view, _ in views:
        if view.get("result"):
            continue
        totals = {cty["city"]: cty["total"] for cty in view["cities"]}
        for p, score in zip(view["players"], b.player_scores(view), strict=True):
            pair = [totals[p["left_city"]], totals[p["right_city"]]]
            assert score == (sum(pair) if view["mode"] == "two_player" else min(pair))
