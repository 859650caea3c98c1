"""The strong AI of Urban Panic: legal, deterministic, blind to the hidden stack and hands (issue 16)."""

from __future__ import annotations

import random

import pytest

from bot.rules import core
from bot.rules.urbanpanic import strong
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import State

from .helpers import play, player, turn_state


def positions(variant: str, seats: int, seed: int, every: int):
    """(state, seat) pairs along a game of greedy seats, one in ``every`` decisions (party: untimed)."""
    state = RULES.setup({"variant": variant}, seats, seed)
    n = 0
    while not state.over and n < 2000:
        awaiting = sorted(RULES.awaiting(state))
        seat = awaiting[n % len(awaiting)]
        if n % every == 0:
            yield state, seat
        state = RULES.apply(state, seat, RULES.ai_move(state, seat, "greedy", n))
        n += 1


def reshuffled(state: State, seat: int, seed: int) -> State:
    """The same game as ``seat`` sees it (spec 13: only the stack order, and in the party game the
    other hands, are hidden), with the stack reshuffled and every other hand dealt again from it."""
    alt = state.copy()
    rnd = random.Random(seed)
    hidden = list(alt.stack)
    holders = [i for i, p in enumerate(alt.players) if i != seat and p.hand is not None]
    hidden += [alt.players[i].hand for i in holders]  # type: ignore[misc]
    rnd.shuffle(hidden)
    for i in holders:
        alt.players[i].hand = hidden.pop()
    alt.stack = hidden
    return alt


@pytest.mark.parametrize("variant, seats", [("basic", 2), ("advanced", 3), ("party", 4), ("basic", 4)])
def test_strong_decides_the_same_whatever_the_hidden_order(variant, seats):
    """Any other stack order (and, party, other hands) consistent with the seat's view gives the same move."""
    changed = 0
    for k, (state, seat) in enumerate(positions(variant, seats, 30 + seats, every=9)):
        alt = reshuffled(state, seat, k)
        assert RULES.view(alt, seat) == RULES.view(state, seat)
        changed += alt.stack != state.stack
        seed = core.derive_seed(3, k)
        assert RULES.ai_move(alt, seat, "strong", seed) == RULES.ai_move(state, seat, "strong", seed), k
    assert changed >= 3


def test_unseen_tiles_are_counted_from_the_view():
    """The tiles a seat has not seen are the stack's contents (turn games), whatever their order."""
    state = RULES.setup({"variant": "basic"}, 2, 4)
    assert strong.unseen(state, 0) == sorted(state.stack)
    party = RULES.apply(RULES.setup({"variant": "party"}, 2, 4), 1, {"kind": "draw"})
    assert strong.unseen(party, 0) == sorted([*party.stack, party.players[1].hand])
    assert strong.unseen(party, 1) == sorted(party.stack)


@pytest.mark.parametrize("variant, seats", [("basic", 2), ("advanced", 2), ("party", 3)])
def test_strong_plays_whole_games_legally_and_deterministically(variant, seats):
    """Strong seats finish a game with legal moves only, and the same seed plays the same game."""

    def game() -> list[core.Move]:
        state = RULES.setup({"variant": variant}, seats, 8)
        moves = []
        n = 0
        while not state.over:
            awaiting = sorted(RULES.awaiting(state))
            seat = awaiting[n % len(awaiting)]
            move = RULES.ai_move(state, seat, "strong", core.derive_seed(8, n))
            assert move in RULES.legal_moves(state, seat)
            state = RULES.apply(state, seat, move)
            moves.append(move)
            n += 1
        return moves

    assert game() == game()


def test_strong_takes_the_architect_after_a_spy_or_ends_the_turn():
    """D-10: after its Spy the strong AI only takes the Architect (or ends the turn when stuck)."""
    s = turn_state(
        [player(tracks=(4, 3, 0, 1, -1), reserve=["HOU-NS"]), player(reserve=["PRK-NES", "FAC-EW"])], variant="advanced"
    )
    s = play(s, {"kind": "spy", "victim": 1, "tile": "PRK-NES", "plot": "B2"})
    assert RULES.ai_move(s, 0, "strong", 1)["kind"] == "architect"


def test_strong_builds_when_it_can():
    """With a reserve tile that scores and the Architect still to take, the turn builds and takes a tile."""
    s = turn_state([player(reserve=["HOU-NESW", "OFF-NESW"])])
    kinds = []
    while s.current == 0 and not s.over:
        move = RULES.ai_move(s, 0, "strong", len(kinds))
        kinds.append(move["kind"])
        s = RULES.apply(s, 0, move)
    assert "planner" in kinds and "architect" in kinds
    assert s.players[0].tiles_on_board() >= 1


def test_bench_strong_figures_name_their_setup():
    """Each variant's strong-vs-greedy figure says who played and what chance would be."""
    from bot.benches import urbanpanic as bench

    timings: dict[str, list[float]] = {}
    out = bench.versus("party", "strong", "greedy", 2, 1, timings)
    assert out["urbanpanic.ai.party.strong_vs_greedy.chance"] == 0.5
    assert (
        out["urbanpanic.ai.party.strong_vs_greedy.setup"]
        == "one strong seat (rotating) against 1 greedy seat, 2-player party games"
    )
    four = bench.versus("basic", "strong", "random", 4, 1, timings)
    assert four["urbanpanic.ai.basic.strong_vs_random.seats_4.chance"] == 0.25
    assert timings["strong"]
