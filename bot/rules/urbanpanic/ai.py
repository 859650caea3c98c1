"""AI players for every seat of every variant.

Levels:

- ``random``: turn games pick an action kind uniformly among the legal kinds, then one of its
  moves uniformly (so a random player does not spend its turn on the hundreds of Engineer swaps);
  the party game picks uniformly among the legal moves.
- ``strong``: a search over the rest of the turn on stacks sampled from the tiles the seat has
  not seen (party: an expectation over the pool), see :mod:`bot.rules.urbanpanic.strong`.
- ``greedy``: one-step lookahead on the final-scoring value of the own city. A position is worth
  its score if the game ended now (spec 10 steps 1–3) plus a little for every empty plot the road
  network from the centre already reaches (room to grow) and minus a little for tracks near the
  −5 floor. The greedy player builds whenever that gains, repairs the city with the Engineer when
  that gains, takes the face-up tile it could use best, uses the Mayor when nothing on offer is
  worth having, and spies (advanced) when another reserve holds a clearly better tile.

``minimal_move`` is the platform's inactive-player policy of D-26.

Everything is deterministic in the seed; nothing here reads a clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.rules import core
from bot.rules.core import IllegalMove, Move
from bot.rules.urbanpanic import strong, tiles
from bot.rules.urbanpanic.engine import can_build, swap_in_reserve
from bot.rules.urbanpanic.state import Player, State
from bot.rules.urbanpanic.value import DELTAS as _DELTAS
from bot.rules.urbanpanic.value import Gains, evaluate

LEVELS = ("random", "greedy", "strong")

SPY_EDGE = 2.5
"""How much better than the best own placement a Spy must be (it costs two actions)."""
MAYOR_BELOW = -1.0
"""Use the Mayor at the start of a turn when no face-up tile is worth more than this."""
UNBLOCK_AT = -6.0
"""A stuck player accepts an Engineer swap costing up to this much if it makes building possible."""
PARTY_TAKE_AT = 2.0
"""Party: take an open-table tile worth at least this; else draw a fresh one."""


def choose(rules: core.GameRules[State], state: State, seat: int, level: str, seed: int) -> Move:
    """The AI's move for ``seat``; IllegalMove for an unknown level or a seat that cannot move."""
    if level not in rules.ai_levels:
        raise IllegalMove("urbanpanic.ai.level", level=level)
    legal = rules.legal_moves(state, seat)
    if not legal:
        if state.over:
            raise core.GameOver()
        raise core.NotYourTurn()
    rnd = core.rng(seed, "urbanpanic", "ai", level, seat)
    if level == "random":
        return _random(state, legal, rnd)
    if level == "strong":
        if state.party:
            return strong.party_move(state, seat, legal, rnd)
        return strong.turn_move(state, seat, legal, seed)
    if state.party:
        return _greedy_party(state, seat, legal)
    return _greedy_turn(state, seat, legal)


def _random(state: State, legal: list[Move], rnd: random.Random) -> Move:
    if state.party:
        return rnd.choice(legal)
    kinds = sorted({m["kind"] for m in legal})
    kind = rnd.choice(kinds)
    return rnd.choice([m for m in legal if m["kind"] == kind])


def _greedy_party(state: State, seat: int, legal: list[Move]) -> Move:
    p = state.players[seat]
    planner = Gains(p.board, tiles.tracks_of(p.board), floor=False)
    if p.hand is not None:
        gain, square = planner.placement(p.hand)
        if gain >= 0 or not state.stack:
            return {"kind": "place", "plot": tiles.square_name(square)}
        return {"kind": "drop"}
    takes = [m for m in legal if m["kind"] == "take"]
    if takes:
        value, move = max(((planner.best(m["tile"]), m) for m in takes), key=lambda vm: vm[0])
        if value >= PARTY_TAKE_AT or not state.stack:
            return move
    return {"kind": "draw"}


def _greedy_turn(state: State, seat: int, legal: list[Move]) -> Move:
    p = state.players[seat]
    planner = Gains(p.board, p.tracks)
    by_kind: dict[str, list[Move]] = {}
    for m in legal:
        by_kind.setdefault(m["kind"], []).append(m)
    place_gain, place_move = _best_planner(p, planner, by_kind)
    spy_gain, spy_move = _best_spy(state, planner, by_kind)
    if spy_move is not None and spy_gain > max(place_gain, 0.0) + SPY_EDGE:
        return spy_move
    if place_move is not None and place_gain > 0:
        return place_move

    # Engineer: swap a reserve tile in, or repair connections on the board.
    swap_gain, swap_move = _best_of(by_kind, "engineer_reserve", lambda m: _reserve_swap_gain(p, planner, m))
    if swap_move is not None and swap_gain > 0.5:
        return swap_move
    repair = _unblock(state, p, planner, by_kind) or _reconnect(p, planner, by_kind)
    if repair is not None:
        return repair
    architect = _architect(state, p, planner, by_kind)
    if architect is not None:
        return architect

    if "end_turn" in by_kind:
        return {"kind": "end_turn"}
    # The Architect is owed but not possible yet (full reserve): build the best tile anyway.
    if place_move is not None:
        return place_move
    for kind in ("engineer_reserve", "engineer_board", "mayor"):
        if kind in by_kind:
            return by_kind[kind][0] if kind != "engineer_reserve" or swap_move is None else swap_move
    return legal[0]


def _best_of(by_kind: dict[str, list[Move]], kind: str, gain_of: Callable[[Move], float]) -> tuple[float, Move | None]:
    """The legal move of ``kind`` with the highest gain (the first of equals)."""
    best: tuple[float, Move | None] = (float("-inf"), None)
    for m in by_kind.get(kind, ()):
        g = gain_of(m)
        if g > best[0]:
            best = (g, m)
    return best


