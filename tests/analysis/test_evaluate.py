"""The evaluator's honesty at one decision: losses never negative, the best move loses nothing, and nothing the
seat could not see changes what its moves are worth (no peeking)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot import games
from bot.analysis import evaluate, summary
from bot.rules import core
from tests.analysis.helpers import CASES, position


def weigh(kind: str, state: Any, seat: int, played: dict[str, Any], now: int) -> evaluate.Decision:
    rules = games.rules(kind)
    return evaluate.weigh(rules, state, seat, played, None, 7, 1, 1, now, summary.horizon(rules))


@pytest.mark.parametrize("kind", sorted(CASES))
def test_the_best_move_loses_nothing_and_no_loss_is_negative(kind: str) -> None:
    """At seeded positions, a random legal move weighed: every candidate's loss (best - its value) is at least
    0, and the best candidate, weighed as the played move, loses exactly 0."""
    rules = games.rules(kind)
    for seed in range(3):
        state, seat, now = position(kind, seed, 0.5)
        played = rules.ai_move(state, seat, "random", core.derive_seed(seed, "random"))
        decision = weigh(kind, state, seat, played, now)
        best = max(decision.values)
        assert all(best - value >= 0 for value in decision.values)
        assert decision.played <= best
        again = weigh(kind, state, seat, decision.candidates[decision.best_index], now)
        assert max(again.values) - again.played == 0


def hide_otherwise(kind: str, state: Any, seat: int) -> Any:
    """``state`` with something ``seat`` cannot see changed: the later rounds' deal (Quadropolis), the kinds of
    a tile in another player's hand and one in the bag swapped (Between Two Cities), the stack's order (Urban
    Panic)."""
    if kind == "quadropolis":
        other = state.clone()
        other.seed = state.seed + 1
        return other
    if kind == "btc":
        other = state.clone()
        seen = set(games.rules(kind).observe(state, seat, None))
        hand = next(t for i, p in enumerate(state.players) if i != seat for t in p.hand if t not in seen)
        bag = next(t for t in range(state.next_single, 108) if state.tiles[t] != state.tiles[hand])
        kinds = list(state.tiles)
        kinds[hand], kinds[bag] = kinds[bag], kinds[hand]
        other.tiles = tuple(kinds)
        return other
    other = state.copy()
    other.stack = list(reversed(state.stack))
    return other


@pytest.mark.parametrize("kind", sorted(CASES))
def test_no_peeking(kind: str) -> None:
    """Changing what the seat could not see (a future draw, another's hand) changes no value of its moves."""
    rules = games.rules(kind)
    state, seat, now = position(kind, 11, 0.1)
    played = rules.ai_move(state, seat, "random", 3)
    changed = hide_otherwise(kind, state, seat)
    assert rules.to_json(changed) != rules.to_json(state)
    assert weigh(kind, changed, seat, played, now) == weigh(kind, state, seat, played, now)


def test_another_seats_unrevealed_choice_is_not_seen() -> None:
    """Between Two Cities' draft: the choice another seat made before this one's, still face down, changes
    nothing of this seat's values (the others choose again in every sample, as the seat could expect)."""
    rules = games.rules("btc")
    state = rules.setup({}, 3, 5)
    hand = sorted(state.players[1].hand)
    one = rules.apply(state, 1, {"kind": "choose", "tiles": hand[:2]})
    two = rules.apply(state, 1, {"kind": "choose", "tiles": hand[-2:]})
    played = rules.legal_moves(state, 0)[0]
    assert weigh("btc", one, 0, played, 0) == weigh("btc", two, 0, played, 0)


def test_a_determinization_keeps_what_the_seat_saw() -> None:
    """Urban Panic: a determinization keeps every board, reserve and the main board, and deals the stack again
    (the same tiles, another order)."""
    rules = games.rules("urbanpanic")
    state, seat, _ = position("urbanpanic", 2, 0.4)
    world = rules.determinize(state, seat, None, 99)
    assert sorted(world.stack) == sorted(state.stack) and world.stack != state.stack
    assert dataclasses.replace(world, stack=state.stack) == state


def test_a_hand_passed_on_is_remembered() -> None:
    """Between Two Cities: the tiles a seat passed on stay known to it (their kinds are never dealt again),
    while the kinds of a hand it never held are."""
    rules = games.rules("btc")
    state = rules.setup({}, 3, 8)
    known = rules.observe(state, 0, None)
    passed = sorted(state.players[0].hand)[2:]
    for seat in range(3):
        hand = sorted(state.players[seat].hand)
        state = rules.apply(state, seat, {"kind": "choose", "tiles": hand[:2]})
        known = rules.observe(state, 0, known)
    assert not set(passed) & set(state.players[0].hand) and set(passed) <= set(known)
    unseen = [t for t in range(108) if t not in known]
    for seed in range(5):
        world = rules.determinize(state, 0, known, seed)
        assert all(world.tiles[t] == state.tiles[t] for t in known)
    assert any(rules.determinize(state, 0, known, seed).tiles[t] != state.tiles[t] for seed in range(5) for t in unseen)


@pytest.mark.parametrize("mode", ["solo_simple", "solo_full"])
def test_a_solo_game_is_weighed_against_the_automas(mode: str) -> None:
    """Between Two Cities solo: the player is ranked against the two Automas (they are not seats), so the margin
    a move is worth is the player's score minus the better Automa's, not the player's score alone (handing
    Automacity a good tile costs the player there)."""
    rules = games.rules("btc")
    for seed in range(4):
        state = rules.setup({"mode": mode}, 1, seed)
        while not rules.is_over(state):
            state = rules.apply(state, 0, rules.ai_move(state, 0, "greedy", seed))
        result = rules.result(state)
        automas = [automa["total"] for automa in result.details["automas"]]
        assert len(automas) == 2
        assert evaluate.margin(rules, state, 0) == result.seats[0].total - max(automas)
