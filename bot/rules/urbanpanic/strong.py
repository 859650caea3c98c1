"""The strong AI of Urban Panic: a search over the rest of the turn on sampled stacks.

Turn games (basic, advanced). The only hidden thing is the order of the face-down stack (spec 13).
The AI counts the tiles it has not seen (the manifest minus every board, reserve, slot and the
discard pile: its information set, never the true stack) and deals ``SAMPLES`` seeded stacks from
them. On each sampled stack it searches every plan for the rest of its turn (Architect, Planner,
Engineer, Mayor, Spy, END_TURN, pruned to the few most promising of each kind) on a light model of
its own city, reserve and the main board, keeping rule 8.2 and the Spy rule of D-10, and scores
the end of the turn. The legal first move with the best average over the samples is played.

An end-of-turn position is worth: the city's score if the game ended now, room to grow and the
distance from the −5 floor (the greedy player's evaluation), plus the reserve tiles' best
placements (``RESERVE``), minus what the best face-up tile left on the main board is worth to the
next player (``DENIAL``), plus the goal cards it leads or shares (advanced; ``GOAL_SHARE`` of 10
points each).

Party: the pool's composition is known the same way (every tile not on a board, the open table or
in its own hand; other hands are hidden and stay in the pool's count). The AI compares placing its
tile now, or taking an open tile, with the expected best gain of a fresh draw (an expectation over
that composition) and keeps tempo in mind: an empty plot costs a point and the finisher earns five.

Deterministic in the seed; nothing reads a clock or the hidden stack.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import core
from bot.rules.core import Move
from bot.rules.urbanpanic import goals, scoring, tiles
from bot.rules.urbanpanic.engine import ach, placeable
from bot.rules.urbanpanic.state import State
from bot.rules.urbanpanic.tiles import RESERVE_SIZE, SPY_COST
from bot.rules.urbanpanic.value import DELTAS as _DELTAS
from bot.rules.urbanpanic.value import Gains, evaluate  # the greedy level's city value: the search starts from it

SAMPLES = 2
"""Sampled stacks per decision (only a basic Architect or a Mayor draws during a turn)."""
RESERVE = 0.55
"""Weight of a reserve tile's best placement gain (it still needs a Planner later)."""
DENIAL = 0.8
"""Weight of what the best face-up tile left on the main board is worth to the next player."""
GOAL_SHARE = 0.35
"""Share of a goal card's 10 points counted for leading it now (tied: half that)."""
PLANNER_PLOTS = 2
"""Plots tried per reserve tile in the search (the best by immediate value)."""
ARCHITECT_TILES = 3
"""Face-up tiles tried by the Architect (the best for this city)."""
PARTY_DROP_COST = 1.5
"""Party: what a drop-and-draw costs in tempo, in points."""
PARTY_SAMPLES = 12
"""Party: tiles sampled from the unseen pool to value a fresh draw."""
PARTY_FLOOR = -1.0
"""Party: a drawn tile worth less than this is dropped, so a draw is never worth less."""
PARTY_TAKE_EDGE = 0.0
"""Party: an open tile is taken when worth at least a fresh draw plus this."""


def unseen(state: State, seat: int) -> list[str]:
    """The tiles ``seat`` has not seen, as a sorted list of codes (the stack's contents in turn games,
    the pool plus other hands in the party game)."""
    seen: list[str | None] = [*state.slots, *state.discard, *state.open_table]
    for i, p in enumerate(state.players):
        seen += p.board
        seen += p.reserve
        if i == seat:
            seen.append(p.hand)
    left = Counter(tiles.ALL_TILES)
    left.subtract(c for c in seen if c is not None)
    return sorted(left.elements())


# ---------------------------------------------------------------------------------------------
# Turn games
# ---------------------------------------------------------------------------------------------


@dataclass
class _Node:
    board: list[str | None]
    tracks: tiles.Tracks
    reserve: list[str]
    slots: list[str | None]
    points: int
    architect: bool
    spied: bool
    drawn: int
    """How many tiles of the sampled stack this plan has drawn."""
    victims: dict[int, list[str]]


