"""Quadropolis AI players: ``random``, ``greedy`` and ``strong``. Deterministic in the seed.

- ``random`` picks any legal play move.
- ``greedy`` takes the tile and the square that raise its own city's *value* most. The value is
  the structure score with every building on, corrected for missing and spare resources with
  weights that move from "resources are precious" early to the real -1 penalty at the end
  (:class:`Weights`, tuned by greedy-against-greedy self-play). On its last turn of the game it
  compares its best few placements by the end-game allocation itself.
- ``strong`` looks ahead over the site: for its best few takes it plays the opponents' greedy
  replies up to its own next turn of the same round, then finds its own best take there, and keeps
  the move with the best value *difference* to the strongest opponent. It thus sees denial (the
  urbanist closing lines, tiles taken away) and set-ups for its next turn. It never looks into the
  next round's deal or at face-down tiles (the look-ahead stops at the end of the round).

Neither places inhabitants or energy: nobody does; the engine's end-game allocation is the best one (D-24).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from bot.rules import core
from bot.rules.core import Cell, IllegalMove, Move
from bot.rules.quadropolis import engine as E
from bot.rules.quadropolis import tiles as T
from bot.rules.quadropolis.allocation import quick_key
from bot.rules.quadropolis.scoring import COST_BEARING, Building, Grid, categories
from bot.rules.quadropolis.state import PHASE_BUILD, PHASE_TAKE, QuadState, grid_of

LEVELS = ("random", "greedy", "strong")
STRONG_CANDIDATES = 8
"""How many of the greedy player's best takes the strong player looks ahead from."""
DENIAL_WEIGHT = 1.0
"""Weight of the strongest opponent's value after its replies (1: play for the difference)."""
FOLLOW_WEIGHT = 0.75
"""Weight of the best value reachable on the strong player's next turn (vs. right after this one)."""


class Weights(NamedTuple):
    """How a level values resources while the game is on (see :func:`heuristic_value`)."""

    shortage_start: float
    """Points lost per resource missing to activate every building, at the start of the game."""
    shortage_end: float
    """... and at the end of the game."""
    spare_start: float
    """Value of a spare resource (not a customer, not absorbed) at the start; -1 at the end."""
    mayor: float
    """Bonus for building the mayor tower before the last round (first player next round)."""


LEVEL_WEIGHTS = {
    "greedy": Weights(shortage_start=0.5, shortage_end=3.0, spare_start=2.0, mayor=1.0),
    "strong": Weights(shortage_start=1.0, shortage_end=3.0, spare_start=1.5, mayor=1.0),
}
GREEDY = LEVEL_WEIGHTS["greedy"]


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


@lru_cache(maxsize=16384)
def heuristic_value(
    mode_name: str, grid: Grid, inhabitants: int, energy: int, remaining: float, weights: Weights = GREEDY
) -> float:
    """How good a city is with ``remaining`` (0..1) of the player's turns still to come.

    Every building counts as activated; each resource missing for that costs points, from
    ``weights.shortage_start`` early to ``weights.shortage_end`` late; spare inhabitants become
    concentrated customers, and each resource still spare (not a customer, not absorbed by a park)
    is worth from ``weights.spare_start`` early down to -1 (the penalty) at the end.
    """
    mode = T.MODE_RULES[mode_name]
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
    value = float(sum(categories(mode, present, rows, cols, {}).values()))
    spare_inh = inhabitants - need_inh
    spare_nrg = energy - need_nrg
    shortage = max(0, -spare_inh) + max(0, -spare_nrg)
    shortage_cost = weights.shortage_end + (weights.shortage_start - weights.shortage_end) * remaining
    spare_value = -1.0 + (weights.spare_start + 1.0) * remaining
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


def exact_value(mode_name: str, grid: Grid, inhabitants: int, energy: int) -> float:
    """The final score as the end-game allocation would make it, tie-breaks as tiny fractions.

    Uses the local-search allocation (:func:`quick_key`), which matches the exact optimum in
    nearly every city at a fraction of the cost; the game itself is always scored exactly.
    """
    total, placed, occupied = quick_key(mode_name, grid, inhabitants, energy)
    return total + 0.01 * placed + 0.001 * occupied


