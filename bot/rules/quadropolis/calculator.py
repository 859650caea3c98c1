"""Score calculator for a physical game (spec section 16).

``score_text(text)`` reads the JSON object of section 16 and returns its output object; bad input
raises ``IllegalMove("quadropolis.calc.<id>", ...)`` whose sentence names the row, the column and the problem.
The command line (``python -m bot score quadropolis FILE``) prints the object as JSON, or the
sentence on standard error with exit status 2.
"""

from __future__ import annotations

import json
from typing import Any

from bot.rules import jsonin
from bot.rules.core import IllegalMove
from bot.rules.quadropolis.allocation import best_allocation
from bot.rules.quadropolis.notation import ParsedCity, parse_city
from bot.rules.quadropolis.scoring import CATEGORIES, ScoreSheet, cell_label, cost_bearing, fill, score
from bot.rules.quadropolis.tiles import MODE_RULES, ModeRules

FIELDS = ("mode", "inhabitants", "energy", "city", "allocation")
ALLOCATIONS = ("optimal", "given")
MAX_POOL = 999
"""The most inhabitants or energy a file may give. The box holds 65 inhabitants and 50 energy (the
spec treats the supply as unlimited, D-15), so no real pool comes near; the bound keeps the
optimiser's work (which grows with the pool) under a second."""


def score_given(mode: ModeRules, city: ParsedCity, inhabitants: int, energy: int) -> ScoreSheet:
    """Score the allocation the tokens describe (section 16, ``"given"``): buildings marked ``-`` are
    off, every other cost-bearing building is on, ``S<k>`` customers stand on their shop (customers
    of a shop that is off are idle, D-28), plain parks absorb spare energy. Raises IllegalMove
    (``quadropolis.alloc.*``) when it needs more than the pool."""
    active = [cell for cell in cost_bearing(city.grid) if cell not in city.inactive]
    customers = {cell: n for cell, n in city.customers.items() if cell not in city.inactive}
    return score(mode, city.grid, inhabitants, energy, fill(mode, city.grid, inhabitants, energy, active, customers))


def sheet_json(sheet: ScoreSheet, city: ParsedCity) -> dict[str, Any]:
    """The output object of section 16 for a scored city."""
    alloc = sheet.allocation
    inactive = [cell_label(cell) for cell in cost_bearing(city.grid) if cell not in alloc.active]
    return {
        "total": sheet.total,
        "categories": {key: sheet.categories[key] for key in CATEGORIES},
        "inhabitants_on_buildings": sheet.inhabitants_on_buildings,
        "empty_squares": sheet.empty_squares,
        "allocation": {
            "inactive": inactive,
            "customers": {cell_label(cell): n for cell, n in sorted(alloc.customers)},
            "absorbing_parks": [cell_label(cell) for cell in sorted(alloc.absorbing)],
        },
    }


def _count(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("quadropolis.calc.pool_not_number", field=name, value=json.dumps(value)[:40])
    if value < 0:
        raise IllegalMove("quadropolis.calc.pool_negative", field=name, value=value)
    if value > MAX_POOL:
        raise IllegalMove("cli.input.pool_too_big", field=name, value=value, most=MAX_POOL)
    return value


MAX_TOKEN = 8
"""The longest token of the notation is 3 characters (``S4-``); longer ones are refused before parsing,
so no number in a token can be long enough to matter."""


def _check_token_lengths(rows: list[Any]) -> None:
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            continue  # parse_city names the row
        for c, token in enumerate(row.split()):
            if len(token) > MAX_TOKEN:
                raise IllegalMove(
                    "quadropolis.calc.unknown_token", row=r + 1, column=c + 1, token=token[:MAX_TOKEN] + "…"
                )


def read_input(text: str) -> tuple[ModeRules, ParsedCity, int, int, str]:
    """Parse and check the input object; IllegalMove with a sentence on any problem."""
    try:
        data = jsonin.loads(text)
    except jsonin.JsonLimit as error:
        raise IllegalMove(error.key, **error.params) from None
    except ValueError as error:  # json.JSONDecodeError
        raise IllegalMove(
            "quadropolis.calc.bad_json",
            row=getattr(error, "lineno", 1),
            column=getattr(error, "colno", 1),
            problem=getattr(error, "msg", str(error)),
        ) from None
    if not isinstance(data, dict):
        raise IllegalMove("quadropolis.calc.not_object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise IllegalMove("quadropolis.calc.unknown_field", field=unknown[0], fields=", ".join(FIELDS))
    for name in ("mode", "inhabitants", "energy", "city"):
        if name not in data:
            raise IllegalMove("quadropolis.calc.missing_field", field=name)
    mode_name = data["mode"]
    if not isinstance(mode_name, str) or mode_name not in MODE_RULES:
        raise IllegalMove("quadropolis.calc.bad_mode", value=json.dumps(mode_name)[:40])
    mode = MODE_RULES[mode_name]
    inhabitants = _count(data, "inhabitants")
    energy = _count(data, "energy")
    how = data.get("allocation", "optimal")
    if not isinstance(how, str) or how not in ALLOCATIONS:
        raise IllegalMove("quadropolis.calc.bad_allocation", value=json.dumps(how)[:40])
    rows = data["city"]
    if not isinstance(rows, list):
        raise IllegalMove("quadropolis.calc.city_not_list")
    _check_token_lengths(rows)
    city = parse_city(mode, rows)
    return mode, city, inhabitants, energy, how


def score_text(text: str) -> dict[str, Any]:
    """Section 16: the best (or the given) allocation and the breakdown by category, as JSON data."""
    mode, city, inhabitants, energy, how = read_input(text)
    if how == "optimal":
        sheet = best_allocation(mode, city.grid, inhabitants, energy)
    else:
        try:
            sheet = score_given(mode, city, inhabitants, energy)
        except IllegalMove as error:
            key = error.key.replace("quadropolis.alloc.", "quadropolis.calc.given_")
            raise IllegalMove(key, **error.params) from None
    return sheet_json(sheet, city)
