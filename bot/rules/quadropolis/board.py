"""Quadropolis' squares and move fields (spec: shared/rules/quadropolis.md): the names of city and site
squares, a round's site, where a tile may be built, the free architects and slots, and the fields of a
move read and checked. Re-exported by :mod:`bot.rules.quadropolis.engine`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import core
from bot.rules.core import Cell, IllegalMove, Move
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.state import QuadState

MOVE_FIELDS = {
    "take": frozenset({"kind", "architect", "slot"}),
    "build": frozenset({"kind", "square", "floor"}),
    "discard": frozenset({"kind"}),
}


def square_name(cell: Cell) -> str:
    """A city square as moves name it: ``(1, 2)`` -> ``"B3"``."""
    return core.cell_name(cell)


def site_index(cell: Cell) -> int:
    return cell[0] * T.SITE_SIZE + cell[1]


def prepare_site(mode: str, players: int, seed: int, round_no: int) -> tuple[list[str | None], list[bool]]:
    """Spec 5.3: the round set shuffled onto the 25 squares; marked tiles stay face down."""
    order = core.shuffled(T.round_set(mode, round_no), seed, "site", round_no)
    site: list[str | None] = list(order)
    face_down = [not T.face_up(tid, players) for tid in order]
    return site, face_down


def eligible(mode: T.ModeRules, city: list[list[list[str]]], tile_id: str, value: int) -> list[tuple[Cell, int]]:
    """Where a tile taken with architect ``value`` may be built (spec 6.4), as (square, floor).

    Floor 1 is a new building on an empty square (location match needed, D-5); floor h+1 stacks
    on a building of the same stackable type (location match or floor number = value).
    """
    kind = T.kind_of(tile_id)
    out: list[tuple[Cell, int]] = []
    for cell in mode.cells():
        stack = city[cell[0]][cell[1]]
        if not stack:
            if mode.reaches(cell, value):
                out.append((cell, 1))
            continue
        if kind.type not in mode.stackable or T.kind_of(stack[-1]).type != kind.type:
            continue
        height = len(stack)
        if height < mode.max_height and (mode.reaches(cell, value) or height + 1 == value):
            out.append((cell, height + 1))
    return out


def build_move(cell: Cell, floor: int) -> Move:
    move: Move = {"kind": "build", "square": square_name(cell)}
    if floor > 1:
        move["floor"] = floor
    return move


def architects_free(state: QuadState, seat: int) -> list[int]:
    """Architect values the seat may place now (Classic: its own unused ones; Expert: the pool)."""
    if state.rules.shared_pool:
        return [v for v in state.rules.architects if state.pool[v - 1] > 0]
    return sorted(state.seats[seat].architects)


def open_slots(state: QuadState) -> list[str]:
    """Slots free this round and not on the urbanist's line (spec 6.2, D-1)."""
    return [s for s in T.SLOTS if s not in state.slots and not T.slot_blocked(s, state.urbanist)]


def reach_text(mode: T.ModeRules, value: int) -> core.Term:
    """The squares an architect designates, as a term: ``"row C or column 3"`` (city rows are letters),
    ``"field 3 or district 3"`` in Expert."""
    if mode.fields is None:
        return core.term("quadropolis.reach.rows", row=chr(ord("A") + value - 1), column=value)
    return core.term("quadropolis.reach.fields", n=value)


def check_fields(move: Mapping[str, Any]) -> str:
    kind = move.get("kind")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise IllegalMove("quadropolis.move.unknown", kind=str(kind))
    extra = sorted(set(move) - MOVE_FIELDS[kind])
    if extra:
        raise IllegalMove("quadropolis.move.extra_field", field=extra[0], kind=kind)
    return kind


def int_field(move: Mapping[str, Any], name: str, key: str) -> int:
    value = move.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(key, value=str(value))
    return value


def parse_square(mode: T.ModeRules, value: Any) -> Cell:
    last = f"{chr(ord('A') + mode.rows - 1)}{mode.cols}"
    if not isinstance(value, str):
        raise IllegalMove("quadropolis.build.bad_square", square=str(value), last=last)
    try:
        cell = core.parse_cell(value, mode.rows, mode.cols)
    except IllegalMove:
        raise IllegalMove("quadropolis.build.bad_square", square=value, last=last) from None
    if square_name(cell) != value:
        raise IllegalMove("quadropolis.build.square_spelling", square=value, canonical=square_name(cell))
    return cell


def conservation_problems(state: QuadState) -> list[str]:
    """Every tile of the round sets dealt so far is in exactly one place (empty list: conserved)."""
    dealt = [tid for r in range(1, state.round + 1) for tid in T.round_set(state.mode, r)]
    seen: list[str] = [t for t in state.site if t is not None]
    if state.pending is not None:
        seen.append(state.pending)
    for p in state.seats:
        for row in p.city:
            for stack in row:
                seen.extend(stack)
    seen += state.discarded + state.returned
    problems = []
    if sorted(seen) != sorted(dealt):
        missing = sorted(set(dealt) - set(seen))
        extra = sorted(t for t in set(seen) if seen.count(t) > 1 or t not in set(dealt))
        problems.append(f"missing {missing[:5]}, duplicated or foreign {extra[:5]}")
    return problems
