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
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.rules import core
from bot.rules.btc import automa, scoring
from bot.rules.btc import geometry as G
from bot.rules.btc import tiles as T
from bot.rules.btc.state import FREE, BtcState, City, Pending, Player
from bot.rules.core import IllegalMove, Move, NotYourTurn, Result

STANDARD = "standard"
TWO_PLAYER = "two_player"
SOLO_SIMPLE = "solo_simple"
SOLO_FULL = "solo_full"
MODES: tuple[str, ...] = (STANDARD, TWO_PLAYER, SOLO_SIMPLE, SOLO_FULL)
SOLO_MODES = frozenset({SOLO_SIMPLE, SOLO_FULL})

HAND_SINGLES = 7
HAND_DUPLEXES = 3
SIMPLE_HAND = 3
SOLO_PLAYERS = 3
LEFT_CITY, AUTOMACITY, RIGHT_CITY = 0, automa.AUTOMACITY, 2
"""Solo cities: the Left City (you and Autommaso), Automacity, the Right City (you and Automarta)."""

CAMPAIGN_LENGTHS = ("3", "6")
TYPE_LETTERS = "SFTOPH"
"""Campaign bonus types by letter, in reference order (shops … houses)."""
LETTER_CATEGORY: dict[str, str] = dict(zip(TYPE_LETTERS, scoring.CATEGORIES, strict=True))
NO_TYPES = "-"


def type_subsets() -> tuple[str, ...]:
    out = [NO_TYPES]
    for n in range(1, len(TYPE_LETTERS) + 1):
        out += ["".join(c) for c in itertools.combinations(TYPE_LETTERS, n)]
    return tuple(out)


TIEBREAK_NAMES: tuple[str, ...] = (
    "score",
    "btc.tiebreak.higher",
    "btc.tiebreak.shops",
    "btc.tiebreak.factories",
    "btc.tiebreak.taverns",
    "btc.tiebreak.offices",
    "btc.tiebreak.parks",
    "btc.tiebreak.houses",
)
"""``decided_by`` names: the final score, the higher city (8.8 first tie-breaker), then building
counts type by type (second tie-breaker). The 2-player game skips the higher city (section 9)."""


@dataclass(frozen=True)
class Stage:
    """One round (2-player: half round) of a mode.

    ``passing``: +1 hands go left, -1 right, 0 no passing. ``units``: solo Full duplex batches,
    solo Simple repetitions (0 when the hands decide).
    """

    round: int
    part: str
    duplex: bool
    passing: int
    units: int = 0


STAGES: dict[str, tuple[Stage, ...]] = {
    STANDARD: (Stage(1, "", False, 1), Stage(2, "", True, 0), Stage(3, "", False, -1)),
    TWO_PLAYER: (
        Stage(1, "a", False, 1), Stage(1, "b", False, 1),
        Stage(2, "a", True, 0), Stage(2, "b", True, 0),
        Stage(3, "a", False, -1), Stage(3, "b", False, -1),
    ),
    SOLO_FULL: (Stage(1, "", False, 1), Stage(2, "", True, 0, 2), Stage(3, "", False, -1)),
    SOLO_SIMPLE: (Stage(1, "", False, 0, 3), Stage(2, "", True, 0, 1), Stage(3, "", False, 0, 3)),
}


# ---------------------------------------------------------------------------------------------
# Table geometry: who sits where, who builds which city
# ---------------------------------------------------------------------------------------------


def is_solo(state: BtcState) -> bool:
    return state.mode in SOLO_MODES


def stage_of(state: BtcState) -> Stage:
    stages = STAGES[state.mode]
    return stages[min(state.stage, len(stages) - 1)]


def cities_of(state: BtcState, player: int) -> tuple[int, int]:
    """(left city, right city) of a player (section 3; 2-player: their own two cities)."""
    if state.mode == TWO_PLAYER:
        return (2 * player, 2 * player + 1)
    pos = state.order.index(player)
    return (pos, (pos - 1) % len(state.order))


