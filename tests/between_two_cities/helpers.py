"""Shared helpers for the Between Two Cities tests: playing games, checking invariants."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from bot.rules import core
from bot.rules.between_two_cities import engine as E
from bot.rules.between_two_cities import geometry as G
from bot.rules.between_two_cities import scoring
from bot.rules.between_two_cities import tiles as T
from bot.rules.between_two_cities.rules import RULES
from bot.rules.between_two_cities.state import BtcState, City

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


def tile_places(state: BtcState) -> Counter[int]:
    """How often each tile number appears anywhere in the state (each must appear once)."""
    seen: Counter[int] = Counter()
    for p in state.players:
        seen.update(p.hand)
        seen.update(p.choice)
        seen.update(p.outgoing)
        seen.update(x.tile for x in p.pending)
    seen.update(state.discard)
    for city in state.cities:
        seen.update({spot[1] for spot in city.cells.values()})
        seen.update({spot[1] for spot in city.loose})
    return seen


def check_conservation(state: BtcState) -> None:
    """Every drawn tile is in exactly one place; no undrawn tile is anywhere; duplex faces pair up."""
    seen = tile_places(state)
    drawn = set(range(state.next_single)) | set(range(len(T.SINGLE_POOL), state.next_duplex))
    assert set(seen) == drawn, (sorted(set(seen) ^ drawn))
    assert all(v == 1 for v in seen.values()), [t for t, v in seen.items() if v > 1]
    for city in state.cities:
        halves = Counter(spot[1] for spot in [*city.cells.values(), *city.loose])
        for tile, n in halves.items():
            assert n == (2 if T.KINDS[state.tiles[tile]].shape == T.DUPLEX else 1)


def check_finished(state: BtcState) -> None:
    """Every grid city is a full 4 x 4 square; Automacity holds 16 faces."""
    for city in state.cities:
        assert city.size() == 16
        if city.grid:
            box = G.bounds(city.cells)
            assert box is not None and box[1] - box[0] == 3 and box[3] - box[2] == 3
    check_conservation(state)


def ids_in(data: Any) -> set[int]:
    """Every tile number a view mentions (values under the keys "id", "tile", "shared", "automacity")."""
    out: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("id", "tile", "shared", "automacity") and isinstance(value, int):
                out.add(value)
            else:
                out |= ids_in(value)
    elif isinstance(data, list):
        for value in data:
            out |= ids_in(value)
    return out


def secret_ids(state: BtcState, viewer: int | None) -> set[int]:
    """Tiles ``viewer`` must not see: other seats' hands, choices and handed-on tiles, the
    discard pile, and every undrawn tile. In solo games the Automas' hands are face up."""
    secret: set[int] = set(state.discard)
    secret |= set(range(state.next_single, len(T.SINGLE_POOL)))
    secret |= set(range(state.next_duplex, len(state.tiles)))
    for i, p in enumerate(state.players):
        if i == viewer:
            secret |= set(p.outgoing)  # handed on face down: gone from its view too (D-1)
        elif not (E.is_solo(state) and i > 0):
            secret |= set(p.hand) | set(p.choice) | set(p.outgoing)
    if viewer is not None:
        secret -= set(state.players[viewer].hand) | set(state.players[viewer].choice)
    return secret


def check_views(state: BtcState) -> None:
    """Views are JSON and never mention a tile the viewer may not see."""
    for viewer in [None, *range(state.seats)]:
        v = RULES.view(state, viewer)
        json.dumps(v)
        leaked = ids_in(v) & secret_ids(state, viewer)
        assert not leaked, (viewer, leaked)


def grid_city(rows: list[str], name: str = "X") -> City:
    """A grid city from the spec's notation (``.`` empty), its top-left cell at the frame centre."""
    faces = scoring.parse_grid(rows)
    cells = {G.from_spec(cell): (code, 900 + i, 0) for i, (cell, code) in enumerate(sorted(faces.items()))}
    return City(name, [0, 1], True, cells)


def spec_city(placed: dict[tuple[int, int], str], name: str = "X") -> City:
    """A grid city from the spec's relative coordinates ``(row, col) -> token``."""
    cells = {G.from_spec(cell): (T.FACE_BY_TOKEN[tok], 900 + i, 0)
             for i, (cell, tok) in enumerate(placed.items())}
    return City(name, [0, 1], True, cells)
