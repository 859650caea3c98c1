"""Timeout votes and their ballots (tables community_votes, community_ballots of migration 003)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import TableStore
from bot.store.community.columns import VOTE_COLUMNS, WAIT_UPDATABLE
from bot.store.community.common import drop_id, rewrite_json
from bot.store.community.outbox import NewOutbox, OutboxRow, claim_rows

PERSONAL_COLUMNS = ("community_votes.user_xid", "community_votes.voters", "community_ballots.voter_xid")
"""Columns of this module's tables that hold a player's id (voters: a JSON list of ids)."""


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


def vote_row(row: Sequence[Any]) -> VoteRow:
    values = list(row)
    values[4] = json.loads(values[4])
    return VoteRow(*values)


class VoteStore(TableStore):
    """Votes and ballots of one open :class:`bot.store.Store`."""

    async def vote(self, game_id: int, version: int, seat: int) -> VoteRow | None:
        row = await self._one(
            f"SELECT {', '.join(VOTE_COLUMNS)} FROM community_votes WHERE game_id = ? AND version = ? AND seat = ?",
            (game_id, version, seat),
        )
        return vote_row(row) if row else None

    async def ballots(self, game_id: int, version: int, seat: int) -> dict[int, str]:
        rows = await self._all(
            "SELECT voter_xid, choice FROM community_ballots WHERE game_id = ? AND version = ? AND seat = ?"
            " ORDER BY at",
            (game_id, version, seat),
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def cast_ballot(self, game_id: int, version: int, seat: int, voter_xid: int, choice: str, at: int) -> bool:
        """Record (or change) a ballot while the vote is open. False if it is not open."""
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                f"SELECT status FROM community_votes WHERE game_id = ? AND version = ? AND seat = ?{db.for_update}",
                (game_id, version, seat),
            )
            if row is None or row[0] != "open":
                return False
            await db.execute(
                "INSERT INTO community_ballots (game_id, version, seat, voter_xid, choice, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, version, seat, voter_xid)"
                " DO UPDATE SET choice = excluded.choice, at = excluded.at",
                (game_id, version, seat, voter_xid, choice, at),
            )
        return True

    async def decide_vote(
        self,
        vote: VoteRow,
        *,
        decision: str,
        wait_updates: Mapping[str, Any],
        claims: Sequence[NewOutbox],
        at: int,
        boot: str,
    ) -> list[OutboxRow] | None:
        """Close an open vote with its decision, update the late seat's wait and claim the outcome's
        actions, all at once. None if the vote was no longer open (someone else closed it)."""
        bad = set(wait_updates) - WAIT_UPDATABLE
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE community_votes SET status = 'decided', decision = ? WHERE game_id = ?"
                " AND version = ? AND seat = ? AND status = 'open'",
                (decision, vote.game_id, vote.version, vote.seat),
            )
            if n == 0:
                return None
            if wait_updates:
                await db.execute(
                    f"UPDATE community_waits SET {', '.join(f'{k} = ?' for k in wait_updates)}"
                    " WHERE game_id = ? AND seat = ? AND vote_version = ?",
                    (*wait_updates.values(), vote.game_id, vote.seat, vote.version),
                )
            return await claim_rows(db, claims, at, boot, lease_ms=self.store.lease_ms)

    async def cancel_vote(self, vote: VoteRow, reason: str) -> bool:
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE community_votes SET status = 'cancelled', decision = ? WHERE game_id = ?"
                " AND version = ? AND seat = ? AND status = 'open'",
                (reason, vote.game_id, vote.version, vote.seat),
            )
            return n > 0

    async def due_votes(self, now: int, limit: int) -> list[VoteRow]:
        rows = await self._all(
            f"SELECT {', '.join(VOTE_COLUMNS)} FROM community_votes WHERE status = 'open' AND closes_at <= ?"
            " ORDER BY closes_at LIMIT ?",
            (now, limit),
        )
        return [vote_row(r) for r in rows]

    async def set_vote_message(self, game_id: int, version: int, seat: int, message_xid: int) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE community_votes SET message_xid = ? WHERE game_id = ? AND version = ? AND seat = ?",
                (message_xid, game_id, version, seat),
            )

    async def forget_user(self, user_xid: int) -> int:
        """Forget a player in votes: as the late player (the id is cleared), as a voter (taken off
        the voters, their ballots deleted). Returns rows changed."""
        async with self.store.transaction() as db:
            late = {
                tuple(r)
                for r in await db.fetch_all(
                    "SELECT game_id, version, seat FROM community_votes WHERE user_xid = ?", (user_xid,)
                )
            }
            await db.execute("UPDATE community_votes SET user_xid = NULL WHERE user_xid = ?", (user_xid,))
            voted = await rewrite_json(
                db,
                "community_votes",
                ("game_id", "version", "seat"),
                "voters",
                user_xid,
                lambda value: drop_id(value, user_xid),
            )
            ballots = await db.execute("DELETE FROM community_ballots WHERE voter_xid = ?", (user_xid,))
        return len(late | voted) + ballots
