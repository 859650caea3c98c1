"""AI players for any seat: ``random`` (a uniformly random legal move), ``greedy`` and ``strong``
(look-ahead over the tiles the seat has not seen: :mod:`bot.rules.btc.strong`).

The greedy player looks one placement ahead in both of its cities and values a pair of city
scores (L, R) as ``LOWER_WEIGHT * min(L, R) + max(L, R)``: its final score is the lower city, so
it raises that one first (2-player: the sum, which is that game's final score). In solo Simple it
also prefers to give Automacity the tile that helps it least. Deterministic in the seed: ties are
broken by a seeded shuffle of the candidates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import geometry as G
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.state import FREE, BtcState, City
from bot.rules.core import IllegalMove, Move, NotYourTurn

LEVELS: tuple[str, ...] = ("random", "greedy", "strong")
LOWER_WEIGHT = 3
AUTOMACITY_WEIGHT = 0.5

Faces = dict[core.Cell, str]


def _faces(city: City) -> Faces:
    return {cell: spot[0] for cell, spot in city.cells.items()}


def _base(faces: Faces) -> int:
    """A grid city's score without its factory points (those depend on the other cities)."""
    return scoring.total(scoring.score_grid(faces, 0))


def _factories(faces: Sequence[str]) -> int:
    return sum(1 for f in faces if T.face_type(f) == "factory")


class _Evaluator:
    """Best placements of tiles in one seat's cities, cached per (tile kind, city)."""

    def __init__(self, state: BtcState, player: int) -> None:
        self.state = state
        self.player = player
        self.counts = E.factory_counts(state)
        self.cities = E.cities_of(state, player)
        self.faces = {c: _faces(state.cities[c]) for c in self.cities}
        self.base = {c: _base(self.faces[c]) for c in self.cities}
        self._best: dict[tuple[str, int], tuple[int, core.Cell | None]] = {}

    def best(self, kind: T.TileKind, city: int) -> tuple[int, core.Cell | None]:
        """(score without factory points, anchor) of the city with the tile at its best spot."""
        key = (kind.id, city)
        if key not in self._best:
            self._best[key] = self._search(self.faces[city], kind)
        return self._best[key]

    @staticmethod
    def _search(faces: Faces, kind: T.TileKind) -> tuple[int, core.Cell | None]:
        shape = G.shape_of(kind)
        anchors = G.anchors(faces.keys(), shape)
        if not anchors and kind.shape == T.DUPLEX:
            shape = G.shape_of(kind, turned=True)
            anchors = G.anchors(faces.keys(), shape)
        best: tuple[int, core.Cell | None] = (_base(faces), None)
        first = True
        for a in anchors:
            trial = dict(faces)
            trial.update(zip(G.cover(a, shape), kind.faces, strict=True))
            score = _base(trial)
            if first or score > best[0]:
                best, first = (score, a), False
        return best

    def totals(self, bases: dict[int, int], added: dict[int, int]) -> dict[int, int]:
        """Own cities' totals from their factory-less scores and factories added per city."""
        counts = list(self.counts)
        for city, n in added.items():
            counts[city] += n
        return {c: bases[c] + counts[c] * scoring.per_factory(counts[c], counts) for c in self.cities}

    def objective(self, totals: dict[int, int]) -> float:
        left, right = (totals[c] for c in self.cities)
        if self.state.mode == E.TWO_PLAYER:
            return left + right
        return LOWER_WEIGHT * min(left, right) + max(left, right)

    def pair_value(self, a: int, b: int) -> float:
        """Value of tile ``a`` going to the left city and ``b`` to the right city."""
        left, right = self.cities
        ka, kb = E.kind_of(self.state, a), E.kind_of(self.state, b)
        bases = {left: self.best(ka, left)[0], right: self.best(kb, right)[0]}
        added = {left: _factories(ka.faces), right: _factories(kb.faces)}
        return self.objective(self.totals(bases, added))


def _automacity_gain(state: BtcState, tile: int) -> int:
    kind = E.kind_of(state, tile)
    city = state.cities[E.AUTOMACITY]
    counts = E.factory_counts(state)
    value = scoring.per_factory(counts[E.AUTOMACITY], counts)
    before = scoring.total(scoring.score_automacity(city.faces(), value))
    counts[E.AUTOMACITY] += _factories(kind.faces)
    value = scoring.per_factory(counts[E.AUTOMACITY], counts)
    return scoring.total(scoring.score_automacity([*city.faces(), *kind.faces], value)) - before


def _pick(moves: list[Move], value: Any, rnd: random.Random) -> Move:
    order = list(moves)
    rnd.shuffle(order)
    return max(order, key=value)


def _place_value(ev: _Evaluator, move: Move) -> float:
    """The seat's cities after this placement, with a free companion tile at its best spot."""
    state, player = ev.state, ev.player
    tile, city = int(move["tile"]), int(move["city"])
    kind = E.kind_of(state, tile)
    anchor = core.parse_cell(str(move["cell"]), G.FRAME, G.FRAME)
    shape = G.shape_of(kind, turned=move["kind"] == "turned")
    faces = dict(ev.faces[city])
    faces.update(zip(G.cover(anchor, shape), kind.faces, strict=True))
    bases = dict(ev.base)
    bases[city] = _base(faces)
    added = {city: _factories(kind.faces)}
    pending = state.players[player].pending
    if len(pending) == 2 and all(x.city == FREE for x in pending):  # the other tile takes the other city
        other = next(c for c in ev.cities if c != city)
        other_kind = E.kind_of(state, next(x.tile for x in pending if x.tile != tile))
        bases[other] = ev.best(other_kind, other)[0]
        added[other] = _factories(other_kind.faces)
    return ev.objective(ev.totals(bases, added))


def greedy_move(state: BtcState, seat: int, moves: list[Move], rnd: random.Random) -> Move:
    ev = _Evaluator(state, seat)
    kind = moves[0]["kind"]
    if kind == "bonus":
        result = E.game_result(state)
        scores = result.seats[0].details["cities"]
        return _pick(moves, lambda m: scores["left" if m["city"] == E.LEFT_CITY else "right"][m["type"]], rnd)
    if kind == "choose" and "tiles" in moves[0]:

        def chosen(m: Move) -> float:
            a, b = m["tiles"]
            return max(ev.pair_value(a, b), ev.pair_value(b, a))

        return _pick(moves, chosen, rnd)
    if kind in ("choose", "assign"):

        def assigned(m: Move) -> float:
            value = ev.pair_value(int(m["left"]), int(m["right"]))
            if "auto" in m:
                value -= AUTOMACITY_WEIGHT * _automacity_gain(state, int(m["auto"]))
            return value

        return _pick(moves, assigned, rnd)
    placements = [m for m in moves if m["kind"] in ("place", "turned")]
    return _pick(placements, lambda m: _place_value(ev, m), rnd)


def choose_move(state: BtcState, seat: int, level: str, seed: int) -> Move:
    """A legal move for ``seat`` by the AI of ``level``; deterministic in ``seed``."""
    moves = E.legal_moves(state, seat)
    if not moves:
        raise NotYourTurn()
    if level not in LEVELS:
        raise IllegalMove("btc.ai.level", level=level, levels=", ".join(LEVELS))
    rnd = core.rng(seed, "btc", "ai", level)
    if level == "greedy":
        return greedy_move(state, seat, moves, rnd)
    if level == "strong":
        from bot.rules.btc import strong

        return strong.strong_move(state, seat, moves, rnd)
    return rnd.choice(moves)
