"""Scoring of Between Two Cities (spec section 8; Automacity's maximal scoring, 10.2).

Every function works on any set of occupied cells, so the same code scores finished cities,
cities in progress (running scores, the Automa's gains, the AI) and the score calculator.
A city is a mapping ``cell -> face code`` (``(row, col) -> "SHOP"``); coordinates may be anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from bot.rules import core
from bot.rules.btc import tiles as T

Cell = core.Cell

CATEGORIES: tuple[str, ...] = ("shops", "factories", "taverns", "offices", "parks", "houses")
"""Category ids in reference order (shops first, houses last)."""

CATEGORY_OF_TYPE: dict[str, str] = dict(zip(T.TYPES, CATEGORIES, strict=True))

TAVERN_KINDS: tuple[str, ...] = tuple(code for code, f in T.FACES.items() if f.type == "tavern")

_MAX_LINE = len(T.SHOP_LINE) - 1
_OFFICE_SET_SIZE = len(T.OFFICE_SET) - 1


def empty_scores() -> dict[str, int]:
    """Every category at 0, in reference order."""
    return dict.fromkeys(CATEGORIES, 0)


# -- shops ------------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def best_shop_split(shops: frozenset[Cell]) -> int:
    """The best total over every split of the shops into lines (decision D-7).

    The first shop in reading order starts every line that contains it (the shops before it are
    already in lines), so try each line to its right and each line downwards from it, recurse, and
    keep the best.
    """
    if not shops:
        return 0
    first = min(shops)
    best = 0
    for step in ((0, 1), (1, 0)):
        line = [first]
        nxt = (first[0] + step[0], first[1] + step[1])
        while nxt in shops and len(line) < _MAX_LINE:
            line.append(nxt)
            nxt = (nxt[0] + step[0], nxt[1] + step[1])
        lengths = range(1, len(line) + 1) if step == (0, 1) else range(2, len(line) + 1)
        for length in lengths:
            rest = shops.difference(line[:length])
            best = max(best, T.SHOP_LINE[length] + best_shop_split(rest))
    return best


def shop_count_points(n: int) -> int:
    """Shops scored as if laid out optimally in lines (Automacity, 10.2): 6 shops -> 16 + 5."""
    return T.SHOP_LINE[_MAX_LINE] * (n // _MAX_LINE) + T.SHOP_LINE[n % _MAX_LINE]


# -- factories --------------------------------------------------------------------------------


def per_factory(count: int, all_counts: Iterable[int]) -> int:
    """Points per factory of a city with ``count`` factories, given every city's count (8.2).

    ``all_counts`` holds the counts of all cities of the game (this one included). Most (ties
    share) -> 4, second-highest distinct count -> 3, any other positive count -> 2.
    """
    if count <= 0:
        return 0
    distinct = sorted({c for c in all_counts if c > 0} | {count}, reverse=True)
    place = distinct.index(count)
    table = T.FACTORY_PER_BUILDING
    return table[min(place, len(table) - 1)]


# -- taverns ----------------------------------------------------------------------------------


def tavern_points(kind_counts: Iterable[int]) -> int:
    """Taverns split optimally into sets of different kinds (8.3, D-8)."""
    counts = [c for c in kind_counts if c > 0]
    total = 0
    for i in range(1, max(counts, default=0) + 1):
        total += T.TAVERN_SET[sum(1 for c in counts if c >= i)]
    return total


# -- offices ----------------------------------------------------------------------------------


def office_set_points(n: int) -> int:
    """Offices by number alone (8.4): 1..6 -> 1, 3, 6, 10, 15, 21; a 7th starts a new set."""
    return T.OFFICE_SET[_OFFICE_SET_SIZE] * (n // _OFFICE_SET_SIZE) + T.OFFICE_SET[n % _OFFICE_SET_SIZE]


# -- parks ------------------------------------------------------------------------------------


def park_group_points(size: int) -> int:
    """One connected park group (8.5): 1 -> 2, 2 -> 8, 3 -> 12, then +1 per park."""
    table = T.PARK_GROUP
    if size < len(table):
        return table[size]
    return table[-1] + (size - (len(table) - 1)) * T.PARK_GROUP_EXTRA


def park_pairs_points(n: int) -> int:
    """Parks scored as if laid in separate pairs (Automacity, 10.2): 3 parks -> 8 + 2."""
    return park_group_points(2) * (n // 2) + park_group_points(1) * (n % 2)


# -- whole cities -----------------------------------------------------------------------------


def _adjacent(cell: Cell, others: set[Cell] | frozenset[Cell]) -> bool:
    r, c = cell
    return (r - 1, c) in others or (r + 1, c) in others or (r, c - 1) in others or (r, c + 1) in others


def score_grid(faces: Mapping[Cell, str], factory_value: int) -> dict[str, int]:
    """The six category scores of a city laid out on a grid (section 8).

    ``factory_value`` is the points per factory from :func:`per_factory` (the majority depends on
    the other cities, so the caller supplies it).
    """
    by_type: dict[str, list[Cell]] = {t: [] for t in T.TYPES}
    kinds: dict[str, int] = {}
    for cell, code in faces.items():
        face = T.FACES[code]
        by_type[face.type].append(cell)
        if face.type == "tavern":
            kinds[code] = kinds.get(code, 0) + 1
    taverns = set(by_type["tavern"])
    factories = set(by_type["factory"])
    offices = by_type["office"]
    present = sum(1 for t in T.TYPES if t != "house" and by_type[t])
    houses = sum(T.HOUSE_NEXT_TO_FACTORY if _adjacent(h, factories) else present for h in by_type["house"])
    return {
        "shops": best_shop_split(frozenset(by_type["shop"])),
        "factories": len(factories) * factory_value,
        "taverns": tavern_points(kinds.values()),
        "offices": office_set_points(len(offices))
        + T.OFFICE_TAVERN_BONUS * sum(1 for o in offices if _adjacent(o, taverns)),
        "parks": sum(park_group_points(len(g)) for g in core.connected_groups(by_type["park"])),
        "houses": houses,
    }


def score_automacity(faces: Iterable[str], factory_value: int) -> dict[str, int]:
    """Automacity's "maximal" scores from its faces alone (10.2, decision D-19)."""
    counts = dict.fromkeys(T.TYPES, 0)
    kinds: dict[str, int] = {}
    for code in faces:
        face = T.FACES[code]
        counts[face.type] += 1
        if face.type == "tavern":
            kinds[code] = kinds.get(code, 0) + 1
    present = sum(1 for t in T.TYPES if t != "house" and counts[t])
    offices = counts["office"]
    return {
        "shops": shop_count_points(counts["shop"]),
        "factories": counts["factory"] * factory_value,
        "taverns": tavern_points(kinds.values()),
        "offices": office_set_points(offices) + (T.OFFICE_TAVERN_BONUS * offices if counts["tavern"] else 0),
        "parks": park_pairs_points(counts["park"]),
        "houses": counts["house"] * present,
    }


def type_counts(faces: Iterable[str]) -> dict[str, int]:
    """How many faces of each building type (the second tie-breaker counts these, D-10)."""
    counts = dict.fromkeys(T.TYPES, 0)
    for code in faces:
        counts[T.FACES[code].type] += 1
    return counts


def total(scores: Mapping[str, int]) -> int:
    return sum(scores[c] for c in CATEGORIES)


def factory_values(counts: Sequence[int]) -> list[int]:
    """Points per factory of every city, from every city's factory count."""
    return [per_factory(c, counts) for c in counts]


def parse_grid(rows: Sequence[str]) -> dict[Cell, str]:
    """A city in the spec's notation (``["S S S S", "H H O m", ...]``, ``.`` empty) -> faces.

    For tests and examples; the score calculator validates its input itself.
    """
    out: dict[Cell, str] = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            if token != ".":
                out[(r, c)] = T.FACE_BY_TOKEN[token]
    return out
