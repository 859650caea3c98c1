"""Column lists of the two community tables that several modules write in one transaction: a wait
(reminders) changes with the vote about it (votes)."""

from __future__ import annotations

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