class _TurnSearch:
    def __init__(self, state: State, seat: int, stack: list[str]) -> None:
        self.state = state
        self.seat = seat
        self.stack = stack
        self.advanced = state.variant == "advanced"
        me = state.players[seat]
        self.root_gains = Gains(me.board, me.tracks)
        self.next_seat = (seat + 1) % state.seats
        nxt = state.players[self.next_seat]
        self.next_gains = Gains(nxt.board, nxt.tracks)
        self.others = [(i, p) for i, p in enumerate(state.players) if i != seat]
        self.other_scores = [scoring.score_city(p.board, p.tracks) for _, p in self.others]
        self.goal_ids = [g for g in state.goals if tiles.GOALS[g].kind != "first_finished"]
        self.rival_best = {
            g: max((goals.measure(g, c) for c in self.other_scores), default=None) for g in self.goal_ids
        }
        self._goal_values: dict[tuple[tuple[str | None, ...], tuple[int, ...]], float] = {}
        self._values: dict[tuple[tuple[str | None, ...], tuple[int, ...]], float] = {}

    def gains(self, node: _Node) -> Gains:
        """Placement rankings: the turn's starting city (a later placement rarely reorders them)."""
        return self.root_gains

    def city_value(self, node: _Node) -> float:
        key = (tuple(node.board), node.tracks)
        hit = self._values.get(key)
        if hit is None:
            hit = self._values[key] = evaluate(node.board, node.tracks)
        return hit

    # -- value -----------------------------------------------------------------------------
    def value(self, node: _Node) -> float:
        owed = not node.architect and ach(
            any(s is not None for s in node.slots),
            node.reserve,
            node.tracks,
            sum(1 for i in tiles.PLOTS if node.board[i] is None),
            node.points,
        )
        if owed:
            return float("-inf")
        g = self.gains(node)
        out = self.city_value(node)
        for code in node.reserve:
            out += RESERVE * max(0.0, g.best(code))
        left = [s for s in node.slots if s is not None]
        if left:
            out -= DENIAL * max(0.0, max(self.next_gains.best(c) for c in left))
        if self.goal_ids:
            out += self._goals(node)
        return out

    def _goals(self, node: _Node) -> float:
        key = (tuple(node.board), node.tracks)
        hit = self._goal_values.get(key)
        if hit is None:
            hit = self._goal_values[key] = self._goals_now(node)
        return hit

    def _goals_now(self, node: _Node) -> float:
        mine = scoring.score_city(node.board, node.tracks)
        out = 0.0
        for goal_id in self.goal_ids:
            value = goals.measure(goal_id, mine)
            rival = self.rival_best[goal_id]
            best = value if rival is None else rival
            kind = tiles.GOALS[goal_id].kind
            if kind == "all_plots":
                out += GOAL_SHARE * tiles.GOAL_POINTS * value / tiles.PLOT_COUNT
            elif value > best:
                out += GOAL_SHARE * tiles.GOAL_POINTS
            elif value == best:
                out += GOAL_SHARE * tiles.GOAL_POINTS / 2
        return out

    # -- actions ---------------------------------------------------------------------------
    def children(self, node: _Node, root: bool) -> list[tuple[Move, _Node]]:
        out: list[tuple[Move, _Node]] = []
        empty = sum(1 for i in tiles.PLOTS if node.board[i] is None)
        faceup = any(s is not None for s in node.slots)
        owed = not node.architect and ach(faceup, node.reserve, node.tracks, empty, node.points)

        def keeps(reserve: Sequence[str], tracks: Sequence[int], empties: int, cost: int) -> bool:
            return not owed or ach(faceup, reserve, tracks, empties, node.points - cost)

        if node.points >= 1 and len(node.reserve) < RESERVE_SIZE:
            codes = [(s, i) for i, s in enumerate(node.slots) if s is not None]
            g = self.gains(node)
            seen: set[str] = set()
            ranked = sorted(codes, key=lambda ci: (-g.best(ci[0]), ci[1]))
            for code, i in ranked:
                if code in seen or len(seen) >= ARCHITECT_TILES:
                    continue
                seen.add(code)
                slots = list(node.slots)
                slots[i] = None
                drawn = node.drawn
                if not self.advanced and drawn < len(self.stack):
                    slots[i] = self.stack[drawn]
                    drawn += 1
                out.append(
                    (
                        {"kind": "architect", "slot": i + 1},
                        _Node(
                            node.board,
                            node.tracks,
                            [*node.reserve, code],
                            slots,
                            node.points - 1,
                            True,
                            node.spied,
                            drawn,
                            node.victims,
                        ),
                    )
                )
        if node.spied:
            return out
        if node.points >= 1 and empty:
            g = self.gains(node)
            for code in dict.fromkeys(node.reserve):
                after = tiles.add(node.tracks, _DELTAS[code])
                rest = list(node.reserve)
                rest.remove(code)
                if not placeable(node.tracks, code) or not keeps(rest, after, empty - 1, 1):
                    continue
                squares = [sq for _, sq in g.ranked(code) if node.board[sq] is None][:PLANNER_PLOTS]
                for square in squares:
                    board = list(node.board)
                    board[square] = code
                    out.append(
                        (
                            {"kind": "planner", "tile": code, "plot": tiles.square_name(square)},
                            _Node(
                                board,
                                after,
                                rest,
                                node.slots,
                                node.points - 1,
                                node.architect,
                                False,
                                node.drawn,
                                node.victims,
                            ),
                        )
                    )
        if self.advanced and node.points >= SPY_COST and empty:
            g = self.gains(node)
            best: tuple[float, Move, _Node] | None = None
            for victim, reserve in node.victims.items():
                for code in dict.fromkeys(reserve):
                    after = tiles.add(node.tracks, _DELTAS[code])
                    if not placeable(node.tracks, code) or not keeps(node.reserve, after, empty - 1, SPY_COST):
                        continue
                    spots = [(gain, sq) for gain, sq in g.ranked(code) if node.board[sq] is None]
                    if not spots or (best is not None and spots[0][0] <= best[0]):
                        continue
                    board = list(node.board)
                    board[spots[0][1]] = code
                    victims = dict(node.victims)
                    victims[victim] = list(reserve)
                    victims[victim].remove(code)
                    move = {"kind": "spy", "victim": victim, "tile": code, "plot": tiles.square_name(spots[0][1])}
                    best = (
                        spots[0][0],
                        move,
                        _Node(
                            board,
                            after,
                            list(node.reserve),
                            node.slots,
                            node.points - SPY_COST,
                            node.architect,
                            True,
                            node.drawn,
                            victims,
                        ),
                    )
            if best is not None:
                out.append((best[1], best[2]))
        if (
            root
            and node.points >= 1
            and len(self.stack) - node.drawn >= tiles.SLOT_COUNT
            and keeps(node.reserve, node.tracks, empty, 1)
            and node.drawn + tiles.SLOT_COUNT <= len(self.stack)
        ):
            fresh: list[str | None] = list(self.stack[node.drawn : node.drawn + tiles.SLOT_COUNT])
            out.append(
                (
                    {"kind": "mayor"},
                    _Node(
                        node.board,
                        node.tracks,
                        node.reserve,
                        fresh,
                        node.points - 1,
                        node.architect,
                        False,
                        node.drawn + tiles.SLOT_COUNT,
                        node.victims,
                    ),
                )
            )
        return out

    def best_value(self, node: _Node) -> float:
        """The best end-of-turn value reachable from ``node`` (END_TURN included)."""
        best = self.value(node)
        if node.points <= 0:
            return best
        for _, child in self.children(node, root=False):
            best = max(best, self.best_value(child))
        return best


