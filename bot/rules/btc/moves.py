"""Between Two Cities' moves applied to a state (choose, assign, place, you-first, bonus), each checking its fields
and refusing with a sentence what the rules forbid; :func:`bot.rules.btc.engine.apply_move` dispatches here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.btc import geometry as G
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.access import blocked, bound_for, spots, target_cities
from bot.rules.btc.outcome import city_totals
from bot.rules.btc.state import FREE, BtcState, Pending
from bot.rules.btc.table import (
    AUTOMACITY,
    HAND_DUPLEXES,
    LEFT_CITY,
    LETTER_CATEGORY,
    NO_TYPES,
    RIGHT_CITY,
    SOLO_SIMPLE,
    STANDARD,
    _city_label,
    _draw,
    _place_loose,
    cities_of,
    city_name,
    is_solo,
    kind_of,
    partner,
    stage_of,
)
from bot.rules.core import IllegalMove, NotYourTurn

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
        if (
            not isinstance(picked, list)
            or len(picked) != 2
            or not all(isinstance(t, int) and not isinstance(t, bool) for t in picked)
        ):
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
