"""Every SQL statement of the community features (issue 5): waits, outbox, votes, undo proposals,
followers, away, preferences, settings and leagues (tables of migration 003).

Writes go through :meth:`bot.store.Store.transaction` (one writer at a time); reads use the shared
connection. Rows come back as plain dataclasses; JSON columns are decoded here. Time is always a
parameter (epoch ms, UTC); nothing here reads a clock.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.store import TableStore

WAIT_COLUMNS = (
    "game_id", "seat", "guild_xid", "channel_xid", "user_xid", "since", "since_version",
    "reminders_sent", "last_reminder_at", "snoozed_until", "credit_ms", "paused_since",
    "deadline_state", "state_at", "vote_version", "turn_notice", "last_notice", "due_at",
)
WAIT_UPDATABLE = frozenset(WAIT_COLUMNS) - {"game_id", "seat"}
OUTBOX_COLUMNS = (
    "id", "kind", "nonce", "game_id", "seat", "user_xid", "guild_xid", "channel_xid", "params",
    "created_at", "claimed_at", "claim_boot", "attempts", "status", "done_at", "message_xid",
)
VOTE_COLUMNS = ("game_id", "version", "seat", "user_xid", "voters", "opened_at", "closes_at", "status",
                "decision", "message_xid")
UNDO_COLUMNS = ("game_id", "version", "proposer_xid", "seat", "move", "voters", "created_at", "status",
                "message_xid", "channel_xid")
LEAGUE_COLUMNS = ("id", "guild_xid", "name", "kind", "mode", "rated", "forfeits", "abandoned", "created_by",
                  "created_at")
SEASON_COLUMNS = ("id", "league_id", "number", "starts_at", "ends_at")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


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
class OutboxRow:
    id: int
    kind: str
    nonce: str
    game_id: int | None
    seat: int | None
    user_xid: int | None
    guild_xid: int | None
    channel_xid: int | None
    params: dict[str, Any]
    created_at: int
    claimed_at: int
    claim_boot: str
    attempts: int
    status: str
    done_at: int | None
    message_xid: int | None


@dataclass(frozen=True)
class NewOutbox:
    """An outbox row to claim (insert) together with a wait update."""

    kind: str
    nonce: str
    game_id: int | None
    seat: int | None
    user_xid: int | None
    guild_xid: int | None
    channel_xid: int | None
    params: Mapping[str, Any]


@dataclass(frozen=True)
class VoteRow:
    game_id: int
    version: int
    seat: int
    user_xid: int | None
    voters: list[int]
    opened_at: int
    closes_at: int
    status: str
    decision: str | None
    message_xid: int | None


@dataclass(frozen=True)
class UndoRow:
    game_id: int
    version: int
    proposer_xid: int
    seat: int
    move: dict[str, Any]
    voters: list[int]
    created_at: int
    status: str
    message_xid: int | None
    channel_xid: int | None


@dataclass(frozen=True)
class AwayRow:
    guild_xid: int
    user_xid: int
    since: int
    until: int
    pauses_deadlines: bool


@dataclass(frozen=True)
class LeagueRow:
    id: int
    guild_xid: int
    name: str
    kind: str
    mode: str | None
    rated: bool
    forfeits: str
    abandoned: str
    created_by: int | None
    created_at: int


@dataclass(frozen=True)
class SeasonRow:
    id: int
    league_id: int
    number: int
    starts_at: int
    ends_at: int


@dataclass(frozen=True)
class LeagueGameRow:
    league_id: int
    season_id: int
    game_id: int
    finished_at: int
    outcome: list[dict[str, Any]]


@dataclass(frozen=True)
class GameStamp:
    """A game the reconcile pass looks at: id and when its awaited set last changed."""

    id: int
    awaiting_since: int


def _wait(row: Sequence[Any]) -> WaitRow:
    return WaitRow(*row)


def _outbox(row: Sequence[Any]) -> OutboxRow:
    values = list(row)
    values[8] = json.loads(values[8])
    return OutboxRow(*values)


def _vote(row: Sequence[Any]) -> VoteRow:
    values = list(row)
    values[4] = json.loads(values[4])
    return VoteRow(*values)


def _undo(row: Sequence[Any]) -> UndoRow:
    values = list(row)
    values[4] = json.loads(values[4])
    values[5] = json.loads(values[5])
    return UndoRow(*values)


def _league(row: Sequence[Any]) -> LeagueRow:
    values = list(row)
    values[5] = bool(values[5])
    return LeagueRow(*values)


class CommunityStore(TableStore):
    """The community tables of one open :class:`Store`."""

    # -- meta --------------------------------------------------------------------------------
    async def meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM community_meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # -- settings and preferences ------------------------------------------------------------
    async def settings(self, scope: str, scope_id: int) -> dict[str, Any]:
        row = await self._one("SELECT data FROM community_settings WHERE scope = ? AND scope_id = ?",
                              (scope, scope_id))
        return dict(json.loads(row[0])) if row else {}

    async def set_settings(self, scope: str, scope_id: int, data: Mapping[str, Any]) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_settings (scope, scope_id, data) VALUES (?, ?, ?)"
                " ON CONFLICT (scope, scope_id) DO UPDATE SET data = excluded.data",
                (scope, scope_id, _dumps(data)))

    async def prefs(self, user_xid: int) -> dict[str, Any]:
        row = await self._one("SELECT data FROM community_players WHERE user_xid = ?", (user_xid,))
        return dict(json.loads(row[0])) if row else {}

    async def set_prefs(self, user_xid: int, data: Mapping[str, Any]) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_players (user_xid, data) VALUES (?, ?)"
                " ON CONFLICT (user_xid) DO UPDATE SET data = excluded.data", (user_xid, _dumps(data)))

    # -- reading games (tables of 001, read only) ---------------------------------------------
    async def changed_games(self, after_at: int, after_id: int, limit: int) -> list[GameStamp]:
        """Active games whose awaited set changed after (after_at, after_id), oldest first.

        Uses the index ``games_by_status (status, awaiting_since)``.
        """
        rows = await self._all(
            "SELECT id, awaiting_since FROM games WHERE status = 'active' AND awaiting_since IS NOT NULL"
            " AND (awaiting_since > ? OR (awaiting_since = ? AND id > ?))"
            " ORDER BY awaiting_since, id LIMIT ?",
            (after_at, after_at, after_id, limit))
        return [GameStamp(int(r[0]), int(r[1])) for r in rows]

    async def last_move_of_seat(self, game_id: int, seat: int) -> tuple[int, int] | None:
        """(version, at) of the seat's newest live move, or None."""
        row = await self._one(
            "SELECT version, at FROM moves WHERE game_id = ? AND seat = ? AND undone_at IS NULL"
            " ORDER BY version DESC LIMIT 1", (game_id, seat))
        return (int(row[0]), int(row[1])) if row else None

    async def finished_games(self, guild_xid: int, kind: str, since: int, until: int) -> list[int]:
        """Ids of the server's finished or abandoned games of a kind that ended in [since, until)."""
        rows = await self._all(
            "SELECT id FROM games WHERE guild_xid = ? AND status IN ('finished', 'abandoned')"
            " AND kind = ? AND finished_at >= ? AND finished_at < ? ORDER BY finished_at, id",
            (guild_xid, kind, since, until))
        return [int(r[0]) for r in rows]

    # -- away --------------------------------------------------------------------------------
    async def away(self, guild_xid: int, user_xid: int) -> AwayRow | None:
        row = await self._one(
            "SELECT guild_xid, user_xid, since, until, pauses_deadlines FROM community_away"
            " WHERE guild_xid = ? AND user_xid = ?", (guild_xid, user_xid))
        return AwayRow(row[0], row[1], row[2], row[3], bool(row[4])) if row else None

    async def start_away(self, guild_xid: int, user_xid: int, *, since: int, until: int,
                         pauses_deadlines: bool) -> None:
        """Record the vacation; with paused deadlines, every wait of the player there stops its clock."""
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_away (guild_xid, user_xid, since, until, pauses_deadlines)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_xid, user_xid) DO UPDATE SET"
                " until = excluded.until", (guild_xid, user_xid, since, until, int(pauses_deadlines)))
            if pauses_deadlines:
                await db.execute(
                    "UPDATE community_waits SET paused_since = MAX(since, ?) WHERE guild_xid = ?"
                    " AND user_xid = ? AND paused_since IS NULL", (since, guild_xid, user_xid))
            await db.execute(
                "UPDATE community_waits SET due_at = ? WHERE guild_xid = ? AND user_xid = ?",
                (since, guild_xid, user_xid))

    async def end_away(self, guild_xid: int, user_xid: int, at: int) -> bool:
        """End a vacation: paused time is credited to each wait's deadline. False if none."""
        async with self.store.transaction() as db:
            cur = await db.execute("DELETE FROM community_away WHERE guild_xid = ? AND user_xid = ?",
                                   (guild_xid, user_xid))
            if cur.rowcount == 0:
                return False
            await db.execute(
                "UPDATE community_waits SET credit_ms = credit_ms + MAX(0, ? - paused_since),"
                " paused_since = NULL WHERE guild_xid = ? AND user_xid = ? AND paused_since IS NOT NULL",
                (at, guild_xid, user_xid))
            await db.execute(
                "UPDATE community_waits SET due_at = ? WHERE guild_xid = ? AND user_xid = ?",
                (at, guild_xid, user_xid))
        return True

    async def expired_aways(self, now: int, limit: int) -> list[AwayRow]:
        rows = await self._all(
            "SELECT guild_xid, user_xid, since, until, pauses_deadlines FROM community_away"
            " WHERE until <= ? ORDER BY until LIMIT ?", (now, limit))
        return [AwayRow(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]

    # -- waits -------------------------------------------------------------------------------
    async def waits_for_game(self, game_id: int) -> dict[int, WaitRow]:
        rows = await self._all(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE game_id = ?", (game_id,))
        return {int(r[1]): _wait(r) for r in rows}

    async def wait(self, game_id: int, seat: int) -> WaitRow | None:
        row = await self._one(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE game_id = ? AND seat = ?",
            (game_id, seat))
        return _wait(row) if row else None

    async def waits_for_user(self, user_xid: int, guild_xid: int | None = None) -> list[WaitRow]:
        rows = await self._all(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE user_xid = ?"
            " AND (? IS NULL OR guild_xid = ?) ORDER BY since", (user_xid, guild_xid, guild_xid))
        return [_wait(r) for r in rows]

    async def due_waits(self, now: int, limit: int) -> list[WaitRow]:
        """Waits with something possibly due, most overdue first (index ``community_waits_due``)."""
        rows = await self._all(
            f"SELECT {', '.join(WAIT_COLUMNS)} FROM community_waits WHERE due_at IS NOT NULL"
            " AND due_at <= ? ORDER BY due_at LIMIT ?", (now, limit))
        return [_wait(r) for r in rows]

    async def replace_waits(self, game_id: int, *, keep: Iterable[int], upserts: Iterable[WaitRow],
                            at: int) -> list[VoteRow]:
        """Make the game's waits exactly ``keep`` + ``upserts`` (seats); returns the open votes this
        cancelled (their seat is no longer awaited or its turn restarted)."""
        upserts = list(upserts)
        live = set(keep) | {w.seat for w in upserts}
        restarted = {w.seat for w in upserts}
        async with self.store.transaction() as db:
            async with db.execute(
                    f"SELECT {', '.join(VOTE_COLUMNS)} FROM community_votes WHERE game_id = ?"
                    " AND status = 'open'", (game_id,)) as cur:
                open_votes = [_vote(r) for r in await cur.fetchall()]
            cancelled = [v for v in open_votes if v.seat not in live or v.seat in restarted]
            for v in cancelled:
                await db.execute(
                    "UPDATE community_votes SET status = 'cancelled', decision = 'moved' WHERE game_id = ?"
                    " AND version = ? AND seat = ?", (v.game_id, v.version, v.seat))
            marks = ", ".join("?" for _ in live)
            if live:
                await db.execute(
                    f"DELETE FROM community_waits WHERE game_id = ? AND seat NOT IN ({marks})",
                    (game_id, *live))
            else:
                await db.execute("DELETE FROM community_waits WHERE game_id = ?", (game_id,))
            for w in upserts:
                await db.execute(
                    f"INSERT OR REPLACE INTO community_waits ({', '.join(WAIT_COLUMNS)})"
                    f" VALUES ({', '.join('?' for _ in WAIT_COLUMNS)})", w.values())
        del at
        return cancelled

    async def apply_plan(self, game_id: int, seat: int, *, expect: tuple[int, int | None],
                         updates: Mapping[str, Any], claims: Sequence[NewOutbox], at: int, boot: str,
                         open_vote: VoteRow | None = None) -> list[OutboxRow] | None:
        """Update one wait and claim its outbox rows in one transaction.

        ``expect`` is the (since_version, due_at) the plan was made from. None (nothing written) if
        the wait changed meanwhile (a move restarted it, or it is gone): it is planned again later.
        """
        bad = set(updates) - WAIT_UPDATABLE
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        async with self.store.transaction() as db:
            sets = ", ".join(f"{k} = ?" for k in updates) or "due_at = due_at"
            cur = await db.execute(
                f"UPDATE community_waits SET {sets} WHERE game_id = ? AND seat = ? AND since_version = ?"
                " AND due_at IS ?", (*updates.values(), game_id, seat, expect[0], expect[1]))
            if cur.rowcount == 0:
                return None
            if open_vote is not None:
                await db.execute(
                    f"INSERT OR REPLACE INTO community_votes ({', '.join(VOTE_COLUMNS)})"
                    f" VALUES ({', '.join('?' for _ in VOTE_COLUMNS)})",
                    (open_vote.game_id, open_vote.version, open_vote.seat, open_vote.user_xid,
                     _dumps(open_vote.voters), open_vote.opened_at, open_vote.closes_at, open_vote.status,
                     open_vote.decision, open_vote.message_xid))
            return await self._claim(db, claims, at, boot)

    async def _claim(self, db: Any, claims: Sequence[NewOutbox], at: int, boot: str,
                     status: str = "claimed") -> list[OutboxRow]:
        out = []
        for c in claims:
            cur = await db.execute(
                "INSERT INTO community_outbox (kind, nonce, game_id, seat, user_xid, guild_xid, channel_xid,"
                " params, created_at, claimed_at, claim_boot, status, attempts)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (c.kind, c.nonce, c.game_id, c.seat, c.user_xid, c.guild_xid, c.channel_xid,
                 _dumps(c.params), at, at, boot, status, int(status == "claimed")))
            out.append(OutboxRow(int(cur.lastrowid or 0), c.kind, c.nonce, c.game_id, c.seat, c.user_xid,
                                 c.guild_xid, c.channel_xid, dict(c.params), at, at, boot,
                                 int(status == "claimed"), status, None, None))
        return out

    async def claim(self, claims: Sequence[NewOutbox], at: int, boot: str) -> list[OutboxRow]:
        """Claim outbox rows on their own, to be carried out by the caller now."""
        async with self.store.transaction() as db:
            return await self._claim(db, claims, at, boot)

    async def queue(self, claims: Sequence[NewOutbox], at: int) -> list[OutboxRow]:
        """Record outbox rows for the next loop pass to hand out (listeners, outside a pass)."""
        async with self.store.transaction() as db:
            return await self._claim(db, claims, at, "", status="queued")

    async def update_wait(self, game_id: int, seat: int, **updates: Any) -> bool:
        bad = set(updates) - WAIT_UPDATABLE
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if not updates:
            return False
        async with self.store.transaction() as db:
            cur = await db.execute(
                f"UPDATE community_waits SET {', '.join(f'{k} = ?' for k in updates)}"
                " WHERE game_id = ? AND seat = ?", (*updates.values(), game_id, seat))
            return cur.rowcount > 0

    async def delete_waits(self, game_id: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM community_waits WHERE game_id = ?", (game_id,))
            await db.execute("UPDATE community_votes SET status = 'cancelled', decision = 'ended'"
                             " WHERE game_id = ? AND status = 'open'", (game_id,))

    async def snooze(self, user_xid: int, until: int, *, game_id: int | None = None,
                     guild_xid: int | None = None) -> int:
        """Snooze the player's current waits (one game, or all on a server). Returns how many."""
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE community_waits SET snoozed_until = ?, due_at = MIN(COALESCE(due_at, ?), ?)"
                " WHERE user_xid = ? AND (? IS NULL OR game_id = ?) AND (? IS NULL OR guild_xid = ?)",
                (until, until, until, user_xid, game_id, game_id, guild_xid, guild_xid))
            return int(cur.rowcount)

    async def credit_downtime(self, down_from: int, down_to: int) -> int:
        """The bot was down in [down_from, down_to): no wait is charged for it; due times and open
        votes move on by the same time."""
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_votes SET closes_at = closes_at + ? WHERE status = 'open'",
                             (down_to - down_from,))
            cur = await db.execute(
                "UPDATE community_waits SET credit_ms = credit_ms + (? - MAX(since, ?)),"
                " due_at = CASE WHEN due_at IS NULL THEN NULL ELSE due_at + (? - MAX(since, ?)) END,"
                " snoozed_until = CASE WHEN snoozed_until IS NULL THEN NULL"
                " ELSE snoozed_until + (? - MAX(since, ?)) END"
                " WHERE since < ? AND paused_since IS NULL",
                (down_to, down_from, down_to, down_from, down_to, down_from, down_to))
            return int(cur.rowcount)

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

    # -- outbox ------------------------------------------------------------------------------
    async def outbox(self, outbox_id: int) -> OutboxRow | None:
        row = await self._one(f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE id = ?",
                              (outbox_id,))
        return _outbox(row) if row else None

    async def stale_claims(self, boot: str, older_than: int, limit: int) -> list[OutboxRow]:
        """Rows to hand out: queued ones, and claims never confirmed (from an earlier run, or from
        this run but too old)."""
        rows = await self._all(
            f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE status IN ('queued', 'claimed')"
            " AND (status = 'queued' OR claim_boot != ? OR claimed_at <= ?) ORDER BY claimed_at, id LIMIT ?",
            (boot, older_than, limit))
        return [_outbox(r) for r in rows]

    async def reclaim(self, outbox_id: int, *, boot: str, at: int, max_attempts: int) -> OutboxRow | None:
        """Hand out a queued row, or offer a stale claim again (same nonce); None when it has been
        tried too often (then it is marked failed)."""
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE community_outbox SET status = 'failed', done_at = ? WHERE id = ?"
                " AND status = 'claimed' AND attempts >= ?", (at, outbox_id, max_attempts))
            cur = await db.execute(
                "UPDATE community_outbox SET claim_boot = ?, claimed_at = ?, attempts = attempts + 1,"
                " status = 'claimed' WHERE id = ? AND status IN ('queued', 'claimed')",
                (boot, at, outbox_id))
            if cur.rowcount == 0:
                return None
        return await self.outbox(outbox_id)

    async def finish_outbox(self, outbox_id: int, *, status: str, at: int,
                            message_xid: int | None = None) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE community_outbox SET status = ?, done_at = ?, message_xid = COALESCE(?, message_xid)"
                " WHERE id = ? AND status IN ('queued', 'claimed')", (status, at, message_xid, outbox_id))
            return cur.rowcount > 0

    async def recent_reminders(self, guild_xid: int | None, user_xid: int, since: int) -> list[int]:
        """When reminders (channel mentions) went to this player on this server since ``since``."""
        rows = await self._all(
            "SELECT created_at FROM community_outbox WHERE guild_xid IS ? AND user_xid = ?"
            " AND kind = 'reminder' AND created_at > ? AND status != 'failed' ORDER BY created_at",
            (guild_xid, user_xid, since))
        return [int(r[0]) for r in rows]

    async def outbox_for_game(self, game_id: int) -> list[OutboxRow]:
        rows = await self._all(
            f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE game_id = ? ORDER BY id",
            (game_id,))
        return [_outbox(r) for r in rows]

    # -- votes -------------------------------------------------------------------------------
    async def vote(self, game_id: int, version: int, seat: int) -> VoteRow | None:
        row = await self._one(
            f"SELECT {', '.join(VOTE_COLUMNS)} FROM community_votes WHERE game_id = ? AND version = ?"
            " AND seat = ?", (game_id, version, seat))
        return _vote(row) if row else None

    async def ballots(self, game_id: int, version: int, seat: int) -> dict[int, str]:
        rows = await self._all(
            "SELECT voter_xid, choice FROM community_ballots WHERE game_id = ? AND version = ? AND seat = ?"
            " ORDER BY at", (game_id, version, seat))
        return {int(r[0]): str(r[1]) for r in rows}

    async def cast_ballot(self, game_id: int, version: int, seat: int, voter_xid: int, choice: str,
                          at: int) -> bool:
        """Record (or change) a ballot while the vote is open. False if it is not open."""
        async with self.store.transaction() as db:
            async with db.execute(
                    "SELECT status FROM community_votes WHERE game_id = ? AND version = ? AND seat = ?",
                    (game_id, version, seat)) as cur:
                row = await cur.fetchone()
            if row is None or row[0] != "open":
                return False
            await db.execute(
                "INSERT INTO community_ballots (game_id, version, seat, voter_xid, choice, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, version, seat, voter_xid)"
                " DO UPDATE SET choice = excluded.choice, at = excluded.at",
                (game_id, version, seat, voter_xid, choice, at))
        return True

    async def decide_vote(self, vote: VoteRow, *, decision: str, wait_updates: Mapping[str, Any],
                          claims: Sequence[NewOutbox], at: int, boot: str) -> list[OutboxRow] | None:
        """Close an open vote with its decision, update the late seat's wait and claim the outcome's
        actions, all at once. None if the vote was no longer open (someone else closed it)."""
        bad = set(wait_updates) - WAIT_UPDATABLE
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE community_votes SET status = 'decided', decision = ? WHERE game_id = ?"
                " AND version = ? AND seat = ? AND status = 'open'",
                (decision, vote.game_id, vote.version, vote.seat))
            if cur.rowcount == 0:
                return None
            if wait_updates:
                await db.execute(
                    f"UPDATE community_waits SET {', '.join(f'{k} = ?' for k in wait_updates)}"
                    " WHERE game_id = ? AND seat = ? AND vote_version = ?",
                    (*wait_updates.values(), vote.game_id, vote.seat, vote.version))
            return await self._claim(db, claims, at, boot)

    async def cancel_vote(self, vote: VoteRow, reason: str) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE community_votes SET status = 'cancelled', decision = ? WHERE game_id = ?"
                " AND version = ? AND seat = ? AND status = 'open'",
                (reason, vote.game_id, vote.version, vote.seat))
            return cur.rowcount > 0

    async def due_votes(self, now: int, limit: int) -> list[VoteRow]:
        rows = await self._all(
            f"SELECT {', '.join(VOTE_COLUMNS)} FROM community_votes WHERE status = 'open' AND closes_at <= ?"
            " ORDER BY closes_at LIMIT ?", (now, limit))
        return [_vote(r) for r in rows]

    async def set_vote_message(self, game_id: int, version: int, seat: int, message_xid: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_votes SET message_xid = ? WHERE game_id = ? AND version = ?"
                             " AND seat = ?", (message_xid, game_id, version, seat))

    # -- undo proposals ----------------------------------------------------------------------
    async def create_undo(self, row: UndoRow) -> bool:
        """A new proposal; False if one about that version exists already."""
        async with self.store.transaction() as db:
            cur = await db.execute(
                f"INSERT OR IGNORE INTO community_undo ({', '.join(UNDO_COLUMNS)})"
                f" VALUES ({', '.join('?' for _ in UNDO_COLUMNS)})",
                (row.game_id, row.version, row.proposer_xid, row.seat, _dumps(row.move), _dumps(row.voters),
                 row.created_at, row.status, row.message_xid, row.channel_xid))
            return cur.rowcount > 0

    async def undo(self, game_id: int, version: int) -> UndoRow | None:
        row = await self._one(f"SELECT {', '.join(UNDO_COLUMNS)} FROM community_undo WHERE game_id = ?"
                              " AND version = ?", (game_id, version))
        return _undo(row) if row else None

    async def undo_answers(self, game_id: int, version: int) -> dict[int, bool]:
        rows = await self._all("SELECT voter_xid, accepted FROM community_undo_answers WHERE game_id = ?"
                               " AND version = ?", (game_id, version))
        return {int(r[0]): bool(r[1]) for r in rows}

    async def answer_undo(self, game_id: int, version: int, voter_xid: int, accepted: bool,
                          at: int) -> bool:
        async with self.store.transaction() as db:
            async with db.execute("SELECT status FROM community_undo WHERE game_id = ? AND version = ?",
                                  (game_id, version)) as cur:
                row = await cur.fetchone()
            if row is None or row[0] != "open":
                return False
            await db.execute(
                "INSERT OR REPLACE INTO community_undo_answers (game_id, version, voter_xid, accepted, at)"
                " VALUES (?, ?, ?, ?, ?)", (game_id, version, voter_xid, int(accepted), at))
        return True

    async def set_undo_status(self, game_id: int, version: int, status: str, *,
                              only_if_open: bool = True) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE community_undo SET status = ? WHERE game_id = ? AND version = ?"
                + (" AND status = 'open'" if only_if_open else ""), (status, game_id, version))
            return cur.rowcount > 0

    async def set_undo_message(self, game_id: int, version: int, channel_xid: int | None,
                               message_xid: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_undo SET message_xid = ?, channel_xid = ? WHERE game_id = ?"
                             " AND version = ?", (message_xid, channel_xid, game_id, version))

    async def expire_undos(self, game_id: int, below_version: int) -> list[UndoRow]:
        """Open proposals of older versions become expired (the game moved on); returns them."""
        if await self._one("SELECT 1 FROM community_undo WHERE game_id = ? AND status = 'open'"
                           " AND version < ?", (game_id, below_version)) is None:
            return []  # the usual case after a move: no write at all
        async with self.store.transaction() as db:
            async with db.execute(
                    f"SELECT {', '.join(UNDO_COLUMNS)} FROM community_undo WHERE game_id = ?"
                    " AND status = 'open' AND version < ?", (game_id, below_version)) as cur:
                rows = [_undo(r) for r in await cur.fetchall()]
            await db.execute("UPDATE community_undo SET status = 'expired' WHERE game_id = ?"
                             " AND status = 'open' AND version < ?", (game_id, below_version))
        return rows

    # -- followers ---------------------------------------------------------------------------
    async def follow(self, game_id: int, user_xid: int, at: int) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO community_followers (game_id, user_xid, since) VALUES (?, ?, ?)",
                (game_id, user_xid, at))
            return cur.rowcount > 0

    async def unfollow(self, game_id: int, user_xid: int) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute("DELETE FROM community_followers WHERE game_id = ? AND user_xid = ?",
                                   (game_id, user_xid))
            return cur.rowcount > 0

    async def followers(self, game_id: int) -> list[int]:
        rows = await self._all("SELECT user_xid FROM community_followers WHERE game_id = ? ORDER BY since",
                               (game_id,))
        return [int(r[0]) for r in rows]

    # -- leagues -----------------------------------------------------------------------------
    async def create_league(self, *, guild_xid: int, name: str, kind: str, mode: str | None, rated: bool,
                            forfeits: str, abandoned: str, created_by: int | None, at: int,
                            season_ends: int) -> LeagueRow | None:
        """A league with its first season starting now. None if the server has one of that name."""
        async with self.store.transaction() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO community_leagues (guild_xid, name, kind, mode, rated, forfeits,"
                " abandoned, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_xid, name, kind, mode, int(rated), forfeits, abandoned, created_by, at))
            if cur.rowcount == 0:
                return None
            league_id = int(cur.lastrowid or 0)
            await db.execute(
                "INSERT INTO community_seasons (league_id, number, starts_at, ends_at) VALUES (?, 1, ?, ?)",
                (league_id, at, season_ends))
        return await self.league(league_id)

    async def league(self, league_id: int) -> LeagueRow | None:
        row = await self._one(f"SELECT {', '.join(LEAGUE_COLUMNS)} FROM community_leagues WHERE id = ?",
                              (league_id,))
        return _league(row) if row else None

    async def league_by_name(self, guild_xid: int, name: str) -> LeagueRow | None:
        row = await self._one(
            f"SELECT {', '.join(LEAGUE_COLUMNS)} FROM community_leagues WHERE guild_xid = ?"
            " AND name = ? COLLATE NOCASE", (guild_xid, name))
        return _league(row) if row else None

    async def leagues(self, guild_xid: int, kind: str | None = None) -> list[LeagueRow]:
        rows = await self._all(
            f"SELECT {', '.join(LEAGUE_COLUMNS)} FROM community_leagues WHERE guild_xid = ?"
            " AND (? IS NULL OR kind = ?) ORDER BY name COLLATE NOCASE", (guild_xid, kind, kind))
        return [_league(r) for r in rows]

    async def update_league(self, league_id: int, **fields_: Any) -> None:
        allowed = {"rated", "forfeits", "abandoned"}
        bad = set(fields_) - allowed
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if not fields_:
            return
        values = [int(v) if isinstance(v, bool) else v for v in fields_.values()]
        async with self.store.transaction() as db:
            await db.execute(
                f"UPDATE community_leagues SET {', '.join(f'{k} = ?' for k in fields_)} WHERE id = ?",
                (*values, league_id))

    async def seasons(self, league_id: int) -> list[SeasonRow]:
        rows = await self._all(
            f"SELECT {', '.join(SEASON_COLUMNS)} FROM community_seasons WHERE league_id = ? ORDER BY number",
            (league_id,))
        return [SeasonRow(*r) for r in rows]

    async def add_season(self, league_id: int, *, starts_at: int, ends_at: int,
                         close_running_at: int | None) -> SeasonRow:
        """Open the next season; a season still running ends at ``close_running_at``."""
        async with self.store.transaction() as db:
            if close_running_at is not None:
                await db.execute(
                    "UPDATE community_seasons SET ends_at = ? WHERE league_id = ? AND ends_at > ?"
                    " AND starts_at <= ?", (close_running_at, league_id, close_running_at, close_running_at))
            async with db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM community_seasons"
                                  " WHERE league_id = ?", (league_id,)) as cur:
                row = await cur.fetchone()
            number = int(row[0]) if row else 1
            cur2 = await db.execute(
                "INSERT INTO community_seasons (league_id, number, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                (league_id, number, starts_at, ends_at))
            season_id = int(cur2.lastrowid or 0)
        return SeasonRow(season_id, league_id, number, starts_at, ends_at)

    async def add_member(self, league_id: int, user_xid: int, name: str, at: int) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO community_league_members (league_id, user_xid, name, joined_at)"
                " VALUES (?, ?, ?, ?)", (league_id, user_xid, name, at))
            return cur.rowcount > 0

    async def remove_member(self, league_id: int, user_xid: int) -> bool:
        async with self.store.transaction() as db:
            cur = await db.execute(
                "DELETE FROM community_league_members WHERE league_id = ? AND user_xid = ?",
                (league_id, user_xid))
            return cur.rowcount > 0

    async def members(self, league_id: int) -> dict[int, str]:
        rows = await self._all(
            "SELECT user_xid, name FROM community_league_members WHERE league_id = ? ORDER BY joined_at",
            (league_id,))
        return {int(r[0]): str(r[1]) for r in rows}

    async def record_league_game(self, row: LeagueGameRow) -> bool:
        """Count a game once per league. False if it was already counted."""
        async with self.store.transaction() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO community_league_games (league_id, season_id, game_id, finished_at,"
                " outcome) VALUES (?, ?, ?, ?, ?)",
                (row.league_id, row.season_id, row.game_id, row.finished_at, _dumps(row.outcome)))
            return cur.rowcount > 0

    async def league_games(self, league_id: int, season_id: int | None = None) -> list[LeagueGameRow]:
        """Counted games in finishing order (the order ratings are computed in)."""
        rows = await self._all(
            "SELECT league_id, season_id, game_id, finished_at, outcome FROM community_league_games"
            " WHERE league_id = ? AND (? IS NULL OR season_id = ?) ORDER BY finished_at, game_id",
            (league_id, season_id, season_id))
        return [LeagueGameRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def counted_game_ids(self, league_id: int) -> set[int]:
        rows = await self._all("SELECT game_id FROM community_league_games WHERE league_id = ?", (league_id,))
        return {int(r[0]) for r in rows}

    # -- privacy -----------------------------------------------------------------------------
    async def delete_user_data(self, user_xid: int) -> int:
        """Forget a player in the community tables (preferences, away, follows, waits, memberships)."""
        total = 0
        async with self.store.transaction() as db:
            for sql in (
                "DELETE FROM community_players WHERE user_xid = ?",
                "DELETE FROM community_away WHERE user_xid = ?",
                "DELETE FROM community_followers WHERE user_xid = ?",
                "DELETE FROM community_waits WHERE user_xid = ?",
                "DELETE FROM community_league_members WHERE user_xid = ?",
                "UPDATE community_outbox SET user_xid = NULL WHERE user_xid = ?",
                "UPDATE community_votes SET user_xid = NULL WHERE user_xid = ?",
                "DELETE FROM community_ballots WHERE voter_xid = ?",
                "DELETE FROM community_undo_answers WHERE voter_xid = ?",
            ):
                cur = await db.execute(sql, (user_xid,))
                total += max(0, int(cur.rowcount))
        return total


def wait_field_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(WaitRow))
