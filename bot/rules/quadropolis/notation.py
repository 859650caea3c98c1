"""The city notation of spec sections 15 and 16: ``"T3 P T2 S4"``, one string per row.

Tokens: ``.`` empty; ``T<h>`` tower block of height h; ``O<h>`` office tower; ``S``/``S<k>`` shop
with k customers; ``U<v>`` public service printing v VP; ``P`` park; ``G`` playground; ``F``
factory; ``H``/``H<v>`` harbour (printing v VP); ``M`` monument. A trailing ``-`` marks a building
that is not activated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.core import Cell, IllegalMove
from bot.rules.quadropolis.scoring import COST_BEARING, Building, Grid
from bot.rules.quadropolis.tiles import ModeRules

TOKEN = re.compile(r"^(?P<code>[TOSUPGFHM])(?P<num>\d*)(?P<off>-?)$")

PRINTED_VP = {"U": (0, 1, 2), "H": (0, 1, 2, 3)}
"""Printed VP values that exist: public services 0-2, harbours 1-3 (0 = none printed)."""


@dataclass(frozen=True)
class ParsedCity:
    """A city read from notation, with the allocation its tokens describe."""

    grid: Grid
    inactive: frozenset[Cell]
    customers: dict[Cell, int]


def parse_city(mode: ModeRules, rows: Sequence[str]) -> ParsedCity:
    """Read a city; bad input raises IllegalMove naming the row, the column and the problem."""
    if len(rows) != mode.rows:
        raise IllegalMove("quadropolis.calc.row_count", expected=mode.rows, got=len(rows), mode=mode.name)
    grid: list[tuple[Building | None, ...]] = []
    inactive: set[Cell] = set()
    customers: dict[Cell, int] = {}
    for r, text in enumerate(rows):
        if not isinstance(text, str):
            raise IllegalMove("quadropolis.calc.row_not_text", row=r + 1)
        tokens = text.split()
        if len(tokens) != mode.cols:
            raise IllegalMove(
                "quadropolis.calc.column_count", row=r + 1, expected=mode.cols, got=len(tokens), mode=mode.name
            )
        out: list[Building | None] = []
        for c, token in enumerate(tokens):
            where = {"row": r + 1, "column": c + 1, "token": token}
            if token == ".":
                out.append(None)
                continue
            m = TOKEN.match(token)
            if m is None:
                raise IllegalMove("quadropolis.calc.unknown_token", **where)
            code, num, off = m.group("code"), m.group("num"), m.group("off")
            if code in "OM" and mode.name != "expert":
                raise IllegalMove("quadropolis.calc.expert_only", **where)
            if off and code not in COST_BEARING:
                raise IllegalMove("quadropolis.calc.always_active", **where)
            height, vp = 1, 0
            if code in "TO":
                if not num:
                    raise IllegalMove("quadropolis.calc.height_missing", **where)
                height = int(num)
                if not 1 <= height <= mode.max_height:
                    raise IllegalMove("quadropolis.calc.height", max=mode.max_height, **where)
            elif code == "U":
                if not num:
                    raise IllegalMove("quadropolis.calc.vp_missing", **where)
                vp = int(num)
            elif code == "H":
                vp = int(num) if num else 0
            elif code == "S":
                count = int(num) if num else 0
                if count > mode.shop_cap:
                    raise IllegalMove("quadropolis.calc.customers", cap=mode.shop_cap, **where)
                customers[(r, c)] = count
            elif num:
                raise IllegalMove("quadropolis.calc.unknown_token", **where)
            if code in PRINTED_VP and vp not in PRINTED_VP[code]:
                raise IllegalMove("quadropolis.calc.vp", **where)
            if off:
                inactive.add((r, c))
            out.append(Building(code, height, vp))
        grid.append(tuple(out))
    return ParsedCity(tuple(grid), frozenset(inactive), customers)


def format_city(
    grid: Grid, inactive: frozenset[Cell] = frozenset(), customers: dict[Cell, int] | None = None
) -> list[str]:
    """The inverse of :func:`parse_city`: one string per row."""
    out = []
    for r, row in enumerate(grid):
        tokens = []
        for c, b in enumerate(row):
            if b is None:
                tokens.append(".")
                continue
            text = b.code
            if b.code in "TO":
                text += str(b.height)
            elif b.code == "U" or (b.code == "H" and b.vp):
                text += str(b.vp)
            elif b.code == "S" and customers is not None:
                text += str(customers.get((r, c), 0))
            if (r, c) in inactive:
                text += "-"
            tokens.append(text)
        out.append(" ".join(tokens))
    return out