def _root(state: State, seat: int) -> _Node:
    me = state.players[seat]
    return _Node(
        list(me.board),
        tiles.add(me.tracks, tiles.ZERO),
        list(me.reserve),
        list(state.slots),
        state.points,
        state.architect_done,
        any(e.get("kind") == "spy" for e in state.turn_log),
        0,
        {i: list(p.reserve) for i, p in enumerate(state.players) if i != seat and p.reserve},
    )


def _move_key(move: Move) -> tuple[tuple[str, object], ...]:
    return tuple(sorted(move.items()))


def turn_move(state: State, seat: int, legal: list[Move], seed: int) -> Move:
    """The strong AI's move in a basic or advanced game."""
    legal_keys = {_move_key(m): m for m in legal}
    pool = unseen(state, seat)
    totals: dict[tuple[tuple[str, object], ...], float] = {}
    for k in range(SAMPLES):
        stack = list(pool)
        core.rng(seed, "urbanpanic", "strong", "stack", k).shuffle(stack)
        search = _TurnSearch(state, seat, stack)
        root = _root(state, seat)
        candidates = search.children(root, root=True)
        if any(m["kind"] == "end_turn" for m in legal):
            candidates.append(({"kind": "end_turn"}, root))
        candidates += _engineer_candidates(state, seat, legal, search, root)
        for move, child in candidates:
            key = _move_key(move)
            if key not in legal_keys:
                continue
            value = search.value(child) if move["kind"] == "end_turn" else search.best_value(child)
            totals[key] = totals.get(key, 0.0) + value
    if not totals:
        return legal[0]
    rnd = core.rng(seed, "urbanpanic", "strong", "ties")
    keys = sorted(totals)
    rnd.shuffle(keys)
    return legal_keys[max(keys, key=lambda k: totals[k])]


