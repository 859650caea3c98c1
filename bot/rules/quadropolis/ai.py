"""Quadropolis AI players: ``random``, ``greedy`` and ``strong``. Deterministic in the seed.

- ``random`` picks any legal play move.
- ``greedy`` takes the tile and the square that raise its own city's *value* most, where the
  value is the structure score with every building on, corrected for missing and spare resources
  (their weight depends on how many turns are left), and the exact optimum at the very end.
- ``strong`` looks ahead over the site: for the greedy player's best few takes it plays the
  opponents' greedy replies up to its own next turn of the same round, then its own best reply,
  and keeps the take with the best value *difference* to the strongest opponent. It thus sees
  denial (the urbanist closing lines, tiles taken away) and set-ups for its next turn. It never
  looks into the next round's deal or at face-down tiles.

Neither ever plays ``allocate``: the engine's allocation is optimal anyway.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.rules import core
from bot.rules.core import Cell, IllegalMove, Move
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.allocation import best_allocation
from bot.rules.quadropolis.scoring import ALWAYS_ACTIVE, COST_BEARING, Building, Grid, categories
from bot.rules.quadropolis.state import PHASE_BUILD, PHASE_TAKE, QuadState, grid_of

if TYPE_CHECKING:
    from bot.rules.quadropolis.rules import QuadropolisRules

LEVELS = ("random", "greedy", "strong")
STRONG_CANDIDATES = 5
"""How many of the greedy player's best takes the strong player looks ahead from."""
SHORTAGE_COST_END = 3.0
"""Value lost per resource missing to activate every building, near the end of the game."""
SHORTAGE_COST_START = 1.0
SPARE_VALUE_START = 0.5
"""Value of a spare resource (not a customer, not absorbed) early on; -1 (the penalty) at the end."""


# ---------------------------------------------------------------------------------------------
# The value of a city
# ---------------------------------------------------------------------------------------------


def place(grid: Grid, cell: Cell, kind: T.TileKind) -> Grid:
    """The city with one more tile on ``cell`` (a new building or one more floor)."""
    rows = [list(row) for row in grid]
    below = rows[cell[0]][cell[1]]
    height = 1 if below is None else below.height + 1
    rows[cell[0]][cell[1]] = Building(kind.code, height, kind.vp)
    return tuple(tuple(row) for row in rows)


@lru_cache(maxsize=65536)
def city_value(mode_name: str, grid: Grid, inhabitants: int, energy: int, remaining: float) -> float:
    """How good a city is with ``remaining`` (0..1) of the player's turns still to come.

    At 0 this is the exact final score; before, every building counts as activated, each missing
    resource costs between 1 and 3 points and each spare one is worth +0.5 early and -1 late.
    """
    mode = T.MODE_RULES[mode_name]
    if remaining <= 0:
        sheet = best_allocation(mode, grid, inhabitants, energy)
        return sheet.total + 0.01 * sheet.inhabitants_on_buildings - 0.001 * sheet.empty_squares
    rows, cols = len(grid), len(grid[0])
    present: dict[Cell, Building] = {}
    need_inh = need_nrg = shops = parks = 0
    for r, row in enumerate(grid):
        for c, b in enumerate(row):
            if b is None:
                continue
            present[(r, c)] = b
            if b.code in COST_BEARING:
                inh, nrg = b.cost
                need_inh += inh
                need_nrg += nrg
                shops += b.code == "S"
            elif b.code == "P":
                parks += 1
            elif b.code not in ALWAYS_ACTIVE:
                raise AssertionError(b.code)
    value = float(sum(categories(mode, present, rows, cols, {}).values()))
    spare_inh = inhabitants - need_inh
    spare_nrg = energy - need_nrg
    shortage = max(0, -spare_inh) + max(0, -spare_nrg)
    shortage_cost = SHORTAGE_COST_END + (SHORTAGE_COST_START - SHORTAGE_COST_END) * remaining
    spare_value = -1.0 + (SPARE_VALUE_START + 1.0) * remaining
    value -= shortage_cost * shortage
    idle = 0
    if spare_inh > 0:
        placed = min(spare_inh, mode.shop_cap * shops)
        full, rest = divmod(placed, mode.shop_cap)
        value += full * mode.shops[mode.shop_cap] + mode.shops[rest]
        idle += spare_inh - placed
    if spare_nrg > 0:
        idle += spare_nrg - min(spare_nrg, parks)
    return value + spare_value * idle


def remaining_after(state: QuadState, seat: int) -> float:
    """Share of the seat's turns still to come once its current turn is over."""
    mode = state.rules
    per_round = mode.turns_per_round
    done_this_round = sum(1 for t in range(state.turn) if (state.first + t) % state.players == seat)
    done = (state.round - 1) * per_round + done_this_round + 1
    total = mode.rounds * per_round
    return round(max(0, total - done) / total, 4)


def seat_value(state: QuadState, seat: int, remaining: float | None = None) -> float:
    player = state.seats[seat]
    if remaining is None:
        remaining = remaining_after(state, seat)
    return city_value(state.mode, grid_of(player), player.inhabitants, player.energy, remaining)


# ---------------------------------------------------------------------------------------------
# Greedy
# ---------------------------------------------------------------------------------------------


