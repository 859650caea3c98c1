"""Move labels shared by Discord and the terminal."""

from __future__ import annotations

import pytest

from bot import labels
from bot.rules.btc.rules import RULES as BTC


def test_btc_duplex_labels_show_their_orientation() -> None:
    """In round 2 every duplex choice names both halves of each duplex ("shop + park") with the way it lies
    (↕ or ↔)."""
    state = BTC.setup({"mode": "standard"}, 3, 5)
    for _ in range(400):
        seat = min(BTC.awaiting(state))
        view = BTC.view(state, seat)
        if view["round"] == 2 and view["you"]["hand"]:
            break
        state = BTC.apply(state, seat, BTC.legal_moves(state, seat)[0])
    move = next(m for m in BTC.legal_moves(state, seat) if m["kind"] == "choose")
    label = labels.move_label("btc", move, view)
    assert label.count(" + ") == 2 and sum(label.count(a) for a in "↕↔") == 2, label


def test_unknown_game_falls_back_to_the_move_fields() -> None:
    """A game with no labeller and no catalogue entry still gets a readable label."""
    assert labels.move_label("chess", {"kind": "push", "square": "e4"}, {}) == "push square e4"


def test_a_long_label_is_shortened_at_a_word_boundary() -> None:
    """A label over its limit ends at a whole word with "…", never mid-word; a single overlong word is cut."""
    from bot.labels import shorten

    text = "dupleks: sklep i tawerna (nocleg) obok tawerny"
    assert shorten(text, 100) == text
    short = shorten(text, 28)
    assert short == "dupleks: sklep i tawerna…" and len(short) <= 28
    assert shorten("Gyárvárosépítőmesterség", 10) == "Gyárváros…"
    assert shorten("Left: a · right: b", 9) == "Left: a…"


@pytest.mark.parametrize("locale", ["en", "hu", "es", "ru", "pl"])
def test_between_two_cities_labels_fit_a_select_option(locale: str) -> None:
    """Two duplexes for two cities (three in simple solo) are written to fit Discord's 100 characters in every
    language ("shop + park ↕"), so a menu shortens fewer than 1 label in 100, and then at a whole word."""
    from bot import games

    total, shortened = 0, []
    for options, seats in (({"mode": "standard"}, 7), ({"mode": "solo_simple"}, 1), ({"mode": "solo_full"}, 1)):
        rules = games.rules("btc")
        for seed in (3, 4):
            state = rules.setup(options, seats, seed)
            step = 0
            while not rules.is_over(state) and step < 600:
                for seat in sorted(rules.awaiting(state)):
                    view = rules.view(state, seat)
                    for move in rules.legal_moves(state, seat):
                        full = labels.move_label("btc", move, view, locale, 10**6)
                        label = labels.move_label("btc", move, view, locale, 100)
                        total += 1
                        if label != full:
                            shortened.append(label)
                            assert label.endswith("…") and full.startswith(label[:-1] + " "), (label, full)
                    state = rules.apply(state, seat, rules.ai_move(state, seat, "greedy", step))
                    step += 1
                    if rules.is_over(state):
                        break
    assert total > 1000 and len(shortened) < total / 100, shortened[:3]
