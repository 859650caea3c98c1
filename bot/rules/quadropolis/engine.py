"""The game flow of Quadropolis (spec: shared/rules/quadropolis.md): setup, legal moves, apply, scoring.

A turn is two moves, so each step can be offered and refused on its own (spec 6.1):

- ``{"kind": "take", "architect": 3, "slot": "L4"}`` places an architect in a slot (``L1``-``L5``
  left of the site's rows, ``R1``-``R5`` right, ``T1``-``T5`` above its columns, ``B1``-``B5``
  below), moves the urbanist and takes the face-up tile the architect points at. Pointing at an
  empty or face-down square takes nothing and ends the turn (D-2, D-4).
- then ``{"kind": "build", "square": "B3"}`` (city square, row letter + column number; add
  ``"floor": n`` when stacking on a tower or office of height n-1) or ``{"kind": "discard"}``.

Inhabitants and energy are never placed by hand. The rulebook lets players move them freely until
the end, and only the arrangement after the last turn counts (spec 6.8, 7); the engine makes that
arrangement for every player, the best one (8.12), and the spec needs no manual override (D-24).
So there is no move for it while the game is on, nor after: an ``allocate`` move (offered by
earlier versions) is refused with a sentence and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.core import Cell, GameOver, IllegalMove, Move, NotYourTurn
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.allocation import best_allocation
from bot.rules.quadropolis.board import MOVE_FIELDS as MOVE_FIELDS
from bot.rules.quadropolis.board import architects_free as architects_free
from bot.rules.quadropolis.board import build_move as build_move
from bot.rules.quadropolis.board import check_fields as check_fields
from bot.rules.quadropolis.board import conservation_problems as conservation_problems
from bot.rules.quadropolis.board import eligible as eligible
from bot.rules.quadropolis.board import int_field as int_field
from bot.rules.quadropolis.board import open_slots as open_slots
from bot.rules.quadropolis.board import parse_square as parse_square
from bot.rules.quadropolis.board import prepare_site as prepare_site
from bot.rules.quadropolis.board import reach_text as reach_text
from bot.rules.quadropolis.board import site_index as site_index
from bot.rules.quadropolis.board import square_name as square_name
from bot.rules.quadropolis.scoring import CATEGORIES, ScoreSheet
from bot.rules.quadropolis.state import PHASE_BUILD, PHASE_OVER, PHASE_TAKE, PlayerState, QuadState, grid_of

TIEBREAK_NAMES = ("score", "quadropolis.tiebreak.inhabitants", "quadropolis.tiebreak.empty_squares")
"""What ``Result.decided_by`` may name (spec 8.11): the total, then each tie-break."""

NO_MANUAL_ALLOCATION = "allocate"
"""The move kind earlier versions offered to keep a building idle; now always refused (D-24)."""
KIND_IDS = {
    "TOWER": "tower",
    "SHOP": "shop",
    "PUBLIC": "public",
    "PARK": "park",
    "FACTORY": "factory",
    "HARBOR": "harbour",
    "OFFICE": "office",
    "MONUMENT": "monument",
}
"""Tile type -> the id of its name in the catalogue (``quadropolis.tile.kind.<id>``)."""
TYPE_NAMES = {kind: core.term(f"quadropolis.tile.kind.{name}") for kind, name in KIND_IDS.items()}
"""A building's name as a term (``quadropolis.tile.kind.*``: "tower block")."""


# ---------------------------------------------------------------------------------------------
# Setup and legal moves
# ---------------------------------------------------------------------------------------------


def new_game(opts: Mapping[str, Any], seat_count: int, seed: int) -> QuadState:
    """A new game from normalised options; the seat count is checked by the caller."""
    mode = T.MODE_RULES[opts["mode"]]
    first = core.rng(seed, "first player").randrange(seat_count)  # D-19
    site, face_down = prepare_site(mode.name, seat_count, seed, 1)
    seats = [
        PlayerState(
            city=[[[] for _ in range(mode.cols)] for _ in range(mode.rows)],
            architects=[] if mode.shared_pool else list(mode.architects),
        )
        for _ in range(seat_count)
    ]
    return QuadState(
        mode=mode.name,
        players=seat_count,
        seed=seed,
        round=1,
        first=first,
        mayor=first,
        turn=0,
        phase=PHASE_TAKE,
        site=site,
        face_down=face_down,
        slots={},
        pool=[seat_count] * len(mode.architects) if mode.shared_pool else [],
        urbanist=None,
        pending=None,
        pending_architect=0,
        seats=seats,
    )


