"""The strong AI of Between Two Cities: look-ahead over what the seat cannot see.

A city layout is worth its score now (factory points from the majority over every city) plus
``POTENTIAL`` times the expected best gain of the *next* single tile it receives, taken as the best
of ``CHOICES`` tiles drawn from the tiles this seat has not seen, counted from its own information
set only (every city, every revealed tile, its own hand and choice, in solo the Automas' open
hands; never another hand, the bag, a discard or the Automa deck). That one-ply expectimax makes
the AI value what the greedy player cannot see: a park beside room for its partner, a shop line
with room to grow, the house that will gain from types still to come, the office set that grows.

With 3-7 players a city is shared with a partner who lays a tile in it every turn, so a layout
also gains, per tile the partner still lays, ``PARTNER`` times the expected gain of a tile laid on a
random open cell (which counts the loss of a factory beside lonely houses or a house beside a
factory, and the gain of open cells beside parks, shops, offices and taverns); and the seat asks
its partner to place first, so it places knowing where the partner's tile went.

The draft keeps the pair of tiles whose best placements give the best pair of cities, and with 3-7
players the ``ROLLOUT_TOP`` best pairs by that one-ply value are re-ranked by up to ``ROLLOUTS``
sampled futures (successive halving spends most of them on the best choices): both cities are filled
to the end, the partner laying a face drawn from the unseen tiles (at its best cell with the chance
that the other seats play greedily, judged from the points of the cities this seat does not build,
else at a random cell) and this seat the best of ``CHOICES`` drawn faces, every choice judged on the
same samples by the chance to finish first; placement looks at the companion tile's best spot in the
other city. The pair of cities is judged as the rules judge them: with 3-7 players by the chance to
finish first against every rival, each city projected to the end (``RATE`` per empty cell): only
the lower of each player's cities counts, the higher one breaking ties, so against a neighbour who
shares a city this seat ranks higher exactly when its other city beats the neighbour's other city
(the shared city is in both standings); with two players by the sum; solo by the
chance that the lower city ends above Automacity (Simple: with the tile handed to it). With 3-7
players a city's factories are worth what the majority is expected to pay when every city is full
(``FACTORY_ODDS``), and a factory laid counts the points it adds to its city's other factories.

Everything is deterministic: ties are broken by a seeded shuffle, nothing reads a clock or the
hidden state, so the same information gives the same move (tests check it).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import geometry as G
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.state import FREE, BtcState
from bot.rules.core import Move

Cell = core.Cell
Faces = dict[Cell, str]

POTENTIAL = 1.0
"""Weight of the expected best gain of the next tile a city receives."""
SHARED_EXACT = True
"""3-7 players: against a neighbour who shares a city, compare this seat's other city with theirs.
Ties aside, that is the rules' comparison (8.8) whichever of the three cities ends lowest. When the
shared city is the lower one of both players, the higher cities break the tie; the earlier model
(the lower city plus ``TIE_WEIGHT`` of the higher one) called that a coin flip. Such ties lost
0.13 of the bench's 4-seat games against greedy seats before and 0.15 after: the model now sees
them, but they are still lost on the points of the other cities. Measured (one strong seat; 4 seats: 300
games on each of seed sets 54000 and 70000, 3 and 7 seats: 200 games), before -> after: against
random seats 0.833 and 0.833 -> 0.843 and 0.817 (4 seats), 0.815 -> 0.855 (3), 0.775 -> 0.77 (7);
against greedy seats 0.527 and 0.523 -> 0.527 and 0.577 (4), 0.625 -> 0.61 (3), 0.305 -> 0.36 (7)."""
LOWER_WEIGHT = 3.0
"""Value of the lower city against the higher one (3-7 players and solo)."""
RATE = 3.4
"""3-7 players: points a city is expected to gain per empty cell (greedy cities end near 55)."""
TIE_WEIGHT = 0.05
"""The higher city's part in a player's standing (it breaks ties, 8.8)."""
SPREAD_BASE = 1.5
SPREAD_PER_CELL = 0.25
"""Width of the logistic win chance against one rival: base plus this per empty cell per city."""
SCORE_WEIGHT = 0.002
"""A little of ``LOWER_WEIGHT * lower + higher`` on top of the win chance, so the higher city is
built well too and a game already won or lost is still played well."""
CHOICES = 4
"""The next tile for a city is the best of about this many drawn tiles (a hand to draft from). With
32 samples on 16 draft choices, 4 seats, 300 games: against random seats 0.813 and 0.807 with 3,
0.833 and 0.833 with 4, 0.797 (seed set 70000) with 5; against greedy seats 0.493 (no halving) with
3, 0.527 with 4, 0.49 with 5."""
YOU_FIRST = True
"""Ask the partner to place first in a shared city, so this seat places knowing their tile's spot
(one strong seat against three random seats, 200 games: 0.645 without, 0.71 with)."""
PARTNER = 0.5
"""3-7 players: weight of the expected gain of a tile the partner lays at random in a shared city,
counted for each tile the partner still lays there (one strong seat against three random seats,
500 games: 0.76 with only the expected loss from such tiles, 0.80 with this; against three greedy
seats, 300 games: 0.35 -> 0.42)."""
LEAD = 1.0
LEAD_WIDTH = 3.0
EVIDENCE = 1.0
"""3-7 players, against a partner who plays like the greedy AI: a shared city that is ahead now (in
points) of the partner's other city is projected ``LEAD`` points higher per tile the partner still
lays in it (times a logistic of the difference, width ``LEAD_WIDTH``, centred on 0), and the
partner's other city as much lower. Such a partner lays its better tile in its lower city. One
strong seat against three greedy seats, 100-120 games on three seed sets: 0.35 -> 0.45, 0.42 ->
0.475, 0.375 -> 0.42 (3 seats 0.47 -> 0.52, 7 seats 0.28 -> 0.32); against random seats it costs
about 0.04, so it is weighted by the chance that the others play greedily (:func:`greedy_evidence`).
The opposite sign (the partner's better tile expected in a city that is behind) lost: 0.35 -> 0.24."""
_RANDOM_BASE = (0.0, 0.9, 2.4, 4.2, 6.1, 8.1, 10.4, 12.6, 14.9, 17.5, 20.2, 22.7, 25.3, 27.7, 30.5, 33.6, 36.5)
_GREEDY_BASE = (0.0, 0.9, 2.2, 4.2, 7.3, 9.9, 13.0, 15.5, 18.1, 21.1, 24.1, 28.1, 32.0, 35.3, 39.5, 42.4, 45.3)
"""Mean points (factories aside) of a 4-seat city of 0..16 cells built by two random or by two greedy
seats (30 games each, sampled every third move; 7 and 9 cells interpolated)."""


MARGINAL = True
"""A factory laid is worth the change in all of its city's factory points, not the points one factory
earns: one that takes the majority raises the city's other factories too. Measured (one strong seat,
4 seats, 300 games on each of seed sets 54000 and 70000), before -> after: against greedy seats
0.567 and 0.57 -> 0.587 and 0.57, against random seats 0.827 and 0.827 -> 0.833 and 0.833; 7 seats
against greedy seats 0.45 -> 0.45 (200 games). Within the noise, and right by the rules."""
FACTORY_ODDS = True
"""3-7 players: a city's factories are worth what the majority is expected to pay at the end, when
every city's empty cells are filled (each a factory with the unseen tiles' share of factories), not
what it pays now: a city with the game's only factory gets 4 points for it now and can expect about
3.4 at the end. What showed the need (one strong seat against three random seats, 4 seats, 300
games): this seat's cities scored 1.4 factory points less than the cities across the table, 3.5
less in the games it lost.

Measured with the rollouts' factory count fixed (:func:`_simulate`), one strong seat, before ->
after. 4 seats, 300 games on each of seed sets 54000 and 70000: against greedy seats 0.527 and 0.577
-> 0.567 and 0.57, against random seats 0.843 and 0.817 -> 0.827 and 0.827 (one run's standard error
is about 0.025). 3 and 7 seats, 200 games: against greedy seats 0.61 -> 0.66 and 0.36 -> 0.45,
against random seats 0.855 -> 0.87 and 0.77 -> 0.775. The more cities, the less the majority of the
moment says about the end. A normal approximation of the counts measured alike (4 seats: 0.56 and
0.58, 0.847 and 0.843); with it, the future counts scaled by 0.7, 1.4 or 2 gave 0.593, 0.64 and 0.57
against greedy seats on seed set 54000: noise around the unscaled share."""


def _binomial(n: int, p: float) -> list[tuple[int, float]]:
    """(k, chance) of k successes in ``n`` trials of chance ``p``, the negligible tails dropped."""
    out = [(k, math.comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1)]
    kept = [(k, q) for k, q in out if q >= 1e-3] or [(0, 1.0)]
    total = sum(q for _, q in kept)
    return [(k, q / total) for k, q in kept]


def greedy_evidence(x: float, n: int) -> float:
    """Log-likelihood ratio that the builders of a city of ``n`` cells worth ``x`` points now
    (factories aside) play like the greedy AI rather than at random (normal likelihoods)."""
    if n < 3:
        return 0.0
    mr, mg = _RANDOM_BASE[n], _GREEDY_BASE[n]
    sd = 1.0 + 0.35 * n
    return ((x - mr) ** 2 - (x - mg) ** 2) / (2 * sd * sd)


FULL = G.SIDE * G.SIDE
ROLLOUTS = 32
"""3-7 players: sampled futures per draft choice (0: the one-ply value alone decides), spent by
successive halving (``HALVING``). An earlier session measured 8 samples on the 4 best choices: one
strong seat against three greedy seats, 340 games on three seed sets, 0.41 without rollouts, 0.485
with 8. This session, 4 seats, 300 games per run (seed sets 54000 and 70000): against random seats
8 samples on 4 choices 0.743; 32 on 8 0.797; 32 on 16 0.853 and 0.797; 32 on every choice 0.84; 96
on 8 0.773; against greedy seats 8 on 4 0.44, 32 on 16 0.493. The choices ranked by the one-ply
value miss good ones, and more samples on few choices buy nothing: breadth matters."""
ROLLOUT_TOP = 16
"""3-7 players: how many of the best draft choices by the one-ply value are re-ranked by rollouts.
Placements are not: re-ranking the 4 best placements by 8 sampled futures measured no better against
greedy seats (0.447 against 0.485, 340 games) with placements 6x slower at p50. Also measured and
dropped: a house's expected gain from the building types still to come (0.35 both ways), and the
partner assumed to lay at its best cell instead of at random (0.25 and 0.39 on two seed sets).

Measured this session and dropped (4 seats, 300 games, 32 samples on 16 choices unless said):
re-ranking every placement by 16 sampled futures (against random 0.853 -> 0.778, against greedy
0.493 -> 0.417: the rollouts judge tiles well and cells badly); choosing which tile goes to which
city by rollouts at placement (0.813, 0.47); both orientations of a drafted pair rolled out (0.78
against 0.797 on seed set 70000); rollouts that draw one hand for both cities and give the lower
city the better tile (8 samples: 0.74 against 0.743, 0.41 against 0.44); rivals' cities sampled
instead of projected, with a narrow logistic (0.767 against 0.797).

Measured in a later session and dropped (4 seats, one strong seat; paired runs play the same deals
both ways, 1,200 games, standard error about 0.012 against random seats and 0.016 against greedy):
- the tiles this seat hands on counted for the cities of the seats who take them, as seats playing
  at random would lay them: against random seats +0.017 on seed set 100000 and -0.017 on 120000,
  against greedy seats +0.002; greedy takers modelled too: +0.015 and -0.015 (weights 1 and 2);
- projections calibrated on 600 logged games (this seat's cities were projected 3-7 points too
  high, random rivals' up to 10) with the logistic's width from the measured spread: against random
  seats 0.853 and 0.813 on seed sets 54000 and 70000 (0.833 and 0.833 before), against greedy seats
  0.575 -> 0.563 (paired);
- certainty that the others play at random (the evidence stays near 0.4 in mid-game against random
  seats): 0.823 and 0.873, against 0.833 and 0.833.

Measured in a third session and dropped (same paired deals, seed set 100000):
- a layout's future gain predicted by ridge regressions, one per city size, on 19 features (the
  one-ply and partner terms, lonely and spoiled houses, types present, offices, tavern kinds, shops
  and their points, park groups by size, open cells, open cells beside lonely houses and beside
  factories, factories), fitted on 1,200 logged games against each kind of seat and mixed by the
  greedy evidence. It explains about twice the variance of the final score that the one-ply value
  does (city of 6 cells: 8.0 of 42.9 against 4.5), yet decides no better: against random seats
  0.8375 -> 0.839, against greedy seats 0.575 -> 0.555;
- a favourite's caution: each layout loses ``k`` times the spread of what the partner's random
  tiles add (their variance over the unseen faces and the open cells, times the tiles to come):
  against random seats 0.848 with k = 0.3 and 0.843 with k = 1, against 0.8375;
- at 4 seats, the seat across the table left out of the win chance (both its cities are the
  neighbours' other cities, so beating both neighbours beats it too, and its logistic only counts
  the lower city twice): against random seats 0.8375 -> 0.851 (seed set 100000) and 0.849 -> 0.84
  (120000), against greedy seats 0.575 -> 0.608 and 0.573 -> 0.56: noise on both."""
HALVING = 8
"""Successive halving over the ``ROLLOUT_TOP`` choices: every choice gets the first ``HALVING``
samples, the better half (never fewer than two) twice as many, and so on until ``ROLLOUTS``, all on
the same samples. It halves the work of rolling every choice out ``ROLLOUTS`` times at about
the same strength (against random seats 0.813 and 0.807 on the two seed sets, against 0.853 and
0.797)."""


def expected_best(gains: list[tuple[float, float]], draws: int) -> float:
    """E[max gain] over ``draws`` independent draws of (gain, probability) pairs."""
    out = 0.0
    below = 0.0
    for gain, p in sorted(gains):
        at_most = (below + p) ** draws - below**draws
        out += gain * at_most
        below += p
    return out


_TYPE = {code: f.type for code, f in T.FACES.items()}
_SINGLE_FACES: tuple[str, ...] = tuple(sorted({k.faces[0] for k in T.KINDS.values() if k.shape == T.SINGLE}))
_HOUSE_ALONE = T.HOUSE_NEXT_TO_FACTORY
TAVERN_FACES: tuple[str, ...] = tuple(sorted(code for code, f in T.FACES.items() if f.type == "tavern"))


_ADJ: dict[Cell, tuple[Cell, Cell, Cell, Cell]] = {
    (r, c): ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))
    for r in range(-1, G.FRAME + 1)
    for c in range(-1, G.FRAME + 1)
}
"""The four neighbours of every cell of the frame and its border (looked up, not built: the rollouts
ask millions of times)."""


