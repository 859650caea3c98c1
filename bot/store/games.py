"""The store's tables of games and seats: a lobby opened, seats taken and left, the games listed (by server,
channel, player, status; the untold ones), a game's columns set, the server settings, and forget-me's
changes to these tables. Every write goes through :meth:`~bot.store.database.Database._writing`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.database import Database
from bot.store.engine import IntegrityError
from bot.store.errors import ChannelBusy, SeatTaken
from bot.store.rows import (
    GAME_COLUMNS,
    JSON_GAME_COLUMNS,
    LIVE_STATUSES,
    SAVE_POST,
    UPDATABLE_GAME_COLUMNS,
    GameRow,
    PostRecord,
    SeatRow,
    dumps,
    game_row,
    seat_row,
)

_POST_OF_GAME = (
    "SELECT CAST(? AS BIGINT), id, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT) FROM games WHERE id = ?"
)
"""A post's values for :data:`~bot.store.rows.SAVE_POST`, none when its game is gone."""


def _post_values(post: PostRecord, game_id: int) -> tuple[int, int, str, int, int]:
    return (post.message_xid, post.channel_xid, post.kind, post.version, game_id)


class GameTables(Database):
    """Games, seats and server settings (a part of :class:`~bot.store.Store`)."""

    # -- games -------------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_xid: int | None,
        channel_xid: int | None,
        kind: str,
        options: Mapping[str, Any],
        seed: int,
        host_xid: int | None,
        at: int,
        locale: str = "en",
    ) -> GameRow:
        """A new game in its lobby; ChannelBusy if the channel already has a live game."""
        try:
            async with self.transaction() as db:
                row = await db.fetch_one(
                    "INSERT INTO games (guild_xid, channel_xid, kind, options, seed, status, host_xid,"
                    " created_at, updated_at, locale) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING id",
                    (guild_xid, channel_xid, kind, dumps(options), seed, host_xid, at, at, locale),
                )
                assert row is not None
                game_id = int(row[0])
        except IntegrityError as exc:
            raise ChannelBusy(str(exc)) from None
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        rows = self.rows
        if rows is None:
            return await self._read_game(game_id)
        kept: GameRow | None = rows.get("game", game_id)
        if kept is not None:
            return kept
        with rows.reading(game_id) as keep:
            game = await self._read_game(game_id)
            if game is not None:
                keep.append(("game", game))
        return game

    async def _read_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def live_game_in_channel(self, channel_xid: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE channel_xid = ? AND status IN ('lobby', 'active')",
            (channel_xid,),
        )
        return game_row(row) if row else None

    async def list_games(
        self,
        *,
        guild_xid: int | None = None,
        statuses: Sequence[str] = LIVE_STATUSES,
        channel_xid: int | None = None,
        user_xid: int | None = None,
        limit: int = 25,
    ) -> list[GameRow]:
        """Games filtered by server, channel, player and status, newest first."""
        where = [f"status IN ({', '.join('?' for _ in statuses)})"]
        params: list[Any] = list(statuses)
        if guild_xid is not None:
            where.append("guild_xid = ?")
            params.append(guild_xid)
        if channel_xid is not None:
            where.append("channel_xid = ?")
            params.append(channel_xid)
        if user_xid is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE user_xid = ?)")
            params.append(user_xid)
        params.append(limit)
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE {' AND '.join(where)}"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            params,
        )
        return [game_row(r) for r in rows]

    async def unsettled_games(self, limit: int = 1000) -> list[GameRow]:
        """Games with moves the Discord layer has not finished announcing (see migration 005)."""
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE settled_version < version"
            " AND status IN ('active', 'finished') ORDER BY id LIMIT ?",
            (limit,),
        )
        return [game_row(r) for r in rows]

    async def untold_games(self, changed_by: int, limit: int) -> list[GameRow]:
        """:meth:`unsettled_games` last changed at ``changed_by`` (epoch ms) or before, oldest first: a
        look every few seconds, which the partial index of migration 009 keeps as small as its answer."""
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE settled_version < version AND updated_at <= ?"
            " AND status IN ('active', 'finished') ORDER BY updated_at LIMIT ?",
            (changed_by, limit),
        )
        return [game_row(r) for r in rows]

    async def settle(self, game_id: int, version: int) -> GameRow | None:
        """Record that the moves up to ``version`` were announced (never moves backwards); returns the game's row as
        the write left it (``RETURNING``: what the telling may check without a reading), None for an unknown game."""
        rows = await self._write_one(
            f"UPDATE games SET settled_version = GREATEST(settled_version, ?) WHERE id = ?"
            f" RETURNING {', '.join(GAME_COLUMNS)}",
            (version, game_id),
            game_id,
            seats=False,
        )
        return game_row(rows[0]) if rows else None

    async def count_games(self) -> int:
        row = await self._one("SELECT COUNT(*) FROM games")
        return int(row[0])

    async def update_game(self, game_id: int, *, posts: Sequence[PostRecord] = (), **fields: Any) -> GameRow | None:
        """Set columns of a game that are not guarded by the version (messages, timestamps...); returns the row as
        the update left it (``RETURNING``: no second reading), None for an unknown game. ``posts``: the bot's
        posts about the game recorded with it (``game_posts``, forget-me's record of them; none for an unknown
        game), on PostgreSQL in the same statement (one round trip), on SQLite in the same transaction."""
        bad = set(fields) - UPDATABLE_GAME_COLUMNS
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        sets = ", ".join(f"{k} = ?" for k in fields)
        values = [dumps(v) if k in JSON_GAME_COLUMNS and v is not None else v for k, v in fields.items()]
        sql = f"UPDATE games SET {sets} WHERE id = ? RETURNING {', '.join(GAME_COLUMNS)}"
        if self.rows is None:
            recorded = [
                (f"posted{i} AS (" + SAVE_POST.format(values=_POST_OF_GAME) + " RETURNING 1)", _post_values(p, game_id))
                for i, p in enumerate(posts)
            ]
            if recorded:  # PostgreSQL: the posts ride in the update's statement (data-modifying WITH queries)
                sql = "WITH " + ", ".join(c for c, _ in recorded) + " " + sql
            params = [v for _, post_values in recorded for v in post_values]
            rows = await self._engine.write_one(sql, (*params, *values, game_id))
            return game_row(rows[0]) if rows else None
        with self.rows.rewriting(game_id) as keep:  # SQLite: the row kept for the next reading
            async with self._engine.transaction() as tx:
                for post in posts:
                    await tx.execute(SAVE_POST.format(values=_POST_OF_GAME), _post_values(post, game_id))
                rows = await tx.fetch_all(sql, (*values, game_id))
            game = game_row(rows[0]) if rows else None
            if game is not None:
                keep.append(("game", game))
        return game

    # -- seats -------------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = self.rows
        if rows is None:
            return list(await self._read_seats(game_id))
        kept: tuple[SeatRow, ...] | None = rows.get("seats", game_id)
        if kept is not None:
            return list(kept)
        with rows.reading(game_id) as keep:
            seats = await self._read_seats(game_id)
            keep.append(("seats", seats))
        return list(seats)

    async def game_and_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats (None for an unknown game). PostgreSQL: one statement (one round trip, and one
        moment's view of both); SQLite: :meth:`get_game` and :meth:`seats`, from the kept rows when they are."""
        if self.rows is not None:
            game = await self.get_game(game_id)
            return None if game is None else (game, await self.seats(game_id))
        rows = await self._all(
            f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS)}, s.game_id, s.seat, s.user_xid, s.ai_level,"
            " s.name, s.resigned, s.joined_at FROM games g LEFT JOIN seats s ON s.game_id = g.id"
            " WHERE g.id = ? ORDER BY s.seat",
            (game_id,),
        )
        if not rows:
            return None
        width = len(GAME_COLUMNS)
        return game_row(rows[0][:width]), [seat_row(r[width:]) for r in rows if r[width] is not None]

    async def _read_seats(self, game_id: int) -> tuple[SeatRow, ...]:
        rows = await self._all(
            "SELECT game_id, seat, user_xid, ai_level, name, resigned, joined_at FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return tuple(seat_row(r) for r in rows)

    async def add_seat(
        self, game_id: int, *, user_xid: int | None, ai_level: str | None, name: str, at: int, max_seats: int
    ) -> SeatRow | None:
        """Append a seat to a lobby; None if the lobby is full or no longer a lobby.

        SeatTaken if the user already sits there.
        """
        try:
            async with self._writing(game_id) as db:
                # The game's row first (locked on PostgreSQL until the commit: two processes seating
                # players wait for each other), then the seats, read after the lock is held.
                game = await db.fetch_one(f"SELECT status FROM games WHERE id = ?{db.for_update}", (game_id,))
                taken = await db.fetch_one("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))
                row = None if game is None or taken is None else (game[0], int(taken[0]))
                if (
                    user_xid is not None
                    and await db.fetch_one(
                        "SELECT 1 FROM seats WHERE game_id = ? AND user_xid = ?", (game_id, user_xid)
                    )
                    is not None
                ):
                    raise SeatTaken(str(user_xid))
                if row is None or row[0] != "lobby" or row[1] >= max_seats:
                    return None
                seat = int(row[1])
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_xid, ai_level, name, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seat, user_xid, ai_level, name, at),
                )
                await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))
        except IntegrityError:
            raise SeatTaken(str(user_xid)) from None
        return SeatRow(game_id, seat, user_xid, ai_level, name, False, at)

    async def remove_seat(self, game_id: int, seat: int, at: int) -> bool:
        """Remove a lobby seat and close the gap in seat numbers; ``at`` is the lobby's last change
        (``updated_at``) from now on. False if nothing was removed."""
        async with self._writing(game_id) as db:
            row = await db.fetch_one(f"SELECT status FROM games WHERE id = ?{db.for_update}", (game_id,))
            if row is None or row[0] != "lobby":
                return False
            if await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)) == 0:
                return False
            # Two steps so the primary key never collides while renumbering.
            await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?", (game_id, seat))
            await db.execute("UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,))
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))
        return True

    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        ai_level: str | None = None,
        resigned: bool | None = None,
        name: str | None = None,
    ) -> None:
        fields: dict[str, Any] = {}
        if ai_level is not None:
            fields["ai_level"] = ai_level
        if resigned is not None:
            fields["resigned"] = int(resigned)
        if name is not None:
            fields["name"] = name
        if not fields:
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self._writing(game_id) as db:
            await db.execute(
                f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?", (*fields.values(), game_id, seat)
            )

    # -- settings ----------------------------------------------------------------------------
    async def guild_settings(self, guild_xid: int) -> dict[str, Any]:
        row = await self._one("SELECT data FROM guild_settings WHERE guild_xid = ?", (guild_xid,))
        return dict(json.loads(row[0])) if row else {}

    async def set_guild_settings(self, guild_xid: int, data: Mapping[str, Any]) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_xid, data) VALUES (?, ?)"
                " ON CONFLICT (guild_xid) DO UPDATE SET data = excluded.data",
                (guild_xid, dumps(data)),
            )

    async def delete_user_data(self, user_xid: int, *, replacement_name: str) -> int:
        """Forget a user: their seats keep the game playable but lose the Discord id and name; the
        games they host and the moves they clicked lose the id. Returns the rows changed."""
        async with self._writing() as db:
            changed = 0
            for sql, params in (
                (
                    "UPDATE seats SET user_xid = NULL, ai_level = COALESCE(ai_level, 'greedy'), name = ?"
                    " WHERE user_xid = ?",
                    (replacement_name, user_xid),
                ),
                ("UPDATE games SET host_xid = NULL WHERE host_xid = ?", (user_xid,)),
                ("UPDATE moves SET actor_xid = NULL WHERE actor_xid = ?", (user_xid,)),
            ):
                changed += await db.execute(sql, params)
            return changed