def best_build(rules: QuadropolisRules, state: QuadState, seat: int, tile_id: str, value: int,
               remaining: float) -> tuple[float, Move]:
    """The best way to use a taken tile (a square, or discarding it) and its city value."""
    from bot.rules.quadropolis.rules import build_move, eligible

    mode = state.rules
    player = state.seats[seat]
    grid = grid_of(player)
    kind = T.kind_of(tile_id)
    best: tuple[float, Move] = (city_value(state.mode, grid, player.inhabitants, player.energy, remaining),
                                {"kind": "discard"})
    for cell, floor in eligible(mode, player.city, tile_id, value):
        v = city_value(state.mode, place(grid, cell, kind), player.inhabitants + kind.gives_inh,
                       player.energy + kind.gives_nrg, remaining)
        if v > best[0]:
            best = (v, build_move(cell, floor))
    return best


def take_values(rules: QuadropolisRules, state: QuadState, seat: int) -> list[tuple[float, Move]]:
    """Every take move with the city value it leads to (with its best build)."""
    remaining = remaining_after(state, seat)
    player = state.seats[seat]
    here = city_value(state.mode, grid_of(player), player.inhabitants, player.energy, remaining)
    cache: dict[tuple[str, int], float] = {}
    out = []
    for move in rules.play_moves(state, seat):
        value, slot = move["architect"], move["slot"]
        index = T.SITE_SIZE * T.slot_target(slot, value)[0] + T.slot_target(slot, value)[1]
        tile = state.site[index]
        if tile is None or state.face_down[index]:
            out.append((here, move))
            continue
        key = (T.kind_of(tile).id, value)
        if key not in cache:
            cache[key] = best_build(rules, state, seat, tile, value, remaining)[0]
        out.append((cache[key], move))
    return out


def pick(scored: list[tuple[float, Move]], rnd: random.Random) -> Move:
    """The best-valued move; ties broken by the seeded stream."""
    top = max(v for v, _ in scored)
    best = [m for v, m in scored if v >= top - 1e-9]
    return best[rnd.randrange(len(best))]


def greedy_move(rules: QuadropolisRules, state: QuadState, seat: int, rnd: random.Random) -> Move:
    if state.phase == PHASE_BUILD:
        assert state.pending is not None
        return best_build(rules, state, seat, state.pending, state.pending_architect,
                          remaining_after(state, seat))[1]
    return pick(take_values(rules, state, seat), rnd)


# ---------------------------------------------------------------------------------------------
# Strong: look-ahead over the site
# ---------------------------------------------------------------------------------------------


def play_turn(rules: QuadropolisRules, state: QuadState, seat: int,
              chooser: Callable[[QuadState], Move]) -> QuadState:
    """Play one whole turn of ``seat`` (take, then build or discard) with ``chooser``."""
    state = rules.apply(state, seat, chooser(state))
    if state.phase == PHASE_BUILD and state.current == seat:
        state = rules.apply(state, seat, chooser(state))
    return state


def strong_move(rules: QuadropolisRules, state: QuadState, seat: int, rnd: random.Random) -> Move:
    if state.phase == PHASE_BUILD:
        return greedy_move(rules, state, seat, rnd)
    scored = take_values(rules, state, seat)
    # Distinct outcomes only: the same tile with the same architect from another slot differs
    # only by where the urbanist blocks, so keep a few of each and let the look-ahead decide.
    scored.sort(key=lambda vm: -vm[0])
    candidates: list[Move] = []
    seen: dict[tuple[float, int], int] = {}
    for v, move in scored:
        key = (round(v, 6), move["architect"])
        if seen.get(key, 0) >= 2:
            continue
        seen[key] = seen.get(key, 0) + 1
        candidates.append(move)
        if len(candidates) >= STRONG_CANDIDATES:
            break
    sim_rnd = random.Random(rnd.random())
    round_no = state.round
    best: list[tuple[float, Move]] = []
    for move in candidates:
        s = rules.apply(state, seat, move)
        if s.phase == PHASE_BUILD:
            s = rules.apply(s, seat, greedy_move(rules, s, seat, sim_rnd))
        mine_after = seat_value(s, seat, remaining_after(state, seat))
        # Opponents reply greedily until our next turn (never past the end of the round).
        while not s.over and s.round == round_no and s.current != seat:
            s = play_turn(rules, s, s.current, lambda st: greedy_move(rules, st, st.current, sim_rnd))
        if not s.over and s.round == round_no and s.phase == PHASE_TAKE:
            follow = max(v for v, _ in take_values(rules, s, seat))
            mine = 0.5 * mine_after + 0.5 * follow
        else:
            mine = mine_after
        others = max(seat_value(s, other) for other in range(s.players) if other != seat)
        best.append((mine - others, move))
    return pick(best, rnd)


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def choose(rules: QuadropolisRules, state: QuadState, seat: int, level: str, seed: int) -> Move:
    """The move the AI of ``level`` plays for ``seat``; deterministic in ``seed``."""
    if level not in LEVELS:
        raise IllegalMove("qp.ai.unknown_level", level=level, levels=", ".join(LEVELS))
    moves = rules.play_moves(state, seat)
    if not moves:
        if state.over:
            raise core.GameOver()
        raise core.NotYourTurn()
    rnd = core.rng(seed, "quadropolis ai", level, state.round, state.turn, state.phase)
    if level == "random":
        return moves[rnd.randrange(len(moves))]
    if level == "greedy":
        return greedy_move(rules, state, seat, rnd)
    return strong_move(rules, state, seat, rnd)
