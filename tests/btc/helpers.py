"""Shared helpers for the Between Two Cities tests: playing games, checking invariants."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from bot.rules import core
from bot.rules.btc import audit, scoring
from bot.rules.btc import geometry as G
from bot.rules.btc import tiles as T
from bot.rules.btc.rules import RULES
from bot.rules.btc.state import BtcState, City

Policy = Callable[[BtcState, int, int], core.Move]


def new(mode: str = "standard", seats: int = 3, seed: int = 1, **options: str) -> BtcState:
    return RULES.setup({"mode": mode, **options}, seats, seed)


def ai_policy(level: str) -> Policy:
    def policy(state: BtcState, seat: int, step: int) -> core.Move:
        return RULES.ai_move(state, seat, level, step)

    return policy


def first_legal(state: BtcState, seat: int, step: int) -> core.Move:
    return RULES.legal_moves(state, seat)[0]


Step = tuple[BtcState, int, core.Move, BtcState]


def steps(state: BtcState, policy: Policy, seed: int = 0) -> Iterator[Step]:
    """Play to the end, yielding (before, seat, move, after); the awaited seat is picked at random."""
    n = 0
    while not RULES.is_over(state):
        awaiting = sorted(RULES.awaiting(state))
        assert awaiting, "nobody is awaited but the game is not over"
        seat = awaiting[core.rng(seed, "pick", n).randrange(len(awaiting))]
        move = policy(state, seat, n)
        after = RULES.apply(state, seat, move)
        yield state, seat, move, after
        state = after
        n += 1
        assert n < 1000, "game does not end"


def play(state: BtcState, policy: Policy, seed: int = 0) -> BtcState:
    for _, _, _, after in steps(state, policy, seed):
        state = after
    return state


def check_conservation(state: BtcState) -> None:
    """Every drawn tile is in exactly one place; no undrawn tile is anywhere; duplex faces pair up."""
    assert not audit.conservation_problems(state), audit.conservation_problems(state)


def check_finished(state: BtcState) -> None:
    """Every grid city is a full 4 x 4 square; Automacity holds 16 faces; tiles conserved."""
    assert not audit.finished_problems(state), audit.finished_problems(state)


def check_views(state: BtcState) -> None:
    """Views are JSON and never mention a tile the viewer may not see."""
    for viewer in [None, *range(state.seats)]:
        json.dumps(RULES.view(state, viewer))
    assert not audit.view_leaks(state), audit.view_leaks(state)


def grid_city(rows: list[str], name: str = "X") -> City:
    """A grid city from the spec's notation (``.`` empty), its top-left cell at the frame centre."""
    faces = scoring.parse_grid(rows)
    cells = {G.from_spec(cell): (code, 900 + i, 0) for i, (cell, code) in enumerate(sorted(faces.items()))}
    return City(name, [0, 1], True, cells)


def spec_city(placed: dict[tuple[int, int], str], name: str = "X") -> City:
    """A grid city from the spec's relative coordinates ``(row, col) -> token``."""
    cells = {G.from_spec(cell): (T.FACE_BY_TOKEN[tok], 900 + i, 0) for i, (cell, tok) in enumerate(placed.items())}
    return City(name, [0, 1], True, cells)
