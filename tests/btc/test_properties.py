"""Property tests over random games of every mode (short here; many more in bot/benches/btc.py).

At every step: tiles are conserved, views never show a secret, the state round-trips through JSON,
``apply`` leaves its input untouched, ``awaiting`` matches ``legal_moves``, every listed move is
accepted, random unlisted moves are refused with a catalogue sentence. At the end every city is a
full 4 x 4 square, and replaying the move log reproduces the game exactly.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import i18n
from bot.rules import core
from bot.rules.btc import audit
from bot.rules.btc import engine as E
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import BtcState
from tests.btc.helpers import ai_policy, check_conservation, check_finished, check_views, new, steps

GAMES = [
    ("standard", 3),
    ("standard", 4),
    ("standard", 5),
    ("standard", 7),
    ("two_player", 2),
    ("solo_simple", 1),
    ("solo_full", 1),
]
KINDS = ["choose", "place", "turned", "you_first", "assign", "bonus", "dance"]
CATALOGUE = i18n.catalogue("en")


def junk_moves(state: BtcState, seat: int, rnd: random.Random, listed: list[core.Move]) -> list[core.Move]:
    """Random moves, mostly near-misses of listed ones (another cell, tile, city, or a stray key)."""
    tile = lambda: rnd.choice([rnd.randrange(-2, len(state.tiles) + 2), *state.players[seat].hand])  # noqa: E731
    names = ["A1", "D4", "G7", "H1", "Z9", "", "d5", " D4"]
    cell = lambda: rnd.choice([*names, f"{rnd.choice('ABCDEFG')}{rnd.randint(1, 7)}"])  # noqa: E731
    out: list[core.Move] = [
        {"kind": rnd.choice(KINDS)},
        {"kind": "choose", "tiles": [tile(), tile()]},
        {"kind": "choose", "left": tile(), "right": tile()},
        {"kind": "place", "tile": tile(), "city": rnd.randrange(-1, 9), "cell": cell()},
        {"kind": "turned", "tile": tile(), "city": rnd.randrange(0, 8), "cell": cell()},
        {"kind": "you_first", "city": rnd.randrange(-1, 9)},
        {"kind": "assign", "left": tile(), "right": tile(), "auto": tile()},
        {"kind": "bonus", "type": rnd.choice(["parks", "shops", "castles"]), "city": rnd.randrange(0, 3)},
    ]
    for move in rnd.sample(listed, min(3, len(listed))):
        changed = dict(move)
        key = rnd.choice([k for k in move if k != "kind"] or ["kind"])
        changed[key] = {"cell": cell, "tile": tile}.get(key, lambda: rnd.randrange(-1, 9))()
        out.append(changed)
        out.append({**move, "extra": 1})
    return out


def check_step(before: BtcState, seat: int, move: core.Move, after: BtcState, rnd: random.Random) -> None:
    snapshot = RULES.to_json(before)
    listed = RULES.legal_moves(before, seat)
    assert move in listed
    for s in range(before.seats):
        assert bool(RULES.legal_moves(before, s)) == (s in RULES.awaiting(before))
    for other in rnd.sample(listed, min(4, len(listed))):
        RULES.apply(before, seat, other)
    for junk in junk_moves(before, seat, rnd, listed):
        if junk in listed:
            continue
        try:
            RULES.apply(before, seat, junk)
        except core.GameError as err:
            assert err.key in CATALOGUE, err.key
        else:
            raise AssertionError(f"unlisted move accepted: {junk}")
    assert RULES.to_json(before) == snapshot, "apply mutated its input"
    data = json.loads(json.dumps(RULES.to_json(after)))
    assert RULES.from_json(data) == after
    assert RULES.to_json(RULES.from_json(data)) == data
    check_conservation(after)
    check_views(after)
    json.dumps(RULES.result(after).to_json())


def run_game(mode: str, seats: int, seed: int, level: str) -> None:
    start = new(mode, seats, seed=seed)
    rnd = random.Random(seed)
    log: list[tuple[int, core.Move]] = []
    state = start
    for before, seat, move, after in steps(start, ai_policy(level), seed):
        if rnd.random() < 0.35:  # every invariant on a third of the steps keeps this fast
            check_step(before, seat, move, after, rnd)
        log.append((seat, move))
        state = after
    check_finished(state)
    assert RULES.awaiting(state) == frozenset()
    assert all(RULES.legal_moves(state, s) == [] for s in range(seats))
    replay = new(mode, seats, seed=seed)
    for seat, move in log:
        replay = RULES.apply(replay, seat, move)
    assert RULES.to_json(replay) == RULES.to_json(state)
    try:
        RULES.apply(state, 0, log[-1][1])
    except core.GameOver:
        pass
    else:
        raise AssertionError("a move was accepted after the end")
    assert E.game_result(state).details["over"] is True


@settings(max_examples=len(GAMES) * 2, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**31), level=st.sampled_from(["random", "greedy"]))
def test_random_games_keep_every_invariant(game: tuple[str, int], seed: int, level: str) -> None:
    """Random and greedy games of every mode keep every invariant and end with full cities."""
    run_game(game[0], game[1], seed, level)


def test_each_mode_once() -> None:
    """Seeded games complete for 2, 3, 5 and 7 players and for solo Simple and Full."""
    for i, (mode, seats) in enumerate(GAMES):
        run_game(mode, seats, 1000 + i, "random")


def test_audit_catches_broken_states() -> None:
    """The invariant checks can fail: a tile in two places, a lost tile, an unfinished city, a
    hand shown to the wrong seat are all reported."""
    state = new("standard", 3, seed=5).clone()
    assert not audit.conservation_problems(state) and not audit.view_leaks(state)
    state.players[1].hand.append(state.players[0].hand[0])
    assert audit.conservation_problems(state)
    lost = new("standard", 3, seed=5).clone()
    lost.players[0].hand.pop()
    assert audit.conservation_problems(lost)
    assert audit.finished_problems(new("standard", 3, seed=5))
    clean = new("standard", 3, seed=5)
    other_hand = set(clean.players[1].hand)
    assert other_hand <= audit.secret_tiles(clean, 0) and not other_hand & audit.secret_tiles(clean, 1)
    assert audit.ids_in({"you": {"hand": [{"id": 7}]}, "cells": {"D4": {"tile": 9}}}) == {7, 9}
