"""What every part of the service shares: the store (private: nothing but the service and the composition
root reaches it), the clock, the per-game locks, the cache of current states and views, reading a game and
its state, and applying one move (one store transaction, the version checked inside it) with its listeners."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from bot import errors, games, store
from bot.rules import core
from bot.service.model import STATE_CACHE_SIZE, Clock, GameInfo, MoveOutcome, Snapshot, SystemClock, named

log = logging.getLogger("bot.service")


class ServiceBase:
    """Lobby, turns and games over a :class:`bot.store.Store` (the parts of :class:`bot.service.Service`
    share this base)."""

    def __init__(
        self, db: store.Store, clock: Clock | None = None, seed_source: Callable[[], int] | None = None
    ) -> None:
        self._store = db
        self.clock = clock or SystemClock()
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._views: OrderedDict[tuple[int, int, int | None], games.View] = OrderedDict()
        self.move_listeners: list[Callable[[MoveOutcome], Awaitable[None]]] = []
        """Called after every committed move (reminders, leagues...). Errors are logged, not raised."""
        self.end_listeners: list[Callable[[GameInfo], Awaitable[None]]] = []
        """Called when a game ends by any path (last move, resignation, abandon)."""
        self.forget_listeners: list[Callable[[int], Awaitable[int]]] = []
        """Called with a user id when that user asks to be forgotten; each returns rows changed."""
        self.post_recorders: list[Callable[[store.GameRow, Mapping[str, int | None]], list[store.PostRecord]]] = []
        """Called by :meth:`set_messages` with the game's row and the message ids to set; each names the posts to
        record in the same write (the erasure feature keeps every turn post's id, so a forget-me can reach it).
        Errors are logged, not raised: the ids are set all the same."""

    # -- helpers -----------------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _game(self, game_id: int) -> store.GameRow:
        game = await self._store.get_game(game_id)
        if game is None:
            raise errors.UnknownGame(game=game_id)
        return game

    async def _game_and_seats(self, game_id: int) -> tuple[store.GameRow, list[store.SeatRow]]:
        """The game and its seats in one reading (one round trip on PostgreSQL)."""
        found = await self._store.game_and_seats(game_id)
        if found is None:
            raise errors.UnknownGame(game=game_id)
        return found

    async def info(self, game_id: int) -> GameInfo:
        game, listed = await self._game_and_seats(game_id)
        seats = tuple(listed)
        awaiting: frozenset[int] = frozenset()
        if game.status == "active":
            state = await self._state(game)
            awaiting = games.rules(game.kind).awaiting(state)
        return GameInfo(game, seats, awaiting)

    async def game_in_channel(self, channel_xid: int) -> GameInfo:
        """The live game of a channel or thread, or NoGameHere."""
        game = await self._store.live_game_in_channel(channel_xid)
        if game is None:
            raise errors.NoGameHere()
        return await self.info(game.id)

    async def _state(self, game: store.GameRow) -> Any:
        """The rules state at the game's current version (cache, snapshot, or replay)."""
        cached = self._cache.get(game.id)
        if cached is not None and cached[0] == game.version:
            self._cache.move_to_end(game.id)
            return cached[1]
        rules = games.rules(game.kind)
        snap = await self._store.snapshot(game.id)
        if snap is not None and snap[0] == game.version:
            state = rules.from_json(snap[1])
        else:
            state = await self._replay(game, game.version)
        self._remember(game.id, game.version, state)
        return state

    def _remember(self, game_id: int, version: int, state: Any) -> None:
        self._cache[game_id] = (version, state)
        self._cache.move_to_end(game_id)
        while len(self._cache) > STATE_CACHE_SIZE:
            self._cache.popitem(last=False)

    def initial_state(self, game: store.GameRow, seat_count: int) -> Any:
        return games.rules(game.kind).setup(game.options, seat_count, game.seed)

    async def _replay(self, game: store.GameRow, upto: int) -> Any:
        """Rebuild a state from the move log alone."""
        rules = games.rules(game.kind)
        seats = await self._store.seats(game.id)
        state = rules.setup(game.options, len(seats), game.seed)
        for row in await self._store.moves(game.id, upto=upto):
            state = rules.apply(state, row.seat, row.move)
        return state

    async def snapshot_of(self, info: GameInfo) -> Snapshot:
        """The snapshot of a game already read (its state from the cache when it is current)."""
        return Snapshot(info, info.game.version, await self._state(info.game), self._views)

    async def snapshot(self, game_id: int, version: int | None = None) -> Snapshot:
        """The game as it is now, or as it was after ``version`` moves (replayed from the log)."""
        info = await self.info(game_id)
        if info.game.status == "lobby":
            raise errors.NotInLobby("error.not_started")
        if version is None or version >= info.game.version:
            return Snapshot(info, info.game.version, await self._state(info.game), self._views)
        return Snapshot(info, max(version, 0), await self._replay(info.game, max(version, 0)), self._views)

    async def _replay_moves(self, game: store.GameRow, seat_count: int, moves: list[store.MoveRow]) -> Any:
        rules = games.rules(game.kind)
        state = rules.setup(game.options, seat_count, game.seed)
        for row in moves:
            state = rules.apply(state, row.seat, row.move)
        return state

    async def _apply(
        self,
        game: store.GameRow,
        seats: list[store.SeatRow],
        seat: int,
        move: dict[str, Any],
        *,
        actor_xid: int | None,
        on_committed: Callable[[MoveOutcome], None] | None = None,
    ) -> MoveOutcome:
        rules = games.rules(game.kind)
        state = await self._state(game)
        before = rules.awaiting(state)
        if seat != core.SYSTEM_SEAT and seat not in before:
            raise errors.NotYourTurn()
        now = self.clock.now_ms()
        if rules.uses_time:
            move["at"] = now
        try:
            after_state = rules.apply(state, seat, move)
        except core.GameError:
            raise
        except (KeyError, TypeError, ValueError, IndexError):
            # A malformed move (forged custom_id, hand-typed JSON) is a refusal, not a crash.
            raise errors.IllegalMove("error.bad_move") from None
        after = rules.awaiting(after_state)
        finished = rules.is_over(after_state)
        result = rules.result(after_state).to_json() if finished else None
        try:
            committed = await self._store.commit_move(
                game.id,
                expected_version=game.version,
                seat=seat,
                move=move,
                at=now,
                actor_xid=actor_xid,
                state=rules.to_json(after_state),
                awaiting_changed=after != before,
                result=result,
            )
        except store.StaleVersion:
            raise errors.StaleAction() from None
        version = committed.version
        self._remember(game.id, version, after_state)
        key, params = rules.describe(state, seat, move, after_state)
        # The row as the transaction left it (no read): the version check proved nobody else wrote it.
        row = replace(
            game, version=version, updated_at=now, awaiting_since=now if after != before else game.awaiting_since
        )
        if result is not None:
            row = replace(row, status="finished", finished_at=now, result=result)
        info = GameInfo(row, tuple(seats), after)
        params = named(info, seat, params)
        outcome = MoveOutcome(
            info=info,
            seat=seat,
            move=move,
            version=version,
            summary=(key, params),
            finished=finished,
            result=result,
            newly_awaited=after - before,
            snapshot=Snapshot(info, version, after_state, self._views),
            older_undos_open=committed.older_undos_open,
            settings=committed.settings,
            followers=committed.followers,
        )
        if on_committed is not None:
            try:
                on_committed(outcome)
            except Exception:
                log.exception("on_committed failed")
        await self._notify(self.move_listeners, outcome)
        if finished:
            await self._notify(self.end_listeners, info)
        return outcome

    async def _notify(self, listeners: list[Callable[[Any], Awaitable[None]]], arg: Any) -> None:
        for listener in listeners:
            try:
                await listener(arg)
            except Exception:
                log.exception("listener %r failed", listener)

    async def game(self, game_id: int) -> store.GameRow:
        """A game's row (UnknownGame if there is none)."""
        return await self._game(game_id)