def remaining_after(state: QuadState, seat: int) -> float:
    """Share of the seat's turns still to come once its current turn is over."""
    mode = state.rules
    per_round = mode.turns_per_round
    done_this_round = sum(1 for t in range(state.turn) if (state.first + t) % state.players == seat)
    done = (state.round - 1) * per_round + done_this_round + 1
    total = mode.rounds * per_round
    return round(max(0, total - done) / total, 4)


def seat_value(state: QuadState, seat: int, remaining: float | None = None, weights: Weights = GREEDY) -> float:
    """A seat's city value (exact at the end of the game)."""
    player = state.seats[seat]
    if remaining is None:
        remaining = remaining_after(state, seat)
    grid = grid_of(player)
    if remaining <= 0:
        return exact_value(state.mode, grid, player.inhabitants, player.energy)
    return heuristic_value(state.mode, grid, player.inhabitants, player.energy, remaining, weights)


Signature = tuple[str, int, int, int, bool]


def signature(kind: T.TileKind) -> Signature:
    """What matters about a tile for its owner: building letter, printed VP, resources, mayor."""
    return (kind.code, kind.vp, kind.gives_inh, kind.gives_nrg, kind.mayor)


class Evaluator:
    """Values of one player's possible placements this turn, memoised per (square, tile kind).

    With turns still to come it uses :func:`heuristic_value`; on the player's last turn of the
    game it ranks with the heuristic and scores the best few exactly.
    """

    EXACT_FINALISTS = 3

    def __init__(self, state: QuadState, seat: int, weights: Weights = GREEDY) -> None:
        self.weights = weights
        self.state = state
        self.mode = state.rules
        self.player = state.seats[seat]
        self.grid = grid_of(self.player)
        self.remaining = remaining_after(state, seat)
        self.final = self.remaining <= 0
        self.mayor_value = weights.mayor if state.round < self.mode.rounds else 0.0
        self.memo: dict[tuple[Cell, Signature], float] = {}
        self.here = self.value(self.grid, self.player.inhabitants, self.player.energy)

    def value(self, grid: Grid, inh: int, nrg: int, exact: bool = False) -> float:
        if exact:
            return exact_value(self.mode.name, grid, inh, nrg)
        return heuristic_value(self.mode.name, grid, inh, nrg, self.remaining, self.weights)

    def placement(self, cell: Cell, kind: T.TileKind, exact: bool = False) -> float:
        key = (cell, signature(kind))
        if exact:
            return self.value(
                place(self.grid, cell, kind),
                self.player.inhabitants + kind.gives_inh,
                self.player.energy + kind.gives_nrg,
                exact=True,
            )
        value = self.memo.get(key)
        if value is None:
            value = self.value(
                place(self.grid, cell, kind),
                self.player.inhabitants + kind.gives_inh,
                self.player.energy + kind.gives_nrg,
            )
            if kind.mayor:
                value += self.mayor_value
            self.memo[key] = value
        return value

    def builds(self, tile_id: str, architect: int) -> list[tuple[float, Move]]:
        """Every build of the tile (and discarding it) with its value, best first."""
        kind = T.kind_of(tile_id)
        out: list[tuple[float, Move]] = [(self.here, {"kind": "discard"})]
        for cell, floor in E.eligible(self.mode, self.player.city, tile_id, architect):
            out.append((self.placement(cell, kind), E.build_move(cell, floor)))
        out.sort(key=lambda vm: -vm[0])
        return out

    def best_build(self, tile_id: str, architect: int) -> tuple[float, Move]:
        options = self.builds(tile_id, architect)
        if not self.final:
            return options[0]
        kind = T.kind_of(tile_id)
        here = self.value(self.grid, self.player.inhabitants, self.player.energy, exact=True)
        best: tuple[float, Move] = (here, {"kind": "discard"})
        for _, move in options[: self.EXACT_FINALISTS]:
            if move["kind"] == "discard":
                continue
            cell = (ord(move["square"][0]) - ord("A"), int(move["square"][1:]) - 1)
            value = self.placement(cell, kind, exact=True)
            if value > best[0]:
                best = (value, move)
        return best


# ---------------------------------------------------------------------------------------------
# Greedy
# ---------------------------------------------------------------------------------------------


def target_tile(state: QuadState, move: Move) -> str | None:
    """The face-up tile a take move would take, if any."""
    r, c = T.slot_target(move["slot"], move["architect"])
    index = T.SITE_SIZE * r + c
    tile = state.site[index]
    return None if tile is None or state.face_down[index] else tile


