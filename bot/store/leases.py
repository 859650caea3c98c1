"""Leases on a game's background work (migration 008), so several bot processes can share one database.

A lease row (``work``: ``ai:<game>``, ``timer:<game>``) says which process run (``held_by``) does it and until
when (``lease_until``, epoch ms). Taking one is a single statement: insert, or take the row over when it
is already ours or its lease ran out (a compare-and-set on the owner), so of two processes asking at
once exactly one gets it. The owner renews it while it works and deletes it when done; a row whose lease
ran out is work a dead process left behind, which another process finds (:meth:`LeaseStore.expired`)
and takes over. The SQL is the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from bot.store import TableStore


class LeaseStore(TableStore):
    """The leases table of one open :class:`bot.store.Store`."""

    async def take(self, name: str, owner: str, now: int, until: int, game_id: int | None = None) -> bool:
        """Take (or renew) the lease ``name`` for ``owner`` until ``until``. False when another owner
        holds it and its lease has not run out."""
        async with self.store.transaction() as db:
            changed = await db.execute(
                "INSERT INTO leases (work, game_id, held_by, lease_until) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (work) DO UPDATE SET held_by = excluded.held_by, lease_until = excluded.lease_until"
                " WHERE leases.held_by = excluded.held_by OR leases.lease_until <= ?",
                (name, game_id, owner, until, now),
            )
            return changed == 1

    async def release(self, name: str, owner: str) -> bool:
        """The work is done: drop the lease (only if it is still ``owner``'s)."""
        async with self.store.transaction() as db:
            return await db.execute("DELETE FROM leases WHERE work = ? AND held_by = ?", (name, owner)) == 1

    async def hand_over(self, owner: str) -> int:
        """A graceful stop: every lease of ``owner`` ends now, so another process finds its work at once
        (:meth:`expired`) instead of when the lease would have run out. Returns how many."""
        async with self.store.transaction() as db:
            return await db.execute("UPDATE leases SET lease_until = 0 WHERE held_by = ?", (owner,))

    async def holder(self, name: str) -> tuple[str, int] | None:
        """(owner, lease_until) of a lease, or None."""
        row = await self._one("SELECT held_by, lease_until FROM leases WHERE work = ?", (name,))
        return (str(row[0]), int(row[1])) if row else None

    async def expired(self, prefix: str, now: int, limit: int) -> list[tuple[str, int | None]]:
        """(name, game id) of leases starting with ``prefix`` whose time ran out, oldest first."""
        rows = await self._all(
            "SELECT work, game_id FROM leases WHERE lease_until <= ? AND work LIKE ? ORDER BY lease_until LIMIT ?",
            (now, prefix + "%", limit),
        )
        return [(str(r[0]), None if r[1] is None else int(r[1])) for r in rows]
