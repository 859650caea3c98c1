"""Score a physical Urban Panic city: ``python -m bot score urbanpanic FILE``.

The spec gives no file format, so this one mirrors the other games' calculators. FILE holds one
JSON object::

    {"city": ["G:.ES. F:.ES. H:..SW P:.E.W ------",
              "H:N.S. H:NES. O:NESW F:N.S. G:..SW",
              "F:NE.. O:.E.W CENTRE A:NE.W H:N..W",
              "------ P:NE.. G:N.SW F:.E.W O:N.S.",
              "G:NE.. H:.E.W F:NE.W P:NE.W A:N..W"],
     "tracks": [20, 26, -1, 17, 1],
     "goals_won": [],
     "finisher": false}

- ``city`` (required): 5 strings, rows 1–5 from north to south, each with 5 tokens for columns
  A–E separated by spaces, in the spec's test-grid notation: a tile is its type letter (H housing,
  O offices, A amusement park, F factory, P power plant, G park), a colon and, for N, E, S, W in
  that order, the letter when that side has a passage or a dot when it is closed (``F:NE..``). An
  empty plot is ``------`` (or ``.`` or ``-``); C3 must be ``CENTRE`` (or ``C``).
- ``tracks`` (optional): where the five markers stood when play ended, as
  [residents, jobs, ecology, income, satisfaction]. Without it the tracks are computed from the
  tiles (count of each type × the legend), as in the party game.
- ``goals_won`` (optional, advanced game): ids of the goal cards this city won (G01–G18), +10 each.
  Goal cards compare cities, so the players decide them; the engine scores them in online games.
- ``finisher`` (optional, party game): true for the player who turned the hourglass, +5.

Output (``score_text`` returns it; the command prints it as JSON)::

    {"total": 44,
     "categories": {"residents": 20, "jobs": 20, "ecology": -1, "income": 8, "satisfaction": 1,
                    "empty_plots": -4, "unemployment": 0, "goals": 0, "bonus": 0},
     "tracks_source": "given", "tracks_played": [20, 26, -1, 17, 1],
     "removed": [{"plot": "D1", "tile": "POW-EW", "lost": [0, 1, 0, 4, 0]}, …],
     "tracks_after_removal": [20, 22, -1, 10, 1], "empty_plots": 4,
     "unemployment_penalty": 0, "jobs_cut": 2, "tracks_final": [20, 20, -1, 8, 1], "base": 44,
     "goals_won": []}

Every category key is always present and ``total`` is their sum (the categories are those of
``scoring.CATEGORIES``). Bad input raises ``IllegalMove("urbanpanic.calc.<problem>", …)`` whose sentence
names the plot (or row) and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.rules import jsonin
from bot.rules.core import IllegalMove
from bot.rules.urbanpanic import scoring, tiles

FIELDS = frozenset({"city", "tracks", "goals_won", "finisher"})
MAX_TRACK = 999
"""Tracks have no printed end (D-3), but 24 tiles cannot move a marker anywhere near this far."""


def parse_city(rows: object) -> list[str | None]:
    """Five rows of five tokens -> a board (25 squares, centre None); IllegalMove naming the plot."""
    if not isinstance(rows, list) or len(rows) != tiles.SIZE:
        raise IllegalMove("urbanpanic.calc.rows", count=len(rows) if isinstance(rows, list) else 0)
    board = tiles.empty_board()
    for r, text in enumerate(rows):
        if not isinstance(text, str):
            raise IllegalMove("urbanpanic.calc.row_type", row=r + 1)
        tokens = text.split()
        if len(tokens) != tiles.SIZE:
            raise IllegalMove("urbanpanic.calc.columns", row=r + 1, count=len(tokens))
        for c, token in enumerate(tokens):
            index = r * tiles.SIZE + c
            plot = tiles.square_name(index)
            is_centre = token.upper() in tiles.CENTRE_TOKENS
            if index == tiles.CENTRE:
                if not is_centre:
                    raise IllegalMove("urbanpanic.calc.centre_missing", token=token)
                continue
            if is_centre:
                raise IllegalMove("urbanpanic.calc.centre_elsewhere", plot=plot)
            if token in tiles.EMPTY_TOKENS:
                continue
            code = tiles.token_code(token)
            if code is None:
                raise IllegalMove("urbanpanic.calc.bad_token", plot=plot, token=token)
            if code not in tiles.KINDS:
                raise IllegalMove("urbanpanic.calc.no_such_tile", plot=plot, tile=tiles.tile_term(code))
            board[index] = code
    used: dict[str, int] = {}
    for index in tiles.PLOTS:
        code = board[index]
        if code is None:
            continue
        used[code] = used.get(code, 0) + 1
        if used[code] > tiles.KINDS[code].count:
            raise IllegalMove(
                "urbanpanic.calc.too_many",
                plot=tiles.square_name(index),
                tile=tiles.tile_term(code),
                count=tiles.KINDS[code].count,
            )
    return board


def _tracks(value: object) -> tiles.Tracks:
    if (
        not isinstance(value, list)
        or len(value) != 5
        or any(not isinstance(v, int) or isinstance(v, bool) for v in value)
    ):
        raise IllegalMove("urbanpanic.calc.tracks")
    for i in (0, 1):
        if value[i] < 0:
            raise IllegalMove("urbanpanic.calc.track_negative", track=tiles.track_term(tiles.TRACKS[i]), value=value[i])
    for i, v in enumerate(value):
        if not -MAX_TRACK <= v <= MAX_TRACK:
            raise IllegalMove(
                "urbanpanic.calc.track_too_far", track=tiles.track_term(tiles.TRACKS[i]), value=v, most=MAX_TRACK
            )
    return (value[0], value[1], value[2], value[3], value[4])


def _goals(value: object) -> list[str]:
    if not isinstance(value, list):
        raise IllegalMove("urbanpanic.calc.goals", goal=json.dumps(value)[:40])
    for g in value:
        if not isinstance(g, str) or g not in tiles.GOALS:
            raise IllegalMove("urbanpanic.calc.goals", goal=json.dumps(g)[:40])
    return list(dict.fromkeys(value))


def score_city_data(data: object) -> dict[str, Any]:
    """Score an already-decoded input object (see the module docstring)."""
    if not isinstance(data, dict) or "city" not in data:
        raise IllegalMove("urbanpanic.calc.not_object")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise IllegalMove("urbanpanic.calc.unknown_field", field=unknown[0])
    board = parse_city(data["city"])
    given = data.get("tracks")
    tracks = tiles.tracks_of(board) if given is None else _tracks(given)
    goals_won = _goals(data.get("goals_won", []))
    finisher = data.get("finisher", False)
    if not isinstance(finisher, bool):
        raise IllegalMove("urbanpanic.calc.finisher")
    city = scoring.score_city(board, tracks)
    categories = city.breakdown(
        goals=tiles.GOAL_POINTS * len(goals_won), bonus=scoring.FINISHER_BONUS if finisher else 0
    )
    return {
        "total": sum(categories.values()),
        "categories": categories,
        "tracks_source": "computed" if given is None else "given",
        **city.details(),
        "goals_won": goals_won,
    }


def score_text(text: str) -> dict[str, Any]:
    """Score the JSON text of a calculator file; IllegalMove with a sentence for bad input."""
    try:
        data = jsonin.loads(text)
    except jsonin.JsonLimit as exc:
        raise exc.refusal() from None
    except json.JSONDecodeError as exc:
        raise IllegalMove(
            "urbanpanic.calc.bad_json", problem=f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except ValueError as exc:
        raise IllegalMove("urbanpanic.calc.bad_json", problem=str(exc)[:80]) from None
    return score_city_data(data)


def board_rows(board: Sequence[str | None]) -> list[str]:
    """The inverse of :func:`parse_city`: a board as 5 rows of tokens."""
    rows = []
    for r in range(tiles.SIZE):
        tokens = []
        for c in range(tiles.SIZE):
            index = r * tiles.SIZE + c
            code = board[index]
            tokens.append("CENTRE" if index == tiles.CENTRE else "------" if code is None else tiles.code_token(code))
        rows.append(" ".join(tokens))
    return rows