def legal_moves(state: QuadState, seat: int) -> list[Move]:
    """The legal moves: take, then build or discard. Never ``allocate`` (D-24)."""
    if state.over or seat != state.current:
        return []
    if state.phase == PHASE_TAKE:
        slots = open_slots(state)
        values = architects_free(state, seat)
        assert slots and values, "a legal slot and a free architect always exist (D-17)"
        return [{"kind": "take", "architect": v, "slot": s} for v in values for s in slots]
    assert state.pending is not None
    moves = [
        build_move(cell, floor)
        for cell, floor in eligible(state.rules, state.seats[seat].city, state.pending, state.pending_architect)
    ]
    moves.append({"kind": "discard"})
    return moves


# ---------------------------------------------------------------------------------------------
# Apply
# ---------------------------------------------------------------------------------------------


def apply(state: QuadState, seat: int, move: Move) -> QuadState:
    """The state after ``seat`` plays ``move``; ``state`` is unchanged, a refusal changes nothing."""
    if state.over:
        raise GameOver()
    if seat != state.current:
        raise NotYourTurn()
    if not isinstance(move, Mapping):
        raise IllegalMove("error.bad_move")
    if move.get("kind") == NO_MANUAL_ALLOCATION:
        raise IllegalMove("quadropolis.allocate.automatic")
    kind = check_fields(move)
    if kind == "take":
        return _take(state, seat, move)
    if kind == "build":
        return _build(state, seat, move)
    assert kind == "discard"
    if state.phase != PHASE_BUILD:
        raise IllegalMove("quadropolis.phase.take_first")
    assert state.pending is not None
    after = state.clone()
    after.discarded.append(state.pending)
    _end_turn(after)
    return after


def _check_take(state: QuadState, seat: int, move: Move) -> tuple[int, str]:
    """The architect and slot of a take move, or the sentence that refuses it."""
    mode = state.rules
    if state.phase != PHASE_TAKE:
        raise IllegalMove("quadropolis.phase.build_first")
    value = int_field(move, "architect", "quadropolis.take.bad_architect")
    if value not in mode.architects:
        raise IllegalMove("quadropolis.take.bad_architect", value=str(value))
    if mode.shared_pool:
        if state.pool[value - 1] <= 0:
            raise IllegalMove("quadropolis.take.pool_empty", architect=value)
    elif value not in state.seats[seat].architects:
        raise IllegalMove("quadropolis.take.architect_used", architect=value)
    slot = move.get("slot")
    if not isinstance(slot, str) or slot not in T.SLOTS:
        raise IllegalMove("quadropolis.take.bad_slot", slot=str(slot))
    if slot in state.slots:
        raise IllegalMove("quadropolis.take.slot_taken", slot=T.slot_term(slot), architect=state.slots[slot][0])
    if T.slot_blocked(slot, state.urbanist):
        axis, index = T.slot_line(slot)
        raise IllegalMove(
            "quadropolis.take.urbanist_row" if axis == "row" else "quadropolis.take.urbanist_column",
            slot=T.slot_term(slot),
            line=index + 1,
        )
    return value, slot


def _take(state: QuadState, seat: int, move: Move) -> QuadState:
    value, slot = _check_take(state, seat, move)
    after = state.clone()
    after.slots[slot] = [value, seat]
    if state.rules.shared_pool:
        after.pool[value - 1] -= 1
    else:
        after.seats[seat].architects.remove(value)
    target = T.slot_target(slot, value)
    index = site_index(target)
    after.urbanist = target  # spec 6.3: the urbanist moves even when nothing is taken
    tile = state.site[index]
    if tile is None or state.face_down[index]:
        _end_turn(after)  # D-2, D-4: nothing taken, the architect is used
        return after
    after.site[index] = None
    after.pending = tile
    after.pending_architect = value
    after.phase = PHASE_BUILD
    return after


