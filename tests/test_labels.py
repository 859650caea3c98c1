"""Move labels shared by Discord and the terminal."""

from __future__ import annotations

from bot import labels
from bot.rules.btc.rules import RULES as BTC


def test_btc_duplex_labels_show_their_orientation() -> None:
    """In round 2 every duplex choice names both tiles with the way each one lies (↕ or ↔)."""
    state = BTC.setup({"mode": "standard"}, 3, 5)
    for _ in range(400):
        seat = min(BTC.awaiting(state))
        view = BTC.view(state, seat)
        if view["round"] == 2 and view["you"]["hand"]:
            break
        state = BTC.apply(state, seat, BTC.legal_moves(state, seat)[0])
    move = next(m for m in BTC.legal_moves(state, seat) if m["kind"] == "choose")
    label = labels.move_label("btc", move, view)
    assert label.count("duplex") == 2 and sum(label.count(a) for a in "↕↔") == 2, label


def test_unknown_game_falls_back_to_the_move_fields() -> None:
    """A game with no labeller and no catalogue entry still gets a readable label."""
    assert labels.move_label("chess", {"kind": "push", "square": "e4"}, {}) == "push square e4"