def take_values(state: QuadState, seat: int, weights: Weights = GREEDY) -> list[tuple[float, Move]]:
    """Every take move with the value of the city it leads to (with the best build)."""
    ev = Evaluator(state, seat, weights)
    cache: dict[tuple[Signature, int], float] = {}
    tiles: dict[tuple[Signature, int], str] = {}
    plan: list[tuple[tuple[Signature, int] | None, Move]] = []
    for move in E.legal_moves(state, seat):
        tile = target_tile(state, move)
        if tile is None:
            plan.append((None, move))
            continue
        key = (signature(T.kind_of(tile)), move["architect"])
        if key not in cache:
            cache[key] = ev.builds(tile, move["architect"])[0][0]
            tiles[key] = tile
        plan.append((key, move))
    here = ev.here
    if ev.final and cache:
        # Last turn of the game: score the most promising takes exactly.
        here = ev.value(ev.grid, ev.player.inhabitants, ev.player.energy, exact=True)
        finalists = sorted(cache, key=lambda k: -cache[k])[:4]
        exact = {k: ev.best_build(tiles[k], k[1])[0] for k in finalists}
        floor = min(here, *exact.values()) - 1000.0
        cache = {k: exact.get(k, floor + cache[k] / 1000.0) for k in cache}
    return [(here if key is None else cache[key], move) for key, move in plan]


def pick(scored: list[tuple[float, Move]], rnd: random.Random) -> Move:
    """The best-valued move; ties broken by the seeded stream."""
    top = max(v for v, _ in scored)
    best = [m for v, m in scored if v >= top - 1e-9]
    return best[rnd.randrange(len(best))]


def greedy_move(state: QuadState, seat: int, rnd: random.Random, weights: Weights = GREEDY) -> Move:
    if state.phase == PHASE_BUILD:
        assert state.pending is not None
        return Evaluator(state, seat, weights).best_build(state.pending, state.pending_architect)[1]
    return pick(take_values(state, seat, weights), rnd)


# ---------------------------------------------------------------------------------------------
# Strong: look-ahead over the site
# ---------------------------------------------------------------------------------------------


def play_turn(state: QuadState, seat: int, chooser: Callable[[QuadState], Move]) -> QuadState:
    """Play one whole turn of ``seat`` (take, then build or discard) with ``chooser``."""
    state = E.apply(state, seat, chooser(state))
    if state.phase == PHASE_BUILD and state.current == seat:
        state = E.apply(state, seat, chooser(state))
    return state


def strong_move(state: QuadState, seat: int, rnd: random.Random) -> Move:
    weights = LEVEL_WEIGHTS["strong"]
    if state.phase == PHASE_BUILD:
        return greedy_move(state, seat, rnd, weights)
    scored = take_values(state, seat, weights)
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
        s = E.apply(state, seat, move)
        if s.phase == PHASE_BUILD:
            s = E.apply(s, seat, greedy_move(s, seat, sim_rnd, weights))
        mine_after = seat_value(s, seat, remaining_after(state, seat), weights)
        # Opponents reply greedily until our next turn (never past the end of the round).
        while not s.over and s.round == round_no and s.current != seat:
            s = play_turn(s, s.current, lambda st: greedy_move(st, st.current, sim_rnd))
        if not s.over and s.round == round_no and s.phase == PHASE_TAKE:
            follow = max(v for v, _ in take_values(s, seat, weights))
            mine = (1 - FOLLOW_WEIGHT) * mine_after + FOLLOW_WEIGHT * follow
        else:
            mine = mine_after
        others = max(seat_value(s, other) for other in range(s.players) if other != seat)
        best.append((mine - DENIAL_WEIGHT * others, move))
    return pick(best, rnd)


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def choose(state: QuadState, seat: int, level: str, seed: int) -> Move:
    """The move the AI of ``level`` plays for ``seat``; deterministic in ``seed``."""
    if level not in LEVELS:
        raise IllegalMove("quadropolis.ai.unknown_level", level=level, levels=", ".join(LEVELS))
    moves = E.legal_moves(state, seat)
    if not moves:
        if state.over:
            raise core.GameOver()
        raise core.NotYourTurn()
    rnd = core.rng(seed, "quadropolis ai", level, state.round, state.turn, state.phase)
    if level == "random":
        return moves[rnd.randrange(len(moves))]
    if level == "greedy":
        return greedy_move(state, seat, rnd)
    return strong_move(state, seat, rnd)
