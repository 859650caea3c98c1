"""Leagues, their seasons, members and counted games (tables community_leagues, community_seasons,
community_league_members, community_league_games of migration 003), and the reads of finished games
they need."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import TableStore
from bot.store.community.common import dumps, rewrite_json

LEAGUE_COLUMNS = (
    "id",
    "guild_xid",
    "name",
    "kind",
    "mode",
    "rated",
    "forfeits",
    "abandoned",
    "created_by",
    "created_at",
    "clock",
)
SEASON_COLUMNS = ("id", "league_id", "number", "starts_at", "ends_at", "clock")
PERSONAL_COLUMNS = (
    "community_leagues.created_by",
    "community_league_members.user_xid",
    "community_league_members.name",
    "community_league_games.outcome",
)
"""Columns of this module's tables that hold a player's id or name (outcome: JSON with each
member's id)."""


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
    clock: str | None = None
    """The time control its next seasons start with (migration 014; None: none, the server's); the games
    of its members take their season's (:attr:`SeasonRow.clock`)."""


@dataclass(frozen=True)
class SeasonRow:
    id: int
    league_id: int
    number: int
    starts_at: int
    ends_at: int
    clock: str | None = None
    """The time control the games of its members start with while it runs (migration 016; None: none,
    the server's)."""


@dataclass(frozen=True)
class LeagueGameRow:
    league_id: int
    season_id: int
    game_id: int
    finished_at: int
    outcome: list[dict[str, Any]]


@dataclass(frozen=True)
class PlayerSeatRow:
    """One seat of a player in a game (the player page)."""

    game_id: int
    kind: str
    status: str
    finished_at: int | None
    updated_at: int
    result: dict[str, Any] | None
    seat: int
    name: str


def _league(row: Sequence[Any]) -> LeagueRow:
    values = list(row)
    values[5] = bool(values[5])
    return LeagueRow(*values)


class LeagueStore(TableStore):
    """The league tables of one open :class:`bot.store.Store`."""

    async def finished_games(self, guild_xid: int, kind: str, since: int, until: int) -> list[int]:
        """Ids of the server's finished or abandoned games of a kind that ended in [since, until)."""
        rows = await self._all(
            "SELECT id FROM games WHERE guild_xid = ? AND status IN ('finished', 'abandoned')"
            " AND kind = ? AND finished_at >= ? AND finished_at < ? ORDER BY finished_at, id",
            (guild_xid, kind, since, until),
        )
        return [int(r[0]) for r in rows]

    async def create_league(
        self,
        *,
        guild_xid: int,
        name: str,
        kind: str,
        mode: str | None,
        rated: bool,
        forfeits: str,
        abandoned: str,
        created_by: int | None,
        at: int,
        season_ends: int,
    ) -> LeagueRow | None:
        """A league with its first season starting now. None if the server has one of that name."""
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                "INSERT INTO community_leagues (guild_xid, name, kind, mode, rated, forfeits,"
                " abandoned, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING id",
                (guild_xid, name, kind, mode, int(rated), forfeits, abandoned, created_by, at),
            )
            if row is None:
                return None
            league_id = int(row[0])
            await db.execute(
                "INSERT INTO community_seasons (league_id, number, starts_at, ends_at) VALUES (?, 1, ?, ?)",
                (league_id, at, season_ends),
            )
        return await self.league(league_id)

    async def league(self, league_id: int) -> LeagueRow | None:
        row = await self._one(f"SELECT {', '.join(LEAGUE_COLUMNS)} FROM community_leagues WHERE id = ?", (league_id,))
        return _league(row) if row else None

    async def league_by_name(self, guild_xid: int, name: str) -> LeagueRow | None:
        row = await self._one(
            f"SELECT {', '.join(LEAGUE_COLUMNS)} FROM community_leagues WHERE guild_xid = ? AND lower(name) = lower(?)",
            (guild_xid, name),
        )
        return _league(row) if row else None

    async def leagues(self, guild_xid: int, kind: str | None = None) -> list[LeagueRow]:
        rows = await self._all(
            f"SELECT {', '.join(LEAGUE_COLUMNS)} FROM community_leagues WHERE guild_xid = ?"
            " AND (CAST(? AS TEXT) IS NULL OR kind = ?) ORDER BY lower(name), name",
            (guild_xid, kind, kind),
        )
        return [_league(r) for r in rows]

    async def update_league(self, league_id: int, **fields_: Any) -> None:
        allowed = {"rated", "forfeits", "abandoned", "clock"}
        bad = set(fields_) - allowed
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if not fields_:
            return
        values = [int(v) if isinstance(v, bool) else v for v in fields_.values()]
        async with self.store.transaction() as db:
            await db.execute(
                f"UPDATE community_leagues SET {', '.join(f'{k} = ?' for k in fields_)} WHERE id = ?",
                (*values, league_id),
            )

    async def seasons(self, league_id: int) -> list[SeasonRow]:
        rows = await self._all(
            f"SELECT {', '.join(SEASON_COLUMNS)} FROM community_seasons WHERE league_id = ? ORDER BY number",
            (league_id,),
        )
        return [SeasonRow(*r) for r in rows]

    async def add_season(
        self, league_id: int, *, starts_at: int, ends_at: int, close_running_at: int | None
    ) -> SeasonRow:
        """Open the next season, with the league's time control; a season still running ends at
        ``close_running_at``."""
        async with self.store.transaction() as db:
            if close_running_at is not None:
                await db.execute(
                    "UPDATE community_seasons SET ends_at = ? WHERE league_id = ? AND ends_at > ? AND starts_at <= ?",
                    (close_running_at, league_id, close_running_at, close_running_at),
                )
            found = await db.fetch_one(f"SELECT clock FROM community_leagues WHERE id = ?{db.for_update}", (league_id,))
            clock = found[0] if found is not None else None
            row = await db.fetch_one(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM community_seasons WHERE league_id = ?", (league_id,)
            )
            number = int(row[0]) if row else 1
            added = await db.fetch_one(
                "INSERT INTO community_seasons (league_id, number, starts_at, ends_at, clock) VALUES (?, ?, ?, ?, ?)"
                " RETURNING id",
                (league_id, number, starts_at, ends_at, clock),
            )
            assert added is not None
            season_id = int(added[0])
        return SeasonRow(season_id, league_id, number, starts_at, ends_at, clock)

    async def set_season_clock(self, season_id: int, clock: str | None) -> None:
        """A season's time control (None: none, the server's)."""
        async with self.store.transaction() as db:
            await db.execute("UPDATE community_seasons SET clock = ? WHERE id = ?", (clock, season_id))

    async def add_member(self, league_id: int, user_xid: int, name: str, at: int) -> bool:
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "INSERT INTO community_league_members (league_id, user_xid, name, joined_at)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (league_id, user_xid, name, at),
                )
                > 0
            )

    async def remove_member(self, league_id: int, user_xid: int) -> bool:
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "DELETE FROM community_league_members WHERE league_id = ? AND user_xid = ?", (league_id, user_xid)
                )
                > 0
            )

    async def members(self, league_id: int) -> dict[int, str]:
        rows = await self._all(
            "SELECT user_xid, name FROM community_league_members WHERE league_id = ? ORDER BY joined_at", (league_id,)
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def record_league_game(self, row: LeagueGameRow) -> bool:
        """Count a game once per league. False if it was already counted."""
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "INSERT INTO community_league_games (league_id, season_id, game_id, finished_at,"
                    " outcome) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (row.league_id, row.season_id, row.game_id, row.finished_at, dumps(row.outcome)),
                )
                > 0
            )

    async def league_games(self, league_id: int, season_id: int | None = None) -> list[LeagueGameRow]:
        """Counted games in finishing order (the order ratings are computed in)."""
        rows = await self._all(
            "SELECT league_id, season_id, game_id, finished_at, outcome FROM community_league_games"
            " WHERE league_id = ? AND (CAST(? AS BIGINT) IS NULL OR season_id = ?) ORDER BY finished_at, game_id",
            (league_id, season_id, season_id),
        )
        return [LeagueGameRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def counted_game_ids(self, league_id: int) -> set[int]:
        rows = await self._all("SELECT game_id FROM community_league_games WHERE league_id = ?", (league_id,))
        return {int(r[0]) for r in rows}

    async def seat_names(self, game_ids: Sequence[int]) -> dict[int, dict[int, str]]:
        """Each game's seat names (as the game shows them today: a forgotten player's is the neutral one),
        by game id and seat number."""
        out: dict[int, dict[int, str]] = {}
        ids = [int(i) for i in game_ids]
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            rows = await self._all(
                f"SELECT game_id, seat, name FROM seats WHERE game_id IN ({', '.join('?' * len(part))})", part
            )
            for game_id, seat, name in rows:
                out.setdefault(int(game_id), {})[int(seat)] = str(name)
        return out

    async def player_seats(self, guild_xid: int, user_xid: int, limit: int) -> list[PlayerSeatRow]:
        """A player's seats in one server's started games (an abandoned lobby never was), newest game first
        (at most ``limit``): the games of their page and the name they have there."""
        rows = await self._all(
            "SELECT g.id, g.kind, g.status, g.finished_at, g.updated_at, g.result, s.seat, s.name FROM seats s"
            " JOIN games g ON g.id = s.game_id WHERE g.guild_xid = ? AND s.user_xid = ?"
            " AND g.status IN ('active', 'finished', 'abandoned') AND g.started_at IS NOT NULL"
            " ORDER BY g.id DESC LIMIT ?",
            (guild_xid, user_xid, limit),
        )
        return [
            PlayerSeatRow(
                int(r[0]),
                str(r[1]),
                str(r[2]),
                r[3],
                int(r[4]),
                json.loads(r[5]) if r[5] else None,
                int(r[6]),
                str(r[7]),
            )
            for r in rows
        ]

    async def forget_user(self, user_xid: int, anonymous: int) -> int:
        """Forget a player in leagues: memberships (with the name) deleted, leagues they created
        lose the creator, and in every counted game their id becomes ``anonymous`` (one value for
        all their games, so the other players' ratings, computed from these games, do not change).
        Returns rows changed."""

        def anonymise(outcome: Any) -> Any:
            return [{**o, "user": anonymous} if o.get("user") == user_xid else o for o in outcome]

        async with self.store.transaction() as db:
            members = await db.execute("DELETE FROM community_league_members WHERE user_xid = ?", (user_xid,))
            created = await db.execute(
                "UPDATE community_leagues SET created_by = NULL WHERE created_by = ?", (user_xid,)
            )
            games = await rewrite_json(
                db, "community_league_games", ("league_id", "game_id"), "outcome", user_xid, anonymise
            )
        return members + created + len(games)
