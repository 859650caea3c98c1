"""Property tests: legal_moves is exact, apply is pure, states round-trip, games finish conserved."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import i18n
from bot.rules.core import IllegalMove, Move
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.engine import conservation_problems
from bot.rules.quadropolis.rules import RULES
from bot.rules.quadropolis.state import QuadState


def random_move(rnd: random.Random, state: QuadState) -> Move:
    """A move that may or may not be legal: right shapes with wrong values, and plain nonsense."""
    mode = state.rules
    kind = rnd.choice(["take", "take", "build", "build", "discard", "allocate", "fly"])
    squares = [f"{chr(65 + r)}{c}" for r in range(mode.rows + 1) for c in range(mode.cols + 2)]
    squares += ["b2", " A1", "A01"]
    if kind == "take":
        move: Move = {
            "kind": kind,
            "architect": rnd.choice([0, 1, 2, 3, 4, 5, 6, "1", None]),
            "slot": rnd.choice([*T.SLOTS, "L0", "Q1", 3]),
        }
    elif kind == "build":
        move = {"kind": kind, "square": rnd.choice([*squares, 7, "1A"])}
        if rnd.random() < 0.4:
            move["floor"] = rnd.choice([1, 2, 3, 4, 5, 6, "2"])
    elif kind == "allocate":
        move = {"kind": kind, "square": rnd.choice(squares), "to": rnd.choice(["off", "auto", "on"])}
    else:
        move = {"kind": kind}
    if rnd.random() < 0.05:
        move["extra"] = 1
    if rnd.random() < 0.03:
        move.pop("kind")
    return move


def check_exact(state: QuadState, rnd: random.Random) -> None:
    """Every listed move applies; sampled unlisted moves are refused with a catalogued sentence."""
    seat = state.current
    listed = RULES.legal_moves(state, seat)
    snapshot = json.dumps(RULES.to_json(state), sort_keys=True)
    for move in listed:
        RULES.apply(state, seat, move)
    for _ in range(25):
        move = random_move(rnd, state)
        if move in listed:
            RULES.apply(state, seat, move)
            continue
        with pytest.raises(IllegalMove) as info:
            RULES.apply(state, seat, move)
        assert info.value.key in i18n.catalogue("en"), info.value.key
    assert json.dumps(RULES.to_json(state), sort_keys=True) == snapshot, "apply mutated its input"


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["classic", "expert"]), st.integers(2, 4), st.integers(0, 2**31))
def test_legal_moves_are_exactly_the_legal_moves(mode: str, players: int, seed: int) -> None:
    """Along a random game, every listed move applies and unlisted ones are refused with a sentence."""
    rnd = random.Random(seed)
    state = RULES.setup({"mode": mode}, players, seed)
    step = 0
    while not RULES.is_over(state):
        if step % 7 == 0:
            check_exact(state, rnd)
        seat = state.current
        moves = RULES.legal_moves(state, seat)
        assert moves, "a legal move always exists (D-17)"
        state = RULES.apply(state, seat, moves[rnd.randrange(len(moves))])
        step += 1


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["classic", "expert"]), st.integers(2, 4), st.integers(0, 2**31))
def test_states_round_trip_through_json(mode: str, players: int, seed: int) -> None:
    """to_json/from_json round-trip exactly at every step (through a JSON string)."""
    rnd = random.Random(seed)
    state = RULES.setup({"mode": mode}, players, seed)
    while not RULES.is_over(state):
        data = json.loads(json.dumps(RULES.to_json(state)))
        back = RULES.from_json(data)
        assert back == state
        assert RULES.to_json(back) == data
        moves = RULES.play_moves(state, state.current)
        state = RULES.apply(state, state.current, moves[rnd.randrange(len(moves))])
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(state)))) == state


GAMES = [(mode, players) for mode in ("classic", "expert") for players in (2, 3, 4)]


@pytest.mark.parametrize(("mode", "players"), GAMES)
def test_seeded_ai_games_complete(mode: str, players: int) -> None:
    """AI-vs-AI games finish for 2-4 players in both modes: tiles conserved, totals = sum of categories."""
    levels = ["greedy", "random", "strong", "random"][:players]
    state = RULES.setup({"mode": mode}, players, 1000 + players)
    checks = 0
    while not RULES.is_over(state):
        seat = state.current
        move = RULES.ai_move(state, seat, levels[seat], checks)
        assert move in RULES.legal_moves(state, seat)
        state = RULES.apply(state, seat, move)
        checks += 1
        if checks % 9 == 0:
            assert conservation_problems(state) == []
    assert conservation_problems(state) == []
    mode_rules = T.MODE_RULES[mode]
    assert state.round == mode_rules.rounds
    cities_tiles = sum(len(stack) for p in state.seats for row in p.city for stack in row)
    assert cities_tiles + len(state.discarded) + len(state.returned) == 25 * mode_rules.rounds
    result = RULES.result(state)
    for seat_result in result.seats:
        assert seat_result.total == sum(seat_result.breakdown.values())
        assert list(seat_result.breakdown) == [
            "towers",
            "shops",
            "public_services",
            "parks",
            "factories",
            "harbours",
            "offices",
            "monuments",
            "penalty",
        ]
    assert min(s.rank for s in result.seats) == 1


def test_ai_is_deterministic_in_its_seed() -> None:
    """The same state, level and seed give the same move."""
    state = RULES.setup({"mode": "expert"}, 3, 77)
    for level in RULES.ai_levels:
        assert RULES.ai_move(state, state.current, level, 5) == RULES.ai_move(state, state.current, level, 5)


def test_ai_refuses_unknown_level() -> None:
    """An unknown level is refused with a sentence."""
    state = RULES.setup({"mode": "classic"}, 2, 1)
    with pytest.raises(IllegalMove) as info:
        RULES.ai_move(state, state.current, "godlike", 1)
    assert info.value.key == "quadropolis.ai.unknown_level"


def test_replay_from_seed_reproduces_the_game() -> None:
    """Setup is a function of the seed: replaying the same moves gives the same state."""

    def run(seed: int) -> dict[str, Any]:
        state = RULES.setup({"mode": "classic"}, 2, seed)
        for k in range(20):
            state = RULES.apply(state, state.current, RULES.ai_move(state, state.current, "random", k))
        return RULES.to_json(state)

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_setup_refuses_bad_player_counts_and_options() -> None:
    """2-4 players; the mode option is checked."""
    for players in (1, 5):
        with pytest.raises(IllegalMove):
            RULES.setup({"mode": "classic"}, players, 1)
    with pytest.raises(IllegalMove):
        RULES.setup({"mode": "solo"}, 2, 1)
    assert RULES.seat_range({}) == (2, 4)
    assert copy.deepcopy(RULES.setup({}, 2, 1)).mode == "classic"


def test_moves_fit_in_a_custom_id() -> None:
    """Every listed move serialises to at most 60 characters of JSON."""
    for mode in ("classic", "expert"):
        state = RULES.setup({"mode": mode}, 4, 3)
        longest = 0
        for k in range(60):
            for move in RULES.legal_moves(state, state.current):
                longest = max(longest, len(json.dumps(move, separators=(",", ":"))))
                assert len(json.dumps(move)) <= 60, move
            state = RULES.apply(state, state.current, RULES.ai_move(state, state.current, "greedy", k))
        assert longest > 30
