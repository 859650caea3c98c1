"""The game flow of Urban Panic (after the Urban Panic rules specification): basic, advanced and party variants.

Moves (JSON dicts; the service may add ``"at"``, epoch ms, to any of them). Plots are named
``"A1"`` .. ``"E5"``; tiles by code (``"FAC-NE"``).

- ``{"kind": "architect", "slot": 1..4}`` (spec 8.3)
- ``{"kind": "planner", "tile": <reserve code>, "plot": <empty plot>}`` (8.4)
- ``{"kind": "engineer_board", "plot": <built plot>, "other": <built plot>}`` (8.5)
- ``{"kind": "engineer_reserve", "plot": <built plot>, "tile": <reserve code>}`` (8.5)
- ``{"kind": "mayor"}`` (8.6)
- ``{"kind": "spy", "victim": <seat>, "tile": <code in its reserve>, "plot": <empty plot>}``
  (advanced, 11.2)
- ``{"kind": "end_turn"}`` (8.7)
- party (12): ``{"kind": "draw"}``, ``{"kind": "take", "tile": <open-table code>}``,
  ``{"kind": "place", "plot": <empty plot>}``, ``{"kind": "drop"}``, and
  ``{"kind": "timeout"}``, applied by ``core.SYSTEM_SEAT`` once time is up.

Timing (party only): the rules never read a clock. A move's ``"at"`` is stored when it is the
first timed move (start of the 15-minute safety cap) and when it fills the first city (start of the
60-second hourglass). A move whose ``"at"`` is at or after the deadline is refused. A move without
``"at"`` is "untimed": it is never refused as late and starts no timer, so a game played without
``"at"`` only ends when every city is full or a ``timeout`` move is applied (tests do this).
Basic and advanced games ignore ``"at"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.rules import core
from bot.rules.core import IllegalMove, Move
from bot.rules.urbanpanic import scoring, tiles

# The turn's helpers the AIs share (bot/rules/urbanpanic/turn.py) and the actions themselves (actions.py),
# re-exported where the rest of the package finds them.
from bot.rules.urbanpanic.actions import ACTIONS, apply_party
from bot.rules.urbanpanic.state import PARTY_CAP_MS, Player, State
from bot.rules.urbanpanic.tiles import KINDS, RESERVE_SIZE, SPY_COST
from bot.rules.urbanpanic.turn import Turn, without
from bot.rules.urbanpanic.turn import ach as ach
from bot.rules.urbanpanic.turn import architect_owed as architect_owed
from bot.rules.urbanpanic.turn import awaiting as awaiting
from bot.rules.urbanpanic.turn import can_build as can_build
from bot.rules.urbanpanic.turn import placeable as placeable
from bot.rules.urbanpanic.turn import spied as spied
from bot.rules.urbanpanic.turn import swap_in_reserve as swap_in_reserve

MOVE_FIELDS: dict[str, frozenset[str]] = {
    "architect": frozenset({"slot"}),
    "planner": frozenset({"tile", "plot"}),
    "engineer_board": frozenset({"plot", "other"}),
    "engineer_reserve": frozenset({"plot", "tile"}),
    "mayor": frozenset(),
    "spy": frozenset({"victim", "tile", "plot"}),
    "end_turn": frozenset(),
    "draw": frozenset(),
    "take": frozenset({"tile"}),
    "place": frozenset({"plot"}),
    "drop": frozenset(),
    "timeout": frozenset(),
}
TURN_KINDS = frozenset({"architect", "planner", "engineer_board", "engineer_reserve", "mayor", "spy", "end_turn"})
TIEBREAK_NAMES = ("urbanpanic.tiebreak.score", "urbanpanic.tiebreak.empty_plots")
PARTY_MINUTES = ("5", "10", "15", "20", "30", "45", "60")
"""The party game's safety cap a host may choose, in minutes (12.4: 15 unless configured)."""
PARTY_MINUTES_DEFAULT = str(PARTY_CAP_MS // 60_000)


# ---------------------------------------------------------------------------------------------
# Setup and who acts
# ---------------------------------------------------------------------------------------------


def new_game(chosen: Mapping[str, Any], seat_count: int, seed: int) -> State:
    """Spec 7 (basic), 11.1 (goal cards), 12.1 (party, with the host's cap of 12.4 and goal
    cards if switched on, D-18), from normalised options. The start player is random (D-15)."""
    variant = chosen["variant"]
    deck = core.shuffled(tiles.ALL_TILES, seed, "urbanpanic", "tiles")
    players = [Player() for _ in range(seat_count)]
    goals: list[str] = []
    if variant == "advanced" or (variant == "party" and chosen["party_goals"] == "on"):
        goals = core.shuffled(sorted(tiles.GOALS), seed, "urbanpanic", "goals")[: seat_count + 1]
    if variant == "party":
        return State(
            variant="party",
            players=players,
            stack=deck,
            points=0,
            goals=goals,
            cap_ms=int(chosen["party_minutes"]) * 60_000,
        )
    slots: list[str | None] = [deck.pop() for _ in range(tiles.SLOT_COUNT)]
    start = core.rng(seed, "urbanpanic", "start").randrange(seat_count)
    return State(variant=variant, players=players, stack=deck, slots=slots, goals=goals, current=start)


# ---------------------------------------------------------------------------------------------
# Legal moves
# ---------------------------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now, without ``"at"``.

    Reserve and open-table tiles are listed once per distinct code (identical tiles are
    interchangeable); Engineer board swaps are listed in both orders, as both are accepted.
    """
    if seat not in awaiting(state):
        return []
    if state.party:
        return _party_moves(state, seat)
    return _turn_moves(state)


def _turn_moves(state: State) -> list[Move]:
    turn = Turn(state)
    p = turn.player
    points = state.points
    out: list[Move] = []
    reserve_codes = list(dict.fromkeys(p.reserve))
    empties = [tiles.square_name(i) for i in p.empty_plots()]
    built = [i for i in tiles.PLOTS if p.board[i] is not None]
    if points >= 1 and len(p.reserve) < RESERVE_SIZE:
        out += [{"kind": "architect", "slot": i + 1} for i, s in enumerate(state.slots) if s is not None]
    if turn.spied:  # 11.2, D-10: after a Spy only the Architect is left
        return out if turn.owed else [*out, {"kind": "end_turn"}]
    if points >= 1 and empties:
        for code in reserve_codes:
            after = tiles.add(p.tracks, KINDS[code].deltas)
            if placeable(p.tracks, code) and turn.keeps_architect(without(p.reserve, code), after, turn.empty - 1, 1):
                out += [{"kind": "planner", "tile": code, "plot": name} for name in empties]
    if points >= 1 and len(built) >= 2 and turn.keeps_architect(p.reserve, p.tracks, turn.empty, 1):
        names = [tiles.square_name(i) for i in built]
        out += [{"kind": "engineer_board", "plot": a, "other": b} for a in names for b in names if a != b]
    if points >= 1:
        for i in built:
            here = p.board[i]
            assert here is not None
            lifted = tiles.add(p.tracks, KINDS[here].deltas, -1)
            for code in reserve_codes:
                after = tiles.add(lifted, KINDS[code].deltas)
                if tiles.floor_breach(after) is None and (
                    not turn.owed or turn.keeps_architect(swap_in_reserve(p.reserve, code, here), after, turn.empty, 1)
                ):
                    out.append({"kind": "engineer_reserve", "plot": tiles.square_name(i), "tile": code})
    if (
        points >= 1
        and len(state.stack) >= tiles.SLOT_COUNT
        and turn.keeps_architect(p.reserve, p.tracks, turn.empty, 1, faceup=True)
    ):
        out.append({"kind": "mayor"})
    if state.variant == "advanced" and points >= SPY_COST and empties:
        for victim, other in enumerate(state.players):
            if victim == state.current:
                continue
            for code in dict.fromkeys(other.reserve):
                after = tiles.add(p.tracks, KINDS[code].deltas)
                if placeable(p.tracks, code) and turn.keeps_architect(p.reserve, after, turn.empty - 1, SPY_COST):
                    out += [{"kind": "spy", "victim": victim, "tile": code, "plot": name} for name in empties]
    if not turn.owed:
        out.append({"kind": "end_turn"})
    return out


def _party_moves(state: State, seat: int) -> list[Move]:
    p = state.players[seat]
    if p.hand is None:
        out: list[Move] = [{"kind": "draw"}] if state.stack else []
        return out + [{"kind": "take", "tile": code} for code in dict.fromkeys(state.open_table)]
    return [{"kind": "place", "plot": tiles.square_name(i)} for i in p.empty_plots()] + [{"kind": "drop"}]


# ---------------------------------------------------------------------------------------------
# Apply
# ---------------------------------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> State:
    kind = _check_shape(move)
    if state.over:
        raise core.GameOver()
    if kind == "discard":
        raise IllegalMove("urbanpanic.discard")
    if state.party:
        return apply_party(state, seat, kind, move)
    if kind not in TURN_KINDS:
        raise IllegalMove("urbanpanic.party.only")
    if seat != state.current:
        raise core.NotYourTurn()
    new = ACTIONS[kind](state, move)
    if kind != "end_turn":
        new.turn_log = [*state.turn_log, _log_entry(state, move, new)]
    return new


def _log_entry(before: State, move: Move, after: State) -> dict[str, Any]:
    """What the turn log keeps of one action: its kind and the public facts ``describe`` names."""
    _, params = describe(before, before.current, move, after)
    entry: dict[str, Any] = {"kind": move["kind"]}
    entry.update((k, v) for k, v in params.items() if k not in ("seat", "tile", "other_tile"))
    entry.update(_named_tiles(before, before.current, move))  # codes, as stored: never terms
    if move["kind"] == "engineer_reserve":
        entry["removed"] = before.players[before.current].board[tiles.parse_plot(move["plot"])]
    return entry


def _check_shape(move: object) -> str:
    """The move's kind, after checking it is a dict with exactly that kind's fields (plus "at")."""
    if not isinstance(move, Mapping):
        raise IllegalMove("urbanpanic.bad_move")
    kind = move.get("kind")
    if not isinstance(kind, str):
        raise IllegalMove("urbanpanic.unknown_move", kind=str(kind))
    if kind == "discard":
        return kind
    if kind not in MOVE_FIELDS:
        raise IllegalMove("urbanpanic.unknown_move", kind=str(kind))
    at = move.get("at")
    if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
        raise IllegalMove("urbanpanic.bad_move")
    if set(move) - {"kind", "at"} != MOVE_FIELDS[kind]:
        raise IllegalMove("urbanpanic.bad_move")
    return kind


# ---------------------------------------------------------------------------------------------
# Results and summaries
# ---------------------------------------------------------------------------------------------


def score(state: State) -> scoring.TableScore:
    """Spec 10 (and 12.5 in the party game) on the boards as they stand."""
    boards = [p.board for p in state.players]
    if state.party:
        tracks: list[Sequence[int]] = [tiles.tracks_of(b) for b in boards]
    else:
        tracks = [p.tracks for p in state.players]
    return scoring.score_table(boards, tracks, state.goals, state.first_finisher, finisher_bonus=state.party)


def game_result(state: State) -> core.Result:
    """Totals with breakdown keys ``scoring.CATEGORIES``; tie-break: fewer empty plots.

    Each seat's ``details`` holds the scoring sheet (``CityScore.details``), ``goals_won``
    and ``finisher``; the result's ``details`` holds ``end_reason``, ``over`` and ``goals``.
    """
    table = score(state)
    details = [
        {**city.details(), "goals_won": list(won), "finisher": seat == state.first_finisher}
        for seat, (city, won) in enumerate(zip(table.cities, table.goals_won))
    ]
    res = core.build_result(
        list(table.totals),
        table.breakdowns(),
        tiebreaks=[(-c.empty,) for c in table.cities],
        names=TIEBREAK_NAMES,
        details=details,
    )
    return replace(res, details={"end_reason": state.end_reason, "over": state.over, "goals": list(state.goals)})


def describe(before: State, seat: int, move: Move, after: State) -> tuple[str, dict[str, Any]]:
    """A public one-liner; never names the tile a party player drew. Tiles are terms in the
    players' notation (:func:`tiles.tile_term`), never codes."""
    kind = str(move.get("kind", ""))
    params: dict[str, Any] = {"seat": seat}
    for key in ("slot", "plot", "other", "victim"):
        if key in move:
            params[key] = move[key]
    params.update(
        (key, tiles.tile_term(code) if code is not None else "?")
        for key, code in _named_tiles(before, seat, move).items()
    )
    if kind == "architect":
        if after.trigger_b and not before.trigger_b:
            return "urbanpanic.move.architect.last", params
    elif kind in ("place", "drop"):
        if after.over:
            return "urbanpanic.move.place.over", params
    elif kind == "end_turn":
        if after.over:
            return "urbanpanic.move.end_turn.over", params
    elif kind == "timeout":
        return "urbanpanic.move.timeout", params
    elif kind not in MOVE_FIELDS:
        return "urbanpanic.move.unknown", params
    if kind in ("planner", "spy", "place") and after.first_finisher is not None and before.first_finisher is None:
        return f"urbanpanic.move.{kind}.full", params
    return f"urbanpanic.move.{kind}", params


def _named_tiles(before: State, seat: int, move: Move) -> dict[str, Any]:
    """The tile codes a move names publicly (``tile``, and ``other_tile`` for a swap on the board)."""
    kind = move.get("kind")
    if kind == "architect":
        return {"tile": before.slots[int(move["slot"]) - 1]}
    if kind in ("planner", "engineer_reserve", "spy", "take"):
        return {"tile": move.get("tile")}
    if kind == "engineer_board":
        board = before.players[seat].board
        return {"tile": board[tiles.parse_plot(move["plot"])], "other_tile": board[tiles.parse_plot(move["other"])]}
    if kind in ("place", "drop"):
        return {"tile": before.players[seat].hand}
    return {}
