"""What the front-ends and the features read of the games, through the service (the store is private to
it): games listed by server, channel, player and status, a game's row, seats and move log, every watched
game's version at once and the listener of every process's moves (the web pages' live updates), and the
length of a process's claims on work."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot import store
from bot.service.base import ServiceBase
from bot.service.model import GameInfo


class Reads(ServiceBase):
    """The read model's part of :class:`bot.service.Service`."""

    async def list_games(
        self, guild_xid: int, *, statuses: tuple[str, ...] = store.LIVE_STATUSES, limit: int = 25
    ) -> list[GameInfo]:
        return [
            await self.info(g.id)
            for g in await self._store.list_games(guild_xid=guild_xid, statuses=statuses, limit=limit)
        ]

    async def move_log(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        """The live moves of a game as (seat, move), oldest first (the game's story is told from it)."""
        return [(m.seat, m.move) for m in await self._store.moves(game_id)]

    async def games_of(
        self, user_xid: int, *, statuses: tuple[str, ...] = ("active",), limit: int = 10_000
    ) -> list[store.GameRow]:
        """Games a user sits in, by status."""
        return await self._store.list_games(user_xid=user_xid, statuses=statuses, limit=limit)

    async def active_games(self, limit: int = 10_000) -> list[store.GameRow]:
        """Every game in play (to resume after a restart); a paused game is not in play."""
        return [g for g in await self._store.list_games(statuses=("active",), limit=limit) if g.paused_at is None]

    async def find_game(self, game_id: int) -> store.GameRow | None:
        """A game's row, or None when there is none."""
        return await self._store.get_game(game_id)

    async def game_rows(
        self,
        *,
        guild_xid: int | None = None,
        statuses: Sequence[str] = store.LIVE_STATUSES,
        channel_xid: int | None = None,
        user_xid: int | None = None,
        limit: int = 25,
    ) -> list[store.GameRow]:
        """Games filtered by server, channel, player and status, newest first."""
        return await self._store.list_games(
            guild_xid=guild_xid, statuses=statuses, channel_xid=channel_xid, user_xid=user_xid, limit=limit
        )

    async def seats(self, game_id: int) -> list[store.SeatRow]:
        """A game's seats, in seat order."""
        return await self._store.seats(game_id)

    async def move_rows(self, game_id: int, *, upto: int | None = None) -> list[store.MoveRow]:
        """The live moves of a game as the log keeps them (oldest first), up to a version."""
        return await self._store.moves(game_id, upto=upto)

    async def game_versions(self, game_ids: Iterable[int]) -> dict[int, int]:
        """The current version of each of these games (unknown ids are left out), in one query per 500."""
        return await self._store.game_versions(game_ids)

    async def listen_moves(
        self, on_move: Callable[[int, int], None], on_state: Callable[[bool], None] | None = None
    ) -> store.MoveListener | None:
        """PostgreSQL: ``on_move(game_id, version)`` for every move any process commits
        (:meth:`bot.store.Store.listen_moves`); SQLite: None."""
        return await self._store.listen_moves(on_move, on_state)

    @property
    def lease_ms(self) -> int:
        """How long a claim of this process on work lasts unless renewed (the store's ``lease_ms``)."""
        return self._store.lease_ms
