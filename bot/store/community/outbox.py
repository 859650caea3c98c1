"""The community outbox (migrations 003, 008): every reminder, DM, vote post or edit and AI move, recorded
("claimed") before it is sent and confirmed after, with a nonce Discord refuses to post twice.

A claim is a lease: its row carries the owner (``claim_boot``, the process run) and ``lease_until``.
Until then nobody else touches it; after it, any process may take it over (:meth:`OutboxStore.take_due`,
a compare-and-set on the owner and lease it read), with the same nonce, so with several processes on
one database exactly one sends each action, and a process killed mid-send is taken over."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import LEASE_MS, TableStore
from bot.store.claims import take_due
from bot.store.community.common import drop_id, dumps, rewrite_json
from bot.store.engine import Tx

OUTBOX_COLUMNS = (
    "id",
    "kind",
    "nonce",
    "game_id",
    "seat",
    "user_xid",
    "guild_xid",
    "channel_xid",
    "params",
    "created_at",
    "claimed_at",
    "claim_boot",
    "attempts",
    "status",
    "done_at",
    "message_xid",
    "lease_until",
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


async def claim_rows(
    db: Tx, claims: Sequence[NewOutbox], at: int, boot: str, status: str = "claimed", lease_ms: int = LEASE_MS
) -> list[OutboxRow]:
    """Insert outbox rows inside the caller's transaction (with a wait update, a vote decision...);
    a claim is ``boot``'s until ``at + lease_ms``, a queued row nobody's."""
    out = []
    lease = at + lease_ms if status == "claimed" else 0
    for c in claims:
        row = await db.fetch_one(
            "INSERT INTO community_outbox (kind, nonce, game_id, seat, user_xid, guild_xid, channel_xid,"
            " params, created_at, claimed_at, claim_boot, status, attempts, lease_until)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                c.kind,
                c.nonce,
                c.game_id,
                c.seat,
                c.user_xid,
                c.guild_xid,
                c.channel_xid,
                dumps(c.params),
                at,
                at,
                boot,
                status,
                int(status == "claimed"),
                lease,
            ),
        )
        assert row is not None
        out.append(
            OutboxRow(
                int(row[0]),
                c.kind,
                c.nonce,
                c.game_id,
                c.seat,
                c.user_xid,
                c.guild_xid,
                c.channel_xid,
                dict(c.params),
                at,
                at,
                boot,
                int(status == "claimed"),
                status,
                None,
                None,
                lease,
            )
        )
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
            return await db.execute(
                "UPDATE community_outbox SET lease_until = 0 WHERE status = 'claimed' AND claim_boot = ?", (owner,)
            )

    async def outbox(self, outbox_id: int) -> OutboxRow | None:
        row = await self._one(f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE id = ?", (outbox_id,))
        return _outbox(row) if row else None

    async def take_due(
        self, owner: str, now: int, limit: int, *, max_attempts: int, lease_ms: int = LEASE_MS
    ) -> list[OutboxRow]:
        """Take the rows nobody holds, each with a lease (:func:`bot.store.claims.take_due`): queued ones,
        and claims whose lease ran out (offered again with the same nonce), the oldest claims first."""
        async with self.store.transaction() as db:
            return await take_due(
                db,
                "community_outbox",
                OUTBOX_COLUMNS,
                _outbox,
                owner=owner,
                now=now,
                limit=limit,
                max_attempts=max_attempts,
                lease_ms=lease_ms,
                order="claimed_at, id",
                stamp="claimed_at",
            )

    async def finish_outbox(self, outbox_id: int, *, status: str, at: int, message_xid: int | None = None) -> bool:
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE community_outbox SET status = ?, done_at = ?, message_xid = COALESCE(?, message_xid)"
                " WHERE id = ? AND status IN ('queued', 'claimed')",
                (status, at, message_xid, outbox_id),
            )
            return n > 0

    async def recent_reminders(self, guild_xid: int | None, user_xid: int, since: int) -> list[int]:
        """When reminders (channel mentions) went to this player on this server since ``since``."""
        rows = await self._all(
            "SELECT created_at FROM community_outbox WHERE guild_xid IS NOT DISTINCT FROM ? AND user_xid = ?"
            " AND kind = 'reminder' AND created_at > ? AND status != 'failed' ORDER BY created_at",
            (guild_xid, user_xid, since),
        )
        return [int(r[0]) for r in rows]

    async def outbox_for_game(self, game_id: int) -> list[OutboxRow]:
        rows = await self._all(
            f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM community_outbox WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [_outbox(r) for r in rows]

    async def forget_user(self, user_xid: int, at: int) -> int:
        """Forget a player: rows addressed to them lose the id (and those not sent yet never will
        be); the voters listed in a vote's parameters lose it too. Returns rows changed."""
        async with self.store.transaction() as db:
            addressed = {
                (int(r[0]),)
                for r in await db.fetch_all("SELECT id FROM community_outbox WHERE user_xid = ?", (user_xid,))
            }
            await db.execute(
                "UPDATE community_outbox SET status = 'skipped', done_at = ? WHERE user_xid = ?"
                " AND status IN ('queued', 'claimed')",
                (at, user_xid),
            )
            await db.execute("UPDATE community_outbox SET user_xid = NULL WHERE user_xid = ?", (user_xid,))
            rewritten = await rewrite_json(
                db, "community_outbox", ("id",), "params", user_xid, lambda value: drop_id(value, user_xid)
            )
        return len(addressed | rewritten)
