"""The game flow of Urban Panic (spec /work/shared/rules/urban-panic.md): basic, advanced and party variants.

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
from bot.rules.urbanpanic.state import PARTY_CAP_MS, Player, State
from bot.rules.urbanpanic.tiles import KINDS, RESERVE_SIZE, SPY_COST, TURN_POINTS, Tracks

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
TURN_KINDS = frozenset({"architect", "planner", "engineer_board", "engineer_reserve", "mayor", "spy",
                        "end_turn"})
PARTY_KINDS = frozenset({"draw", "take", "place", "drop"})
TIEBREAK_NAMES = ("urbanpanic.tiebreak.score", "urbanpanic.tiebreak.empty_plots")
PARTY_MINUTES = ("5", "10", "15", "20", "30", "45", "60")
"""The party game's safety cap a host may choose, in minutes (12.4: 15 unless configured)."""
PARTY_MINUTES_DEFAULT = str(PARTY_CAP_MS // 60_000)


# ---------------------------------------------------------------------------------------------
# Small pure helpers shared with the AI
# ---------------------------------------------------------------------------------------------


def placeable(tracks: Sequence[int], code: str) -> bool:
    """Whether adding the tile's row keeps ecology, income and satisfaction at −5 or above."""
    d = KINDS[code].deltas
    f = tiles.FLOOR
    return tracks[2] + d[2] >= f and tracks[3] + d[3] >= f and tracks[4] + d[4] >= f


def can_build(tracks: Sequence[int], reserve: Sequence[str], empty_plots: int) -> bool:
    """A legal Planner placement exists: an empty plot and a reserve tile within the floor."""
    return empty_plots > 0 and any(placeable(tracks, code) for code in reserve)


def ach(faceup: bool, reserve: Sequence[str], tracks: Sequence[int], empty_plots: int, points: int) -> bool:
    """ACH of spec 8.2: an Architect can still be performed this turn."""
    if not faceup:
        return False
    if len(reserve) < RESERVE_SIZE:
        return points >= 1
    return points >= 2 and can_build(tracks, reserve, empty_plots)


def swap_in_reserve(reserve: Sequence[str], out: str, back: str) -> list[str]:
    """The reserve after ``out`` leaves it and ``back`` takes its place."""
    res = list(reserve)
    res[res.index(out)] = back
    return res


def _without(reserve: Sequence[str], code: str) -> list[str]:
    res = list(reserve)
    res.remove(code)
    return res


class _Turn:
    """What rule 8.2 needs about the current player, computed once per question."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.player = state.players[state.current]
        self.faceup = any(s is not None for s in state.slots)
        self.empty = tiles.PLOT_COUNT - self.player.tiles_on_board()
        self.owed = not state.architect_done and ach(
            self.faceup, self.player.reserve, self.player.tracks, self.empty, state.points)
        """The Architect is still owed and still possible: further actions must keep it possible."""
        self.spied = spied(state)
        """A Spy was used this turn: only the Architect (if possible) and END_TURN remain (D-10)."""

    def keeps_architect(self, reserve: Sequence[str], tracks: Sequence[int], empty: int, cost: int,
                        faceup: bool | None = None) -> bool:
        """Rule 8.2.1 for an action costing ``cost`` that leaves this reserve, tracks and plots."""
        if not self.owed:
            return True
        return ach(self.faceup if faceup is None else faceup, reserve, tracks, empty,
                   self.state.points - cost)


def spied(state: State) -> bool:
    """Whether the current player used the Spy this turn (11.2, D-10: then only the Architect and
    END_TURN remain, even for a stuck player)."""
    return any(entry.get("kind") == "spy" for entry in state.turn_log)


def architect_owed(state: State) -> bool:
    """Whether the current player still owes the Architect and can still take it (spec 8.2)."""
    return not state.over and not state.party and _Turn(state).owed


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
        return State(variant="party", players=players, stack=deck, points=0, goals=goals,
                     cap_ms=int(chosen["party_minutes"]) * 60_000)
    slots: list[str | None] = [deck.pop() for _ in range(tiles.SLOT_COUNT)]
    start = core.rng(seed, "urbanpanic", "start").randrange(seat_count)
    return State(variant=variant, players=players, stack=deck, slots=slots, goals=goals, current=start)


def awaiting(state: State) -> frozenset[int]:
    """The current player; in the party game every seat whose city is not full."""
    if state.over:
        return frozenset()
    if state.party:
        return frozenset(
            seat for seat, p in enumerate(state.players) if p.tiles_on_board() < tiles.PLOT_COUNT)
    return frozenset({state.current})


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
    turn = _Turn(state)
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
            if placeable(p.tracks, code) and turn.keeps_architect(
                    _without(p.reserve, code), after, turn.empty - 1, 1):
                out += [{"kind": "planner", "tile": code, "plot": name} for name in empties]
    if points >= 1 and len(built) >= 2 and turn.keeps_architect(p.reserve, p.tracks, turn.empty, 1):
        out += [
            {"kind": "engineer_board", "plot": tiles.square_name(a), "other": tiles.square_name(b)}
            for a in built for b in built if a != b
        ]
    if points >= 1:
        for i in built:
            here = p.board[i]
            assert here is not None
            for code in reserve_codes:
                after = tiles.add(tiles.add(p.tracks, KINDS[here].deltas, -1), KINDS[code].deltas)
                if tiles.floor_breach(after) is None and turn.keeps_architect(
                        swap_in_reserve(p.reserve, code, here), after, turn.empty, 1):
                    out.append({"kind": "engineer_reserve", "plot": tiles.square_name(i), "tile": code})
    if points >= 1 and len(state.stack) >= tiles.SLOT_COUNT and turn.keeps_architect(
            p.reserve, p.tracks, turn.empty, 1, faceup=True):
        out.append({"kind": "mayor"})
    if state.variant == "advanced" and points >= SPY_COST and empties:
        for victim, other in enumerate(state.players):
            if victim == state.current:
                continue
            for code in dict.fromkeys(other.reserve):
                after = tiles.add(p.tracks, KINDS[code].deltas)
                if placeable(p.tracks, code) and turn.keeps_architect(
                        p.reserve, after, turn.empty - 1, SPY_COST):
                    out += [{"kind": "spy", "victim": victim, "tile": code, "plot": name}
                            for name in empties]
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
        return _apply_party(state, seat, kind, move)
    if kind not in TURN_KINDS:
        raise IllegalMove("urbanpanic.party.only")
    if seat != state.current:
        raise core.NotYourTurn()
    new = _ACTIONS[kind](state, move)
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


def _spend(state: State, cost: int) -> None:
    if state.points < cost:
        if cost == SPY_COST:
            raise IllegalMove("urbanpanic.spy.points", points=state.points)
        raise IllegalMove("urbanpanic.no_points")


def _after_spy(state: State) -> None:
    if spied(state):
        raise IllegalMove("urbanpanic.spy.only_architect")


def _reserve_tile(player: Player, move: Move) -> str:
    code = tiles.kind(move["tile"]).code
    if code not in player.reserve:
        raise IllegalMove("urbanpanic.tile.not_in_reserve", tile=tiles.tile_term(code))
    return code


def _empty_plot(player: Player, name: object) -> int:
    index = tiles.parse_plot(name)
    if player.board[index] is not None:
        raise IllegalMove("urbanpanic.plot.occupied", plot=tiles.square_name(index))
    return index


def _built_plot(player: Player, name: object) -> int:
    index = tiles.parse_plot(name)
    if player.board[index] is None:
        raise IllegalMove("urbanpanic.plot.empty", plot=tiles.square_name(index))
    return index


def _floor(after: Tracks) -> None:
    breach = tiles.floor_breach(after)
    if breach is not None:
        raise IllegalMove("urbanpanic.floor", track=tiles.track_term(breach[0]), value=breach[1],
                          floor=tiles.FLOOR)


def _keep(ok: bool) -> None:
    if not ok:
        raise IllegalMove("urbanpanic.owed.architect")


def _do_architect(state: State, move: Move) -> State:
    slot = move["slot"]
    if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= tiles.SLOT_COUNT:
        raise IllegalMove("urbanpanic.architect.bad_slot", slot=str(slot))
    _spend(state, 1)
    if state.slots[slot - 1] is None:
        raise IllegalMove("urbanpanic.architect.empty_slot", slot=slot)
    if len(state.players[state.current].reserve) >= RESERVE_SIZE:
        raise IllegalMove("urbanpanic.architect.reserve_full")
    new = state.copy()
    code = new.slots[slot - 1]
    assert code is not None
    new.players[new.current].reserve.append(code)
    new.slots[slot - 1] = None
    if new.variant == "basic":
        if new.stack:
            new.slots[slot - 1] = new.stack.pop()
        else:
            new.trigger_b = True
    new.points -= 1
    new.architect_done = True
    new.productive = True
    return new


def _do_planner(state: State, move: Move) -> State:
    _after_spy(state)
    _spend(state, 1)
    turn = _Turn(state)
    p = turn.player
    code = _reserve_tile(p, move)
    index = _empty_plot(p, move["plot"])
    after = tiles.add(p.tracks, KINDS[code].deltas)
    _floor(after)
    _keep(turn.keeps_architect(_without(p.reserve, code), after, turn.empty - 1, 1))
    new = state.copy()
    me = new.players[new.current]
    me.reserve.remove(code)
    _build(new, new.current, index, code, after)
    new.points -= 1
    return new


def _build(new: State, seat: int, index: int, code: str, after: Tracks) -> None:
    """Put a tile on a board (Planner, Spy) and check trigger A (spec 9.1)."""
    me = new.players[seat]
    me.board[index] = code
    me.tracks = list(after)
    new.productive = True
    if new.first_finisher is None and me.tiles_on_board() == tiles.PLOT_COUNT:
        new.first_finisher = seat


def _do_engineer_board(state: State, move: Move) -> State:
    _after_spy(state)
    _spend(state, 1)
    turn = _Turn(state)
    p = turn.player
    a = _built_plot(p, move["plot"])
    b = _built_plot(p, move["other"])
    if a == b:
        raise IllegalMove("urbanpanic.engineer.same_plot", plot=tiles.square_name(a))
    _keep(turn.keeps_architect(p.reserve, p.tracks, turn.empty, 1))
    new = state.copy()
    board = new.players[new.current].board
    board[a], board[b] = board[b], board[a]
    new.points -= 1
    return new


def _do_engineer_reserve(state: State, move: Move) -> State:
    _after_spy(state)
    _spend(state, 1)
    turn = _Turn(state)
    p = turn.player
    index = _built_plot(p, move["plot"])
    code = _reserve_tile(p, move)
    here = p.board[index]
    assert here is not None
    after = tiles.add(tiles.add(p.tracks, KINDS[here].deltas, -1), KINDS[code].deltas)
    _floor(after)
    reserve = swap_in_reserve(p.reserve, code, here)
    _keep(turn.keeps_architect(reserve, after, turn.empty, 1))
    new = state.copy()
    me = new.players[new.current]
    me.reserve = reserve
    me.board[index] = code
    me.tracks = list(after)
    new.points -= 1
    return new


def _do_mayor(state: State, move: Move) -> State:
    _after_spy(state)
    _spend(state, 1)
    if len(state.stack) < tiles.SLOT_COUNT:
        raise IllegalMove("urbanpanic.mayor.stack", count=len(state.stack))
    turn = _Turn(state)
    p = turn.player
    _keep(turn.keeps_architect(p.reserve, p.tracks, turn.empty, 1, faceup=True))
    new = state.copy()
    new.discard.extend(s for s in new.slots if s is not None)
    new.slots = [new.stack.pop() for _ in range(tiles.SLOT_COUNT)]
    new.points -= 1
    return new


def _do_spy(state: State, move: Move) -> State:
    if state.variant != "advanced":
        raise IllegalMove("urbanpanic.spy.basic")
    _after_spy(state)
    _spend(state, SPY_COST)
    victim = move["victim"]
    if (not isinstance(victim, int) or isinstance(victim, bool) or not 0 <= victim < state.seats
            or victim == state.current):
        raise IllegalMove("urbanpanic.spy.victim", victim=str(victim))
    code = tiles.kind(move["tile"]).code
    if code not in state.players[victim].reserve:
        raise IllegalMove("urbanpanic.spy.not_in_reserve", tile=tiles.tile_term(code), victim=victim)
    turn = _Turn(state)
    p = turn.player
    index = _empty_plot(p, move["plot"])
    after = tiles.add(p.tracks, KINDS[code].deltas)
    _floor(after)
    _keep(turn.keeps_architect(p.reserve, after, turn.empty - 1, SPY_COST))
    new = state.copy()
    new.players[victim].reserve.remove(code)
    _build(new, new.current, index, code, after)
    new.points -= SPY_COST
    return new


def _do_end_turn(state: State, move: Move) -> State:
    if _Turn(state).owed:
        raise IllegalMove("urbanpanic.end_turn.owed")
    new = state.copy()
    new.previous_turn = {"seat": new.current, "turn": new.turn, "actions": new.turn_log}
    new.turn_log = []
    new.idle_turns = 0 if new.productive else new.idle_turns + 1
    if new.variant == "advanced":
        for i, slot in enumerate(new.slots):
            if slot is None:
                if not new.stack:
                    return _finish(new, "stack")
                new.slots[i] = new.stack.pop()
    elif new.trigger_b:
        return _finish(new, "stack")
    nxt = (new.current + 1) % new.seats
    if new.first_finisher is not None and nxt == new.first_finisher:
        return _finish(new, "full_city")
    if new.idle_turns >= new.seats:
        return _finish(new, "stalemate")
    new.current = nxt
    new.points = TURN_POINTS
    new.architect_done = False
    new.productive = False
    new.turn += 1
    return new


_ACTIONS = {
    "architect": _do_architect,
    "planner": _do_planner,
    "engineer_board": _do_engineer_board,
    "engineer_reserve": _do_engineer_reserve,
    "mayor": _do_mayor,
    "spy": _do_spy,
    "end_turn": _do_end_turn,
}
"""One function per turn action (spec 8.3-8.7, 11.2): the state after it, or the sentence that refuses it."""


def _apply_party(state: State, seat: int, kind: str, move: Move) -> State:
    at = move.get("at")
    deadline = state.deadline()
    if kind == "timeout":
        if seat != core.SYSTEM_SEAT:
            raise IllegalMove("urbanpanic.timeout.system")
        if at is not None and (deadline is None or at < deadline):
            raise IllegalMove("urbanpanic.timeout.early")
        new = state.copy()
        for p in new.players:
            if p.hand is not None:
                new.discard.append(p.hand)
                p.hand = None
        return _finish(new, "timer" if new.first_finisher is not None else "cap")
    if kind not in PARTY_KINDS:
        raise IllegalMove("urbanpanic.party.not_here")
    if seat not in awaiting(state):
        if 0 <= seat < state.seats:
            raise IllegalMove("urbanpanic.party.done")
        raise core.NotYourTurn()
    if at is not None and deadline is not None and at >= deadline:
        raise IllegalMove("urbanpanic.party.time_up")
    p = state.players[seat]
    if kind in ("draw", "take") and p.hand is not None:
        raise IllegalMove("urbanpanic.party.hand_full", tile=tiles.tile_term(p.hand))
    if kind in ("place", "drop") and p.hand is None:
        raise IllegalMove("urbanpanic.party.hand_empty")
    if kind == "draw" and not state.stack:
        raise IllegalMove("urbanpanic.party.pool_empty")
    code = ""
    if kind == "take":
        code = tiles.kind(move["tile"]).code
        if code not in state.open_table:
            raise IllegalMove("urbanpanic.party.taken", tile=tiles.tile_term(code))
    index = _empty_plot(p, move["plot"]) if kind == "place" else -1
    new = state.copy()
    me = new.players[seat]
    if new.first_at is None and at is not None:
        new.first_at = at
    if kind == "draw":
        me.hand = new.stack.pop()
    elif kind == "take":
        new.open_table.remove(code)
        me.hand = code
    elif kind == "drop":
        assert me.hand is not None
        new.open_table.append(me.hand)
        me.hand = None
    else:
        me.board[index] = me.hand
        me.hand = None
        if me.tiles_on_board() == tiles.PLOT_COUNT:
            if new.first_finisher is None:
                new.first_finisher = seat
                new.timer_at = at
            if all(q.tiles_on_board() == tiles.PLOT_COUNT for q in new.players):
                return _finish(new, "all_finished")
    return new


def _finish(state: State, reason: str) -> State:
    state.over = True
    state.end_reason = reason
    return state


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
    return scoring.score_table(boards, tracks, state.goals, state.first_finisher,
                               finisher_bonus=state.party)


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
        list(table.totals), table.breakdowns(), tiebreaks=[(-c.empty,) for c in table.cities],
        names=TIEBREAK_NAMES, details=details)
    return replace(res, details={"end_reason": state.end_reason, "over": state.over,
                                 "goals": list(state.goals)})


def describe(before: State, seat: int, move: Move, after: State) -> tuple[str, dict[str, Any]]:
    """A public one-liner; never names the tile a party player drew. Tiles are terms in the
    players' notation (:func:`tiles.tile_term`), never codes."""
    kind = str(move.get("kind", ""))
    params: dict[str, Any] = {"seat": seat}
    for key in ("slot", "plot", "other", "victim"):
        if key in move:
            params[key] = move[key]
    params.update((key, tiles.tile_term(code) if code is not None else "?")
                  for key, code in _named_tiles(before, seat, move).items())
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
    if kind in ("planner", "spy", "place") and after.first_finisher is not None \
            and before.first_finisher is None:
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
