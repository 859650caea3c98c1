"""Where inhabitants and energy go (spec 6.8, 7, 8.12, D-24): nobody places them by hand.

The rulebook lets players move their resources freely until the end, and only the arrangement after
the last turn counts; the engine makes the best one for every player. So no turn menu offers to keep
a building idle, a forged request is refused with a sentence and changes nothing, and every final
score is the best allocation's.
"""

from __future__ import annotations

import json
import random

import pytest

from bot import i18n
from bot.rules import core
from bot.rules.quadropolis.allocation import best_allocation, exhaustive_allocation
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.state import QuadState, grid_of
from tests.quadropolis.helpers import build_city, first_of_type, new_game

REFUSAL = "quadropolis.allocate.automatic"


def forged(state: QuadState) -> list[core.Move]:
    """The requests the old menu made for every square of the current player's city, and variants."""
    mode = state.rules
    moves: list[core.Move] = []
    for r in range(mode.rows):
        for c in range(mode.cols):
            for to in ("off", "auto"):
                moves.append({"kind": "allocate", "square": core.cell_name((r, c)), "to": to})
    moves += [{"kind": "allocate"}, {"kind": "allocate", "square": "Z9", "to": "on", "extra": 1}]
    return moves


def play_to_the_end(mode: str, players: int, seed: int) -> tuple[QuadState, list[QuadState]]:
    """A random game; returns the final state and every state before a move (last turn included)."""
    rnd = random.Random(seed)
    state = new_game(mode, players, seed)
    before: list[QuadState] = []
    while not RULES.is_over(state):
        before.append(state)
        moves = RULES.legal_moves(state, state.current)
        state = RULES.apply(state, state.current, moves[rnd.randrange(len(moves))])
    return state, before


@pytest.mark.parametrize(("mode", "players", "seed"), [("classic", 2, 3), ("expert", 3, 4)])
def test_no_turn_menu_offers_to_keep_a_building_idle(mode: str, players: int, seed: int) -> None:
    """From round 1 to the last turn of the last round, no seat is offered anything but take, build or
    discard; once the game is over nobody is awaited, so no rearrangement step waits for anyone."""
    final, states = play_to_the_end(mode, players, seed)
    assert {s.round for s in states} == set(range(1, final.rules.rounds + 1))
    last = states[-1]
    assert last.round == final.rules.rounds and last.turn == final.rules.turns_per_round * players - 1
    for state in states:
        for seat in range(players):
            kinds = {m["kind"] for m in RULES.legal_moves(state, seat)}
            assert kinds <= {"take", "build", "discard"}, (state.round, seat, kinds)
            assert bool(kinds) == (seat == state.current)
    assert RULES.awaiting(final) == frozenset()
    assert all(RULES.legal_moves(final, seat) == [] for seat in range(players))


def test_a_forged_request_mid_game_is_refused_with_a_sentence_and_changes_nothing() -> None:
    """In every round, before taking and before building, each old "keep idle"/"let the engine decide"
    request gets one catalogued sentence and leaves the game exactly as it was."""
    _, states = play_to_the_end("classic", 2, 11)
    checked_phases = set()
    for state in [*states[::5], states[-1]]:
        seat = state.current
        tower = first_of_type("classic", "TOWER", mayor=False)
        build_city(state, seat, {"A1": [tower]})  # a building the old menu would have switched off
        saved = json.dumps(RULES.to_json(state), sort_keys=True)
        score = RULES.result(state).seats[seat].total
        for move in forged(state):
            with pytest.raises(core.IllegalMove) as refused:
                RULES.apply(state, seat, move)
            assert refused.value.key == REFUSAL
            text = i18n.t(refused.value.key, "en", **refused.value.params)
            assert "{" not in text and "inhabitants and energy" in text
        assert json.dumps(RULES.to_json(state), sort_keys=True) == saved
        assert RULES.result(state).seats[seat].total == score
        checked_phases.add((state.round, state.phase))
    assert {r for r, _ in checked_phases} == {1, 2, 3, 4}
    assert {p for _, p in checked_phases} == {"take", "build"}


def test_a_forged_request_from_a_waiting_player_or_after_the_end_is_refused() -> None:
    """Out of turn it is not your turn; after the last turn the game is over: still sentences, no change."""
    final, states = play_to_the_end("classic", 2, 12)
    state = states[0]
    with pytest.raises(core.NotYourTurn):
        RULES.apply(state, 1 - state.current, {"kind": "allocate", "square": "A1", "to": "off"})
    with pytest.raises(core.GameOver):
        RULES.apply(final, 0, {"kind": "allocate", "square": "A1", "to": "off"})


@pytest.mark.parametrize(("mode", "players", "seed"), [("classic", 2, 21), ("classic", 4, 22), ("expert", 3, 23)])
def test_the_final_score_is_the_best_allocation(mode: str, players: int, seed: int) -> None:
    """Each player's end-of-game total and categories equal the exhaustive search's optimum for the
    city and pool, in the result and in the view (not provisional any more)."""
    final, _ = play_to_the_end(mode, players, seed)
    result = RULES.result(final)
    view = RULES.view(final, None)
    for seat, player in enumerate(final.seats):
        best = exhaustive_allocation(final.rules, grid_of(player), player.inhabitants, player.energy)
        seat_result = result.seats[seat]
        assert seat_result.total == best.total
        assert seat_result.breakdown == best.categories
        assert seat_result.tiebreak == (best.inhabitants_on_buildings, -best.empty_squares)
        score = view["cities"][seat]["score"]
        assert score["total"] == best.total and score["provisional"] is False


def test_a_game_saved_with_a_building_kept_idle_scores_the_best_allocation() -> None:
    """Issue 12: a tower switched off mid-game cost 10 points at the end. A game saved then (its state
    still lists the square as off) now loads without that choice and scores the optimum."""
    state = new_game("classic", 2, 6)
    seat = state.current
    tall = first_of_type("classic", "TOWER", mayor=False)
    build_city(state, seat, {"A1": [tall, tall, tall, tall]})  # a 4-floor tower: 10 points
    state.seats[seat].energy = 1
    best = best_allocation(state.rules, grid_of(state.seats[seat]), 0, 1)
    idle = best_allocation(state.rules, grid_of(state.seats[seat]), 0, 1, forced_off=[(0, 0)])
    assert (best.total, idle.total) == (10, -1)
    saved = RULES.to_json(state)
    saved["seats"][seat]["off"] = ["A1"]
    loaded = RULES.from_json(json.loads(json.dumps(saved)))
    assert RULES.result(loaded).seats[seat].total == best.total == 10
    assert "off" not in RULES.to_json(loaded)["seats"][seat]
    city = RULES.view(loaded, seat)["cities"][seat]
    assert city["squares"][0][0]["building"]["active"] is True
