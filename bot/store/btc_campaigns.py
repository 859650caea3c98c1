"""Every SQL statement of the Between Two Cities solo campaigns (tables of migration 004).

Writes go through :meth:`bot.store.Store.transaction` (one writer at a time); reads use the shared
connection. Rows come back as plain dataclasses; the JSON column is decoded here. Time is always a
parameter (epoch ms, UTC); nothing here reads a clock.

Every write that moves a campaign on is conditional on the state it was computed from (the
campaign still running, still at that game, still pointing at that game id), so a listener and a
reconciliation that race record a finished game exactly once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import IntegrityError, StoreError, TableStore

CAMPAIGN_COLUMNS = (
    "id",
    "user_xid",
    "guild_xid",
    "length",
    "difficulty",
    "mode",
    "status",
    "next_game",
    "used",
    "total",
    "game_id",
    "game_channel_xid",
    "started_at",
    "updated_at",
    "ended_at",
)
GAME_COLUMNS = (
    "campaign_id",
    "number",
    "game_id",
    "outcome",
    "score",
    "rank",
    "won",
    "points",
    "bonus_type",
    "bonus_city",
    "bonus",
    "total",
    "automas",
    "finished_at",
)
PERSONAL_COLUMNS = ("btc_campaigns.user_xid",)
"""Columns of this module's tables that hold a player's id (a campaign is one player's record)."""
RUNNING = "running"
COMPLETE = "complete"
ABANDONED = "abandoned"


class CampaignRunning(StoreError):
    """The player already has a running campaign."""


@dataclass(frozen=True)
class CampaignRow:
    id: int
    user_xid: int
    guild_xid: int | None
    length: int
    difficulty: int
    mode: str
    status: str
    next_game: int
    used: str
    total: int
    game_id: int | None
    game_channel_xid: int | None
    started_at: int
    updated_at: int
    ended_at: int | None

    @property
    def running(self) -> bool:
        return self.status == RUNNING


@dataclass(frozen=True)
class CampaignGameRow:
    """One counted game of a campaign (see migration 004 for the columns' meaning)."""

    campaign_id: int
    number: int
    game_id: int
    outcome: str
    score: int
    rank: int
    won: bool
    points: int
    bonus_type: str
    bonus_city: int | None
    bonus: int
    total: int
    automas: list[dict[str, Any]]
    finished_at: int


def _campaign(row: Sequence[Any]) -> CampaignRow:
    return CampaignRow(*row)


def _game(row: Sequence[Any]) -> CampaignGameRow:
    values = dict(zip(GAME_COLUMNS, row, strict=True))
    values["won"] = bool(values["won"])
    values["automas"] = list(json.loads(values["automas"]))
    return CampaignGameRow(**values)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


_SELECT = f"SELECT {', '.join(CAMPAIGN_COLUMNS)} FROM btc_campaigns"


class CampaignStore(TableStore):
    """The campaign tables of one open :class:`Store`."""

    # -- reads -------------------------------------------------------------------------------
    async def get(self, campaign_id: int) -> CampaignRow | None:
        row = await self._one(f"{_SELECT} WHERE id = ?", (campaign_id,))
        return _campaign(row) if row else None

    async def running(self, user_xid: int) -> CampaignRow | None:
        """The player's running campaign, if any (there is at most one)."""
        row = await self._one(f"{_SELECT} WHERE user_xid = ? AND status = 'running'", (user_xid,))
        return _campaign(row) if row else None

    async def latest(self, user_xid: int) -> CampaignRow | None:
        """The player's running campaign, else the one that ended last."""
        row = await self._one(
            f"{_SELECT} WHERE user_xid = ? ORDER BY status = 'running' DESC, ended_at DESC NULLS LAST, id DESC LIMIT 1",
            (user_xid,),
        )
        return _campaign(row) if row else None

    async def by_game(self, game_id: int) -> CampaignRow | None:
        """The running campaign whose open game this is."""
        row = await self._one(f"{_SELECT} WHERE game_id = ? AND status = 'running'", (game_id,))
        return _campaign(row) if row else None

    async def with_open_game(self, limit: int = 10_000) -> list[CampaignRow]:
        """Running campaigns that have a game open (to reconcile after a restart)."""
        rows = await self._all(
            f"{_SELECT} WHERE status = 'running' AND game_id IS NOT NULL ORDER BY id LIMIT ?", (limit,)
        )
        return [_campaign(r) for r in rows]

    async def games(self, campaign_id: int) -> list[CampaignGameRow]:
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM btc_campaign_games WHERE campaign_id = ? ORDER BY number",
            (campaign_id,),
        )
        return [_game(r) for r in rows]

    async def best_total(
        self, user_xid: int, *, length: int, mode: str, difficulty: int, before_id: int | None = None
    ) -> int | None:
        """The best total of the player's complete campaigns of that kind (other than ``before_id``)."""
        row = await self._one(
            "SELECT MAX(total) FROM btc_campaigns WHERE user_xid = ? AND status = 'complete'"
            " AND length = ? AND mode = ? AND difficulty = ? AND id != ?",
            (user_xid, length, mode, difficulty, before_id if before_id is not None else -1),
        )
        return int(row[0]) if row and row[0] is not None else None

    async def history(self, user_xid: int, limit: int = 10) -> list[CampaignRow]:
        """The player's ended campaigns, newest first."""
        rows = await self._all(
            f"{_SELECT} WHERE user_xid = ? AND status != 'running' ORDER BY ended_at DESC NULLS LAST, id DESC LIMIT ?",
            (user_xid, limit),
        )
        return [_campaign(r) for r in rows]

    # -- writes ------------------------------------------------------------------------------
    async def create(
        self, *, user_xid: int, guild_xid: int | None, length: int, difficulty: int, mode: str, at: int
    ) -> CampaignRow:
        """A new running campaign at game 1; CampaignRunning if the player already has one."""
        try:
            async with self.store.transaction() as db:
                row = await db.fetch_one(
                    "INSERT INTO btc_campaigns (user_xid, guild_xid, length, difficulty, mode, started_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (user_xid, guild_xid, length, difficulty, mode, at, at),
                )
                assert row is not None
                campaign_id = int(row[0])
        except IntegrityError as exc:
            if exc.kind != "unique":
                raise  # a CHECK: the caller validates lengths, difficulties and modes first
            raise CampaignRunning(str(user_xid)) from None
        created = await self.get(campaign_id)
        assert created is not None
        return created

    async def attach_game(self, campaign_id: int, *, game_id: int, channel_xid: int | None, at: int) -> bool:
        """Remember the game just opened for the campaign's next game; False if the campaign is no
        longer running or already has a game open."""
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE btc_campaigns SET game_id = ?, game_channel_xid = ?, updated_at = ?"
                " WHERE id = ? AND status = 'running' AND game_id IS NULL",
                (game_id, channel_xid, at, campaign_id),
            )
            return n == 1

    async def detach_game(self, campaign_id: int, *, game_id: int, at: int) -> bool:
        """Forget an open game that will not count (its lobby closed before it started)."""
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE btc_campaigns SET game_id = NULL, game_channel_xid = NULL, updated_at = ?"
                " WHERE id = ? AND game_id = ?",
                (at, campaign_id, game_id),
            )
            return n == 1

    async def record_game(
        self,
        campaign_id: int,
        *,
        number: int,
        game_id: int,
        outcome: str,
        score: int,
        rank: int,
        won: bool,
        points: int,
        bonus_type: str,
        letter: str,
        bonus_city: int | None,
        bonus: int,
        automas: list[dict[str, Any]],
        at: int,
    ) -> CampaignRow | None:
        """Count a finished game and move the campaign on (complete after its last game), in one
        transaction. None, with nothing written, if that game was already counted or the campaign
        is not running at game ``number`` with ``game_id`` open."""
        total = points + bonus
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE btc_campaigns SET next_game = next_game + 1, used = used || ?, total = total + ?,"
                " game_id = NULL, game_channel_xid = NULL, updated_at = ?,"
                " status = CASE WHEN next_game >= length THEN 'complete' ELSE status END,"
                " ended_at = CASE WHEN next_game >= length THEN ? ELSE ended_at END"
                " WHERE id = ? AND status = 'running' AND next_game = ? AND game_id = ?",
                (letter, total, at, at, campaign_id, number, game_id),
            )
            if n != 1:
                return None
            await db.execute(
                f"INSERT INTO btc_campaign_games ({', '.join(GAME_COLUMNS)})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    campaign_id,
                    number,
                    game_id,
                    outcome,
                    score,
                    rank,
                    int(won),
                    points,
                    bonus_type,
                    bonus_city,
                    bonus,
                    total,
                    _dumps(automas),
                    at,
                ),
            )
        return await self.get(campaign_id)

    async def abandon(self, campaign_id: int, *, at: int) -> bool:
        """End a running campaign early; False if it was not running."""
        async with self.store.transaction() as db:
            n = await db.execute(
                "UPDATE btc_campaigns SET status = 'abandoned', game_id = NULL, game_channel_xid = NULL,"
                " updated_at = ?, ended_at = ? WHERE id = ? AND status = 'running'",
                (at, at, campaign_id),
            )
            return n == 1

    async def forget_user(self, user_xid: int) -> int:
        """Forget every campaign of a player (a privacy request): the campaigns and their counted
        games are deleted; returns how many rows of both."""
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                "SELECT COUNT(*) FROM btc_campaign_games WHERE campaign_id IN"
                " (SELECT id FROM btc_campaigns WHERE user_xid = ?)",
                (user_xid,),
            )
            games = int(row[0]) if row else 0
            return games + await db.execute("DELETE FROM btc_campaigns WHERE user_xid = ?", (user_xid,))