def giver(state: BtcState, player: int, passing: int) -> int:
    """The player whose hand ``player`` receives when hands pass in direction ``passing``."""
    if state.mode == TWO_PLAYER:
        return 1 - player
    pos = state.order.index(player)
    return state.order[(pos - passing) % len(state.order)]


def partner(state: BtcState, player: int, city: int) -> int | None:
    """The other human builder of a shared city (3-7 players only), else None."""
    if state.mode != STANDARD:
        return None
    others = [b for b in state.cities[city].builders if b != player]
    return others[0] if others else None


def factory_counts(state: BtcState) -> list[int]:
    """Factory cells of every city (only placed tiles count, D-15)."""
    return [sum(1 for f in c.faces() if T.face_type(f) == "factory") for c in state.cities]


def kind_of(state: BtcState, tile: int) -> T.TileKind:
    return T.KINDS[state.tiles[tile]]


def face_term(code: str) -> core.Term:
    """A tile face as a term (``btc.tile.<face>``: "shop", "drink tavern")."""
    return core.term(f"btc.tile.{code.lower()}")


def tile_name(state: BtcState, tile: int) -> core.Term:
    """A tile as players call it, as a term: "shop", "office and shop duplex"."""
    faces = kind_of(state, tile).faces
    if len(faces) == 1:
        return face_term(faces[0])
    return core.term("btc.tile.duplex", a=face_term(faces[0]), b=face_term(faces[1]))


