"""What a seat sees of a Quadropolis game, and public one-line summaries of moves.

The view is the same for every seat: nothing is hidden but the face-down tiles of the site, whose
identity is never in it (D-25). Its shape is typed in :mod:`bot.rules.quadropolis.viewtypes`.
"""

from __future__ import annotations

from typing import Any, cast

from bot.rules import core
from bot.rules.core import Move
from bot.rules.quadropolis import engine as E
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.engine import KIND_IDS, TYPE_NAMES, site_index, square_name
from bot.rules.quadropolis.scoring import CATEGORIES, COST_BEARING, ScoreSheet, cost_bearing
from bot.rules.quadropolis.state import PlayerState, QuadState, building_of, grid_of
from bot.rules.quadropolis.viewtypes import (
    Mode,
    Phase,
    QuadArchitects,
    QuadBuilding,
    QuadCity,
    QuadCitySquare,
    QuadPending,
    QuadResult,
    QuadScore,
    QuadSite,
    QuadSiteSquare,
    QuadSlot,
    QuadTile,
    QuadUrbanist,
    QuadView,
    TileType,
)

# ---------------------------------------------------------------------------------------------
# Tiles as terms
# ---------------------------------------------------------------------------------------------


def tile_label(tile_id: str) -> core.Term:
    """A tile as a term, "a tower block (+2 inhabitants)" in English: its name (``quadropolis.tile.a.*``)
    and what it gives (``quadropolis.gain.*``)."""
    k = T.kind_of(tile_id)
    if k.type == "PARK" and not k.absorbs:
        name = "playground"
    elif k.mayor:
        name = "mayor"
    else:
        name = KIND_IDS[k.type]
    extras = _gains(k.gives_inh, k.gives_nrg)
    if k.vp:
        extras.append(core.term("quadropolis.gain.vp", n=k.vp))
    named = core.term(f"quadropolis.tile.a.{name}")
    return core.term("quadropolis.tile.with", name=named, extras=extras) if extras else named


def tile_json(tile_id: str) -> QuadTile:
    k = T.kind_of(tile_id)
    return {
        "id": tile_id,
        "type": cast(TileType, k.type),
        "code": k.code,
        "inhabitants": k.gives_inh,
        "energy": k.gives_nrg,
        "vp": k.vp,
        "mayor": k.mayor,
        "absorbs": k.absorbs,
        "label": tile_label(tile_id),
    }


def _gains(inhabitants: int, energy: int) -> list[core.Term]:
    parts = []
    if inhabitants:
        parts.append(core.term("quadropolis.gain.inhabitants", n=inhabitants))
    if energy:
        parts.append(core.term("quadropolis.gain.energy", n=energy))
    return parts


def _gain_text(inhabitants: int, energy: int) -> list[core.Term] | core.Term:
    """What a building gives, as terms ("+2 inhabitants, +1 energy"; "no resources")."""
    return _gains(inhabitants, energy) or core.term("quadropolis.gain.none")


# ---------------------------------------------------------------------------------------------
# The view
# ---------------------------------------------------------------------------------------------


