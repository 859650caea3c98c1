"""Column lists of the two community tables that several modules write in one transaction: a wait
(reminders) changes with the vote about it (votes); and how a wait is saved (:func:`saved_wait`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WAIT_COLUMNS = (
    "game_id",
    "seat",
    "guild_xid",
    "channel_xid",
    "user_xid",
    "since",
    "since_version",
    "reminders_sent",
    "last_reminder_at",
    "snoozed_until",
    "credit_ms",
    "paused_since",
    "deadline_state",
    "state_at",
    "vote_version",
    "turn_notice",
    "last_notice",
    "due_at",
)
WAIT_UPDATABLE = frozenset(WAIT_COLUMNS) - {"game_id", "seat"}
SAVE_WAIT = (
    f"INSERT INTO community_waits ({', '.join(WAIT_COLUMNS)}) VALUES ({', '.join('?' for _ in WAIT_COLUMNS)})"
    f" ON CONFLICT (game_id, seat) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in WAIT_COLUMNS[2:])}"
)
PAUSED_IF_AWAY = (
    "(SELECT CAST(? AS BIGINT) FROM community_away WHERE guild_xid = ? AND user_xid = ? AND pauses_deadlines = 1"
    " AND until > ?)"
)
"""A new wait's ``paused_since`` in its own statement: its ``since`` while its player is away with paused deadlines
(``WaitStore.replace_waits``' ``away_pauses``), else NULL; the vacation is read by the write, not before it."""
VOTE_COLUMNS = (
    "game_id",
    "version",
    "seat",
    "user_xid",
    "voters",
    "opened_at",
    "closes_at",
    "status",
    "decision",
    "message_xid",
)


def save_waits(rows: Sequence[str]) -> str:
    """:data:`SAVE_WAIT` for the ``VALUES`` rows of :func:`saved_wait` (one or several waits in one statement)."""
    into, conflict = SAVE_WAIT.index(" VALUES"), SAVE_WAIT.index(" ON CONFLICT")
    return f"{SAVE_WAIT[:into]} VALUES {', '.join(rows)}{SAVE_WAIT[conflict:]}"


def saved_wait(values: Sequence[Any], pause_if_away: bool, at: int) -> tuple[str, list[Any]]:
    """A wait's ``VALUES`` row (its :data:`WAIT_COLUMNS` ``values``) and its parameters; ``pause_if_away``: its
    ``paused_since`` from :data:`PAUSED_IF_AWAY` at ``at``."""
    marks = ["?" for _ in WAIT_COLUMNS]
    params = list(values)
    if pause_if_away:
        col = WAIT_COLUMNS.index
        marks[col("paused_since")] = PAUSED_IF_AWAY
        since, guild, user = (params[col(c)] for c in ("since", "guild_xid", "user_xid"))
        params[col("paused_since") : col("paused_since") + 1] = [since, guild or 0, user, at]
    return "(" + ", ".join(marks) + ")", params
