"""The community outbox (migration 003): every reminder, DM, vote post or edit and AI move, recorded
("claimed") before it is sent and confirmed after, with a nonce Discord refuses to post twice."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import TableStore
from bot.store.community.common import drop_id, dumps, rewrite_json
from bot.store.engine import Tx

OUTBOX_COLUMNS = (
    "id", "kind", "nonce", "game_id", "seat", "user_xid", "guild_xid", "channel_xid", "params",
    "created_at", "claimed_at", "claim_boot", "attempts", "status", "done_at", "message_xid",
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
                     status: str = "claimed") -> list[OutboxRow]:
    """Insert outbox rows inside the caller's transaction (with a wait update, a vote decision...)."""
    out = []
    for c in claims:
        row = await db.fetch_one(
            "INSERT INTO community_outbox (kind, nonce, game_id, seat, user_xid, guild_xid, channel_xid,"
            " params, created_at, claimed_at, claim_boot, status, attempts)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (c.kind, c.nonce, c.game_id, c.seat, c.user_xid, c.guild_xid, c.channel_xid,
             dumps(c.params), at, at, boot, status, int(status == "claimed")))
        assert row is not None
        out.append(OutboxRow(int(row[0]), c.kind, c.nonce, c.game_id, c.seat, c.user_xid,
                             c.guild_xid, c.channel_xid, dict(c.params), at, at, boot,
                             int(status == "claimed"), status, None, None))
    return out


class OutboxStore(TableStore):
    """The outbox table of one open :class:`bot.store.Store`."""

    async def claim(self, claims: Sequence[NewOutbox], at: int, boot: str) -> list[OutboxRow]:
        """Claim outbox rows on their own, to be carried out by the caller now."""
        async with self.store.transaction() as db:
            return await claim_rows(db, claims, at, boot)

    async def queue(self, claims: Sequence[NewOutbox], at: int) -> list[OutboxRow]:
        """Record outbox rows for the next loop pass to hand out (listeners, outside a pass)."""
        async with self.store.transaction() as db:
            return await claim_rows(db, claims, at, "", status="queued")

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
            n = await db.execute(
                "UPDATE community_outbox SET claim_boot = ?, claimed_at = ?, attempts = attempts + 1,"
                " status = 'claimed' WHERE id = ? AND status IN ('queued', 'claimed')",
                (boot, at, outbox_id))
            if n == 0:
                return None
        return await self.outbox(outbox_id)

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
