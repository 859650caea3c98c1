"""The game flow of Between Two Cities (spec: shared/rules/between-two-cities.md).

Modes: ``standard`` (3-7 players), ``two_player`` (the official variant, section 9),
``solo_simple`` and ``solo_full`` (one player against two Automas, section 10).

Moves (JSON dicts, each well under 60 characters):

- ``{"kind": "choose", "tiles": [a, b]}``: rounds 1 and 3, a secret commit of two tiles from the
  hand, listed in hand order (ascending).
- ``{"kind": "choose", "left": a, "right": b}``: round 2, the duplex for the left city, the one for
  the right city (D-5 a); the third is discarded.
- ``{"kind": "place", "tile": t, "city": c, "cell": "D4"}``: place a revealed tile; a duplex is
  anchored at its first face (left or top) and keeps its printed orientation.
- ``{"kind": "turned", "tile": t, "city": c, "cell": "D4"}``: a duplex that fits nowhere the right
  way up, laid along the other axis (D-5 c).
- ``{"kind": "you_first", "city": c}``: ask the partner to place first in a shared city (D-3).
- solo ``{"kind": "assign", "left": a, "right": b}`` (Full), ``… "auto": c}`` (Simple, the tile
  for Automacity).
- solo campaign ``{"kind": "bonus", "type": "parks", "city": c}`` (10.10, D-23).

Tiles are numbered by draw order (see :mod:`state`); cells are named on each city's 7 x 7 frame,
the first tile of a city always at ``D4`` (see :mod:`geometry`).

This module sets a game up, lists the legal moves and applies one; the rest of the engine lies below it and is
re-exported here, where the rest of the game reads it (``engine.<name>``): the table (:mod:`table`: modes,
stages, seats and cities, names), who may do what (:mod:`access`), the game's flow (:mod:`flow`), the moves
applied (:mod:`moves`) and the scores and results (:mod:`outcome`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.btc import tiles as T
from bot.rules.btc.access import awaited as awaited
from bot.rules.btc.access import blocked as blocked
from bot.rules.btc.access import bound_for as bound_for
from bot.rules.btc.access import can_choose as can_choose
from bot.rules.btc.access import place_options as place_options
from bot.rules.btc.access import spots as spots
from bot.rules.btc.access import target_cities as target_cities
from bot.rules.btc.access import you_first_cities as you_first_cities
from bot.rules.btc.flow import _start_stage
from bot.rules.btc.flow import advance as advance
from bot.rules.btc.moves import _assign, _bonus, _choose, _place, _you_first
from bot.rules.btc.moves import bonus_choices as bonus_choices
from bot.rules.btc.outcome import campaign_summary as campaign_summary
from bot.rules.btc.outcome import city_scores as city_scores
from bot.rules.btc.outcome import city_totals as city_totals
from bot.rules.btc.outcome import game_result as game_result
from bot.rules.btc.outcome import modifier as modifier
from bot.rules.btc.outcome import standing as standing
from bot.rules.btc.outcome import tiebreak_names as tiebreak_names
from bot.rules.btc.state import BtcState, City, Player
from bot.rules.btc.table import AUTOMACITY as AUTOMACITY
from bot.rules.btc.table import CAMPAIGN_LENGTHS as CAMPAIGN_LENGTHS
from bot.rules.btc.table import HAND_DUPLEXES as HAND_DUPLEXES
from bot.rules.btc.table import HAND_SINGLES as HAND_SINGLES
from bot.rules.btc.table import LEFT_CITY as LEFT_CITY
from bot.rules.btc.table import LETTER_CATEGORY as LETTER_CATEGORY
from bot.rules.btc.table import MODES as MODES
from bot.rules.btc.table import NO_TYPES as NO_TYPES
from bot.rules.btc.table import RIGHT_CITY as RIGHT_CITY
from bot.rules.btc.table import SIMPLE_HAND as SIMPLE_HAND
from bot.rules.btc.table import SOLO_FULL as SOLO_FULL
from bot.rules.btc.table import SOLO_MODES as SOLO_MODES
from bot.rules.btc.table import SOLO_PLAYERS as SOLO_PLAYERS
from bot.rules.btc.table import SOLO_SIMPLE as SOLO_SIMPLE
from bot.rules.btc.table import STAGES as STAGES
from bot.rules.btc.table import STANDARD as STANDARD
from bot.rules.btc.table import TIEBREAK_NAMES as TIEBREAK_NAMES
from bot.rules.btc.table import TWO_PLAYER as TWO_PLAYER
from bot.rules.btc.table import TYPE_LETTERS as TYPE_LETTERS
from bot.rules.btc.table import Stage as Stage
from bot.rules.btc.table import _draw, _place_loose
from bot.rules.btc.table import automa_term as automa_term
from bot.rules.btc.table import cities_of as cities_of
from bot.rules.btc.table import city_name as city_name
from bot.rules.btc.table import city_term as city_term
from bot.rules.btc.table import face_term as face_term
from bot.rules.btc.table import factory_counts as factory_counts
from bot.rules.btc.table import giver as giver
from bot.rules.btc.table import is_solo as is_solo
from bot.rules.btc.table import kind_of as kind_of
from bot.rules.btc.table import partner as partner
from bot.rules.btc.table import stage_of as stage_of
from bot.rules.btc.table import tile_name as tile_name
from bot.rules.btc.table import type_subsets as type_subsets
from bot.rules.core import IllegalMove, Move

# ---------------------------------------------------------------------------------------------
# Setup and options
# ---------------------------------------------------------------------------------------------

RANGES = {STANDARD: (3, 7), TWO_PLAYER: (2, 2), SOLO_SIMPLE: (1, 1), SOLO_FULL: (1, 1)}


def new_game(options: Mapping[str, str], seat_count: int, seed: int) -> BtcState:
    """A fresh game (options already normalised)."""
    mode = options["mode"]
    lo, hi = RANGES[mode]
    if not lo <= seat_count <= hi:
        raise IllegalMove("btc.option.seats", count=seat_count, min=lo, max=hi)
    singles = core.shuffled(T.SINGLE_POOL, seed, "btc", "bag")
    duplexes = core.shuffled(T.DUPLEX_POOL, seed, "btc", "duplexes")
    if mode == STANDARD:
        order = core.shuffled(range(seat_count), seed, "btc", "seating")
        cities = [City(T.CITY_NAMES[i], [order[i], order[(i + 1) % seat_count]]) for i in range(seat_count)]
        players = seat_count
    elif mode == TWO_PLAYER:
        order = [0, 1]
        cities = [City(T.CITY_NAMES[i], [i // 2]) for i in range(4)]
        players = 2
    else:
        order = list(range(SOLO_PLAYERS))
        cities = [
            City(T.SOLO_CITY_NAMES[i], [i, (i + 1) % SOLO_PLAYERS], grid=i != AUTOMACITY) for i in range(SOLO_PLAYERS)
        ]
        players = SOLO_PLAYERS
    state = BtcState(
        mode=mode,
        options=dict(options),
        seed=seed,
        seats=seat_count,
        order=order,
        tiles=tuple(singles + duplexes),
        next_single=0,
        next_duplex=len(singles),
        cities=cities,
        players=[Player() for _ in range(players)],
        phase="assign" if mode in SOLO_MODES else "play",
    )
    if mode == SOLO_FULL:
        state.deck = [c.id for c in core.shuffled(T.AUTOMA_CARDS, seed, "btc", "automa")]
        for tile in _draw(state, True, 2):
            _place_loose(state.cities[AUTOMACITY], state, tile)
    _start_stage(state)
    advance(state)
    return state


def apply_move(state: BtcState, seat: int, move: Mapping[str, Any]) -> None:
    """Carry out one move on ``state`` (a copy the caller owns), then everything that follows."""
    kind = move["kind"]
    if kind == "choose":
        _choose(state, seat, move)
    elif kind == "assign":
        _assign(state, seat, move)
    elif kind in ("place", "turned"):
        _place(state, seat, move, turned=kind == "turned")
    elif kind == "you_first":
        _you_first(state, seat, move)
    elif kind == "bonus":
        _bonus(state, seat, move)
    else:
        raise IllegalMove("btc.move.unknown", kind=kind)
    advance(state)


def legal_moves(state: BtcState, seat: int) -> list[Move]:
    """Exactly the moves ``seat`` may make now (empty when it is not awaited)."""
    if seat not in awaited(state):
        return []
    if state.phase == "bonus":
        return [{"kind": "bonus", "type": cat, "city": c} for cat, c in bonus_choices(state)]
    if state.phase == "assign":
        hand = state.players[0].hand
        if state.mode == SOLO_SIMPLE:
            return [{"kind": "assign", "left": a, "right": b, "auto": c} for a, b, c in itertools.permutations(hand, 3)]
        return [{"kind": "assign", "left": a, "right": b} for a, b in itertools.permutations(hand, 2)]
    if can_choose(state, seat):
        hand = state.players[seat].hand
        if stage_of(state).duplex:
            return [{"kind": "choose", "left": a, "right": b} for a, b in itertools.permutations(hand, 2)]
        return [{"kind": "choose", "tiles": [a, b]} for a, b in itertools.combinations(sorted(hand), 2)]
    moves: list[Move] = []
    for pend, city in place_options(state, seat):
        turned, anchors = spots(state, pend.tile, city)
        kind = "turned" if turned else "place"
        moves += [{"kind": kind, "tile": pend.tile, "city": city, "cell": core.cell_name(a)} for a in anchors]
    moves += [{"kind": "you_first", "city": c} for c in you_first_cities(state, seat)]
    return moves
