"""Who may do what in Between Two Cities now: choosing, placing (the spots a tile fits, D-5), asking the partner to
place first (D-3), and which seats are awaited."""

from __future__ import annotations

from bot.rules import core
from bot.rules.btc import geometry as G
from bot.rules.btc import tiles as T
from bot.rules.btc.state import FREE, BtcState, Pending
from bot.rules.btc.table import STANDARD, cities_of, is_solo, kind_of, partner

# ---------------------------------------------------------------------------------------------
# Who may do what
# ---------------------------------------------------------------------------------------------


def can_choose(state: BtcState, seat: int) -> bool:
    """A 3-7 / 2-player seat may commit a choice now (D-4: once its tiles are placed)."""
    p = state.players[seat]
    return state.phase == "play" and not p.pending and not p.choice and len(p.hand) >= 2


def blocked(state: BtcState, seat: int, city: int) -> bool:
    """Whether a you-first request keeps ``seat`` from placing into ``city`` now (D-3)."""
    p = state.players[seat]
    if city not in p.waits:
        return False
    other = partner(state, seat, city)
    if other is None:
        return False
    if not bound_for(state, other, city):
        return False
    both_wait = city in state.players[other].waits
    return not (both_wait and state.order.index(seat) < state.order.index(other))


def target_cities(state: BtcState, player: int, pending: Pending) -> list[int]:
    """Cities a pending tile may still go to."""
    if pending.city != FREE:
        return [pending.city]
    return [c for c in cities_of(state, player) if c not in state.players[player].placed]


def bound_for(state: BtcState, player: int, city: int) -> bool:
    """Whether the player still has a revealed tile that may go to ``city`` this turn."""
    return any(city in target_cities(state, player, x) for x in state.players[player].pending)


def place_options(state: BtcState, seat: int) -> list[tuple[Pending, int]]:
    """(pending tile, city) pairs the seat may place now, ignoring the cell."""
    if state.phase not in ("play", "place"):
        return []
    player = state.players[seat]
    out = []
    for pend in player.pending:
        for city in target_cities(state, seat, pend):
            if not blocked(state, seat, city):
                out.append((pend, city))
    return out


def spots(state: BtcState, tile: int, city: int) -> tuple[bool, list[core.Cell]]:
    """(turned, anchors) where a tile may go in a city (6.2 with D-5 b and c)."""
    kind = kind_of(state, tile)
    occupied = state.cities[city].cells.keys()
    others = [
        G.shape_of(kind_of(state, x.tile))
        for p in state.players
        for x in p.pending
        if x.city == city and x.tile != tile and kind_of(state, x.tile).shape == T.DUPLEX
    ]
    found = G.legal_anchors(occupied, G.shape_of(kind), others)
    if found or kind.shape == T.SINGLE:
        return False, found
    return True, G.anchors(occupied, G.shape_of(kind, turned=True))


def you_first_cities(state: BtcState, seat: int) -> list[int]:
    """Shared cities where the seat may still ask the partner to place first (D-3)."""
    if state.mode != STANDARD or state.phase != "play":
        return []
    p = state.players[seat]
    out = []
    for city in cities_of(state, seat):
        other = partner(state, seat, city)
        if other is not None and city not in p.waits and bound_for(state, seat, city) and bound_for(state, other, city):
            out.append(city)
    return out


def awaited(state: BtcState) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if is_solo(state):
        return frozenset({0})
    return frozenset(s for s in range(state.seats) if can_choose(state, s) or place_options(state, s))