def _best_planner(p: Player, planner: Gains, by_kind: dict[str, list[Move]]) -> tuple[float, Move | None]:
    """Building from the reserve: the best (tile, plot) among the legal ones."""
    place_gain, place_move = float("-inf"), None
    legal_planner = {(m["tile"], m["plot"]) for m in by_kind.get("planner", ())}
    for code in dict.fromkeys(p.reserve):
        gain, square = planner.placement(code)
        plot = tiles.square_name(square) if square >= 0 else ""
        if (code, plot) in legal_planner and gain > place_gain:
            place_gain, place_move = gain, {"kind": "planner", "tile": code, "plot": plot}
    return place_gain, place_move


def _best_spy(state: State, planner: Gains, by_kind: dict[str, list[Move]]) -> tuple[float, Move | None]:
    """Spy (advanced): the best tile of another reserve on this board."""
    spy_gain, spy_move = float("-inf"), None
    legal_spy = {(m["victim"], m["tile"], m["plot"]) for m in by_kind.get("spy", ())}
    if legal_spy:
        for victim, other in enumerate(state.players):
            for code in dict.fromkeys(other.reserve):
                gain, square = planner.placement(code)
                key = (victim, code, tiles.square_name(square))
                if square >= 0 and key in legal_spy and gain > spy_gain:
                    spy_gain = gain
                    spy_move = {"kind": "spy", "victim": victim, "tile": code, "plot": key[2]}
    return spy_gain, spy_move


def _reserve_swap_gain(p: Player, planner: Gains, m: Move) -> float:
    i = tiles.square_index(m["plot"])
    assert i is not None
    here = p.board[i]
    assert here is not None
    board = planner.board
    board[i] = m["tile"]
    after = tiles.add(tiles.add(p.tracks, _DELTAS[here], -1), _DELTAS[m["tile"]])
    gain = evaluate(board, after) - planner.base
    board[i] = here
    return gain


def _unblock(state: State, p: Player, planner: Gains, by_kind: dict[str, list[Move]]) -> Move | None:
    """Stuck (D-10: full reserve, nothing buildable): a swap that makes a reserve tile buildable
    again lets the Planner and the Architect follow."""
    stuck = not state.architect_done and "end_turn" in by_kind and "architect" not in by_kind
    if not (stuck and state.points >= 3):
        return None

    def unblocking_gain(m: Move) -> float:
        here = p.board[tiles.parse_plot(m["plot"])]
        assert here is not None
        after = tiles.add(tiles.add(p.tracks, _DELTAS[here], -1), _DELTAS[m["tile"]])
        reserve = swap_in_reserve(p.reserve, m["tile"], here)
        empty = tiles.PLOT_COUNT - p.tiles_on_board()
        return _reserve_swap_gain(p, planner, m) if can_build(after, reserve, empty) else float("-inf")

    unblock_gain, unblock_move = _best_of(by_kind, "engineer_reserve", unblocking_gain)
    if unblock_move is not None and unblock_gain > UNBLOCK_AT:
        return unblock_move
    return None


def _reconnect(p: Player, planner: Gains, by_kind: dict[str, list[Move]]) -> Move | None:
    """A board swap that links tiles the roads from the centre do not reach."""
    linked = tiles.reachable(p.board)
    loose = {tiles.square_name(i) for i in tiles.PLOTS if p.board[i] is not None and i not in linked}
    if not (loose and "engineer_board" in by_kind):
        return None

    def board_swap_gain(m: Move) -> float:
        if (m["plot"] not in loose and m["other"] not in loose) or m["plot"] > m["other"]:
            return float("-inf")
        a, b = tiles.square_index(m["plot"]), tiles.square_index(m["other"])
        assert a is not None and b is not None
        board = planner.board
        board[a], board[b] = board[b], board[a]
        gain = evaluate(board, p.tracks) - planner.base
        board[a], board[b] = board[b], board[a]
        return gain

    fix_gain, fix_move = _best_of(by_kind, "engineer_board", board_swap_gain)
    if fix_move is not None and fix_gain > 0.5:
        return fix_move
    return None


def _architect(state: State, p: Player, planner: Gains, by_kind: dict[str, list[Move]]) -> Move | None:
    """Architect: the face-up tile this city could use best (or the Mayor when none is worth it)."""
    arch_gain, arch_move = _best_of(by_kind, "architect", lambda m: planner.best(state.slots[m["slot"] - 1]))
    if arch_move is None:
        return None
    owed = not state.architect_done
    if owed and state.points == tiles.TURN_POINTS and arch_gain < MAYOR_BELOW and "mayor" in by_kind:
        return {"kind": "mayor"}
    if owed or (len(p.reserve) < 2 and arch_gain > 0):
        return arch_move
    return None


def minimal_move(rules: core.GameRules[State], state: State) -> Move:
    """D-26: complete an absent player's turn minimally (turn games only).

    If the Architect is owed and possible: the first legal Planner in canonical order (reserve
    order, then plots A1, B1, …, E5) when the reserve is full, then the Architect on the
    lowest-numbered slot; otherwise END_TURN. Raises GameOver at the end and NotYourTurn in the
    party game, which has no turns.
    """
    if state.over:
        raise core.GameOver()
    if state.party:
        raise core.NotYourTurn()
    legal = rules.legal_moves(state, state.current)
    for kind in ("end_turn", "architect", "planner"):
        for m in legal:
            if m["kind"] == kind:
                return m
    return legal[0]
