"""The community outbox (migrations 003, 008): every reminder, DM, vote post or edit and AI move, recorded
("claimed") before it is sent and confirmed after, with a nonce Discord refuses to post twice.

A claim is a lease: its row carries the owner (``claim_boot``, the process run) and ``lease_until``.
Until then nobody else touches it; after it, any process may take it over (:meth:`OutboxStore.take_due`,
a compare-and-set on the owner and lease it read), with the same nonce, so with several processes on
one database exactly one sends each action, and a process killed mid-send is taken over."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.store import LEASE_MS, TableStore
from bot.store.community.common import drop_id, dumps, rewrite_json
from bot.store.engine import POSTGRES, SQLITE, Tx

OUTBOX_COLUMNS = (
    "id", "kind", "nonce", "game_id", "seat", "user_xid", "guild_xid", "channel_xid", "params",
    "created_at", "claimed_at", "claim_boot", "attempts", "status", "done_at", "message_xid", "lease_until",
)
PERSONAL_COLUMNS = ("community_outbox.user_xid", "community_outbox.params")
"""Columns of this module's table that can hold a player's id (params: the voters of a vote)."""


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
    lease_until: int = 0


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


def _outbox(row: Sequence[Any]) -> OutboxRow:
    values = list(row)
    values[8] = json.loads(values[8])
    return OutboxRow(*values)


async def claim_rows(db: Tx, claims: Sequence[NewOutbox], at: int, boot: str,
                     status: str = "claimed", lease_ms: int = LEASE_MS) -> list[OutboxRow]:
    """Insert outbox rows inside the caller's transaction (with a wait update, a vote decision...);
    a claim is ``boot``'s until ``at + lease_ms``, a queued row nobody's."""
    out = []
    lease = at + lease_ms if status == "claimed" else 0
    for c in claims:
        row = await db.fetch_one(
            "INSERT INTO community_outbox (kind, nonce, game_id, seat, user_xid, guild_xid, channel_xid,"
            " params, created_at, claimed_at, claim_boot, status, attempts, lease_until)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (c.kind, c.nonce, c.game_id, c.seat, c.user_xid, c.guild_xid, c.channel_xid,
             dumps(c.params), at, at, boot, status, int(status == "claimed"), lease))
        assert row is not None
        out.append(OutboxRow(int(row[0]), c.kind, c.nonce, c.game_id, c.seat, c.user_xid,
                             c.guild_xid, c.channel_xid, dict(c.params), at, at, boot,
                             int(status == "claimed"), status, None, None, lease))
    return out


class OutboxStore(TableStore):
    """The outbox table of one open :class:`bot.store.Store`."""

    async def claim(self, claims: Sequence[NewOutbox], at: int, boot: str) -> list[OutboxRow]:
        """Claim outbox rows on their own, to be carried out by the caller now."""
        async with self.store.transaction() as db:
            return await claim_rows(db, claims, at, boot, lease_ms=self.store.lease_ms)

    async def queue(self, claims: Sequence[NewOutbox], at: int) -> list[OutboxRow]:
        """Record outbox rows for the next loop pass to hand out (listeners, outside a pass)."""
        async with self.store.transaction() as db:
            return await claim_rows(db, claims, at, "", status="queued")

    async def hand_over(self, owner: str) -> int:
        """A graceful stop: the claims of ``owner`` not yet confirmed end now (:meth:`take_due` offers them
        to the next taker at once, with the same nonce); how many."""
        async with self.store.transaction() as db:
            return await db.execute("UPDATE community_outbox SET lease_until = 0"
                                    " WHERE status = 'claimed' AND claim_boot = ?", (owner,))

    async def outbox(self, outbox_id: int) -> OutboxRow | None:
        row = await self._one(f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE id = ?",
                              (outbox_id,))
        return _outbox(row) if row else None

    async def take_due(self, owner: str, now: int, limit: int, *, max_attempts: int,
                       lease_ms: int = LEASE_MS) -> list[OutboxRow]:
        """Take the rows nobody holds: queued ones, and claims whose lease ran out (their owner died
        or gave up; offered again with the same nonce). Each is taken by a compare-and-set on the
        owner and lease it was read with, so two processes never take the same row; on PostgreSQL
        the rows are read ``FOR UPDATE SKIP LOCKED``. On SQLite, where the lock file allows one process,
        another run's claims are taken at once (that run is over). A claim tried ``max_attempts`` times
        is given up (status 'failed') instead."""
        taken: list[OutboxRow] = []
        async with self.store.transaction() as db:
            lock = " FOR UPDATE SKIP LOCKED" if db.dialect == POSTGRES else ""
            # A SQLite file has one process (its lock file): another run's claims are a dead run's.
            exclusive = db.dialect == SQLITE
            others = " OR claim_boot != ?" if exclusive else ""
            rows = [_outbox(r) for r in await db.fetch_all(
                f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE status IN ('queued', 'claimed')"
                f" AND (status = 'queued' OR lease_until <= ?{others}) ORDER BY claimed_at, id LIMIT ?{lock}",
                (now, owner, limit) if exclusive else (now, limit))]
            for row in rows:
                same = (row.id, row.status, row.claim_boot, row.lease_until)
                where = " WHERE id = ? AND status = ? AND claim_boot = ? AND lease_until = ?"
                if row.status == "claimed" and row.attempts >= max_attempts:
                    await db.execute(f"UPDATE community_outbox SET status = 'failed', done_at = ?{where}",
                                     (now, *same))
                    continue
                changed = await db.execute(
                    "UPDATE community_outbox SET claim_boot = ?, claimed_at = ?, lease_until = ?,"
                    f" attempts = attempts + 1, status = 'claimed'{where}", (owner, now, now + lease_ms, *same))
                if changed == 1:
                    taken.append(replace(row, claim_boot=owner, claimed_at=now, lease_until=now + lease_ms,
                                         attempts=row.attempts + 1, status="claimed"))
        return taken

    async def finish_outbox(self, outbox_id: int, *, status: str, at: int,
                            message_xid: int | None = None) -> bool:
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE community_outbox SET status = ?, done_at = ?, message_xid = COALESCE(?, message_xid)"
                " WHERE id = ? AND status IN ('queued', 'claimed')", (status, at, message_xid, outbox_id))
            return n > 0

    async def recent_reminders(self, guild_xid: int | None, user_xid: int, since: int) -> list[int]:
        """When reminders (channel mentions) went to this player on this server since ``since``."""
        rows = await self._all(
            "SELECT created_at FROM community_outbox WHERE guild_xid IS NOT DISTINCT FROM ? AND user_xid = ?"
            " AND kind = 'reminder' AND created_at > ? AND status != 'failed' ORDER BY created_at",
            (guild_xid, user_xid, since))
        return [int(r[0]) for r in rows]

    async def outbox_for_game(self, game_id: int) -> list[OutboxRow]:
        rows = await self._all(
            f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE game_id = ? ORDER BY id",
            (game_id,))
        return [_outbox(r) for r in rows]

    async def forget_user(self, user_xid: int, at: int) -> int:
        """Forget a player: rows addressed to them lose the id (and those not sent yet never will
        be); the voters listed in a vote's parameters lose it too. Returns rows changed."""
        async with self.store.transaction() as db:
            addressed = {(int(r[0]),) for r in await db.fetch_all(
                "SELECT id FROM community_outbox WHERE user_xid = ?", (user_xid,))}
            await db.execute("UPDATE community_outbox SET status = 'skipped', done_at = ? WHERE user_xid = ?"
                             " AND status IN ('queued', 'claimed')", (at, user_xid))
            await db.execute("UPDATE community_outbox SET user_xid = NULL WHERE user_xid = ?", (user_xid,))
            rewritten = await rewrite_json(db, "community_outbox", ("id",), "params", user_xid,
                                           lambda value: drop_id(value, user_xid))
        return len(addressed | rewritten)
