"""Undo proposals and their answers (tables community_undo, community_undo_answers of migration 003)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import TableStore
from bot.store.community.common import drop_id, dumps, rewrite_json

UNDO_COLUMNS = (
    "game_id",
    "version",
    "proposer_xid",
    "seat",
    "move",
    "voters",
    "created_at",
    "status",
    "message_xid",
    "channel_xid",
)
PERSONAL_COLUMNS = ("community_undo.proposer_xid", "community_undo.voters", "community_undo_answers.voter_xid")
"""Columns of this module's tables that hold a player's id (voters: a JSON list of ids)."""


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


def _undo(row: Sequence[Any]) -> UndoRow:
    values = list(row)
    values[4] = json.loads(values[4])
    values[5] = json.loads(values[5])
    return UndoRow(*values)


class UndoStore(TableStore):
    """Undo proposals of one open :class:`bot.store.Store`."""

    async def create_undo(self, row: UndoRow) -> bool:
        """A new proposal; False if one about that version exists already."""
        async with self.store.transaction() as db:
            n = await db.execute(
                f"INSERT INTO community_undo ({', '.join(UNDO_COLUMNS)})"
                f" VALUES ({', '.join('?' for _ in UNDO_COLUMNS)}) ON CONFLICT DO NOTHING",
                (
                    row.game_id,
                    row.version,
                    row.proposer_xid,
                    row.seat,
                    dumps(row.move),
                    dumps(row.voters),
                    row.created_at,
                    row.status,
                    row.message_xid,
                    row.channel_xid,
                ),
            )
            return n > 0

    async def undo(self, game_id: int, version: int) -> UndoRow | None:
        row = await self._one(
            f"SELECT {', '.join(UNDO_COLUMNS)} FROM community_undo WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        return _undo(row) if row else None

    async def undo_answers(self, game_id: int, version: int) -> dict[int, bool]:
        rows = await self._all(
            "SELECT voter_xid, accepted FROM community_undo_answers WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        return {int(r[0]): bool(r[1]) for r in rows}

    async def answer_undo(self, game_id: int, version: int, voter_xid: int, accepted: bool, at: int) -> bool:
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                f"SELECT status FROM community_undo WHERE game_id = ? AND version = ?{db.for_update}",
                (game_id, version),
            )
            if row is None or row[0] != "open":
                return False
            await db.execute(
                "INSERT INTO community_undo_answers (game_id, version, voter_xid, accepted, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version, voter_xid)"
                " DO UPDATE SET accepted = excluded.accepted, at = excluded.at",
                (game_id, version, voter_xid, int(accepted), at),
            )
        return True

    async def set_undo_status(self, game_id: int, version: int, status: str, *, only_if_open: bool = True) -> bool:
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE community_undo SET status = ? WHERE game_id = ? AND version = ?"
                + (" AND status = 'open'" if only_if_open else ""),
                (status, game_id, version),
            )
            return n > 0

    async def set_undo_message(self, game_id: int, version: int, channel_xid: int | None, message_xid: int) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE community_undo SET message_xid = ?, channel_xid = ? WHERE game_id = ? AND version = ?",
                (message_xid, channel_xid, game_id, version),
            )

    async def expire_undos(self, game_id: int, below_version: int) -> list[UndoRow]:
        """Open proposals of older versions become expired (the game moved on); returns them."""
        if (
            await self._one(
                "SELECT 1 FROM community_undo WHERE game_id = ? AND status = 'open' AND version < ?",
                (game_id, below_version),
            )
            is None
        ):
            return []  # the usual case after a move: no write at all
        async with self.store.transaction() as db:
            rows = [
                _undo(r)
                for r in await db.fetch_all(
                    f"SELECT {', '.join(UNDO_COLUMNS)} FROM community_undo WHERE game_id = ?"
                    " AND status = 'open' AND version < ?",
                    (game_id, below_version),
                )
            ]
            await db.execute(
                "UPDATE community_undo SET status = 'expired' WHERE game_id = ? AND status = 'open' AND version < ?",
                (game_id, below_version),
            )
        return rows

    async def proposed_by(self, user_xid: int) -> list[UndoRow]:
        rows = await self._all(
            f"SELECT {', '.join(UNDO_COLUMNS)} FROM community_undo WHERE proposer_xid = ?", (user_xid,)
        )
        return [_undo(r) for r in rows]

    async def forget_user(self, user_xid: int) -> int:
        """Forget a player in undo proposals: their own proposals are deleted (with their answers;
        the proposer's id is the row's whole point), their answers to others' proposals too, and
        they are taken off the voters of the rest. Returns rows changed."""
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                "SELECT COUNT(*) FROM community_undo_answers a JOIN community_undo u ON a.game_id = u.game_id"
                " AND a.version = u.version WHERE u.proposer_xid = ?",
                (user_xid,),
            )
            cascaded = int(row[0]) if row else 0
            proposals = await db.execute("DELETE FROM community_undo WHERE proposer_xid = ?", (user_xid,))
            answers = await db.execute("DELETE FROM community_undo_answers WHERE voter_xid = ?", (user_xid,))
            voted = await rewrite_json(
                db, "community_undo", ("game_id", "version"), "voters", user_xid, lambda value: drop_id(value, user_xid)
            )
        return proposals + cascaded + answers + len(voted)