def open_cells(occupied: Mapping[Cell, str]) -> list[Cell]:
    """The empty cells a single tile may fill (the same as ``G.anchors`` of the single shape), sorted."""
    if not occupied:
        return [G.CENTER]
    rows = [r for r, _ in occupied]
    cols = [c for _, c in occupied]
    lo_r, hi_r = max(max(rows) - G.SIDE + 1, 0), min(min(rows) + G.SIDE - 1, G.FRAME - 1)
    lo_c, hi_c = max(max(cols) - G.SIDE + 1, 0), min(min(cols) + G.SIDE - 1, G.FRAME - 1)
    found: set[Cell] = set()
    for r, c in occupied:
        for e in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if lo_r <= e[0] <= hi_r and lo_c <= e[1] <= hi_c and e not in occupied:
                found.add(e)
    return sorted(found)


class CityModel:
    """One grid city's layout with what the gain of one more face needs (without factory points)."""

    def __init__(self, faces: Mapping[Cell, str], scored: bool = True) -> None:
        self.faces = dict(faces)
        by_type: dict[str, set[Cell]] = {t: set() for t in T.TYPES}
        kinds: Counter[str] = Counter()
        for cell, code in self.faces.items():
            kind = _TYPE[code]
            by_type[kind].add(cell)
            if kind == "tavern":
                kinds[code] += 1
        self.by_type = by_type
        self.tavern_kinds = kinds
        self.present = sum(1 for t in T.TYPES if t != "house" and by_type[t])
        self.group_of: dict[Cell, int] = {}
        self.group_size: list[int] = []
        self._park_groups()
        self.base = scoring.total(scoring.score_grid(self.faces, 0)) if scored else 0
        self.open = open_cells(self.faces) if len(self.faces) < FULL else []
        rows = [r for r, _ in self.faces] or [0]
        cols = [c for _, c in self.faces] or [0]
        self.bounds = (min(rows), max(rows), min(cols), max(cols))
        self._best_for: dict[str, tuple[int, Cell]] = {}
        self._lonely: set[Cell] | None = None

    def copy(self) -> CityModel:
        """An independent copy (cheaper than building the same layout again)."""
        out = CityModel.__new__(CityModel)
        out.faces = dict(self.faces)
        out.by_type = {t: set(cells) for t, cells in self.by_type.items()}
        out.tavern_kinds = Counter(self.tavern_kinds)
        out.present = self.present
        out.group_of = dict(self.group_of)
        out.group_size = list(self.group_size)
        out.base = self.base
        out.open = list(self.open)
        out.bounds = self.bounds
        out._best_for = dict(self._best_for)
        out._lonely = self._lonely
        return out

    def lonely(self) -> set[Cell]:
        """The houses with no factory beside them (built once, then kept up to date by :meth:`add`)."""
        if self._lonely is None:
            factories = self.by_type["factory"]
            self._lonely = {h for h in self.by_type["house"] if not any(x in factories for x in _ADJ[h])}
        return self._lonely

    def _park_groups(self) -> None:
        self.group_of.clear()
        self.group_size.clear()
        for i, group in enumerate(core.connected_groups(self.by_type["park"])):
            self.group_size.append(len(group))
            for cell in group:
                self.group_of[cell] = i

    def add(self, cell: Cell, code: str) -> None:
        """Fill the empty ``cell`` with ``code`` (``base`` is not kept up to date)."""
        self.faces[cell] = code
        kind = _TYPE[code]
        if kind != "house" and not self.by_type[kind]:
            self.present += 1
        self.by_type[kind].add(cell)
        if kind == "tavern":
            self.tavern_kinds[code] += 1
        elif kind == "park":
            self._park_groups()
        r, c = cell
        if len(self.faces) == 1:
            self.bounds = (r, r, c, c)
        else:
            r0, r1, c0, c1 = self.bounds
            self.bounds = (min(r0, r), max(r1, r), min(c0, c), max(c1, c))
        if len(self.faces) >= FULL:
            self.open = []
        elif len(self.faces) == 1:
            self.open = open_cells(self.faces)
        else:  # the window only shrinks: keep the open cells inside it, add the new cell's neighbours
            r0, r1, c0, c1 = self.bounds
            lo_r, hi_r = max(r1 - G.SIDE + 1, 0), min(r0 + G.SIDE - 1, G.FRAME - 1)
            lo_c, hi_c = max(c1 - G.SIDE + 1, 0), min(c0 + G.SIDE - 1, G.FRAME - 1)
            found = {e for e in self.open if e != cell and lo_r <= e[0] <= hi_r and lo_c <= e[1] <= hi_c}
            for e in _ADJ[cell]:
                if lo_r <= e[0] <= hi_r and lo_c <= e[1] <= hi_c and e not in self.faces:
                    found.add(e)
            self.open = sorted(found)
        self._best_for.clear()
        lonely = self._lonely
        if lonely is not None:  # kept up to date, never changed in place (copies share it)
            if kind == "house":
                if not any(x in self.by_type["factory"] for x in _ADJ[cell]):
                    self._lonely = lonely | {cell}
            elif kind == "factory":
                self._lonely = lonely.difference(_ADJ[cell])

    def _near(self, cell: Cell, kind: str) -> bool:
        cells = self.by_type[kind]
        return any(x in cells for x in _ADJ[cell])

    def gain(self, code: str, cell: Cell) -> int:
        """Points (factories aside) the city gains if ``code`` fills the empty ``cell``."""
        kind = _TYPE[code]
        bt = self.by_type
        houses = bt["house"]
        factories = bt["factory"]
        out = 0
        if kind != "house" and not bt[kind]:  # a new type: every house away from factories gains
            out += sum(
                1 for h in houses if not self._near(h, "factory") and not (kind == "factory" and cell in _ADJ[h])
            )
        if kind == "shop":
            shops = frozenset(bt["shop"])
            out += scoring.best_shop_split(shops | {cell}) - scoring.best_shop_split(shops)
        elif kind == "tavern":
            before = scoring.tavern_points(self.tavern_kinds.values())
            after = Counter(self.tavern_kinds)
            after[code] += 1
            out += scoring.tavern_points(after.values()) - before
            out += T.OFFICE_TAVERN_BONUS * sum(
                1 for o in _ADJ[cell] if o in bt["office"] and not self._near(o, "tavern")
            )
        elif kind == "office":
            n = len(bt["office"])
            out += scoring.office_set_points(n + 1) - scoring.office_set_points(n)
            out += T.OFFICE_TAVERN_BONUS * self._near(cell, "tavern")
        elif kind == "park":
            groups = {self.group_of[x] for x in _ADJ[cell] if x in self.group_of}
            sizes = [self.group_size[g] for g in groups]
            out += scoring.park_group_points(1 + sum(sizes)) - sum(scoring.park_group_points(s) for s in sizes)
        elif kind == "factory":
            for h in _ADJ[cell]:
                if h in houses and not self._near(h, "factory"):
                    out += _HOUSE_ALONE - self.present
        else:  # house
            out += _HOUSE_ALONE if any(x in factories for x in _ADJ[cell]) else self.present
        return out

    def best_for(self, code: str) -> tuple[int, Cell]:
        """(gain, cell) of ``code`` at its best open cell, the first in ``open`` among equals (the same
        as maximising :meth:`gain`, cached until the next :meth:`add`)."""
        hit = self._best_for.get(code)
        if hit is not None:
            return hit
        kind = _TYPE[code]
        bt = self.by_type
        factories = bt["factory"]
        lonely = self.lonely()
        new = len(lonely) if kind != "house" and not bt[kind] else 0
        best, where = -(10**6), self.open[0]
        if kind == "shop":
            shops = frozenset(bt["shop"])
            before = scoring.best_shop_split(shops) - new
            for cell in self.open:
                g = scoring.best_shop_split(shops | {cell}) - before
                if g > best:
                    best, where = g, cell
        elif kind == "tavern":
            after = Counter(self.tavern_kinds)
            after[code] += 1
            const = scoring.tavern_points(after.values()) - scoring.tavern_points(self.tavern_kinds.values()) + new
            taverns = bt["tavern"]
            alone = {o for o in bt["office"] if not any(x in taverns for x in _ADJ[o])}
            for cell in self.open:
                g = const + T.OFFICE_TAVERN_BONUS * sum(1 for o in _ADJ[cell] if o in alone)
                if g > best:
                    best, where = g, cell
        elif kind == "office":
            n = len(bt["office"])
            const = scoring.office_set_points(n + 1) - scoring.office_set_points(n) + new
            taverns = bt["tavern"]
            for cell in self.open:
                g = const + T.OFFICE_TAVERN_BONUS * any(x in taverns for x in _ADJ[cell])
                if g > best:
                    best, where = g, cell
        elif kind == "park":
            for cell in self.open:
                groups = {self.group_of[x] for x in _ADJ[cell] if x in self.group_of}
                g = (
                    new
                    + scoring.park_group_points(1 + sum(self.group_size[i] for i in groups))
                    - sum(scoring.park_group_points(self.group_size[i]) for i in groups)
                )
                if g > best:
                    best, where = g, cell
        elif kind == "factory":
            hit_each = _HOUSE_ALONE - self.present - (1 if new else 0)
            for cell in self.open:
                g = new + hit_each * sum(1 for h in _ADJ[cell] if h in lonely)
                if g > best:
                    best, where = g, cell
        else:
            for cell in self.open:
                g = _HOUSE_ALONE if any(x in factories for x in _ADJ[cell]) else self.present
                if g > best:
                    best, where = g, cell
        self._best_for[code] = (best, where)
        return best, where

    def mean_gains(self) -> dict[str, float]:
        """For every single face, its gain averaged over the open cells (a tile laid at random)."""
        bt = self.by_type
        opened = self.open
        n = len(opened)
        lonely_set = self.lonely()
        new_type = len(lonely_set)
        out: dict[str, float] = {}
        shops = frozenset(bt["shop"])
        base_shops = scoring.best_shop_split(shops)
        out["SHOP"] = (
            sum(scoring.best_shop_split(shops | {c}) for c in opened) / n - base_shops + (new_type if not shops else 0)
        )
        offices = bt["office"]
        lonely_offices = (
            sum(sum(1 for o in _ADJ[c] if o in offices and not self._near(o, "tavern")) for c in opened) / n
        )
        before = scoring.tavern_points(self.tavern_kinds.values())
        for code in TAVERN_FACES:
            after = Counter(self.tavern_kinds)
            after[code] += 1
            out[code] = (
                scoring.tavern_points(after.values())
                - before
                + T.OFFICE_TAVERN_BONUS * lonely_offices
                + (new_type if not bt["tavern"] else 0)
            )
        k = len(offices)
        out["OFFICE"] = (
            scoring.office_set_points(k + 1)
            - scoring.office_set_points(k)
            + T.OFFICE_TAVERN_BONUS * sum(1 for c in opened if self._near(c, "tavern")) / n
            + (new_type if not offices else 0)
        )
        parks = 0
        for c in opened:
            groups = {self.group_of[x] for x in _ADJ[c] if x in self.group_of}
            sizes = [self.group_size[g] for g in groups]
            parks += scoring.park_group_points(1 + sum(sizes)) - sum(scoring.park_group_points(x) for x in sizes)
        out["PARK"] = parks / n + (new_type if not bt["park"] else 0)
        hit = sum(sum(1 for h in _ADJ[c] if h in lonely_set) for c in opened) / n
        out["FACTORY"] = hit * (_HOUSE_ALONE - self.present) + (max(new_type - hit, 0) if not bt["factory"] else 0)
        factories = bt["factory"]
        near = sum(1 for c in opened if any(x in factories for x in _ADJ[c])) / n
        out["HOUSE"] = near * _HOUSE_ALONE + (1 - near) * self.present
        return out

    def best_gains(self) -> dict[str, int]:
        """For every single face, its gain at its best open cell (the same as maximising :meth:`gain`
        over ``self.open``, computed type by type)."""
        bt = self.by_type
        lonely_set = self.lonely()
        new_type = len(lonely_set)
        opened = self.open
        out: dict[str, int] = {}
        shops = frozenset(bt["shop"])
        base_shops = scoring.best_shop_split(shops)
        out["SHOP"] = (
            max(scoring.best_shop_split(shops | {c}) for c in opened) - base_shops + (new_type if not shops else 0)
        )
        offices = bt["office"]
        lonely_offices = max(sum(1 for o in _ADJ[c] if o in offices and not self._near(o, "tavern")) for c in opened)
        before = scoring.tavern_points(self.tavern_kinds.values())
        for code in TAVERN_FACES:
            after = Counter(self.tavern_kinds)
            after[code] += 1
            out[code] = (
                scoring.tavern_points(after.values())
                - before
                + T.OFFICE_TAVERN_BONUS * lonely_offices
                + (new_type if not bt["tavern"] else 0)
            )
        n = len(offices)
        out["OFFICE"] = (
            scoring.office_set_points(n + 1)
            - scoring.office_set_points(n)
            + T.OFFICE_TAVERN_BONUS * any(self._near(c, "tavern") for c in opened)
            + (new_type if not offices else 0)
        )
        best_park = 0
        for c in opened:
            groups = {self.group_of[x] for x in _ADJ[c] if x in self.group_of}
            sizes = [self.group_size[g] for g in groups]
            delta = scoring.park_group_points(1 + sum(sizes)) - sum(scoring.park_group_points(x) for x in sizes)
            best_park = max(best_park, delta)
        out["PARK"] = best_park + (new_type if not bt["park"] else 0)
        worst = min(sum(1 for h in _ADJ[c] if h in lonely_set) for c in opened)
        out["FACTORY"] = worst * (_HOUSE_ALONE - self.present) + (max(new_type - worst, 0) if not bt["factory"] else 0)
        factories = bt["factory"]
        all_near = all(any(x in factories for x in _ADJ[c]) for c in opened)
        out["HOUSE"] = _HOUSE_ALONE if all_near else max(self.present, _HOUSE_ALONE if factories else 0)
        return out