def city_term(name: str) -> core.Term:
    """A city's display name (``cities.json``) as a term: ``btc.city.<name in snake case>``."""
    return core.term("btc.city." + re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_"))


def automa_term(player: int) -> core.Term:
    """A solo Automa's name (``cities.json``, player 1 or 2) as a term, ``btc.automa.name.<name>``: each
    language writes it in its own script."""
    return core.term("btc.automa.name." + T.AUTOMA_NAMES[player - 1].lower())


def city_name(state: BtcState, city: int) -> core.Term:
    return city_term(state.cities[city].name)


def _city_label(state: BtcState, city: int) -> core.Term | str:
    """A city's name, or the number given when there is no such city."""
    return city_name(state, city) if 0 <= city < len(state.cities) else str(city)


# ---------------------------------------------------------------------------------------------
# Setup and options
# ---------------------------------------------------------------------------------------------

RANGES = {STANDARD: (3, 7), TWO_PLAYER: (2, 2), SOLO_SIMPLE: (1, 1), SOLO_FULL: (1, 1)}


def _draw(state: BtcState, duplex: bool, n: int) -> list[int]:
    if duplex:
        start = state.next_duplex
        state.next_duplex += n
        assert state.next_duplex <= len(state.tiles), "the duplex stack is always sufficient (2.5)"
    else:
        start = state.next_single
        state.next_single += n
        assert state.next_single <= len(T.SINGLE_POOL), "the bag is always sufficient (2.5)"
    return list(range(start, start + n))


def _place_loose(city: City, state: BtcState, tile: int) -> None:
    """Add a tile to Automacity (no geometry, 10.2)."""
    kind = kind_of(state, tile)
    if kind.shape == T.SINGLE:
        city.loose.append((kind.faces[0], tile, 0))
    else:
        city.loose.extend((face, tile, i + 1) for i, face in enumerate(kind.faces))


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
        cities = [City(T.SOLO_CITY_NAMES[i], [i, (i + 1) % SOLO_PLAYERS], grid=i != AUTOMACITY)
                  for i in range(SOLO_PLAYERS)]
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


# ---------------------------------------------------------------------------------------------
# Flow
# ---------------------------------------------------------------------------------------------


def _start_stage(state: BtcState) -> None:
    stage = stage_of(state)
    state.step = 0
    if state.mode == SOLO_SIMPLE:
        _start_simple_repetition(state)
    elif state.mode == SOLO_FULL:
        if stage.duplex:
            state.players[0].hand = _draw(state, True, HAND_DUPLEXES)
            state.phase = "assign"
        else:
            for p in state.players:
                p.hand = _draw(state, False, HAND_SINGLES)
            _automa_turn(state)
    else:
        for p in state.players:
            p.hand = _draw(state, stage.duplex, HAND_DUPLEXES if stage.duplex else HAND_SINGLES)


def _next_stage(state: BtcState) -> None:
    state.stage += 1
    if state.stage >= len(STAGES[state.mode]):
        state.step = 0
        campaign = is_solo(state) and state.options.get("campaign", "off") != "off"
        state.phase = "bonus" if campaign else "over"
        return
    _start_stage(state)


def _reveal(state: BtcState) -> None:
    """Every choice is in and every tile placed: flip the choices together, pass the hands."""
    stage = stage_of(state)
    outgoing = [p.outgoing for p in state.players]
    for i, p in enumerate(state.players):
        if stage.duplex:
            left, right = cities_of(state, i)
            p.pending = [Pending(p.choice[0], left), Pending(p.choice[1], right)]
            state.discard.extend(p.outgoing)
        else:
            p.pending = [Pending(t, FREE) for t in p.choice]
            incoming = outgoing[giver(state, i, stage.passing)]
            if len(incoming) > 1:
                p.hand = sorted(incoming)
            else:
                state.discard.extend(incoming)
    for p in state.players:
        p.choice, p.outgoing, p.placed, p.waits = [], [], [], []
    state.reveals += 1
    state.step += 1


def advance(state: BtcState) -> None:
    """Run everything that happens without a decision: reveals, passing, dealing, the Automas."""
    if is_solo(state):
        while state.phase == "place" and not state.players[0].pending:
            _finish_solo_unit(state)
        return
    while state.phase == "play":
        players = state.players
        if all(p.choice for p in players) and not any(p.pending for p in players):
            _reveal(state)
        elif not any(p.hand or p.choice or p.pending for p in players):
            _next_stage(state)
        else:
            return


# -- solo -------------------------------------------------------------------------------------


def _start_simple_repetition(state: BtcState) -> None:
    """Simple mode steps 1-2: a random tile for each city, then three tiles for you (10.4)."""
    duplex = stage_of(state).duplex
    human = state.players[0]
    for city in (LEFT_CITY, AUTOMACITY, RIGHT_CITY):
        (tile,) = _draw(state, duplex, 1)
        if city == AUTOMACITY:
            _place_loose(state.cities[AUTOMACITY], state, tile)
        else:
            human.pending.append(Pending(tile, city))
    human.hand = _draw(state, duplex, SIMPLE_HAND)
    state.phase = "assign"


def _draw_card(state: BtcState) -> str:
    if not state.deck:  # D-20: only with a replaced deck of fewer than 12 cards
        state.deck = core.shuffled(state.used_cards, state.seed, "btc", "reshuffle", len(state.automa_log))
        state.used_cards = []
    card = state.deck.pop(0)
    state.used_cards.append(card)
    return card


def _automa_turn(state: BtcState) -> None:
    """Steps 1-3 of both Automas, one step at a time, Autommaso first (10.5, D-14)."""
    entries: list[dict[str, Any]] = []
    stage = stage_of(state)
    for who in (1, 2):
        drawn = _draw_card(state)
        entries.append({"round": stage.round, "turn": state.step + 1, "automa": who, "card": drawn})
    for entry, shared in zip(entries, (LEFT_CITY, RIGHT_CITY), strict=True):
        hand = state.players[entry["automa"]].hand
        card = T.AUTOMA_CARD_BY_ID[entry["card"]]
        tile, symbol = automa.choose(hand, state.tiles, card.shared, state.cities[shared], shared,
                                     factory_counts(state))
        hand.remove(tile)
        state.players[0].pending.append(Pending(tile, shared))
        entry.update(shared=tile, shared_tile=state.tiles[tile], shared_by=symbol, shared_city=shared)
    for entry in entries:
        hand = state.players[entry["automa"]].hand
        card = T.AUTOMA_CARD_BY_ID[entry["card"]]
        city = state.cities[AUTOMACITY]
        tile, symbol = automa.choose(hand, state.tiles, card.automacity, city, AUTOMACITY,
                                     factory_counts(state))
        hand.remove(tile)
        _place_loose(city, state, tile)
        entry.update(automacity=tile, automacity_tile=state.tiles[tile], automacity_by=symbol)
    state.automa_log.extend(entries)
    state.phase = "assign"


def _finish_solo_unit(state: BtcState) -> None:
    """Everything assigned is placed: pass hands / start the next turn, repetition or round."""
    stage = stage_of(state)
    state.reveals += 1
    if state.mode == SOLO_SIMPLE:
        state.step += 1
        if state.step < stage.units:
            _start_simple_repetition(state)
        else:
            _next_stage(state)
        return
    if stage.duplex:
        _next_stage(state)
        return
    hands = [p.hand for p in state.players]
    for i, p in enumerate(state.players):
        p.hand = sorted(hands[giver(state, i, stage.passing)])
    if all(len(p.hand) <= 1 for p in state.players):
        for p in state.players:
            state.discard.extend(p.hand)
            p.hand = []
        _next_stage(state)
    else:
        state.step += 1
        _automa_turn(state)


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
        for p in state.players for x in p.pending
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
        if other is not None and city not in p.waits and bound_for(state, seat, city) \
                and bound_for(state, other, city):
            out.append(city)
    return out


def awaited(state: BtcState) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if is_solo(state):
        return frozenset({0})
    return frozenset(s for s in range(state.seats) if can_choose(state, s) or place_options(state, s))


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------


def _fields(move: Mapping[str, Any], *required: str) -> None:
    if set(move) != {"kind", *required}:
        raise IllegalMove("btc.move.fields", kind=move.get("kind"), fields=", ".join(required))


def _int(move: Mapping[str, Any], key: str) -> int:
    value = move[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalMove("btc.move.bad")
    return value


def _from_hand(hand: list[int], tile: int) -> int:
    if tile not in hand:
        raise IllegalMove("btc.choose.not_in_hand", tile=tile)
    return tile


def _choose(state: BtcState, seat: int, move: Mapping[str, Any]) -> None:
    if is_solo(state):
        raise IllegalMove("btc.move.not_in_mode", kind="choose")
    p = state.players[seat]
    if p.pending:
        raise NotYourTurn("btc.wait.place_first")
    if p.choice:
        raise NotYourTurn("btc.wait.committed")
    if len(p.hand) < 2:
        raise NotYourTurn("btc.wait.no_hand")
    if stage_of(state).duplex:
        _fields(move, "left", "right")
        left, right = _from_hand(p.hand, _int(move, "left")), _from_hand(p.hand, _int(move, "right"))
        if left == right:
            raise IllegalMove("btc.choose.same")
        choice = [left, right]
    else:
        _fields(move, "tiles")
        picked = move["tiles"]
        if not isinstance(picked, list) or len(picked) != 2 or not all(
                isinstance(t, int) and not isinstance(t, bool) for t in picked):
            raise IllegalMove("btc.choose.two")
        for t in picked:
            _from_hand(p.hand, t)
        if picked[0] == picked[1]:
            raise IllegalMove("btc.choose.two")
        if picked[0] > picked[1]:
            raise IllegalMove("btc.choose.order")
        choice = list(picked)
    p.choice = choice
    p.outgoing = [t for t in p.hand if t not in choice]
    p.hand = []


def _assign(state: BtcState, seat: int, move: Mapping[str, Any]) -> None:
    if not is_solo(state):
        raise IllegalMove("btc.move.not_in_mode", kind="assign")
    if state.phase != "assign":
        raise IllegalMove("btc.phase.place_first")
    human = state.players[0]
    if state.mode == SOLO_SIMPLE:
        _fields(move, "left", "right", "auto")
        picked = [_int(move, "left"), _int(move, "right"), _int(move, "auto")]
        if sorted(picked) != sorted(human.hand):
            raise IllegalMove("btc.assign.three")
        left, right, auto = picked
        _place_loose(state.cities[AUTOMACITY], state, auto)
        human.pending += [Pending(left, LEFT_CITY), Pending(right, RIGHT_CITY)]
        human.hand = []
        state.phase = "place"
        return
    _fields(move, "left", "right")
    left, right = _from_hand(human.hand, _int(move, "left")), _from_hand(human.hand, _int(move, "right"))
    if left == right:
        raise IllegalMove("btc.choose.same")
    human.pending += [Pending(left, LEFT_CITY), Pending(right, RIGHT_CITY)]
    human.hand = [t for t in human.hand if t not in (left, right)]
    stage = stage_of(state)
    if not stage.duplex:
        state.phase = "place"
        return
    state.discard.extend(human.hand)  # the third duplex (10.5 round 2)
    human.hand = []
    state.step += 1
    if state.step < stage.units:
        human.hand = _draw(state, True, HAND_DUPLEXES)
    else:
        state.phase = "place"


_PROBLEM_KEYS = {
    "first_centre": "btc.place.first_centre",
    "occupied": "btc.place.occupied",
    "not_touching": "btc.place.not_touching",
    "too_big": "btc.place.too_big",
}


def _place(state: BtcState, seat: int, move: Mapping[str, Any], turned: bool) -> None:
    _fields(move, "tile", "city", "cell")
    tile, city = _int(move, "tile"), _int(move, "city")
    cell_text = move["cell"]
    if not isinstance(cell_text, str):
        raise IllegalMove("btc.move.bad")
    if is_solo(state) and state.phase != "place":
        raise IllegalMove("btc.phase.assign_first")
    player = state.players[seat]
    if not player.pending:
        raise NotYourTurn("btc.place.nothing")
    pend = next((x for x in player.pending if x.tile == tile), None)
    if pend is None:
        raise IllegalMove("btc.place.not_pending", tile=tile)
    if not 0 <= city < len(state.cities) or city not in cities_of(state, seat):
        raise IllegalMove("btc.place.not_your_city", city=_city_label(state, city))
    name = city_name(state, city)
    if city not in target_cities(state, seat, pend):
        if pend.city != FREE:
            raise IllegalMove("btc.place.assigned_elsewhere", city=name, assigned=city_name(state, pend.city))
        raise IllegalMove("btc.place.city_done", city=name)
    if blocked(state, seat, city):
        other = partner(state, seat, city)
        both = other is not None and city in state.players[other].waits
        raise NotYourTurn("btc.place.partner_first" if both else "btc.place.wait_partner", city=name)
    anchor = core.parse_cell(cell_text, G.FRAME, G.FRAME)
    if cell_text != core.cell_name(anchor):
        raise IllegalMove("btc.place.cell_form", cell=cell_text, name=core.cell_name(anchor))
    kind = kind_of(state, tile)
    must_turn, anchors = spots(state, tile, city)
    if turned and kind.shape == T.SINGLE:
        raise IllegalMove("btc.place.turn_single")
    if turned and not must_turn:
        raise IllegalMove("btc.place.turn_not_needed", city=name)
    if must_turn and not turned:
        raise IllegalMove("btc.place.must_turn", city=name)
    shape = G.shape_of(kind, turned)
    if anchor not in anchors:
        reason = G.problem(state.cities[city].cells.keys(), G.cover(anchor, shape))
        key = _PROBLEM_KEYS[reason] if reason is not None else "btc.place.strands"
        raise IllegalMove(key, city=name, cell=core.cell_name(anchor))
    cells = state.cities[city].cells
    for i, (cell, face) in enumerate(zip(G.cover(anchor, shape), kind.faces, strict=True)):
        cells[cell] = (face, tile, 0 if kind.shape == T.SINGLE else i + 1)
    player.pending.remove(pend)
    player.placed.append(city)


def _you_first(state: BtcState, seat: int, move: Mapping[str, Any]) -> None:
    if state.mode != STANDARD:
        raise IllegalMove("btc.move.not_in_mode", kind="you_first")
    _fields(move, "city")
    city = _int(move, "city")
    if not 0 <= city < len(state.cities) or city not in cities_of(state, seat):
        raise IllegalMove("btc.place.not_your_city", city=_city_label(state, city))
    name = city_name(state, city)
    player = state.players[seat]
    other = partner(state, seat, city)
    if city in player.waits:
        raise IllegalMove("btc.first.already", city=name)
    if not bound_for(state, seat, city):
        raise IllegalMove("btc.first.nothing_to_place", city=name)
    if other is None or not bound_for(state, other, city):
        raise IllegalMove("btc.first.partner_done", city=name)
    player.waits.append(city)


def bonus_choices(state: BtcState) -> list[tuple[str, int]]:
    """(category, city) pairs the campaign bonus may take now (10.10, D-23)."""
    if state.phase != "bonus":
        return []
    used = {LETTER_CATEGORY[x] for x in state.options.get("campaign_used", NO_TYPES) if x in LETTER_CATEGORY}
    totals = city_totals(state)
    low = min(totals[LEFT_CITY], totals[RIGHT_CITY])
    cities = [c for c in (LEFT_CITY, RIGHT_CITY) if totals[c] == low]
    return [(cat, c) for cat in scoring.CATEGORIES if cat not in used for c in cities]


def _bonus(state: BtcState, seat: int, move: Mapping[str, Any]) -> None:
    if state.phase != "bonus":
        raise IllegalMove("btc.phase.no_bonus")
    _fields(move, "type", "city")
    category, city = move["type"], _int(move, "city")
    if category not in scoring.CATEGORIES:
        raise IllegalMove("btc.bonus.type", type=category)
    allowed = bonus_choices(state)
    if not any(cat == category for cat, _ in allowed):
        raise IllegalMove("btc.bonus.used", type=category)
    if (category, city) not in allowed:
        cities = [city_name(state, c) for cat, c in allowed if cat == category]
        either = core.term("btc.city.either", a=cities[0], b=cities[1]) if len(cities) == 2 else cities
        raise IllegalMove("btc.bonus.city", city=either)
    state.bonus = {"type": category, "city": city}
    state.phase = "over"


# ---------------------------------------------------------------------------------------------
# Scores and results
# ---------------------------------------------------------------------------------------------


def modifier(state: BtcState, city: int) -> int:
    """Automacity's difficulty modifier (10.9); 0 for every other city."""
    if is_solo(state) and city == AUTOMACITY:
        return T.DIFFICULTY_MODIFIER[state.options.get("difficulty", "4")]
    return 0


def city_scores(state: BtcState) -> list[dict[str, int]]:
    """The six category scores of every city now (Automacity: maximal, without the modifier)."""
    counts = factory_counts(state)
    out = []
    for i, city in enumerate(state.cities):
        value = scoring.per_factory(counts[i], counts)
        if city.grid:
            faces = {cell: spot[0] for cell, spot in city.cells.items()}
            out.append(scoring.score_grid(faces, value))
        else:
            out.append(scoring.score_automacity(city.faces(), value))
    return out


def city_totals(state: BtcState, scores: list[dict[str, int]] | None = None) -> list[int]:
    """Every city's total, Automacity's with its difficulty modifier."""
    scores = scores if scores is not None else city_scores(state)
    return [scoring.total(s) + modifier(state, i) for i, s in enumerate(scores)]


def standing(totals: Sequence[int], buildings: Sequence[Sequence[int]], left: int, right: int,
             two_player: bool) -> tuple[int, tuple[int, ...]]:
    """(final score, tie-break key) of a player from the totals and building counts of every city.

    3-7 players and solo (8.8): the lower city, then the higher city, then buildings over both
    cities type by type (a shared city counts for both partners, D-10). 2-player (section 9): the
    sum of both cities, then the building counts only.
    """
    counts = tuple(a + b for a, b in zip(buildings[left], buildings[right], strict=True))
    if two_player:
        return totals[left] + totals[right], counts
    return min(totals[left], totals[right]), (max(totals[left], totals[right]), *counts)


def tiebreak_names(two_player: bool) -> tuple[str, ...]:
    """``names`` for core.build_result: what each component of (final, *tie-break) means."""
    return (TIEBREAK_NAMES[0], *TIEBREAK_NAMES[2:]) if two_player else TIEBREAK_NAMES


def _table_result(state: BtcState) -> tuple[Result, list[dict[str, Any]]]:
    """Ranking of every place at the table (solo: you and both Automas)."""
    scores = city_scores(state)
    totals = city_totals(state, scores)
    buildings = [tuple(scoring.type_counts(c.faces()).values()) for c in state.cities]
    finals: list[int] = []
    breakdowns: list[dict[str, int]] = []
    tiebreaks: list[tuple[int, ...]] = []
    details: list[dict[str, Any]] = []
    two = state.mode == TWO_PLAYER
    for player in range(len(state.players)):
        left, right = cities_of(state, player)
        final, tiebreak = standing(totals, buildings, left, right, two)
        lower_city = right if totals[right] < totals[left] else left
        if two:
            breakdown = {c: scores[left][c] + scores[right][c] for c in scoring.CATEGORIES}
        else:
            breakdown = dict(scores[lower_city])
            if modifier(state, lower_city):
                breakdown["difficulty"] = modifier(state, lower_city)
        finals.append(final)
        breakdowns.append(breakdown)
        tiebreaks.append(tiebreak)
        details.append({
            "left_city": left,
            "right_city": right,
            "lower_city": lower_city,
            "cities": {
                "left": {**scores[left], "modifier": modifier(state, left), "total": totals[left]},
                "right": {**scores[right], "modifier": modifier(state, right), "total": totals[right]},
            },
            "higher": max(totals[left], totals[right]),
            "buildings": dict(zip(scoring.CATEGORIES, tiebreak[-len(T.TYPES):], strict=True)),
        })
    result = core.build_result(finals, breakdowns, tiebreaks, names=tiebreak_names(two), details=details)
    cities = [
        {"city": i, "name": city_term(c.name), "categories": scores[i], "modifier": modifier(state, i),
         "total": totals[i]}
        for i, c in enumerate(state.cities)
    ]
    return result, cities


def game_result(state: BtcState) -> Result:
    """The result (provisional before the end). Solo: only seat 0, ranked against the Automas."""
    table, cities = _table_result(state)
    details: dict[str, Any] = {"cities": cities, "over": state.phase == "over"}
    if not is_solo(state):
        return replace(table, details=details)
    human = table.seats[0]
    details["automas"] = [
        {**s.to_json(), "name": automa_term(s.seat)} for s in table.seats[1:]
    ]
    details["difficulty"] = int(state.options.get("difficulty", "4"))
    seat_details = dict(human.details)
    if state.options.get("campaign", "off") != "off":
        seat_details["campaign"] = campaign_summary(state, human.rank == 1)
    return Result(seats=(replace(human, details=seat_details),), decided_by=table.decided_by, details=details)


def campaign_summary(state: BtcState, won: bool) -> dict[str, Any]:
    """What the campaign record needs from this game (10.10, D-23, D-24)."""
    totals = city_totals(state)
    cp = min(totals[LEFT_CITY], totals[RIGHT_CITY])
    used = [LETTER_CATEGORY[x] for x in state.options.get("campaign_used", NO_TYPES) if x in LETTER_CATEGORY]
    out: dict[str, Any] = {
        "length": int(state.options["campaign"]),
        "game": int(state.options.get("campaign_game", "1")),
        "won": won,
        "campaign_points": cp,
        "used_before": used,
        "bonus_type": None,
        "bonus_city": None,
        "bonus": 0,
        "total": cp,
    }
    if state.bonus is not None:
        scores = city_scores(state)
        category, city = state.bonus["type"], state.bonus["city"]
        points = scores[city][category] * (2 if won else 1)
        out.update(bonus_type=category, bonus_city=city, bonus=points, total=cp + points,
                   used_after=[c for c in scoring.CATEGORIES if c in used or c == category])
    return out


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
            return [{"kind": "assign", "left": a, "right": b, "auto": c}
                    for a, b, c in itertools.permutations(hand, 3)]
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
