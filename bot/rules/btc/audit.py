"""Invariant checks shared by the tests and the bench: each returns a list of problems (empty = fine).

- :func:`conservation_problems`: every drawn tile is in exactly one place (a hand, a choice, tiles
  handed on, tiles to place, a city, the discard pile); no undrawn tile is anywhere; both halves of
  a duplex lie in the same city.
- :func:`finished_problems`: every grid city is a full 4 x 4 square, Automacity holds 16 faces.
- :func:`view_leaks`: no view mentions a tile its viewer may not see (D-1, D-12).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.rules.btc import engine as E
from bot.rules.btc import geometry as G
from bot.rules.btc import tiles as T
from bot.rules.btc import views
from bot.rules.btc.state import BtcState

CITY_CELLS = G.SIDE * G.SIDE
TILE_KEYS = frozenset({"id", "tile", "shared", "automacity"})
"""View keys whose integer values are tile numbers."""


def tile_places(state: BtcState) -> Counter[int]:
    """How often each tile number appears anywhere in the state."""
    seen: Counter[int] = Counter()
    for p in state.players:
        seen.update(p.hand)
        seen.update(p.choice)
        seen.update(p.outgoing)
        seen.update(x.tile for x in p.pending)
    seen.update(state.discard)
    for city in state.cities:
        seen.update({spot[1] for spot in [*city.cells.values(), *city.loose]})
    return seen


def conservation_problems(state: BtcState) -> list[str]:
    problems = []
    seen = tile_places(state)
    drawn = set(range(state.next_single)) | set(range(len(T.SINGLE_POOL), state.next_duplex))
    if set(seen) != drawn:
        problems.append(f"tiles drawn but nowhere or present but undrawn: {sorted(set(seen) ^ drawn)}")
    twice = sorted(t for t, n in seen.items() if n > 1)
    if twice:
        problems.append(f"tiles in two places: {twice}")
    for city in state.cities:
        halves = Counter(spot[1] for spot in [*city.cells.values(), *city.loose])
        for tile, n in halves.items():
            if n != (2 if T.KINDS[state.tiles[tile]].shape == T.DUPLEX else 1):
                problems.append(f"tile {tile} covers {n} cells of {city.name}")
    return problems


def finished_problems(state: BtcState) -> list[str]:
    problems = []
    for city in state.cities:
        if city.size() != CITY_CELLS:
            problems.append(f"{city.name} has {city.size()} cells")
        box = G.bounds(city.cells) if city.grid else None
        if city.grid and (box is None or box[1] - box[0] != G.SIDE - 1 or box[3] - box[2] != G.SIDE - 1):
            problems.append(f"{city.name} is not a 4 x 4 square")
    return problems + conservation_problems(state)


def ids_in(data: Any) -> set[int]:
    """Every tile number a view mentions."""
    out: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in TILE_KEYS and isinstance(value, int):
                out.add(value)
            else:
                out |= ids_in(value)
    elif isinstance(data, list):
        for value in data:
            out |= ids_in(value)
    return out


def secret_tiles(state: BtcState, viewer: int | None) -> set[int]:
    """Tiles ``viewer`` may not see: other seats' hands, choices and handed-on tiles, its own
    handed-on tiles (D-1), the discard pile and every undrawn tile. Solo Automa hands are public."""
    secret: set[int] = set(state.discard)
    secret |= set(range(state.next_single, len(T.SINGLE_POOL)))
    secret |= set(range(state.next_duplex, len(state.tiles)))
    for i, p in enumerate(state.players):
        if i == viewer:
            secret |= set(p.outgoing)
        elif not (E.is_solo(state) and i > 0):
            secret |= set(p.hand) | set(p.choice) | set(p.outgoing)
    return secret


def view_leaks(state: BtcState) -> list[str]:
    problems = []
    for viewer in [None, *range(state.seats)]:
        leaked = ids_in(views.view(state, viewer)) & secret_tiles(state, viewer)
        if leaked:
            problems.append(f"the view of {viewer} shows secret tiles {sorted(leaked)}")
    return problems