class Knowledge:
    """What one seat knows: the unseen single tiles as a distribution over faces."""

    def __init__(self, state: BtcState, player: int) -> None:
        seen: list[int] = []
        for city in state.cities:
            seen += [spot[1] for spot in city.cells.values() if spot[2] == 0]
            seen += [spot[1] for spot in city.loose if spot[2] == 0]
        for i, p in enumerate(state.players):
            seen += [x.tile for x in p.pending]
            if i == player or (E.is_solo(state) and i > 0):  # own tiles; solo Automa hands lie open
                seen += p.hand + p.choice
        seen += [x.tile for x in state.under]
        counts = Counter(T.SINGLE_POOL)
        for tile in set(seen):
            if tile < len(T.SINGLE_POOL):
                counts[state.tiles[tile]] -= 1
        faces: Counter[str] = Counter()
        for kind, n in counts.items():
            if n > 0:
                faces[T.KINDS[kind].faces[0]] += n
        total = sum(faces.values())
        self.dist: list[tuple[str, float]] = (
            [(face, n / total) for face, n in sorted(faces.items())]
            if total
            else [(face, 1 / len(_SINGLE_FACES)) for face in _SINGLE_FACES]
        )


class Planner:
    """Layout values of one seat's cities, cached, for one decision."""

    def __init__(self, state: BtcState, player: int) -> None:
        self.state = state
        self.player = player
        self.cities = E.cities_of(state, player)
        self.counts = E.factory_counts(state)
        self.dist = Knowledge(state, player).dist
        self.partner = PARTNER if state.mode == E.STANDARD else 0.0
        """Only 3-7 players share a city with a partner who lays tiles in it."""
        self.faces: dict[int, Faces] = {
            c: {cell: spot[0] for cell, spot in state.cities[c].cells.items()} for c in self.cities
        }
        self._values: dict[frozenset[tuple[Cell, str]], float] = {}
        self._now: dict[frozenset[tuple[Cell, str]], float] = {}
        self.rivals: list[tuple[int, int]] = []
        self.others: dict[int, float] = {}
        self.greedy = 0.0
        """3-7 players: the chance that the other seats play like the greedy AI rather than at random,
        from the points of every city this seat does not build (all the evidence pooled)."""
        if state.mode == E.STANDARD:
            self.rivals = [E.cities_of(state, p) for p in range(len(state.players)) if p != player]
            self.others = {
                c: float(scoring.total(scoring.score_grid({cell: spot[0] for cell, spot in city.cells.items()}, 0)))
                for c, city in enumerate(state.cities)
            }
            llr = sum(
                greedy_evidence(self.others[c], city.size())
                for c, city in enumerate(state.cities)
                if c not in self.cities
            )
            self.greedy = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, EVIDENCE * llr))))
            left = sum(FULL - c.size() for c in state.cities) / len(state.cities)
            self.spread = SPREAD_BASE + SPREAD_PER_CELL * left
        self.automacity: float | None = None
        self.auto_bonus = 0.0
        """Solo Simple: points the tile handed to Automacity adds to it (set per candidate)."""
        if E.is_solo(state):
            auto = state.cities[E.AUTOMACITY]
            size = auto.size()
            now = E.city_totals(state)[E.AUTOMACITY] - E.modifier(state, E.AUTOMACITY)
            rate = now / size if size else RATE
            self.automacity = now + rate * max(0, FULL - size) + E.modifier(state, E.AUTOMACITY)
            own_left = sum(FULL - state.cities[c].size() for c in self.cities) / 2
            self.spread = SPREAD_BASE + SPREAD_PER_CELL * own_left
        self._best: dict[tuple[str, int], tuple[float, Faces]] = {}
        rho = sum(p for face, p in self.dist if _TYPE[face] == "factory")
        self.future = [_binomial(FULL - city.size(), rho) for city in state.cities]
        """Per city, (factories still to come, chance): each empty cell a factory with chance ``rho``."""
        self._per_factory: dict[tuple[int, tuple[int, ...], bool], float] = {}

    def per_factory(self, city: int, counts: list[int], final: bool = False) -> float:
        """Points per factory of ``city`` given every city's factories now: 3-7 players, expected at
        the end (``FACTORY_ODDS``), each city's future factories binomial over its empty cells (with
        ``final``, this seat's cities are full); else what the majority pays now (8.2)."""
        if not (FACTORY_ODDS and self.rivals):
            return float(scoring.per_factory(counts[city], counts))
        n = counts[city]
        if n <= 0:
            return 0.0
        key = (city, tuple(counts), final)
        hit = self._per_factory.get(key)
        if hit is not None:
            return hit
        none_more: list[tuple[int, float]] = [(0, 1.0)]
        mine = none_more if final and city in self.cities else self.future[city]
        others = [
            (m, none_more if final and o in self.cities else self.future[o]) for o, m in enumerate(counts) if o != city
        ]
        table = T.FACTORY_PER_BUILDING  # the printed 4 / 3 / 2: every rank below second pays alike
        first, second, rest = table[0], table[min(1, len(table) - 1)], table[min(2, len(table) - 1)]
        value = 0.0
        for extra, chance in mine:
            x = n + extra
            at_most = [sum(p for k, p in fut if m + k <= x) for m, fut in others]
            alone = math.prod(at_most)  # no city ends with more factories: the majority
            above = sorted({m + k for m, fut in others for k, _ in fut if m + k > x})
            one = 0.0  # the cities with more all end level: second place
            for v in above:
                one += (
                    math.prod(
                        b + sum(p for k, p in fut if m + k == v) for b, (m, fut) in zip(at_most, others, strict=True)
                    )
                    - alone
                )
            value += chance * (first * alone + second * one + rest * (1.0 - alone - one))
        self._per_factory[key] = value
        return value

    def factory_value(self, city: int, extra: int = 1) -> float:
        """Points one more factory brings ``city`` when it has ``extra - 1`` more than now (with
        ``MARGINAL``, the change of all its factories' points: a factory that takes the majority
        raises the others too)."""
        counts = list(self.counts)
        counts[city] += extra
        if not MARGINAL:
            return self.per_factory(city, counts)
        after = counts[city] * self.per_factory(city, counts)
        counts[city] -= 1
        return after - counts[city] * self.per_factory(city, counts)

    def layout_value(self, faces: Faces, city: int) -> float:
        """Score without factory points plus the expected best gain of the next single tile."""
        key = frozenset(faces.items())
        hit = self._values.get(key)
        if hit is not None:
            return hit
        model = CityModel(faces)
        value = float(model.base)
        if model.open:
            placed = sum(1 for f in faces.values() if _TYPE[f] == "factory") - self.counts[city]
            fac = self.factory_value(city, 1 + (placed if MARGINAL else 0))
            gains: list[tuple[float, float]] = []
            bests = model.best_gains()
            for face, p in self.dist:
                best = float(bests[face])
                if _TYPE[face] == "factory":
                    best += fac
                gains.append((best, p))
            value += POTENTIAL * expected_best(gains, CHOICES)
            if self.partner:
                means: Mapping[str, float] = model.mean_gains()
                value += (
                    self.partner
                    * (FULL - len(faces))
                    / 2
                    * sum(p * (means[face] + (fac if _TYPE[face] == "factory" else 0)) for face, p in self.dist)
                )
        self._values[key] = value
        self._now[key] = float(model.base)
        return value

    def now(self, faces: Faces, city: int) -> float:
        """Points (factories aside) of a layout now."""
        key = frozenset(faces.items())
        if key not in self._now:
            self.layout_value(faces, city)
        return self._now[key]

    def placed(self, faces: Faces, kind: T.TileKind, anchor: Cell, turned: bool) -> Faces:
        out = dict(faces)
        out.update(zip(G.cover(anchor, G.shape_of(kind, turned)), kind.faces, strict=True))
        return out

    def best(self, kind: T.TileKind, city: int, faces: Faces | None = None) -> tuple[float, Faces]:
        """(value, layout) of ``city`` with the tile at its best spot (turned only if it must)."""
        base = self.faces[city] if faces is None else faces
        key = (kind.id, city)
        if faces is None and key in self._best:
            return self._best[key]
        turned = False
        anchors = G.anchors(base.keys(), G.shape_of(kind))
        if not anchors and kind.shape == T.DUPLEX:
            turned = True
            anchors = G.anchors(base.keys(), G.shape_of(kind, turned=True))
        best: tuple[float, Faces] = (self.layout_value(base, city), base)
        first = True
        for a in anchors:
            layout = self.placed(base, kind, a, turned)
            value = self.layout_value(layout, city)
            if first or value > best[0]:
                best, first = (value, layout), False
        if faces is None:
            self._best[key] = best
        return best

    def objective(
        self, values: Mapping[int, float], added: Mapping[int, int], layouts: Mapping[int, Faces] | None = None
    ) -> float:
        """The seat's worth from its cities' layout values and the factories added to each."""
        counts = list(self.counts)
        for city, n in added.items():
            counts[city] += n
        totals = [values[c] + counts[c] * self.per_factory(c, counts) for c in self.cities]
        if self.state.mode == E.TWO_PLAYER:
            return totals[0] + totals[1]
        if self.rivals:
            return self.win_chance(dict(zip(self.cities, totals, strict=True)), counts, layouts)
        if self.automacity is not None:
            return self.solo_chance(totals)
        return LOWER_WEIGHT * min(totals) + max(totals)

    def solo_chance(self, totals: list[float]) -> float:
        """Solo: the chance to win against both Automas. Autommaso scores the lower of the Left City
        and Automacity, Automarta the lower of Automacity and the Right City, and ties go to the
        higher city, so the player (the lower of Left and Right) wins when its lower city ends above
        Automacity (projected from its points per face so far, plus ``auto_bonus``)."""
        assert self.automacity is not None
        projected = [
            t + RATE * max(0, FULL - self.state.cities[c].size() - 1) for t, c in zip(totals, self.cities, strict=True)
        ]
        low = min(projected)
        rival = self.automacity + self.auto_bonus
        chance = 1.0 / (1.0 + math.exp(-(low - rival) / self.spread))
        return chance + SCORE_WEIGHT * (LOWER_WEIGHT * min(totals) + max(totals))

    def win_chance(
        self,
        mine: Mapping[int, float],
        counts: list[int],
        layouts: Mapping[int, Faces] | None = None,
        final: bool = False,
    ) -> float:
        """3-7 players: the chance to finish first, from every city's projected final score.

        A city is projected as its score now plus ``RATE`` per empty cell (this seat's cities: their
        layout value, which counts the next tile's expected gain, plus the rest at ``RATE``). Against
        a rival who shares no city, each standing is the lower city plus a little of the higher one
        (the first tie-break); against a neighbour who shares one, it is this seat's other city
        against theirs (``SHARED_EXACT``). The chance against each rival is a logistic of the
        difference, wider while much is to come.
        """
        projected: dict[int, float] = {}
        for c, city in enumerate(self.state.cities):
            left = FULL - city.size()
            if c in mine:
                projected[c] = mine[c] + (0.0 if final else RATE * max(0, left - 1))
            else:
                projected[c] = self.others[c] + counts[c] * self.per_factory(c, counts, final) + RATE * left
        if LEAD and layouts is not None:
            for c in self.cities:
                other = E.partner(self.state, self.player, c)
                if other is None:
                    continue
                o = next(x for x in E.cities_of(self.state, other) if x != c)
                if o in self.cities:
                    continue
                now_c = self.now(layouts[c], c) + counts[c] * scoring.per_factory(counts[c], counts)
                now_o = self.others[o] + counts[o] * scoring.per_factory(counts[o], counts)
                tiles = (FULL - len(layouts[c])) / 2
                shift = self.greedy * LEAD * tiles * (0.5 - 1.0 / (1.0 + math.exp((now_c - now_o) / LEAD_WIDTH)))
                projected[c] += shift
                projected[o] -= shift
        a, b = (projected[c] for c in self.cities)
        me = min(a, b) + TIE_WEIGHT * max(a, b)
        out = 1.0
        for left, right in self.rivals:
            x, y = projected[left], projected[right]
            if SHARED_EXACT and (left in self.cities) != (right in self.cities):
                # a neighbour sharing a city: both standings hold it, so whichever of the three
                # cities ends lowest, this seat ranks above them iff its other city beats theirs
                shared = left if left in self.cities else right
                diff = (b if shared == self.cities[0] else a) - (y if shared == left else x)
            else:
                diff = me - (min(x, y) + TIE_WEIGHT * max(x, y))
            out *= 1.0 / (1.0 + math.exp(-diff / self.spread))
        return out + SCORE_WEIGHT * (LOWER_WEIGHT * min(a, b) + max(a, b))

    def current(self, city: int) -> float:
        return self.layout_value(self.faces[city], city)