def view(state: QuadState, seat: int | None) -> QuadView:
    """Everything a renderer and the Discord layer need; the same for every seat.

    Shape (all JSON)::

        {"game": "quadropolis", "mode": "classic"|"expert", "players": P, "viewer": seat|None,
         "round": r, "rounds": 4|5, "first_player": seat, "mayor": seat,
         "turn": {"seat": s|None, "phase": "take"|"build"|"over", "number": k, "of": 4P},
         "site": {"squares": [[{"square": "S(1,1)", "row": 1, "column": 1,
                                "state": "tile"|"face_down"|"empty", "tile": TILE?}, ...5], ...5],
                  "slots": {"L1": {"architect": 3, "seat": 0} | None, ... 20 slots},
                  "open_slots": ["L2", ...], "urbanist": {"square": "S(3,2)", "row": 3,
                                                          "column": 2} | None},
         "architects": {"shared_pool": bool, "pool": {"1": n, ...} | None,
                        "per_seat": [[1, 2, 4], ...] | None},
         "pending": {"seat": s, "tile": TILE, "architect": n,
                     "destinations": [{"square": "B3", "floor": 1}, ...]} | None,
         "cities": [{"seat": s, "rows": R, "columns": C, "inhabitants": i, "energy": e,
                     "squares": [[{"square": "A1", "district": d, "field": f|None,
                                   "building": None | {"type": "TOWER", "code": "T",
                                   "floors": h, "top": TILE, "vp": v, "cost_bearing": bool,
                                   "active": bool}}, ...], ...],
                     "score": SCORE}, ...],
         "over": bool, "result": Result.to_json() | None}

    ``TILE`` is ``{"id", "type", "code", "inhabitants", "energy", "vp", "mayor", "absorbs",
    "label"}``. ``SCORE`` is the best allocation now (final when over): ``{"total",
    "categories": {...9 keys}, "inhabitants_on_buildings", "empty_squares", "provisional",
    "allocation": {"inactive": [...], "customers": {"A1": n}, "absorbing_parks": [...]}}``.
    ``active`` is that allocation's choice. Face-down tiles show only ``"state": "face_down"``:
    their identity is never in the view (D-25).
    """
    mode = state.rules
    return {
        "game": "quadropolis",
        "mode": cast(Mode, state.mode),
        "players": state.players,
        "viewer": seat,
        "round": state.round,
        "rounds": mode.rounds,
        "first_player": state.first,
        "mayor": state.mayor,
        "turn": {
            "seat": None if state.over else state.current,
            "phase": cast(Phase, state.phase),
            "number": state.turn + 1,
            "of": mode.turns_per_round * state.players,
        },
        "site": _site(state),
        "architects": _architects(state),
        "pending": _pending(state),
        "cities": [_city(state, s, player) for s, player in enumerate(state.seats)],
        "over": state.over,
        "result": cast(QuadResult, E.game_result(state).to_json()) if state.over else None,
    }


def _site(state: QuadState) -> QuadSite:
    site_rows: list[list[QuadSiteSquare]] = []
    for r in range(T.SITE_SIZE):
        row: list[QuadSiteSquare] = []
        for c in range(T.SITE_SIZE):
            i = site_index((r, c))
            entry: QuadSiteSquare = {"square": T.site_name((r, c)), "row": r + 1, "column": c + 1, "state": "empty"}
            tile = state.site[i]
            if tile is None:
                entry["state"] = "empty"
            elif state.face_down[i]:
                entry["state"] = "face_down"
            else:
                entry["state"] = "tile"
                entry["tile"] = tile_json(tile)
            row.append(entry)
        site_rows.append(row)
    slots: dict[str, QuadSlot | None] = dict.fromkeys(T.SLOTS)
    for slot, (value, owner) in state.slots.items():
        slots[slot] = {"architect": value, "seat": owner}
    urbanist: QuadUrbanist | None = (
        None
        if state.urbanist is None
        else {"square": T.site_name(state.urbanist), "row": state.urbanist[0] + 1, "column": state.urbanist[1] + 1}
    )
    return {"squares": site_rows, "slots": slots, "open_slots": E.open_slots(state), "urbanist": urbanist}


def _architects(state: QuadState) -> QuadArchitects:
    mode = state.rules
    return {
        "shared_pool": mode.shared_pool,
        "pool": {str(v): state.pool[v - 1] for v in mode.architects} if mode.shared_pool else None,
        "per_seat": None if mode.shared_pool else [sorted(p.architects) for p in state.seats],
    }