def _check_build(state: QuadState, seat: int, move: Move) -> Cell:
    """The square of a build move, or the sentence that refuses it."""
    mode = state.rules
    if state.phase != PHASE_BUILD:
        raise IllegalMove("quadropolis.phase.take_first")
    tile = state.pending
    assert tile is not None
    value = state.pending_architect
    cell = parse_square(mode, move.get("square"))
    name = square_name(cell)
    stack = state.seats[seat].city[cell[0]][cell[1]]
    kind = T.kind_of(tile)
    has_floor = "floor" in move
    if not stack:
        if has_floor:
            raise IllegalMove("quadropolis.build.floor_on_empty", square=name)
        if not mode.reaches(cell, value):
            raise IllegalMove(
                "quadropolis.build.out_of_reach", square=name, architect=value, reach=reach_text(mode, value)
            )
        return cell
    below = T.kind_of(stack[-1])
    if kind.type not in mode.stackable or below.type != kind.type:
        raise IllegalMove(
            "quadropolis.build.occupied", square=name, building=TYPE_NAMES[below.type], tile=TYPE_NAMES[kind.type]
        )
    height = len(stack)
    if height >= mode.max_height:
        raise IllegalMove(
            "quadropolis.build.full", square=name, building=TYPE_NAMES[below.type], floors=mode.max_height
        )
    if not mode.reaches(cell, value) and height + 1 != value:
        raise IllegalMove(
            "quadropolis.build.stack_out_of_reach",
            square=name,
            architect=value,
            floor=height + 1,
            reach=reach_text(mode, value),
        )
    if not has_floor:
        raise IllegalMove("quadropolis.build.floor_needed", square=name, floor=height + 1)
    floor = int_field(move, "floor", "quadropolis.build.bad_floor")
    if floor != height + 1:
        raise IllegalMove("quadropolis.build.floor_mismatch", square=name, floor=floor, next=height + 1)
    return cell


def _build(state: QuadState, seat: int, move: Move) -> QuadState:
    cell = _check_build(state, seat, move)
    tile = state.pending
    assert tile is not None
    kind = T.kind_of(tile)
    after = state.clone()
    player = after.seats[seat]
    player.city[cell[0]][cell[1]].append(tile)
    player.inhabitants += kind.gives_inh
    player.energy += kind.gives_nrg
    if kind.mayor:
        after.mayor = seat  # spec 6.6, D-18
    _end_turn(after)
    return after


def _end_turn(state: QuadState) -> None:
    """Finish the current turn in place (spec 6.1, 6.7, 6.8)."""
    state.pending = None
    state.pending_architect = 0
    state.phase = PHASE_TAKE
    state.turn += 1
    mode = state.rules
    if state.turn < mode.turns_per_round * state.players:
        return
    state.returned.extend(t for t in state.site if t is not None)
    state.slots = {}
    state.urbanist = None
    state.turn = 0
    if state.round == mode.rounds:
        state.site = [None] * (T.SITE_SIZE * T.SITE_SIZE)
        state.face_down = [False] * (T.SITE_SIZE * T.SITE_SIZE)
        state.phase = PHASE_OVER
        return
    state.round += 1
    state.first = state.mayor
    state.site, state.face_down = prepare_site(state.mode, state.players, state.seed, state.round)
    if mode.shared_pool:
        state.pool = [state.players] * len(mode.architects)
    else:
        for p in state.seats:
            p.architects = list(mode.architects)


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------


def sheet(state: QuadState, seat: int) -> ScoreSheet:
    """A seat's score under its best allocation: the one every player gets at the end (8.12, D-24)."""
    player = state.seats[seat]
    return best_allocation(state.rules, grid_of(player), player.inhabitants, player.energy)


def game_result(state: QuadState) -> core.Result:
    sheets = [sheet(state, seat) for seat in range(state.players)]
    return core.build_result(
        totals=[s.total for s in sheets],
        breakdowns=[{k: s.categories[k] for k in CATEGORIES} for s in sheets],
        tiebreaks=[(s.inhabitants_on_buildings, -s.empty_squares) for s in sheets],
        names=TIEBREAK_NAMES,
        details=[
            {
                "inhabitants_on_buildings": s.inhabitants_on_buildings,
                "empty_squares": s.empty_squares,
                "provisional": not state.over,
            }
            for s in sheets
        ],
    )
