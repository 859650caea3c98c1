"""Urban Panic's moves applied: each turn action (spec 8.3 to 8.7, the Spy of 11) and the party game's moves (12),
each on a copy of the state, refusing with a sentence what the rules forbid. :func:`bot.rules.urbanpanic.engine.apply`
checks the move's shape and whose turn it is, then dispatches here (``ACTIONS``, :func:`apply_party`).
"""

from __future__ import annotations

from bot.rules import core
from bot.rules.core import IllegalMove, Move
from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.state import Player, State
from bot.rules.urbanpanic.tiles import KINDS, RESERVE_SIZE, SPY_COST, TURN_POINTS, Tracks
from bot.rules.urbanpanic.turn import Turn, awaiting, spied, swap_in_reserve, without

PARTY_KINDS = frozenset({"draw", "take", "place", "drop"})


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
        raise IllegalMove("urbanpanic.floor", track=tiles.track_term(breach[0]), value=breach[1], floor=tiles.FLOOR)


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
    turn = Turn(state)
    p = turn.player
    code = _reserve_tile(p, move)
    index = _empty_plot(p, move["plot"])
    after = tiles.add(p.tracks, KINDS[code].deltas)
    _floor(after)
    _keep(turn.keeps_architect(without(p.reserve, code), after, turn.empty - 1, 1))
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
    turn = Turn(state)
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
    turn = Turn(state)
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
    turn = Turn(state)
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
    if (
        not isinstance(victim, int)
        or isinstance(victim, bool)
        or not 0 <= victim < state.seats
        or victim == state.current
    ):
        raise IllegalMove("urbanpanic.spy.victim", victim=str(victim))
    code = tiles.kind(move["tile"]).code
    if code not in state.players[victim].reserve:
        raise IllegalMove("urbanpanic.spy.not_in_reserve", tile=tiles.tile_term(code), victim=victim)
    turn = Turn(state)
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
    if Turn(state).owed:
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


ACTIONS = {
    "architect": _do_architect,
    "planner": _do_planner,
    "engineer_board": _do_engineer_board,
    "engineer_reserve": _do_engineer_reserve,
    "mayor": _do_mayor,
    "spy": _do_spy,
    "end_turn": _do_end_turn,
}
"""One function per turn action (spec 8.3-8.7, 11.2): the state after it, or the sentence that refuses it."""


def apply_party(state: State, seat: int, kind: str, move: Move) -> State:
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