def _engineer_candidates(
    state: State, seat: int, legal: list[Move], search: _TurnSearch, root: _Node
) -> list[tuple[Move, _Node]]:
    """The best Engineer swap of each kind (reserve, board) by immediate value, as plan starts."""
    me = state.players[seat]
    base = search.root_gains.base
    out: list[tuple[Move, _Node]] = []
    best: tuple[float, Move, _Node] | None = None
    for m in legal:
        if m["kind"] != "engineer_reserve":
            continue
        i = tiles.parse_plot(m["plot"])
        here = me.board[i]
        assert here is not None
        board = list(me.board)
        board[i] = m["tile"]
        after = tiles.add(tiles.add(me.tracks, _DELTAS[here], -1), _DELTAS[m["tile"]])
        gain = evaluate(board, after) - base
        if best is None or gain > best[0]:
            reserve = list(me.reserve)
            reserve[reserve.index(m["tile"])] = here
            best = (
                gain,
                m,
                _Node(board, after, reserve, root.slots, root.points - 1, root.architect, False, 0, root.victims),
            )
    if best is not None:
        out.append((best[1], best[2]))
    linked = tiles.reachable(me.board)
    loose = {i for i in tiles.PLOTS if me.board[i] is not None and i not in linked}
    if loose:
        best = None
        for m in legal:
            if m["kind"] != "engineer_board":
                continue
            a, b = tiles.parse_plot(m["plot"]), tiles.parse_plot(m["other"])
            if a > b or (a not in loose and b not in loose):
                continue
            board = list(me.board)
            board[a], board[b] = board[b], board[a]
            gain = evaluate(board, me.tracks) - base
            if best is None or gain > best[0]:
                best = (
                    gain,
                    m,
                    _Node(
                        board,
                        tiles.add(me.tracks, tiles.ZERO),
                        list(me.reserve),
                        root.slots,
                        root.points - 1,
                        root.architect,
                        False,
                        0,
                        root.victims,
                    ),
                )
        if best is not None:
            out.append((best[1], best[2]))
    return out


# ---------------------------------------------------------------------------------------------
# Party
# ---------------------------------------------------------------------------------------------


def party_move(state: State, seat: int, legal: list[Move], rnd: random.Random) -> Move:
    """The strong AI's move in the party game."""
    me = state.players[seat]
    g = Gains(me.board, tiles.tracks_of(me.board), floor=False)
    pool = unseen(state, seat)
    draws = [pool[rnd.randrange(len(pool))] for _ in range(PARTY_SAMPLES)] if pool else []
    draw_value = sum(max(g.best(code), PARTY_FLOOR) for code in draws) / len(draws) if draws else 0.0
    if me.hand is not None:
        ranked = g.ranked(me.hand)
        gain, square = ranked[0] if ranked else (float("-inf"), -1)
        if square >= 0 and (gain >= min(0.0, draw_value - PARTY_DROP_COST) or not state.stack):
            return {"kind": "place", "plot": tiles.square_name(square)}
        return {"kind": "drop"}
    takes = [m for m in legal if m["kind"] == "take"]
    if takes:
        order = list(takes)
        rnd.shuffle(order)
        value, move = max(((g.best(m["tile"]), m) for m in order), key=lambda vm: vm[0])
        if value >= draw_value + PARTY_TAKE_EDGE or not state.stack:
            return move
    if any(m["kind"] == "draw" for m in legal):
        return {"kind": "draw"}
    return legal[0]
