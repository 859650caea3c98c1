"""The after-game analysis queue and its results (migration 015, issue 40).

``game_analyses`` has one row per game: queued when the game ends (or when someone asks later), taken
with a lease by :func:`bot.store.claims.take_due` (a compare-and-set on the row read; on PostgreSQL read
``FOR UPDATE SKIP LOCKED``), its lease renewed while the workers weigh the game, then ``done`` with its
result, which is :meth:`bot.analysis.GameAnalysis.to_json`: seats by number, never a player's id or name.
Finishing writes the result and queues the channel's "the analysis is ready" notice (a community outbox
row, no player in it) in one transaction, so the notice is posted once even if the process dies after.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import TableStore
from bot.store.claims import take_due
from bot.store.community.common import dumps
from bot.store.community.outbox import NewOutbox, claim_rows

COLUMNS = (
    "id",
    "game_id",
    "status",
    "claim_boot",
    "lease_until",
    "attempts",
    "created_at",
    "done_at",
    "samples",
    "result",
)


@dataclass(frozen=True)
class AnalysisRow:
    """One game's analysis: waiting (``queued``), being weighed (``claimed``), ``done`` or ``failed``."""

    id: int
    game_id: int
    status: str
    claim_boot: str
    lease_until: int
    attempts: int
    created_at: int
    done_at: int | None
    samples: int
    result: dict[str, Any] | None


def _row(row: Sequence[Any]) -> AnalysisRow:
    values = list(row)
    values[9] = None if values[9] is None else json.loads(values[9])
    return AnalysisRow(*values)


class AnalysisStore(TableStore):
    """``game_analyses`` of one open :class:`bot.store.Store`."""

    async def queue(self, game_id: int, samples: int, at: int, *, again: bool = False) -> bool:
        """Queue a game's analysis; a game already queued or done is left as it is (False). ``again``: a
        failed one is queued again (someone asked)."""
        async with self.store.transaction() as db:
            added = await db.execute(
                "INSERT INTO game_analyses (game_id, samples, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, samples, at),
            )
            if added == 1 or not again:
                return added == 1
            return (
                await db.execute(
                    "UPDATE game_analyses SET status = 'queued', attempts = 0, claim_boot = '', lease_until = 0,"
                    " done_at = NULL WHERE game_id = ? AND status = 'failed'",
                    (game_id,),
                )
                == 1
            )

    async def in_league(self, game_id: int) -> bool:
        """Whether a league of its server counted the game."""
        return await self._one("SELECT 1 FROM community_league_games WHERE game_id = ?", (game_id,)) is not None

    async def get(self, game_id: int) -> AnalysisRow | None:
        row = await self._one(f"SELECT {', '.join(COLUMNS)} FROM game_analyses WHERE game_id = ?", (game_id,))
        return None if row is None else _row(row)

    async def take_due(
        self, owner: str, now: int, limit: int, *, max_attempts: int, lease_ms: int
    ) -> list[AnalysisRow]:
        """Up to ``limit`` analyses nobody holds, each taken for ``owner`` with a lease; one tried
        ``max_attempts`` times is given up (``failed``)."""
        async with self.store.transaction() as db:
            return await take_due(
                db,
                "game_analyses",
                COLUMNS,
                _row,
                owner=owner,
                now=now,
                limit=limit,
                max_attempts=max_attempts,
                lease_ms=lease_ms,
                give_up_queued=True,
            )

    async def renew(self, analysis_id: int, owner: str, until: int) -> bool:
        """Still weighing: the claim holds until ``until`` (False: it was taken over meanwhile)."""
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "UPDATE game_analyses SET lease_until = ? WHERE id = ? AND status = 'claimed' AND claim_boot = ?",
                    (until, analysis_id, owner),
                )
                == 1
            )

    async def finish(
        self, analysis_id: int, owner: str, result: dict[str, Any], at: int, notice: NewOutbox | None
    ) -> bool:
        """The result kept and the notice queued, together; only by the claim's owner (False: taken over,
        nothing written)."""
        async with self.store.transaction() as db:
            changed = await db.execute(
                "UPDATE game_analyses SET status = 'done', result = ?, done_at = ? WHERE id = ? AND status = 'claimed'"
                " AND claim_boot = ?",
                (dumps(result), at, analysis_id, owner),
            )
            if changed == 1 and notice is not None:
                await claim_rows(db, [notice], at, "", status="queued")
            return changed == 1

    async def give_back(self, analysis_id: int, owner: str) -> bool:
        """A passing failure (the pool broke, the store was busy): offered again by a later pass."""
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "UPDATE game_analyses SET status = 'queued', claim_boot = '', lease_until = 0 WHERE id = ?"
                    " AND status = 'claimed' AND claim_boot = ?",
                    (analysis_id, owner),
                )
                == 1
            )

    async def fail(self, analysis_id: int, owner: str, at: int) -> bool:
        """The game cannot be weighed (its log does not replay): never taken again unless asked again."""
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "UPDATE game_analyses SET status = 'failed', done_at = ? WHERE id = ? AND status = 'claimed'"
                    " AND claim_boot = ?",
                    (at, analysis_id, owner),
                )
                == 1
            )

    async def hand_over(self, owner: str) -> int:
        """A graceful stop: ``owner``'s claims end now, so another process takes them at once."""
        async with self.store.transaction() as db:
            return await db.execute(
                "UPDATE game_analyses SET lease_until = 0 WHERE status = 'claimed' AND claim_boot = ?", (owner,)
            )

    async def all(self) -> list[AnalysisRow]:
        return [_row(r) for r in await self._all(f"SELECT {', '.join(COLUMNS)} FROM game_analyses ORDER BY id")]
