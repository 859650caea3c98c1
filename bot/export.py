"""A whole game as one JSON object (``/game export``), and reading one back (``python -m bot local --replay``).

The one place that knows the export format: :data:`FORMAT`, the writer :func:`write` (which
:mod:`bot.community.history` calls) and the reader :func:`read` with :func:`check_claims` (which the terminal's
replay calls). Every field read is checked: a file that is not an export is :class:`BadExport`, one sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import errors, games
from bot.rules import core, jsonin
from bot.store import GameRow, MoveRow, SeatRow

FORMAT = "citybuilders-game/1"
"""The ``format`` field of every export this version writes and reads."""
MAX_MOVES = 20_000
"""Far more moves than the longest game has (a seven-player game has a few hundred)."""
MAX_NAME = 100
UNFORESEEN = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)
"""What rules code may raise on a move no legal game contains (it trusts the service's checks)."""

Moves = list[tuple[int, dict[str, Any]]]


class BadExport(Exception):
    """The export cannot be replayed: ``key``/``params`` are the sentence (a ``cli.*`` message) naming the
    file and the problem."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def write(game: GameRow, seats: Sequence[SeatRow], moves: Sequence[MoveRow]) -> dict[str, Any]:
    """The whole game as JSON, in the format :func:`read` reads (a finished or abandoned game: the caller
    checks, as the seed and log of a game in play would reveal its hidden information)."""
    return {
        "format": FORMAT,
        "id": game.id,
        "game": game.kind,
        "options": game.options,
        "seed": game.seed,
        "status": game.status,
        "seats": [{"seat": s.seat, "name": s.name, "ai": s.ai_level, "resigned": s.resigned} for s in seats],
        "moves": [{"version": m.version, "seat": m.seat, "move": m.move, "at": m.at} for m in moves],
        "result": game.result,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadExport("cli.replay.field", field=name)
    return value


def read(text: str, path: str) -> tuple[Any, Any, list[str], int, Moves, dict[str, Any]]:
    """(rules, state at the start, seat names, seed, [(seat, move)], claims) of the export ``text`` (read from
    ``path``), every field checked; the claims are what it says of the game's end ("status", "result",
    "seats"), for :func:`check_claims`."""
    try:
        data = jsonin.loads(text)
    except jsonin.JsonLimit as exc:
        raise BadExport(exc.key, **exc.params) from None
    except ValueError as exc:
        raise BadExport(
            "cli.replay.not_json", path=path, line=getattr(exc, "lineno", 1), problem=getattr(exc, "msg", str(exc))
        ) from None
    if not isinstance(data, dict):
        raise BadExport("cli.replay.not_object", path=path)
    if data.get("format", FORMAT) != FORMAT:
        raise BadExport("cli.replay.format", path=path, format=FORMAT)
    kind = games.resolve(_field(data, "game", str))
    if kind is None:
        raise BadExport("cli.local.unknown_game", game=data["game"], games=", ".join(games.available()))
    rules = games.rules(kind)
    options = _field(data, "options", dict)
    seed = _field(data, "seed", int)
    if not 0 <= seed < 2**63:
        raise BadExport("cli.replay.field", field="seed")
    seats = _field(data, "seats", list)
    names: list[str] = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("name", ""), str):
            raise BadExport("cli.replay.seat", seat=i + 1)
        names.append(str(seat.get("name") or f"Seat {i + 1}")[:MAX_NAME])
    opts = rules.normalise_options(options)
    low, high = rules.seat_range(opts)
    if not low <= len(names) <= high:
        raise BadExport("cli.replay.seats", count=len(names), low=low, high=high)
    moves_in = data.get("moves", [])
    if not isinstance(moves_in, list) or len(moves_in) > MAX_MOVES:
        raise BadExport("cli.replay.field", field="moves")
    moves: Moves = []
    for number, m in enumerate(moves_in, start=1):
        seat = m.get("seat") if isinstance(m, dict) else None
        move = m.get("move") if isinstance(m, dict) else None
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not -1 <= seat < len(names)
            or not isinstance(move, dict)
        ):
            raise BadExport("cli.replay.move", number=number)
        moves.append((seat, move))
    claims = {key: data[key] for key in ("status", "result", "seats") if key in data}
    return rules, rules.setup(opts, len(names), seed), names, seed, moves, claims


def check_claims(path: str, rules: Any, state: Any, moves: Moves, claims: dict[str, Any]) -> None:
    """What an export says of its game (seats in order, status, result) is what its moves produce;
    BadExport (one sentence, exit 2) if not, before any picture is written. A move that does not
    replay is left to the pictures' pass, which names it."""
    for place, seat in enumerate(claims.get("seats", [])):
        if seat.get("seat", place) != place:
            raise BadExport("cli.replay.claim_seats", path=path, place=place + 1, number=str(seat["seat"])[:20])
    for seat, move in moves:
        try:
            if seat != core.SYSTEM_SEAT and seat not in rules.awaiting(state):
                return
            state = rules.apply(state, seat, move)
        except (errors.GameError, *UNFORESEEN):
            return
    status, result = claims.get("status"), claims.get("result")
    if "status" in claims and not isinstance(status, str):
        raise BadExport("cli.replay.field", field="status")
    if result is not None and not isinstance(result, dict):
        raise BadExport("cli.replay.field", field="result")
    over = rules.is_over(state)
    if over:
        if status not in (None, "finished"):
            raise BadExport("cli.replay.claim_finished", path=path)
        if "result" in claims and _standings(result) != _standings(rules.result(state).to_json()):
            raise BadExport("cli.replay.claim_result", path=path)
        return
    # Unfinished by its moves: an abandoned game (no result), or one ended by resignation, whose
    # result is a forfeit that names exactly the seats the export marks as resigned.
    if result is None:
        if status == "finished":
            raise BadExport("cli.replay.claim_unfinished", path=path)
        return
    forfeit = _forfeit_seats(result)
    if forfeit is None:
        raise BadExport("cli.replay.claim_unfinished", path=path)
    resigned = [seat.get("resigned") is True for seat in claims.get("seats", [])]
    if forfeit != resigned or status not in (None, "finished"):
        raise BadExport("cli.replay.claim_result", path=path)


def _standings(result: Any) -> list[tuple[Any, Any, Any]] | None:
    """What a result says of each seat: (seat, total, rank). Only these are compared, so an export
    made by an earlier version (whose details named cities in English, say) still replays."""
    seats = result.get("seats") if isinstance(result, dict) else None
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        return None
    return [(s.get("seat"), s.get("total"), s.get("rank")) for s in seats]


def _forfeit_seats(result: dict[str, Any]) -> list[bool] | None:
    """Which seats a result ended by resignation marks as forfeit (None: not such a result)."""
    seats = result.get("seats")
    if result.get("decided_by") != "forfeit" or not isinstance(seats, list):
        return None
    return [
        isinstance(s, dict) and isinstance(s.get("details"), dict) and s["details"].get("forfeit") is True
        for s in seats
    ]
