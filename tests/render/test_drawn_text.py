"""Through the pen: every picture kind in every language, its drawn strings recorded
(:func:`render.common.record_text`): no two strings overlap, and none was cut inside a word.

The pictures are the legibility bench's (``bot/benches/legibility.py``): each game's turn (the acting
seat's own view), board, end and (where the game has one) city picture, each game's story chart, and a
league table, with the render bench's sample names (one of them too long for most boxes). Text drawn on
top of a shape is fine; only a string over another string counts, with a pixel of slack.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.benches import legibility
from render import btc as b
from render import common as c
from render import quadropolis as q
from render import urbanpanic as u
from tests.render.test_i18n import btc_views, qp_views, up_views  # noqa: F401


def _problems(kind: str, texts: list[c.DrawnText]) -> list[str]:
    found = [f"{kind}: {a.text!r} {a.box} overlaps {b.text!r} {b.box}" for a, b in legibility.overlaps(texts)]
    found += [f"{kind}: {d.full!r} cut inside a word as {d.text!r}" for d in texts if d.mid_word]
    return found


@pytest.mark.parametrize("lang", legibility.LANGUAGES)
def test_no_drawn_strings_overlap_and_none_is_cut_inside_a_word(lang: str) -> None:
    """Every picture kind in ``lang``: the recorded boxes are pairwise apart, and every shortened string
    ends after a whole word."""
    problems: list[str] = []
    kinds = []
    for kind, draw in legibility.pictures(lang):
        _, texts, _ = legibility.drawn(draw)
        assert len(texts) >= 20, kind  # the recorder saw the picture's words
        assert all(d.full.startswith(d.text[:-1]) for d in texts if d.shortened), kind
        kinds.append(kind.split(".")[-1])
        problems += _problems(kind, texts)
    assert problems == []
    assert {"turn", "board", "end", "city", "story", "table"} <= set(kinds)


@pytest.mark.parametrize("lang", legibility.LANGUAGES)
def test_every_mode_and_rare_line_too(lang: str, qp_views: Any, btc_views: Any, up_views: Any) -> None:  # noqa: F811
    """The picture tests' views (every mode and variant, mid-game and finished, the rare lines switched on)
    with the bench's names: no overlap, no word cut inside."""
    problems: list[str] = []
    names = list(legibility.NAMES)
    for module, views in ((q, qp_views), (b, btc_views), (u, up_views)):
        for k, (view, seat) in enumerate(views):
            calls: list[tuple[str, str, tuple[Any, ...]]] = [
                ("turn", "turn_image", (view, seat, names)),
                ("board", "board_image", (view, names)),
                ("end", "end_image", (view, names)),
            ]
            if hasattr(module, "city_image"):
                calls.append(("city", "city_image", (view, seat, names)))
            for kind, function, args in calls:
                with c.record_text() as drawn:
                    img = getattr(module, function)(*args, locale=lang)
                problems += _problems(f"{module.__name__} view {k} {kind}", drawn.on(img))
    assert problems == []


def test_the_check_sees_an_overlap_and_a_cut_word() -> None:
    """The check is not blind: two strings drawn over each other, and a word cut for want of room."""
    with c.record_text() as drawn:
        img, draw = c.canvas(1000, 100)
        c.draw_text(draw, (10, 10), "Ciudad izquierda", c.font(20, True))
        c.draw_text(draw, (60, 14), "55 Ciudad derecha", c.font(20))
        c.draw_text(draw, (10, 60), c.ellipsize("Mieszkalne", c.font(20), 60), c.font(20))
        c.draw_text(draw, (300, 60), "apart", c.font(20))
    problems = _problems("sample", drawn.on(img))
    assert len(problems) == 2
    assert "overlaps" in problems[0] and "cut inside a word" in problems[1]


def test_the_recorder_marks_key_facts() -> None:
    """Names, scores and headings are key facts; grid coordinates and axis ticks are not."""
    kinds = dict(legibility.pictures("en"))
    for kind in ("league.table", *(k for k in kinds if k.endswith(".end"))):
        _, texts, _ = legibility.drawn(kinds[kind])
        key = {d.text for d in texts if d.key}
        assert "Bob" in key, kind
        assert len(key) < len(texts), kind


HOSTILE = ["Ann\u202eXY", "Bob\u2067Z", "Cy\u202b", "Di\u2068a\u202d"]
"""Names that open a bidirectional override, embedding or isolate and never close it (issue 35)."""
PLAIN = ["AnnXY", "BobZ", "Cy", "Dia"]
"""The same names without the controls."""
CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_the_pen_draws_no_bidirectional_control() -> None:
    """A string with a right-to-left override left open is drawn and recorded as the string without it: the
    words after the name keep their order (with the override, Pillow's layout reversed them)."""
    drawn_pictures = []
    for line in ("Turn 3: Ann\u202eXY takes the lead", "Turn 3: AnnXY takes the lead"):
        with c.record_text() as drawn:
            img, draw = c.canvas(600, 60)
            c.draw_text(draw, (10, 10), line, c.font(24))
        assert [d.text for d in drawn.on(img)] == ["Turn 3: AnnXY takes the lead"]
        drawn_pictures.append(img.tobytes())
    assert drawn_pictures[0] == drawn_pictures[1]


@pytest.mark.parametrize("module", [b, q, u], ids=lambda m: m.__name__)
def test_a_name_cannot_reorder_the_turn_picture(module: Any) -> None:
    """Each game's turn picture with names that leave an override open: every recorded string is free of
    bidirectional controls, and the picture is the very picture of the names without them."""
    from bot.benches import btc as bench_btc
    from bot.benches import quadropolis as bench_quadropolis
    from bot.benches import urbanpanic as bench_urbanpanic

    bench, options = {b: (bench_btc, {}), q: (bench_quadropolis, {"mode": "classic"}), u: (bench_urbanpanic, {})}[
        module
    ]
    view = bench.RULES.view(bench.sample_state(bench.RULES, options, 4, 1, 20), 0)
    drawn = []
    for names in (HOSTILE, PLAIN):
        with c.record_text() as recorder:
            img = module.turn_image(view, 0, names)
        drawn.append((c.png_bytes(img), [d.text for d in recorder.on(img)]))
    (hostile_png, hostile), (plain_png, plain) = drawn
    assert not [text for text in hostile if set(text) & set(CONTROLS)]
    assert any("AnnXY" in text for text in hostile)
    assert hostile == plain
    assert hostile_png == plain_png