class Samples:
    """Common random numbers for rollouts: per sample and city, the faces drawn for this seat's future
    tiles (``CHOICES`` each), the partner's, and uniform numbers for the partner's cell."""

    def __init__(self, pl: Planner, count: int, rnd: random.Random) -> None:
        faces = [f for f, _ in pl.dist]
        weights = [p for _, p in pl.dist]
        self.draws: list[dict[int, tuple[list[list[str]], list[str], list[float], list[float]]]] = []
        for _ in range(count):
            per: dict[int, tuple[list[list[str]], list[str], list[float], list[float]]] = {}
            for c in pl.cities:
                n = FULL
                ours = [rnd.choices(faces, weights, k=CHOICES) for _ in range(n)]
                theirs = rnd.choices(faces, weights, k=n)
                per[c] = (ours, theirs, [rnd.random() for _ in range(n)], [rnd.random() for _ in range(n)])
            self.draws.append(per)


def _best_cell(model: CityModel, face: str) -> tuple[int, Cell]:
    return model.best_for(face)


def _simulate(
    pl: Planner,
    city: int,
    model: CityModel,
    draws: tuple[list[list[str]], list[str], list[float], list[float]],
    factories: int,
) -> tuple[float, int]:
    """(points gained factories aside, factories added) when the rest of ``city`` is filled: in turn,
    the partner lays a drawn face (at its best cell with the chance that the others play greedily,
    else at random) and this seat the best of ``CHOICES`` drawn faces at its best cell (duplexes
    counted as singles). A factory's points guide the choice but are not gained: the caller scores
    every factory once, from the final counts (they used to be counted twice, which made a future with
    factories look better than it was; fixing that alone measured 0.527 -> 0.53 against greedy seats
    and 0.843 -> 0.81 against random seats, seed set 54000, before ``FACTORY_ODDS``)."""
    ours, theirs, pick, where = draws
    gained = 0.0
    added = 0
    partner_turn = pl.partner > 0
    fac = float(pl.factory_value(city, factories - pl.counts[city] + 1))
    i = j = 0
    while model.open:
        if partner_turn:
            face = theirs[j]
            if pick[j] < pl.greedy:
                g, cell = _best_cell(model, face)
            else:
                cell = model.open[int(where[j] * len(model.open))]
                g = model.gain(face, cell)
            value = g + (fac if _TYPE[face] == "factory" else 0.0)
            j += 1
        else:
            value, cell, face = -(10.0**6), model.open[0], ours[i][0]
            for option in ours[i]:
                g, at = _best_cell(model, option)
                v = g + (fac if _TYPE[option] == "factory" else 0.0)
                if v > value:
                    value, cell, face = v, at, option
            i += 1
        is_factory = _TYPE[face] == "factory"
        gained += value - (fac if is_factory else 0.0)  # a factory's points: once, from the final counts
        added += is_factory
        if is_factory and MARGINAL:
            fac = float(pl.factory_value(city, factories + added - pl.counts[city] + 1))
        model.add(cell, face)
        partner_turn = not partner_turn and pl.partner > 0
    return gained, added


