"""Views (D-12): what a renderer needs, and nothing secret."""

from __future__ import annotations

import json

from bot import i18n
from bot.rules.btc import engine as E
from bot.rules.btc import scoring
from bot.rules.btc.rules import RULES
from tests.btc.helpers import ai_policy, new, play

TOP_KEYS = {
    "game",
    "mode",
    "round",
    "part",
    "turn",
    "phase",
    "seat",
    "awaiting",
    "players",
    "cities",
    "you",
    "supply",
    "automa",
    "result",
}


def test_view_shape_at_the_start() -> None:
    """The view names seats, cities and their builders, hand sizes, and the viewer's own hand."""
    state = new("standard", 4, seed=1)
    view = RULES.view(state, 2)
    assert set(view) >= TOP_KEYS
    assert (view["round"], view["turn"], view["phase"]) == (1, 1, "play")
    assert view["awaiting"] == [0, 1, 2, 3]
    assert [p["hand_size"] for p in view["players"]] == [7, 7, 7, 7]
    assert {p["left_city"] for p in view["players"]} == {0, 1, 2, 3}
    for p in view["players"]:
        assert p["seat"] in view["cities"][p["left_city"]]["builders"]
        assert p["left_neighbour"] in view["cities"][p["left_city"]]["builders"]
    assert [t["id"] for t in view["you"]["hand"]] == state.players[2].hand
    assert view["you"]["can_choose"] is True
    assert view["cities"][0]["rows"] == [] and view["cities"][0]["open"] == ["D4"]
    assert view["supply"] == {"singles": 108 - 28, "duplexes": 24, "discarded": 0}
    spectator = RULES.view(state, None)
    assert spectator["you"] is None and "hand" not in spectator["players"][0]


def test_finished_city_rows_and_duplex_halves() -> None:
    """A finished city: 4 x 4 rows in the spec's notation that score like the engine; duplex
    halves name their tile and the other half's cell; the result carries decided_by."""
    state = play(new("standard", 3, seed=2), ai_policy("greedy"))
    view = RULES.view(state, None)
    counts = E.factory_counts(state)
    for i, city in enumerate(view["cities"]):
        assert len(city["rows"]) == 4 and all(len(r.split()) == 4 and "." not in r for r in city["rows"])
        value = scoring.per_factory(counts[i], counts)
        assert scoring.score_grid(scoring.parse_grid(city["rows"]), value) == city["scores"]
        assert city["total"] == sum(city["scores"].values())
        halves = {name: c for name, c in city["cells"].items() if c["half"]}
        assert len(halves) == 4
        for name, cell in halves.items():
            other = city["cells"][cell["other"]]
            assert other["tile"] == cell["tile"] and other["other"] == name
            assert cell["duplex"].startswith("DUPLEX_")
    assert view["result"]["decided_by"]
    assert [s["total"] for s in view["result"]["seats"]] == [s.total for s in RULES.result(state).seats]


def test_solo_view_shows_automa_hands_and_cards() -> None:
    """D-12: solo hands lie face up and the drawn Automa cards are public; the deck order is not."""
    state = new("solo_full", 1, seed=3, difficulty="2")
    view = RULES.view(state, None)
    assert [i18n.resolve(n) for n in view["automa"]["names"]] == ["Autommaso", "Automarta"]
    assert len(view["automa"]["log"]) == 2 and view["automa"]["cards_left"] == 18
    assert [len(p["hand"]) for p in view["players"][1:]] == [5, 5]
    assert view["players"][1]["seat"] is None and i18n.resolve(view["players"][1]["automa"]) == "Autommaso"
    assert view["difficulty"] == 2 and view["cities"][1]["modifier"] == -4
    assert view["cities"][1]["grid"] is False and len(view["cities"][1]["loose"]) == 6
    assert "deck" not in json.dumps(view)
    mine = RULES.view(state, 0)
    assert len(mine["you"]["hand"]) == 7 and len(mine["you"]["to_place"]) == 2


def test_revealed_tiles_are_public() -> None:
    """D-12: once revealed, every seat's tiles to place are shown to everyone."""
    state = new("standard", 3, seed=4)
    for seat in range(3):
        state = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    spectator = RULES.view(state, None)
    for seat in range(3):
        shown = [t["id"] for t in spectator["players"][seat]["to_place"]]
        assert shown == [x.tile for x in state.players[seat].pending]
        assert all(t["city"] is None for t in spectator["players"][seat]["to_place"])


def test_turn_counter_follows_the_pipeline() -> None:
    """The view's turn is the one being placed while revealed tiles wait, else the next choice."""
    state = new("standard", 3, seed=5)
    assert RULES.view(state, None)["turn"] == 1
    for seat in range(3):
        state = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    assert RULES.view(state, None)["turn"] == 1  # placing turn 1
    for seat in range(3):
        while state.players[seat].pending:
            move = next(m for m in RULES.legal_moves(state, seat) if m["kind"] == "place")
            state = RULES.apply(state, seat, move)
    assert RULES.view(state, None)["turn"] == 2  # choosing turn 2
