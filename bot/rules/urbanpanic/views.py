"""What a seat of an Urban Panic game may see (spec: every board is public; the stack's order and,
in the party game, the tile in another player's hand are hidden). The shape is typed in
:mod:`bot.rules.urbanpanic.viewtypes`.
"""

from __future__ import annotations

from typing import cast

from bot.rules.urbanpanic import engine as E
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.state import Player, State
from bot.rules.urbanpanic.tiles import KINDS
from bot.rules.urbanpanic.viewtypes import (
    EndReason,
    UpAction,
    UpCell,
    UpLegend,
    UpPlayer,
    UpPreviousTurn,
    UpResult,
    UpView,
    Variant,
)


def view(state: State, seat: int | None) -> UpView:
    """What ``seat`` (None: a spectator) may see. Everything is public except the stack order
    and, in the party game, the tile in another player's hand. Shape::

        {"kind": "urbanpanic", "variant": "basic"|"advanced"|"party", "viewer": seat|None,
         "seats": n, "over": bool, "end_reason": "", "turn": int,
         "legend": {"tracks": ["residents", …], "letters": ["R", …], "floor": -5,
                    "types": [{"id": "HOU", "letter": "H", "name": "housing",
                               "deltas": [4, 0, 0, -2, -1]}, …]},
         "players": [{"seat": 0,
                      "grid": [[cell × 5] × 5],   # rows 1–5, columns A–E
                      "tiles": 22, "empty_plots": 2, "reachable": 20,
                      "tracks": [R, J, E, I, S],  # party: Σ legend of the board
                      "reserve": ["HOU-NS", …],   # turn games
                      "hand": "FAC-NE"|None|"hidden",  # party: own tile, "hidden" if another's
                      "finisher": bool}, …],
         "main_board": {"slots": [code|None × 4], "stack": 116, "discard": [codes]},  # turn games
         "goals": [{"id": "G02", "title_key": "urbanpanic.goal.G02"}],
         "current": seat|None, "points": 3, "architect_done": bool, "architect_owed": bool,
         "first_finisher": seat|None, "last_turn": bool,
         "turn_log": [{"kind": "architect", "slot": 2, "tile": "HOU-NS"}, …],  # this turn so far
         "previous_turn": {"seat": 1, "turn": 6, "actions": [...]}|None,  # the last whole turn
         "party": {"pool": 120, "open_table": [codes], "deadline": ms|None,
                   "timer_running": bool},   # party only
         "result": Result.to_json()|None}

    A grid cell is None (empty plot), ``{"centre": true}`` for C3, or ``{"plot": "B2",
    "tile": "FAC-NE", "type": "FAC", "passages": "NE", "reachable": bool}``.
    """
    out: UpView = {
        "kind": "urbanpanic",
        "variant": cast(Variant, state.variant),
        "viewer": seat,
        "seats": state.seats,
        "over": state.over,
        "end_reason": cast(EndReason, state.end_reason),
        "turn": state.turn,
        "legend": _legend(),
        "players": [_player(state, i, p, seat) for i, p in enumerate(state.players)],
        "goals": [{"id": g, "title_key": f"urbanpanic.goal.{g}"} for g in state.goals],
        "first_finisher": state.first_finisher,
        "result": cast(UpResult, E.game_result(state).to_json()) if state.over else None,
        "current": None,
    }
    if state.party:
        _party_part(state, out)
    else:
        _turn_part(state, out)
    return out


def _legend() -> UpLegend:
    return {
        "tracks": list(tiles.TRACKS),
        "letters": list(tiles.TRACK_LETTERS),
        "floor": tiles.FLOOR,
        "types": [
            {"id": t.id, "letter": t.letter, "name": t.name, "deltas": list(t.deltas)} for t in tiles.TYPES.values()
        ],
    }


def _grid(board: list[str | None], linked: set[int]) -> list[list[UpCell]]:
    """A board as rows of cells: None (empty plot), the centre, or the tile with its roads."""
    grid: list[list[UpCell]] = []
    for r in range(tiles.SIZE):
        row: list[UpCell] = []
        for c in range(tiles.SIZE):
            index = r * tiles.SIZE + c
            code = board[index]
            if index == tiles.CENTRE:
                row.append({"centre": True})
            elif code is None:
                row.append(None)
            else:
                k = KINDS[code]
                row.append(
                    {
                        "plot": tiles.square_name(index),
                        "tile": code,
                        "type": k.type,
                        "passages": k.passages,
                        "reachable": index in linked,
                    }
                )
        grid.append(row)
    return grid


def _player(state: State, i: int, p: Player, seat: int | None) -> UpPlayer:
    """One player's city as ``seat`` sees it: a party hand is "hidden" from the others."""
    linked = tiles.reachable(p.board)
    entry: UpPlayer = {
        "seat": i,
        "grid": _grid(p.board, linked),
        "tiles": p.tiles_on_board(),
        "empty_plots": tiles.PLOT_COUNT - p.tiles_on_board(),
        "reachable": len(linked),
        "tracks": list(tiles.tracks_of(p.board)) if state.party else list(p.tracks),
        "finisher": state.first_finisher == i,
    }
    if state.party:
        entry["hand"] = p.hand if (seat == i or p.hand is None) else "hidden"
    else:
        entry["reserve"] = list(p.reserve)
    return entry


def _party_part(state: State, out: UpView) -> None:
    deadline = state.deadline()
    out["current"] = None
    out["party"] = {
        "pool": len(state.stack),
        "open_table": list(state.open_table),
        "deadline": deadline,
        "timer_running": deadline is not None and state.first_finisher is not None,
    }


def _turn_part(state: State, out: UpView) -> None:
    out["main_board"] = {"slots": list(state.slots), "stack": len(state.stack), "discard": list(state.discard)}
    out["current"] = None if state.over else state.current
    out["points"] = state.points
    out["architect_done"] = state.architect_done
    out["architect_owed"] = E.architect_owed(state)
    out["last_turn"] = state.trigger_b
    out["turn_log"] = [cast(UpAction, dict(entry)) for entry in state.turn_log]
    out["previous_turn"] = (
        None
        if state.previous_turn is None
        else cast(
            UpPreviousTurn,
            {**state.previous_turn, "actions": [dict(entry) for entry in state.previous_turn["actions"]]},
        )
    )
