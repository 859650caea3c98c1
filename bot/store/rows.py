"""The rows the store returns (games, seats, moves), plain frozen dataclasses holding JSON, never rules
objects; and how a row of ``games`` is read and a JSON column written."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LIVE_STATUSES = ("lobby", "active")
GAME_COLUMNS = (
    "id",
    "guild_xid",
    "channel_xid",
    "kind",
    "options",
    "seed",
    "status",
    "version",
    "host_xid",
    "created_at",
    "updated_at",
    "started_at",
    "finished_at",
    "awaiting_since",
    "result",
    "lobby_message_xid",
    "status_message_xid",
    "turn_message_xid",
    "settled_version",
    "locale",
    "paused_at",
)
UPDATABLE_GAME_COLUMNS = frozenset(GAME_COLUMNS) - {"id", "kind", "seed", "created_at", "version"}
JSON_GAME_COLUMNS = frozenset({"options", "result"})


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_xid: int | None
    channel_xid: int | None
    kind: str
    options: dict[str, Any]
    seed: int
    status: str
    version: int
    host_xid: int | None
    created_at: int
    updated_at: int
    started_at: int | None
    finished_at: int | None
    awaiting_since: int | None
    result: dict[str, Any] | None
    lobby_message_xid: int | None
    status_message_xid: int | None
    turn_message_xid: int | None
    settled_version: int = 0
    locale: str = "en"
    """The language of the game's channel posts (migration 006)."""
    paused_at: int | None = None
    """When the game's channel was found deleted (migration 007): nothing acts on it any more."""


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_xid: int | None
    ai_level: str | None
    name: str
    resigned: bool
    joined_at: int

    @property
    def is_ai(self) -> bool:
        """Whether the AI plays this seat (an AI seat, or a human's seat the AI took over)."""
        return self.ai_level is not None


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    version: int
    seat: int
    move: dict[str, Any]
    at: int
    actor_xid: int | None


@dataclass(frozen=True)
class PostRecord:
    """One of the bot's posts about a game in its channel (``game_posts``, which forget-me reaches): its ``kind``
    (``turn``, ``recap``, ``line``), where it is, and the game's version it shows."""

    kind: str
    channel_xid: int
    message_xid: int
    version: int


SAVE_POST = (
    "INSERT INTO game_posts (message_xid, game_id, channel_xid, kind, version) {values}"
    " ON CONFLICT (message_xid) DO UPDATE SET kind = excluded.kind, version = excluded.version"
)
"""A post recorded (a repost of the same message updates it); ``{values}``: ``VALUES (...)`` or a ``SELECT``, of
the message, the game, the channel, the kind and the version, in this order."""


def game_row(row: Sequence[Any]) -> GameRow:
    values = dict(zip(GAME_COLUMNS, row, strict=True))
    for col in JSON_GAME_COLUMNS:
        if values[col] is not None:
            values[col] = json.loads(values[col])
    return GameRow(**values)


def seat_row(row: Sequence[Any]) -> SeatRow:
    game_id, seat, user_xid, ai_level, name, resigned, joined_at = row
    return SeatRow(game_id, seat, user_xid, ai_level, name, bool(resigned), joined_at)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
