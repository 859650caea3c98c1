"""The lobby: a game opened with its host (and AI seats), players joining and leaving, AI seats added, the
host starting the game; a lobby nobody saw taken back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import errors, games, store
from bot.service.base import ServiceBase
from bot.service.model import GameInfo


class Lobby(ServiceBase):
    """The lobby's part of :class:`bot.service.Service`."""

    # -- lobby -------------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_xid: int | None,
        channel_xid: int | None,
        kind: str,
        options: Mapping[str, Any],
        host_xid: int | None,
        host_name: str,
        ai_seats: int = 0,
        ai_level: str | None = None,
        locale: str = "en",
    ) -> GameInfo:
        """A new lobby with its host seated (and optional AI seats); ``locale`` is the language of its
        channel posts."""
        rules = games.rules(kind)
        opts = rules.normalise_options(options)
        low, high = rules.seat_range(opts)
        if ai_seats < 0 or ai_seats + (1 if host_xid is not None else 0) > high:
            raise errors.SeatCount(low=low, high=high)
        level = ai_level or (rules.ai_levels[-1] if rules.ai_levels else None)
        if ai_seats and level not in rules.ai_levels:
            raise errors.IllegalMove("error.bad_ai_level", level=level, choices=", ".join(rules.ai_levels))
        now = self.clock.now_ms()
        try:
            game = await self._store.create_game(
                guild_xid=guild_xid,
                channel_xid=channel_xid,
                kind=kind,
                options=opts,
                seed=self._seed_source(),
                host_xid=host_xid,
                at=now,
                locale=locale,
            )
        except store.ChannelBusy:
            busy = await self._store.live_game_in_channel(channel_xid or 0)
            raise errors.ChannelBusy(game=busy.id if busy else "?") from None
        if host_xid is not None:
            await self._store.add_seat(
                game.id, user_xid=host_xid, ai_level=None, name=host_name, at=now, max_seats=high
            )
        for _ in range(ai_seats):
            await self._add_ai_seat(game.id, level or "", high, locale)
        return await self.info(game.id)

    async def _add_ai_seat(self, game_id: int, level: str, high: int, locale: str) -> store.SeatRow:
        seats = await self._store.seats(game_id)
        number = sum(1 for s in seats if s.user_xid is None) + 1
        row = await self._store.add_seat(
            game_id,
            user_xid=None,
            ai_level=level,
            name=games.ai_seat_name(number, level, locale),
            at=self.clock.now_ms(),
            max_seats=high,
        )
        if row is None:
            raise errors.LobbyFull()
        return row

    def _seat_range(self, game: store.GameRow) -> tuple[int, int]:
        return games.rules(game.kind).seat_range(game.options)

    async def join(self, game_id: int, user_xid: int, name: str) -> GameInfo:
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "lobby":
                raise errors.NotInLobby()
            _, high = self._seat_range(game)
            try:
                row = await self._store.add_seat(
                    game_id, user_xid=user_xid, ai_level=None, name=name, at=self.clock.now_ms(), max_seats=high
                )
            except store.SeatTaken:
                raise errors.AlreadyJoined() from None
            if row is None:
                raise errors.LobbyFull(high=high)
            return await self.info(game_id)

    async def leave(self, game_id: int, user_xid: int) -> GameInfo:
        """Leave a lobby; the host leaving an otherwise empty lobby closes it."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "lobby":
                raise errors.NotInLobby("error.leave_started")
            seat = next((s for s in await self._store.seats(game_id) if s.user_xid == user_xid), None)
            if seat is None:
                raise errors.NotInGame()
            await self._store.remove_seat(game_id, seat.seat, self.clock.now_ms())
            remaining = [s for s in await self._store.seats(game_id) if s.user_xid is not None]
            if not remaining:
                await self._store.finish_game(game_id, status="abandoned", at=self.clock.now_ms(), result=None)
            elif game.host_xid == user_xid:
                await self._store.update_game(game_id, host_xid=remaining[0].user_xid)
            return await self.info(game_id)

    async def unjoin(self, game_id: int, user_xid: int, *, as_of: int) -> bool:
        """Take back a join nobody saw (Discord refused the lobby message that showed it): the seat goes
        and the lobby's last change is ``as_of`` again (its ``updated_at`` before the join), so the game
        is exactly as before. False if the game left its lobby or the seat is gone meanwhile."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            seat = next((s for s in await self._store.seats(game_id) if s.user_xid == user_xid), None)
            if game.status != "lobby" or seat is None:
                return False
            return await self._store.remove_seat(game_id, seat.seat, as_of)

    async def add_ai(self, game_id: int, actor_xid: int, level: str | None = None) -> GameInfo:
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "lobby":
                raise errors.NotInLobby()
            if game.host_xid != actor_xid:
                raise errors.NotHost()
            rules = games.rules(game.kind)
            level = level or (rules.ai_levels[-1] if rules.ai_levels else "")
            if level not in rules.ai_levels:
                raise errors.IllegalMove("error.bad_ai_level", level=level, choices=", ".join(rules.ai_levels))
            await self._add_ai_seat(game_id, level, self._seat_range(game)[1], game.locale)
            return await self.info(game_id)

    async def start(self, game_id: int, actor_xid: int) -> GameInfo:
        """The host starts the game once the seat count fits."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "lobby":
                raise errors.NotInLobby("error.already_started")
            if game.host_xid != actor_xid:
                raise errors.NotHost()
            seats = await self._store.seats(game_id)
            low, high = self._seat_range(game)
            if not low <= len(seats) <= high:
                raise errors.SeatCount(low=low, high=high)
            state = self.initial_state(game, len(seats))
            rules = games.rules(game.kind)
            if not await self._store.start_game(game_id, state=rules.to_json(state), at=self.clock.now_ms()):
                raise errors.NotInLobby("error.already_started")
            self._remember(game_id, 0, state)
            return await self.info(game_id)

    async def withdraw(self, game_id: int) -> bool:
        """Take back a lobby nobody saw (Discord refused the message that showed it): the game and its
        seats are removed as if it had never been opened, and its channel is free. False if it has
        left its lobby meanwhile."""
        async with self._lock(game_id):
            return await self._store.withdraw_lobby(game_id)