def _rollout_sum(
    pl: Planner,
    layouts: Mapping[int, Faces],
    added: Mapping[int, int],
    models: Mapping[int, CityModel],
    samples: Samples,
    start: int,
    stop: int,
) -> float:
    """The summed win chance over the sampled futures ``start`` to ``stop`` of both cities, each grown
    from a copy of its model in ``models`` (the layouts, built once per choice)."""
    total = 0.0
    for k in range(start, stop):
        per = samples.draws[k]
        counts = list(pl.counts)
        for c, n in added.items():
            counts[c] += n
        gains = {}
        for c in pl.cities:
            g, extra = _simulate(pl, c, models[c].copy(), per[c], counts[c])
            gains[c] = g
            counts[c] += extra
        finals = {
            c: pl.now(layouts[c], c) + gains[c] + counts[c] * pl.per_factory(c, counts, final=True) for c in pl.cities
        }
        total += pl.win_chance(finals, counts, final=True)
    return total


def _factories(faces: Iterable[str]) -> int:
    return sum(1 for f in faces if _TYPE[f] == "factory")


def _pick(moves: list[Move], value: Callable[[Move], float], rnd: random.Random) -> Move:
    order = list(moves)
    rnd.shuffle(order)
    return max(order, key=value)


def _pair_value(pl: Planner, left_tile: int, right_tile: int) -> float:
    left, right = pl.cities
    kl, kr = E.kind_of(pl.state, left_tile), E.kind_of(pl.state, right_tile)
    (vl, fl), (vr, fr) = pl.best(kl, left), pl.best(kr, right)
    return pl.objective(
        {left: vl, right: vr}, {left: _factories(kl.faces), right: _factories(kr.faces)}, {left: fl, right: fr}
    )


