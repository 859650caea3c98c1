"""The end-game placement of inhabitants and energy that maximises a player's score (spec 8.12, D-24).

A city is compiled into bit masks over its cost-bearing buildings (one bit each), so the score of
any choice of activated buildings is a few integer operations. Two searches use it:

- :func:`optimise` — depth-first branch and bound. Each node fixes one building on or off; the
  bound is the smaller of (a) the structure score with every undecided building on (every
  structural term but the monuments' -5 only grows with more buildings) plus the best resource
  term any completion can reach, and (b) the structure score of the buildings already on plus a
  two-resource knapsack over per-building upper bounds of their marginal gain. A greedy start and
  the lexicographic order (total, inhabitants on buildings, fewer empty squares) make it exact.
- :func:`exhaustive` — the method the spec calls correct: every subset whose costs fit, each
  completed with concentrated customers and absorbing parks. The tests and the bench compare the
  two.

For one choice of activated buildings the rest of the allocation is fixed by two facts (8.12):
customers are worth more the more they are concentrated (the shop table's increments never
decrease) and each customer beats the -1 of an idle inhabitant; spare energy goes to plain parks.

The compiled city lives in :mod:`bot.rules.quadropolis.compiled` and the searches in
:mod:`bot.rules.quadropolis.search`; this module holds the entry points and re-exports both.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from bot.rules.core import Cell
from bot.rules.quadropolis.compiled import Compiled as Compiled
from bot.rules.quadropolis.compiled import Key as Key
from bot.rules.quadropolis.compiled import compile_city as compile_city
from bot.rules.quadropolis.scoring import Grid, ScoreSheet, fill, score
from bot.rules.quadropolis.search import Best as Best
from bot.rules.quadropolis.search import _greedy
from bot.rules.quadropolis.search import exhaustive as exhaustive
from bot.rules.quadropolis.search import harbour_caps as harbour_caps
from bot.rules.quadropolis.search import office_tops as office_tops
from bot.rules.quadropolis.search import optimise as optimise
from bot.rules.quadropolis.tiles import MODE_RULES, ModeRules

# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------


def best_allocation(
    mode: ModeRules, grid: Grid, inhabitants: int, energy: int, forced_off: Iterable[Cell] = ()
) -> ScoreSheet:
    """The player's best allocation, scored by the reference scorer (spec 8.12, D-24).

    Among equal totals it has the most inhabitants on buildings, then the fewest empty squares.
    Buildings in ``forced_off`` are left off (the player asked for it).
    """
    return _best_cached(mode.name, grid, inhabitants, energy, frozenset(forced_off))


@lru_cache(maxsize=4096)
def _best_cached(mode_name: str, grid: Grid, inhabitants: int, energy: int, forced_off: frozenset[Cell]) -> ScoreSheet:
    mode = MODE_RULES[mode_name]
    c = compile_city(mode, grid, inhabitants, energy, forced_off)
    best = optimise(c)
    sheet = score(mode, grid, inhabitants, energy, fill(mode, grid, inhabitants, energy, c.active_cells(best.mask)))
    assert sheet.key() == (best.key[0], best.key[1], best.key[2] - c.squares), (sheet.key(), best.key)
    return sheet


@lru_cache(maxsize=16384)
def quick_key(mode_name: str, grid: Grid, inhabitants: int, energy: int) -> Key:
    """A near-optimal allocation key by local search only (no proof of optimality): what the AI
    uses to compare candidate moves on its last turn. Final scores always use the exact optimum."""
    return _greedy(compile_city(MODE_RULES[mode_name], grid, inhabitants, energy))[1]


def exhaustive_allocation(mode: ModeRules, grid: Grid, inhabitants: int, energy: int) -> ScoreSheet:
    """The same optimum found by enumerating every affordable subset (the baseline)."""
    c = compile_city(mode, grid, inhabitants, energy)
    best = exhaustive(c)
    return score(mode, grid, inhabitants, energy, fill(mode, grid, inhabitants, energy, c.active_cells(best.mask)))
