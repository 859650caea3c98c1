"""Score calculator for one city of a physical game (spec section 14).

``score_text`` takes the file's text, e.g.::

    {"city": ["S S S S", "H H O m", "O P O O", "O P H P"], "factories_in_other_cities": [3, 0, 5]}

and returns ``{"total": 56, "categories": {"shops": 16, …, "houses": 12}}`` (every category always
present, in reference order). Bad input raises ``IllegalMove("btc.calc.<id>", …)`` whose sentence
names the row, the column and the problem; the command line (``python -m bot score btc FILE``)
prints it on standard error and exits with status 2.
"""

from __future__ import annotations

from typing import Any

from bot.rules import jsonin
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.core import Cell, IllegalMove

SIDE = 4
EMPTY = "."
KEYS = frozenset({"city", "factories_in_other_cities", "factory_rank"})
MAX_OTHER_CITIES = 6
"""At most 7 players: 6 other cities."""


def _grid(rows: Any) -> dict[Cell, str]:
    if not isinstance(rows, list) or len(rows) != SIDE:
        raise IllegalMove("btc.calc.rows", count=len(rows) if isinstance(rows, list) else 0)
    faces: dict[Cell, str] = {}
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise IllegalMove("btc.calc.row_type", row=r + 1)
        tokens = row.split()
        if len(tokens) != SIDE:
            raise IllegalMove("btc.calc.row_length", row=r + 1, count=len(tokens))
        for c, token in enumerate(tokens):
            if token == EMPTY:
                continue
            if token not in T.FACE_BY_TOKEN:
                raise IllegalMove("btc.calc.token", row=r + 1, col=c + 1, token=token)
            faces[(r, c)] = T.FACE_BY_TOKEN[token]
    return faces


def _factory_value(data: dict[str, Any], own: int) -> int:
    others = data.get("factories_in_other_cities")
    rank = data.get("factory_rank")
    if others is not None and rank is not None:
        raise IllegalMove("btc.calc.both_factory_inputs")
    if others is not None:
        if (
            not isinstance(others, list)
            or len(others) > MAX_OTHER_CITIES
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= SIDE * SIDE for n in others)
        ):
            raise IllegalMove("btc.calc.factories")
        return scoring.per_factory(own, [own, *others])
    if rank is not None:
        table = T.FACTORY_PER_BUILDING
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= len(table):
            raise IllegalMove("btc.calc.rank", most=len(table))
        return table[rank - 1] if own else 0
    return T.FACTORY_PER_BUILDING[0] if own else 0


def score_city(data: dict[str, Any]) -> dict[str, Any]:
    """Score a parsed calculator object (see the module docstring)."""
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise IllegalMove("btc.calc.unknown_key", key=unknown[0])
    if "city" not in data:
        raise IllegalMove("btc.calc.no_city")
    faces = _grid(data["city"])
    own = sum(1 for code in faces.values() if T.face_type(code) == "factory")
    scores = scoring.score_grid(faces, _factory_value(data, own))
    return {"total": scoring.total(scores), "categories": scores}


def score_text(text: str) -> dict[str, Any]:
    """Score the JSON text of a calculator file (section 14)."""
    try:
        data = jsonin.loads(text)
    except jsonin.JsonLimit as err:
        raise IllegalMove(err.key, **err.params) from None
    except ValueError as err:  # json.JSONDecodeError
        raise IllegalMove(
            "btc.calc.json",
            line=getattr(err, "lineno", 1),
            col=getattr(err, "colno", 1),
            problem=getattr(err, "msg", str(err)),
        ) from None
    if not isinstance(data, dict):
        raise IllegalMove("btc.calc.object")
    return score_city(data)
