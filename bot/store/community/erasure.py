"""The bot's own posts a forget-me must reach, and the edits it plans (migration 010).

``game_posts`` keeps the id of every turn post and recap as it is posted (the lobby and status
messages are on the game's row). ``privacy_edits`` is an outbox of edits: a forget-me plans its rows
(status ``planned``) before the player is forgotten, queues them once the forget is committed, and the
background loop takes a few at a time with a lease (``claim_boot``, ``lease_until``: a compare-and-set
on the row read, like :mod:`bot.store.community.outbox`), edits the message and marks it done. A row
done, gone or failed is never taken again, so no message is edited twice for one request; a claim whose
process died is taken over after its lease (on SQLite, whose file has one process, at once).

Neither table holds a player's id or name: only where the bot's own messages are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import LEASE_MS, TableStore
from bot.store.claims import take_due
from bot.store.rows import SAVE_POST

EDIT_COLUMNS = (
    "id",
    "request",
    "kind",
    "game_id",
    "version",
    "channel_xid",
    "message_xid",
    "created_at",
    "status",
    "claim_boot",
    "lease_until",
    "attempts",
    "done_at",
)
OPEN = ("planned", "queued", "claimed")
PRIORITY = {"lobby": 0, "status": 1, "note": 2, "turn": 3, "recap": 4}
"""Which edits come first when a request has more than its cap: what everyone sees at a glance."""
DM_KINDS_SUFFIX = "_dm"
"""Outbox kinds sent by DM (to the player themself): not in a channel, nothing to edit there."""


@dataclass(frozen=True)
class PlannedEdit:
    kind: str
    game_id: int | None
    version: int | None
    channel_xid: int
    message_xid: int


@dataclass(frozen=True)
class EditRow:
    id: int
    request: str
    kind: str
    game_id: int | None
    version: int | None
    channel_xid: int
    message_xid: int
    created_at: int
    status: str
    claim_boot: str
    lease_until: int
    attempts: int
    done_at: int | None


def _edit(row: Sequence[Any]) -> EditRow:
    return EditRow(*row)


class ErasureStore(TableStore):
    """``game_posts`` and ``privacy_edits`` of one open :class:`bot.store.Store`."""

    async def record_post(self, game_id: int, kind: str, channel_xid: int, message_xid: int, version: int) -> None:
        """Remember one of the bot's posts about a game (a repost of the same message updates it)."""
        await self.store.connection.write_one(
            SAVE_POST.format(values="VALUES (?, ?, ?, ?, ?)"), (message_xid, game_id, channel_xid, kind, version)
        )

    async def posts(self, game_id: int) -> list[tuple[str, int, int, int]]:
        """A game's recorded posts as (kind, version, channel, message), oldest first."""
        rows = await self._all(
            "SELECT kind, version, channel_xid, message_xid FROM game_posts WHERE game_id = ? ORDER BY message_xid",
            (game_id,),
        )
        return [(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def messages_naming(self, user_xid: int) -> list[PlannedEdit]:
        """Every message of the bot that names the player, as far as the database knows: the lobby,
        status and turn posts and recaps of the games they sat in or hosted, and the reminders, votes
        and undo proposals about them or addressed to them. Read before they are forgotten."""
        like = f"%{user_xid}%"
        out: list[PlannedEdit] = []
        games = await self._all(
            "SELECT id, channel_xid, lobby_message_xid, status_message_xid, turn_message_xid, version FROM games g"
            " WHERE channel_xid IS NOT NULL AND (host_xid = ?"
            " OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_xid = ?)) ORDER BY id",
            (user_xid, user_xid),
        )
        for gid, channel, lobby, status, turn, version in games:
            gid, channel = int(gid), int(channel)
            if lobby is not None:
                out.append(PlannedEdit("lobby", gid, None, channel, int(lobby)))
            if status is not None:
                out.append(PlannedEdit("status", gid, None, channel, int(status)))
            posted = await self.posts(gid)
            if turn is not None and all(m != int(turn) for _, _, _, m in posted):
                out.append(PlannedEdit("turn", gid, int(version), channel, int(turn)))  # posted before 010
            # A line naming the game's players is not told again: it becomes the note.
            out += [PlannedEdit("note" if kind == "line" else kind, gid, v, c, m) for kind, v, c, m in posted]
        for sql in (
            "SELECT game_id, channel_xid, message_xid FROM community_outbox WHERE message_xid IS NOT NULL"
            f" AND channel_xid IS NOT NULL AND kind NOT LIKE '%{DM_KINDS_SUFFIX}' AND (user_xid = ? OR params LIKE ?)",
            "SELECT v.game_id, g.channel_xid, v.message_xid FROM community_votes v JOIN games g ON g.id = v.game_id"
            " WHERE v.message_xid IS NOT NULL AND g.channel_xid IS NOT NULL AND (v.user_xid = ? OR v.voters LIKE ?)",
            "SELECT game_id, channel_xid, message_xid FROM community_undo WHERE message_xid IS NOT NULL"
            " AND channel_xid IS NOT NULL AND (proposer_xid = ? OR voters LIKE ?)",
        ):
            out += [
                PlannedEdit("note", None if r[0] is None else int(r[0]), None, int(r[1]), int(r[2]))
                for r in await self._all(sql, (user_xid, like))
            ]
        return out

    async def plan(self, request: str, edits: Sequence[PlannedEdit], at: int) -> int:
        """Record a request's edits as ``planned`` (not taken until :meth:`queue`). A message already
        waiting for an edit of another request is left to that one (it shows the game as it is when it
        is made). Returns the edits recorded."""
        async with self.store.transaction() as db:
            waiting = (
                {int(r[0]) for r in await db.fetch_all("SELECT message_xid FROM privacy_edits WHERE status = 'queued'")}
                if edits
                else set()
            )
            rows = [
                (request, e.kind, e.game_id, e.version, e.channel_xid, e.message_xid, at)
                for e in edits
                if e.message_xid not in waiting
            ]
            await db.executemany(
                "INSERT INTO privacy_edits (request, kind, game_id, version, channel_xid, message_xid, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            return len(rows)

    async def queue(self, request: str) -> int:
        """The request's player is forgotten: its edits may be taken."""
        async with self.store.transaction() as db:
            return await db.execute(
                "UPDATE privacy_edits SET status = 'queued' WHERE request = ? AND status = 'planned'", (request,)
            )

    async def take_due(
        self, owner: str, now: int, limit: int, *, max_attempts: int, lease_ms: int = LEASE_MS
    ) -> list[EditRow]:
        """Take up to ``limit`` edits nobody holds, each with a lease (:func:`bot.store.claims.take_due`);
        an edit tried ``max_attempts`` times is given up (``failed``), even one a pass handed back."""
        async with self.store.transaction() as db:
            return await take_due(
                db,
                "privacy_edits",
                EDIT_COLUMNS,
                _edit,
                owner=owner,
                now=now,
                limit=limit,
                max_attempts=max_attempts,
                lease_ms=lease_ms,
                give_up_queued=True,
            )

    async def finish(self, edit_id: int, owner: str, status: str, at: int) -> bool:
        """An edit made (``done``), its message gone (``gone``) or refused for good (``failed``): never
        taken again. Only the claim's owner finishes it (False: it was taken over meanwhile)."""
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "UPDATE privacy_edits SET status = ?, done_at = ? WHERE id = ? AND status = 'claimed'"
                    " AND claim_boot = ?",
                    (status, at, edit_id, owner),
                )
                == 1
            )

    async def retry(self, edit_id: int, owner: str) -> bool:
        """A passing problem (a 5xx, a rate limit, no answer in time): offered again by a later pass."""
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "UPDATE privacy_edits SET status = 'queued', claim_boot = '', lease_until = 0 WHERE id = ?"
                    " AND status = 'claimed' AND claim_boot = ?",
                    (edit_id, owner),
                )
                == 1
            )

    async def progress(self, request: str | None = None) -> dict[str, int]:
        """Edits by status (of one request, or all)."""
        rows = await self._all(
            "SELECT status, COUNT(*) FROM privacy_edits WHERE CAST(? AS TEXT) IS NULL OR request = ? GROUP BY status",
            (request, request),
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def edits(self, request: str | None = None) -> list[EditRow]:
        rows = await self._all(
            f"SELECT {', '.join(EDIT_COLUMNS)} FROM privacy_edits WHERE CAST(? AS TEXT) IS NULL OR request = ?"
            " ORDER BY id",
            (request, request),
        )
        return [_edit(r) for r in rows]

    async def prune(self, before: int) -> int:
        """Forget edits finished before ``before``, and plans never queued (their request failed)."""
        async with self.store.transaction() as db:
            return await db.execute(
                "DELETE FROM privacy_edits WHERE (status IN ('done', 'gone', 'failed') AND done_at < ?)"
                " OR (status = 'planned' AND created_at < ?)",
                (before, before),
            )
