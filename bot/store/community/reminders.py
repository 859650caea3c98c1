"""The reminder loop's tables (migration 003): one wait per awaited human seat, vacations, and the
loop's bookkeeping (heartbeat, reconcile watermark); plus the reads of games it needs."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.store import POSTGRES, TableStore
from bot.store.community.clocks import RECORD_TURN
from bot.store.community.columns import VOTE_COLUMNS, WAIT_COLUMNS, WAIT_UPDATABLE, save_waits, saved_wait
from bot.store.community.common import dumps
from bot.store.community.outbox import NewOutbox, OutboxRow, claim_rows
from bot.store.community.votes import VoteRow, vote_row

PERSONAL_COLUMNS = ("community_waits.user_xid", "community_away.user_xid", "clock_aways.user_xid")
"""Columns of this module's tables that hold a player's id."""


@dataclass(frozen=True)
class WaitRow:
    game_id: int
    seat: int
    guild_xid: int | None
    channel_xid: int | None
    user_xid: int
    since: int
    since_version: int
    reminders_sent: int = 0
    last_reminder_at: int | None = None
    snoozed_until: int | None = None
    credit_ms: int = 0
    paused_since: int | None = None
    deadline_state: str = "pending"
    state_at: int | None = None
    vote_version: int | None = None
    turn_notice: int = 0
    last_notice: int = 0
    due_at: int | None = None

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, c) for c in WAIT_COLUMNS)


@dataclass(frozen=True)
class AwayRow:
    guild_xid: int
    user_xid: int
    since: int
    until: int
    pauses_deadlines: bool


@dataclass(frozen=True)
class GameStamp:
    """A game the reconcile pass looks at: id and when its awaited set last changed."""

    id: int
    awaiting_since: int


def _wait(row: Sequence[Any]) -> WaitRow:
    return WaitRow(*row)


class WaitStore(TableStore):
    """Waits, vacations and the loop's bookkeeping of one open :class:`bot.store.Store`."""

    # -- meta --------------------------------------------------------------------------------
    async def meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM community_meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- reading games (tables of 001, read only) ---------------------------------------------
    async def changed_games(self, after_at: int, after_id: int, limit: int) -> list[GameStamp]:
        """Active games whose awaited set changed after (after_at, after_id), oldest first.

        Uses the index ``games_by_status (status, awaiting_since)``.
        """
        rows = await self._all(
            "SELECT id, awaiting_since FROM games WHERE status = 'active' AND awaiting_since IS NOT NULL"
            " AND (awaiting_since > ? OR (awaiting_since = ? AND id > ?))"
            " ORDER BY awaiting_since, id LIMIT ?",
            (after_at, after_at, after_id, limit),
        )
        return [GameStamp(int(r[0]), int(r[1])) for r in rows]

    async def last_move_of_seat(self, game_id: int, seat: int) -> tuple[int, int] | None:
        """(version, at) of the seat's newest live move, or None."""
        row = await self._one(
            "SELECT version, at FROM moves WHERE game_id = ? AND seat = ? AND undone_at IS NULL"
            " ORDER BY version DESC LIMIT 1",
            (game_id, seat),
        )
        return (int(row[0]), int(row[1])) if row else None

    # -- away --------------------------------------------------------------------------------
    async def away(self, guild_xid: int, user_xid: int) -> AwayRow | None:
        row = await self._one(
            "SELECT guild_xid, user_xid, since, until, pauses_deadlines FROM community_away"
            " WHERE guild_xid = ? AND user_xid = ?",
            (guild_xid, user_xid),
        )
        return AwayRow(row[0], row[1], row[2], row[3], bool(row[4])) if row else None

    async def start_away(
        self, guild_xid: int, user_xid: int, *, since: int, until: int, pauses_deadlines: bool
    ) -> None:
        """Record the vacation; with paused deadlines, every wait of the player there stops its clock."""
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_away (guild_xid, user_xid, since, until, pauses_deadlines)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_xid, user_xid) DO UPDATE SET"
                " until = excluded.until",
                (guild_xid, user_xid, since, until, int(pauses_deadlines)),
            )
            if pauses_deadlines:
                # The clocks' record of the vacation (migration 014), kept after it ends; an extension keeps it.
                await db.execute(
                    "INSERT INTO clock_aways (guild_xid, user_xid, since)"
                    " SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE NOT EXISTS"
                    " (SELECT 1 FROM clock_aways WHERE guild_xid = ? AND user_xid = ? AND ended IS NULL)",
                    (guild_xid, user_xid, since, guild_xid, user_xid),
                )
                await db.execute(
                    "UPDATE community_waits SET paused_since = GREATEST(since, ?) WHERE guild_xid = ?"
                    " AND user_xid = ? AND paused_since IS NULL",
                    (since, guild_xid, user_xid),
                )
            await db.execute(
                "UPDATE community_waits SET due_at = ? WHERE guild_xid = ? AND user_xid = ?",
                (since, guild_xid, user_xid),
            )

    async def end_away(self, guild_xid: int, user_xid: int, at: int) -> bool:
        """End a vacation: paused time is credited to each wait's deadline. False if none."""
        async with self.store.transaction() as db:
            if (
                await db.execute(
                    "DELETE FROM community_away WHERE guild_xid = ? AND user_xid = ?", (guild_xid, user_xid)
                )
                == 0
            ):
                return False
            await db.execute(
                "UPDATE clock_aways SET ended = ? WHERE guild_xid = ? AND user_xid = ? AND ended IS NULL",
                (at, guild_xid, user_xid),
            )
            await db.execute(
                "UPDATE community_waits SET credit_ms = credit_ms + GREATEST(0, ? - paused_since),"
                " paused_since = NULL WHERE guild_xid = ? AND user_xid = ? AND paused_since IS NOT NULL",
                (at, guild_xid, user_xid),
            )
            await db.execute(
                "UPDATE community_waits SET due_at = ? WHERE guild_xid = ? AND user_xid = ?", (at, guild_xid, user_xid)
            )
        return True

    async def expired_aways(self, now: int, limit: int) -> list[AwayRow]:
        rows = await self._all(
            "SELECT guild_xid, user_xid, since, until, pauses_deadlines FROM community_away"
            " WHERE until <= ? ORDER BY until LIMIT ?",
            (now, limit),
        )
        return [AwayRow(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]

    # -- waits -------------------------------------------------------------------------------
    async def waits_for_game(self, game_id: int) -> dict[int, WaitRow]:
        rows = await self._all(f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE game_id = ?", (game_id,))
        return {int(r[1]): _wait(r) for r in rows}

    async def wait(self, game_id: int, seat: int) -> WaitRow | None:
        row = await self._one(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return _wait(row) if row else None

    async def waits_for_user(self, user_xid: int, guild_xid: int | None = None) -> list[WaitRow]:
        rows = await self._all(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE user_xid = ?"
            " AND (CAST(? AS BIGINT) IS NULL OR guild_xid = ?) ORDER BY since",
            (user_xid, guild_xid, guild_xid),
        )
        return [_wait(r) for r in rows]

    async def due_waits(self, now: int, limit: int) -> list[WaitRow]:
        """Waits with something possibly due, most overdue first (index ``community_waits_due``)."""
        rows = await self._all(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE due_at IS NOT NULL"
            " AND due_at <= ? ORDER BY due_at LIMIT ?",
            (now, limit),
        )
        return [_wait(r) for r in rows]

    async def replace_waits(
        self,
        game_id: int,
        *,
        keep: Iterable[int],
        upserts: Iterable[WaitRow],
        at: int,
        turn: Sequence[Any] | None = None,
        away_pauses: Collection[int] = (),
    ) -> list[VoteRow]:
        """Make the game's waits exactly ``keep`` + ``upserts`` (seats); returns the open votes this
        cancelled (their seat is no longer awaited or its turn restarted). ``turn``: the clocks' turn record
        of the move (:func:`bot.store.community.clocks.turn_values`), written in the same transaction.
        ``away_pauses``: seats of ``upserts`` whose wait starts paused (``paused_since`` its ``since``) when
        their player is away at ``at`` with paused deadlines, as the write finds it (``columns.PAUSED_IF_AWAY``)."""
        upserts = list(upserts)
        live = set(keep) | {w.seat for w in upserts}
        restarted = {w.seat for w in upserts}
        saved = [saved_wait(w.values(), w.seat in away_pauses, at) for w in upserts]
        if self.store.dialect == POSTGRES:
            return await self._replace_waits_in_one(game_id, live, restarted, saved, turn)
        async with self.store.transaction() as db:
            if turn is not None:
                await db.execute(RECORD_TURN, turn)
            open_votes = [
                vote_row(r)
                for r in await db.fetch_all(
                    f"SELECT {', '.join(VOTE_COLUMNS)} FROM community_votes WHERE game_id = ? AND status = 'open'",
                    (game_id,),
                )
            ]
            cancelled = [v for v in open_votes if v.seat not in live or v.seat in restarted]
            for v in cancelled:
                await db.execute(
                    "UPDATE community_votes SET status = 'cancelled', decision = 'moved' WHERE game_id = ?"
                    " AND version = ? AND seat = ?",
                    (v.game_id, v.version, v.seat),
                )
            marks = ", ".join("?" for _ in live)
            if live:
                await db.execute(
                    f"DELETE FROM community_waits WHERE game_id = ? AND seat NOT IN ({marks})", (game_id, *live)
                )
            else:
                await db.execute("DELETE FROM community_waits WHERE game_id = ?", (game_id,))
            for marks, values in saved:
                await db.execute(save_waits([marks]), values)
        return cancelled

    async def _replace_waits_in_one(
        self,
        game_id: int,
        live: set[int],
        restarted: set[int],
        upserts: list[tuple[str, list[Any]]],
        turn: Sequence[Any] | None,
    ) -> list[VoteRow]:
        """:meth:`replace_waits` on PostgreSQL: one statement, one round trip (it comes with most moves). Its
        parts see the same snapshot and touch different rows (the votes cancelled, the waits of seats no longer
        awaited deleted, the others' saved, the turn recorded), and the statement is atomic, as the transaction
        was."""
        saved = ""
        values: list[Any] = []
        if turn is not None:
            saved += f", turn AS ({RECORD_TURN})"
            values += list(turn)
        if upserts:
            saved += f", saved AS ({save_waits([marks for marks, _ in upserts])})"
            values += [v for _, row in upserts for v in row]
        rows = await self._write_one(
            "WITH cancelled AS (UPDATE community_votes SET status = 'cancelled', decision = 'moved'"
            " WHERE game_id = ? AND status = 'open'"
            " AND (NOT seat = ANY(CAST(? AS BIGINT[])) OR seat = ANY(CAST(? AS BIGINT[])))"
            f" RETURNING {', '.join(VOTE_COLUMNS)}),"
            " gone AS (DELETE FROM community_waits WHERE game_id = ? AND NOT seat = ANY(CAST(? AS BIGINT[])))"
            f"{saved} SELECT {', '.join(VOTE_COLUMNS)} FROM cancelled",
            (game_id, sorted(live), sorted(restarted), game_id, sorted(live), *values),
        )
        return [vote_row(r) for r in rows]

    async def apply_plan(
        self,
        game_id: int,
        seat: int,
        *,
        expect: tuple[int, int | None],
        updates: Mapping[str, Any],
        claims: Sequence[NewOutbox],
        at: int,
        boot: str,
        open_vote: VoteRow | None = None,
    ) -> list[OutboxRow] | None:
        """Update one wait and claim its outbox rows in one transaction.

        ``expect`` is the (since_version, due_at) the plan was made from. None (nothing written) if
        the wait changed meanwhile (a move restarted it, or it is gone): it is planned again later.
        """
        bad = set(updates) - WAIT_UPDATABLE
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        async with self.store.transaction() as db:
            sets = ", ".join(f"{k} = ?" for k in updates) or "due_at = due_at"
            n = await db.execute(
                f"UPDATE community_waits SET {sets} WHERE game_id = ? AND seat = ? AND since_version = ?"
                " AND due_at IS NOT DISTINCT FROM ?",
                (*updates.values(), game_id, seat, expect[0], expect[1]),
            )
            if n == 0:
                return None
            if open_vote is not None:
                await db.execute(
                    f"INSERT INTO community_votes ({', '.join(VOTE_COLUMNS)})"
                    f" VALUES ({', '.join('?' for _ in VOTE_COLUMNS)}) ON CONFLICT (game_id, version, seat)"
                    f" DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in VOTE_COLUMNS[3:])}",
                    (
                        open_vote.game_id,
                        open_vote.version,
                        open_vote.seat,
                        open_vote.user_xid,
                        dumps(open_vote.voters),
                        open_vote.opened_at,
                        open_vote.closes_at,
                        open_vote.status,
                        open_vote.decision,
                        open_vote.message_xid,
                    ),
                )
            return await claim_rows(db, claims, at, boot, lease_ms=self.store.lease_ms)

    async def update_wait(self, game_id: int, seat: int, **updates: Any) -> bool:
        bad = set(updates) - WAIT_UPDATABLE
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if not updates:
            return False
        async with self.store.transaction() as db:
            n = await db.execute(
                f"UPDATE community_waits SET {', '.join(f'{k} = ?' for k in updates)} WHERE game_id = ? AND seat = ?",
                (*updates.values(), game_id, seat),
            )
            return n > 0

    async def delete_waits(self, game_id: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM community_waits WHERE game_id = ?", (game_id,))
            await db.execute(
                "UPDATE community_votes SET status = 'cancelled', decision = 'ended'"
                " WHERE game_id = ? AND status = 'open'",
                (game_id,),
            )

    async def snooze(
        self, user_xid: int, until: int, *, game_id: int | None = None, guild_xid: int | None = None
    ) -> int:
        """Snooze the player's current waits (one game, or all on a server). Returns how many."""
        async with self.store.transaction() as db:
            return await db.execute(
                "UPDATE community_waits SET snoozed_until = ?, due_at = LEAST(COALESCE(due_at, ?), ?)"
                " WHERE user_xid = ? AND (CAST(? AS BIGINT) IS NULL OR game_id = ?)"
                " AND (CAST(? AS BIGINT) IS NULL OR guild_xid = ?)",
                (until, until, until, user_xid, game_id, game_id, guild_xid, guild_xid),
            )

    async def credit_downtime(self, down_from: int, down_to: int) -> int:
        """The bot was down in [down_from, down_to): no wait is charged for it; due times and open
        votes move on by the same time."""
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE community_votes SET closes_at = closes_at + ? WHERE status = 'open'", (down_to - down_from,)
            )
            await db.execute(  # the clocks' record: no bank ran then (migration 014)
                "INSERT INTO clock_downtime (since, until) VALUES (?, ?) ON CONFLICT (since) DO NOTHING",
                (down_from, down_to),
            )
            return await db.execute(
                "UPDATE community_waits SET credit_ms = credit_ms + (? - GREATEST(since, ?)),"
                " due_at = CASE WHEN due_at IS NULL THEN NULL ELSE due_at + (? - GREATEST(since, ?)) END,"
                " snoozed_until = CASE WHEN snoozed_until IS NULL THEN NULL"
                " ELSE snoozed_until + (? - GREATEST(since, ?)) END"
                " WHERE since < ? AND paused_since IS NULL",
                (down_to, down_from, down_to, down_from, down_to, down_from, down_to),
            )

    async def reschedule_guild(self, guild_xid: int, at: int) -> None:
        """Plan every wait of a server again (its settings changed)."""
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_waits SET due_at = ? WHERE guild_xid = ?", (at, guild_xid))

    async def reschedule_game(self, game_id: int, at: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_waits SET due_at = ? WHERE game_id = ?", (at, game_id))

    async def reschedule_user(self, user_xid: int, at: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_waits SET due_at = ? WHERE user_xid = ?", (at, user_xid))

    # -- privacy -----------------------------------------------------------------------------
    async def forget_user(self, user_xid: int) -> int:
        """Forget a player's waits (their seats are the AI's now) and vacations. Returns rows deleted."""
        total = 0
        async with self.store.transaction() as db:
            for sql in (
                "DELETE FROM community_waits WHERE user_xid = ?",
                "DELETE FROM community_away WHERE user_xid = ?",
                "DELETE FROM clock_aways WHERE user_xid = ?",
            ):
                total += await db.execute(sql, (user_xid,))
        return total


def wait_field_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(WaitRow))