def _rollout_pick(pl: Planner, moves: list[Move], value: Callable[[Move], float], rnd: random.Random) -> Move:
    """3-7 players' draft: the ``ROLLOUT_TOP`` best choices by ``value`` re-ranked by the mean win
    chance over ``ROLLOUTS`` sampled futures of both cities (the same samples for every choice)."""
    order = list(moves)
    rnd.shuffle(order)
    ranked = sorted(order, key=value, reverse=True)[:ROLLOUT_TOP]
    if len(ranked) < 2:
        return ranked[0]
    samples = Samples(pl, ROLLOUTS, random.Random(rnd.random()))
    left, right = pl.cities

    def plan(m: Move) -> tuple[dict[int, Faces], dict[int, int], dict[int, CityModel]]:
        if "tiles" in m:
            a, b = m["tiles"]
            if _pair_value(pl, b, a) > _pair_value(pl, a, b):
                a, b = b, a
        else:
            a, b = int(m["left"]), int(m["right"])
        ka, kb = E.kind_of(pl.state, a), E.kind_of(pl.state, b)
        layouts = {left: pl.best(ka, left)[1], right: pl.best(kb, right)[1]}
        return (
            layouts,
            {left: _factories(ka.faces), right: _factories(kb.faces)},
            {c: CityModel(layouts[c], scored=False) for c in pl.cities},
        )

    plans = [plan(m) for m in ranked]
    sums = [0.0] * len(ranked)
    alive = list(range(len(ranked)))
    done, stop = 0, HALVING or ROLLOUTS
    while True:  # successive halving: the better half of the choices gets twice the samples
        stop = min(stop, ROLLOUTS)
        for i in alive:
            sums[i] += _rollout_sum(pl, *plans[i], samples, done, stop)
        done = stop
        if done >= ROLLOUTS:
            break
        if len(alive) > 2:
            alive = sorted(alive, key=lambda i: -sums[i])[: (len(alive) + 1) // 2]
        stop *= 2
    return ranked[max(alive, key=lambda i: sums[i])]


def _automacity_gain(state: BtcState, tile: int) -> int:
    kind = E.kind_of(state, tile)
    city = state.cities[E.AUTOMACITY]
    counts = E.factory_counts(state)
    before = scoring.total(scoring.score_automacity(city.faces(), scoring.per_factory(counts[1], counts)))
    counts[E.AUTOMACITY] += _factories(kind.faces)
    value = scoring.per_factory(counts[E.AUTOMACITY], counts)
    return scoring.total(scoring.score_automacity([*city.faces(), *kind.faces], value)) - before


def _place_value(pl: Planner, move: Move) -> float:
    """The seat's cities after this placement, any other free tile at its best spot in the other city."""
    return pl.objective(*_place_plan(pl, move))


def _place_plan(pl: Planner, move: Move) -> tuple[dict[int, float], dict[int, int], dict[int, Faces]]:
    """(layout values, factories added, layouts) of the seat's cities after this placement."""
    state = pl.state
    tile, city = int(move["tile"]), int(move["city"])
    kind = E.kind_of(state, tile)
    anchor = core.parse_cell(str(move["cell"]), G.FRAME, G.FRAME)
    layout = pl.placed(pl.faces[city], kind, anchor, move["kind"] == "turned")
    values = {c: pl.current(c) for c in pl.cities}
    values[city] = pl.layout_value(layout, city)
    layouts = dict(pl.faces)
    layouts[city] = layout
    added = {city: _factories(kind.faces)}
    pending = state.players[pl.player].pending
    others = [x for x in pending if x.tile != tile]
    if len(pending) == 2 and all(x.city == FREE for x in pending):
        other = next(c for c in pl.cities if c != city)
        other_kind = E.kind_of(state, others[0].tile)
        values[other], layouts[other] = pl.best(other_kind, other)
        added[other] = _factories(other_kind.faces)
    else:  # a tile still bound for the same city goes to its best spot after this one
        for x in others:
            if x.city == city:
                other_kind = E.kind_of(state, x.tile)
                values[city], layouts[city] = pl.best(other_kind, city, layout)
                added[city] += _factories(other_kind.faces)
    return values, added, layouts


def strong_move(state: BtcState, seat: int, moves: list[Move], rnd: random.Random) -> Move:
    """The strong AI's choice among the legal ``moves`` of ``seat``."""
    kind = moves[0]["kind"]
    if kind == "bonus":
        scores = E.game_result(state).seats[0].details["cities"]
        return _pick(moves, lambda m: scores["left" if m["city"] == E.LEFT_CITY else "right"][m["type"]], rnd)
    pl = Planner(state, seat)
    if kind == "choose" and "tiles" in moves[0]:

        def chosen(m: Move) -> float:
            a, b = m["tiles"]
            return max(_pair_value(pl, a, b), _pair_value(pl, b, a))

        if ROLLOUTS and pl.rivals:
            return _rollout_pick(pl, moves, chosen, rnd)
        return _pick(moves, chosen, rnd)
    if kind in ("choose", "assign"):

        def assigned(m: Move) -> float:
            pl.auto_bonus = float(_automacity_gain(state, int(m["auto"]))) if "auto" in m else 0.0
            return _pair_value(pl, int(m["left"]), int(m["right"]))

        if ROLLOUTS and pl.rivals:
            return _rollout_pick(pl, moves, assigned, rnd)
        return _pick(moves, assigned, rnd)
    waits = [m for m in moves if m["kind"] == "you_first"]
    if waits and YOU_FIRST:  # let the partner build first: then this seat places knowing their tile's spot
        return waits[0]
    placements = [m for m in moves if m["kind"] in ("place", "turned")]
    return _pick(placements or moves, lambda m: _place_value(pl, m) if m in placements else 0.0, rnd)
