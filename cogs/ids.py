"""custom_id formats. Every component the bot posts carries what it needs to survive a restart.

- ``lobby:<game>:<action>`` — Join / Leave / Start / AI on a lobby message.
- ``mv:<game>:<version>:<token>:<move JSON>`` — one move, computed at ``version``; ``token`` is a
  short hash of the choices the seat was offered (see :func:`bot.service.choices_token`).
- ``sel:<game>:<version>:<token>`` — a select menu whose chosen values are move JSON.
- ``open:<game>:<version>`` — "Play" / "My hand": opens the clicker's private choices.

Anything else, or a malformed id, is answered with a sentence and changes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_CUSTOM_ID = 100
KINDS = ("lobby", "mv", "sel", "open")
"""The custom_id kinds the component router reads itself (others go to a game's or feature's route)."""
LOBBY_ACTIONS = ("join", "leave", "start", "ai")


class ForgedId(ValueError):
    """A custom_id the bot could not have produced."""


@dataclass(frozen=True)
class ParsedId:
    kind: str
    game_id: int
    version: int | None = None
    token: str | None = None
    action: str | None = None
    move: dict[str, Any] | None = None


def compact(move: Mapping[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


def lobby(game_id: int, action: str) -> str:
    return f"lobby:{game_id}:{action}"


def move(game_id: int, version: int, token: str, mv: Mapping[str, Any]) -> str | None:
    """The id of a move button, or None when the move does not fit in a custom_id."""
    text = f"mv:{game_id}:{version}:{token}:{compact(mv)}"
    return text if len(text) <= MAX_CUSTOM_ID else None


def select(game_id: int, version: int, token: str, index: int = 0) -> str:
    return f"sel:{game_id}:{version}:{token}:{index}"


def open_(game_id: int, version: int) -> str:
    return f"open:{game_id}:{version}"


ID_DIGITS = re.compile(r"[0-9]{1,18}")
"""A number in a custom_id: ASCII digits only (``"²".isdigit()`` is true, yet ``int("²")`` fails), and short
enough for the database (a 20-digit id would overflow SQLite's 64-bit integers)."""


def number(text: str) -> int:
    """A number read from a custom_id, or ForgedId."""
    if not isinstance(text, str) or not ID_DIGITS.fullmatch(text):
        raise ForgedId(str(text)[:40])
    return int(text)


_int = number


def parse(custom_id: str) -> ParsedId:
    """Read a custom_id or raise ForgedId."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        raise ForgedId("not a string")
    kind, _, rest = custom_id.partition(":")
    if kind == "lobby":
        game, _, action = rest.partition(":")
        if action not in LOBBY_ACTIONS:
            raise ForgedId(custom_id)
        return ParsedId("lobby", _int(game), action=action)
    if kind == "open":
        game, _, version = rest.partition(":")
        return ParsedId("open", _int(game), version=_int(version))
    if kind == "sel":
        parts = rest.split(":")
        if len(parts) != 4:
            raise ForgedId(custom_id)
        return ParsedId("sel", _int(parts[0]), version=_int(parts[1]), token=parts[2])
    if kind == "mv":
        parts = rest.split(":", 3)
        if len(parts) != 4:
            raise ForgedId(custom_id)
        try:
            mv = json.loads(parts[3])
        except ValueError:
            raise ForgedId(custom_id) from None
        if not isinstance(mv, dict) or "kind" not in mv:
            raise ForgedId(custom_id)
        return ParsedId("mv", _int(parts[0]), version=_int(parts[1]), token=parts[2], move=mv)
    raise ForgedId(custom_id)


def parse_move_value(value: str) -> dict[str, Any]:
    """A select option's value (move JSON) or ForgedId."""
    try:
        mv = json.loads(value)
    except (ValueError, TypeError):
        raise ForgedId(value) from None
    if not isinstance(mv, dict) or "kind" not in mv:
        raise ForgedId(value)
    return mv