def _pending(state: QuadState) -> QuadPending | None:
    if state.pending is None:
        return None
    return {
        "seat": state.current,
        "tile": tile_json(state.pending),
        "architect": state.pending_architect,
        "destinations": [
            {"square": square_name(cell), "floor": floor}
            for cell, floor in E.eligible(
                state.rules, state.seats[state.current].city, state.pending, state.pending_architect
            )
        ],
    }


def _city(state: QuadState, s: int, player: PlayerState) -> QuadCity:
    mode = state.rules
    sheet = E.sheet(state, s)
    squares: list[list[QuadCitySquare]] = []
    for r in range(mode.rows):
        city_row: list[QuadCitySquare] = []
        for c in range(mode.cols):
            stack = player.city[r][c]
            b = building_of(stack)
            name = square_name((r, c))
            building: QuadBuilding | None = None
            if b is not None:
                costly = b.code in COST_BEARING
                building = {
                    "type": cast(TileType, b.type),
                    "code": b.code,
                    "floors": b.height,
                    "top": tile_json(stack[-1]),
                    "vp": b.vp,
                    "cost_bearing": costly,
                    "active": (not costly) or (r, c) in sheet.allocation.active,
                }
            city_row.append(
                {"square": name, "district": mode.district((r, c)), "field": mode.field((r, c)), "building": building}
            )
        squares.append(city_row)
    return {
        "seat": s,
        "rows": mode.rows,
        "columns": mode.cols,
        "inhabitants": player.inhabitants,
        "energy": player.energy,
        "squares": squares,
        "score": _score_json(sheet, state, player),
    }


def _score_json(sheet: ScoreSheet, state: QuadState, player: PlayerState) -> QuadScore:
    alloc = sheet.allocation
    inactive = [square_name(cell) for cell in cost_bearing(grid_of(player)) if cell not in alloc.active]
    return {
        "total": sheet.total,
        "categories": {k: sheet.categories[k] for k in CATEGORIES},
        "inhabitants_on_buildings": sheet.inhabitants_on_buildings,
        "empty_squares": sheet.empty_squares,
        "unused_inhabitants": sheet.unused_inhabitants,
        "unused_energy": sheet.unused_energy,
        "provisional": not state.over,
        "allocation": {
            "inactive": inactive,
            "customers": {square_name(cell): n for cell, n in sorted(alloc.customers)},
            "absorbing_parks": [square_name(cell) for cell in sorted(alloc.absorbing)],
        },
    }


# ---------------------------------------------------------------------------------------------
# Summaries
# ---------------------------------------------------------------------------------------------


def describe(before: QuadState, seat: int, move: Move) -> tuple[str, dict[str, Any]]:
    """A move as a catalogue key and its parameters, for everyone to read."""
    kind = move.get("kind")
    params: dict[str, Any] = {"seat": seat}
    if kind == "take":
        value, slot = move["architect"], move["slot"]
        target = T.slot_target(slot, value)
        index = site_index(target)
        params.update(architect=value, slot=T.slot_term(slot))
        tile = before.site[index]
        if tile is None:
            return ("quadropolis.move.take_empty", params)
        if before.face_down[index]:
            return ("quadropolis.move.take_face_down", params)
        params["tile"] = tile_label(tile)
        return ("quadropolis.move.take", params)
    if kind == "build":
        assert before.pending is not None
        k = T.kind_of(before.pending)
        params.update(
            tile=tile_label(before.pending),
            square=move["square"],
            gain=_gain_text(k.gives_inh, k.gives_nrg),
            architect=before.pending_architect,
        )
        if "floor" in move:
            params.update(floor=move["floor"], building=TYPE_NAMES[k.type])
            key = "quadropolis.move.stack"
        else:
            key = "quadropolis.move.build"
        if k.mayor:
            key += "_mayor"
        return (key, params)
    if kind == "discard":
        assert before.pending is not None
        params["tile"] = tile_label(before.pending)
        return ("quadropolis.move.discard", params)
    return ("move.generic", {"kind": str(kind), "seat": seat})
