"""The only writer: lobby, turns, permissions, AI seats, timers. No Discord here.

Every method takes plain ids and returns plain result objects; refusals are :mod:`bot.errors`
exceptions carrying a message id. Each move is one store transaction that checks the version it was
computed from, under a per-game lock, so a double click or a burst of concurrent submissions plays
exactly once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot import errors, games, store
from bot.rules import core

log = logging.getLogger(__name__)

FORGOTTEN_NAME = "Former player"
STATE_CACHE_SIZE = 256
VIEW_CACHE_SIZE = 64
"""Views kept per service: a turn reads the same view for its picture, controls and status."""
"""How many games' current states stay parsed in memory (a cache; the store is the truth)."""


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    """Wall-clock time in epoch milliseconds (UTC)."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class GameInfo:
    """A game with its seats, as the front-ends need it."""

    game: store.GameRow
    seats: tuple[store.SeatRow, ...]
    awaiting: frozenset[int] = frozenset()

    @property
    def id(self) -> int:
        return self.game.id

    def seat_of(self, user_xid: int) -> store.SeatRow | None:
        for s in self.seats:
            if s.user_xid == user_xid:
                return s
        return None

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "?"

    def awaited_users(self) -> list[int]:
        """Discord ids of the humans who must act now."""
        return [s.user_xid for s in self.seats
                if s.seat in self.awaiting and s.user_xid is not None and not s.is_ai]

    def awaited_ai(self) -> list[int]:
        return [s.seat for s in self.seats if s.seat in self.awaiting and s.is_ai]


def named(info: GameInfo, seat: int, params: Mapping[str, Any]) -> dict[str, Any]:
    """A move's description told with the players' names: ``player`` the acting seat's name ("-" for the
    game's own moves), and every seat the description refers to (:func:`bot.rules.core.seat_ref`) by its
    name. Every front-end tells a move through this."""
    return {"player": info.name(seat) if seat >= 0 else "-", **core.name_seats(dict(params), info.name)}


@dataclass(frozen=True)
class MoveOutcome:
    """What one applied move did."""

    info: GameInfo
    seat: int
    move: dict[str, Any]
    version: int
    summary: tuple[str, dict[str, Any]]
    finished: bool
    result: dict[str, Any] | None
    newly_awaited: frozenset[int] = field(default_factory=frozenset)
    snapshot: Snapshot | None = field(default=None, compare=False, repr=False)
    """The game right after the move (its state and cached views): front-ends need not re-read it."""

    @property
    def locale(self) -> str:
        """The language of the game's channel posts."""
        return self.info.game.locale


@dataclass(frozen=True)
class Snapshot:
    """A game at one version: its info, rules state and a view for one seat.

    Views are computed once per (game, version, seat) and shared (a view may search every
    city's best allocation): treat them as read-only.
    """

    info: GameInfo
    version: int
    state: Any
    views: OrderedDict[tuple[int, int, int | None], games.View] = field(
        default_factory=OrderedDict, compare=False, repr=False)

    def view(self, seat: int | None) -> games.View:
        key = (self.info.id, self.version, seat)
        cached = self.views.get(key)
        if cached is None:
            cached = self.views[key] = games.rules(self.info.game.kind).view(self.state, seat)
            while len(self.views) > VIEW_CACHE_SIZE:
                self.views.popitem(last=False)
        return cached


class Service:
    """Lobby, turns and games over a :class:`bot.store.Store`."""

    def __init__(self, db: store.Store, clock: Clock | None = None,
                 seed_source: Callable[[], int] | None = None) -> None:
        self.store = db
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
        self.message_listeners: list[Callable[[store.GameRow, Mapping[str, int | None]], Awaitable[None]]] = []
        """Called after :meth:`set_messages` with the game's row and the message ids set (the erasure
        feature keeps every turn post's id, so a forget-me can reach it). Errors are logged, not raised."""

    # -- helpers -----------------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _game(self, game_id: int) -> store.GameRow:
        game = await self.store.get_game(game_id)
        if game is None:
            raise errors.UnknownGame(game=game_id)
        return game

    async def info(self, game_id: int) -> GameInfo:
        game = await self._game(game_id)
        seats = tuple(await self.store.seats(game_id))
        awaiting: frozenset[int] = frozenset()
        if game.status == "active":
            state = await self._state(game)
            awaiting = games.rules(game.kind).awaiting(state)
        return GameInfo(game, seats, awaiting)

    async def game_in_channel(self, channel_xid: int) -> GameInfo:
        """The live game of a channel or thread, or NoGameHere."""
        game = await self.store.live_game_in_channel(channel_xid)
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
        snap = await self.store.snapshot(game.id)
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
        seats = await self.store.seats(game.id)
        state = rules.setup(game.options, len(seats), game.seed)
        for row in await self.store.moves(game.id, upto=upto):
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

    # -- lobby -------------------------------------------------------------------------------
    async def create_game(
        self, *, guild_xid: int | None, channel_xid: int | None, kind: str,
        options: Mapping[str, Any], host_xid: int | None, host_name: str,
        ai_seats: int = 0, ai_level: str | None = None, locale: str = "en",
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
            game = await self.store.create_game(
                guild_xid=guild_xid, channel_xid=channel_xid, kind=kind, options=opts,
                seed=self._seed_source(), host_xid=host_xid, at=now, locale=locale)
        except store.ChannelBusy:
            busy = await self.store.live_game_in_channel(channel_xid or 0)
            raise errors.ChannelBusy(game=busy.id if busy else "?") from None
        if host_xid is not None:
            await self.store.add_seat(game.id, user_xid=host_xid, ai_level=None, name=host_name,
                                      at=now, max_seats=high)
        for _ in range(ai_seats):
            await self._add_ai_seat(game.id, level or "", high, locale)
        return await self.info(game.id)

    async def _add_ai_seat(self, game_id: int, level: str, high: int, locale: str) -> store.SeatRow:
        seats = await self.store.seats(game_id)
        number = sum(1 for s in seats if s.user_xid is None) + 1
        row = await self.store.add_seat(game_id, user_xid=None, ai_level=level,
                                        name=games.ai_seat_name(number, level, locale), at=self.clock.now_ms(),
                                        max_seats=high)
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
                row = await self.store.add_seat(game_id, user_xid=user_xid, ai_level=None, name=name,
                                                at=self.clock.now_ms(), max_seats=high)
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
            seat = next((s for s in await self.store.seats(game_id) if s.user_xid == user_xid), None)
            if seat is None:
                raise errors.NotInGame()
            await self.store.remove_seat(game_id, seat.seat, self.clock.now_ms())
            remaining = [s for s in await self.store.seats(game_id) if s.user_xid is not None]
            if not remaining:
                await self.store.finish_game(game_id, status="abandoned", at=self.clock.now_ms(),
                                             result=None)
            elif game.host_xid == user_xid:
                await self.store.update_game(game_id, host_xid=remaining[0].user_xid)
            return await self.info(game_id)

    async def unjoin(self, game_id: int, user_xid: int, *, as_of: int) -> bool:
        """Take back a join nobody saw (Discord refused the lobby message that showed it): the seat goes
        and the lobby's last change is ``as_of`` again (its ``updated_at`` before the join), so the game
        is exactly as before. False if the game left its lobby or the seat is gone meanwhile."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            seat = next((s for s in await self.store.seats(game_id) if s.user_xid == user_xid), None)
            if game.status != "lobby" or seat is None:
                return False
            return await self.store.remove_seat(game_id, seat.seat, as_of)

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
                raise errors.IllegalMove("error.bad_ai_level", level=level,
                                         choices=", ".join(rules.ai_levels))
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
            seats = await self.store.seats(game_id)
            low, high = self._seat_range(game)
            if not low <= len(seats) <= high:
                raise errors.SeatCount(low=low, high=high)
            state = self.initial_state(game, len(seats))
            rules = games.rules(game.kind)
            if not await self.store.start_game(game_id, state=rules.to_json(state),
                                               at=self.clock.now_ms()):
                raise errors.NotInLobby("error.already_started")
            self._remember(game_id, 0, state)
            return await self.info(game_id)

    # -- play --------------------------------------------------------------------------------
    async def legal_moves(self, game_id: int, user_xid: int) -> tuple[GameInfo, int, list[core.Move]]:
        """(info, seat, moves) for a player; empty moves when they are not awaited."""
        info = await self.info(game_id)
        seat = info.seat_of(user_xid)
        if seat is None:
            raise errors.NotInGame()
        if info.game.status != "active":
            return info, seat.seat, []
        state = await self._state(info.game)
        return info, seat.seat, games.rules(info.game.kind).legal_moves(state, seat.seat)

    async def move(self, game_id: int, user_xid: int, move: Mapping[str, Any],
                   expected_version: int | None = None, token: str | None = None,
                   on_committed: Callable[[MoveOutcome], None] | None = None) -> MoveOutcome:
        """Apply a human's move.

        ``expected_version`` (from a button) must still be current, with one exception for games
        where everyone acts at once: a button whose ``token`` shows the seat is still offered exactly
        the same choices, and who has not moved since, means the same thing now and is obeyed.
        ``on_committed`` is called with the outcome as soon as the move is committed, before the move
        listeners (reminders, undo) run: a front-end starts the player's acknowledgement there.
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status == "lobby":
                raise errors.NotInLobby("error.not_started")
            if game.status != "active":
                raise errors.GameOver()
            seats = await self.store.seats(game_id)
            seat = next((s for s in seats if s.user_xid == user_xid), None)
            if seat is None:
                raise errors.NotInGame()
            if seat.resigned:
                raise errors.NotAllowed("error.resigned")
            if expected_version is not None and expected_version != game.version:
                await self._check_still_meant(game, seat.seat, expected_version, token)
            return await self._apply(game, seats, seat.seat, dict(move), actor_xid=user_xid,
                                     on_committed=on_committed)

    async def _check_still_meant(self, game: store.GameRow, seat: int, version: int,
                                 token: str | None) -> None:
        """StaleAction unless an old button still means the same thing (see :meth:`move`)."""
        if token is None or version > game.version:
            raise errors.StaleAction()
        if any(m.seat == seat for m in await self.store.moves(game.id) if m.version > version):
            raise errors.StaleAction()
        state = await self._state(game)
        if choices_token(games.rules(game.kind).legal_moves(state, seat)) != token:
            raise errors.StaleAction()

    async def choices(self, game_id: int, user_xid: int) -> tuple[GameInfo, int, list[core.Move], str]:
        """(info, seat, legal moves, token) for the player's private choices now."""
        info, seat, moves = await self.legal_moves(game_id, user_xid)
        return info, seat, moves, choices_token(moves)

    async def private_choices(self, game_id: int, user_xid: int) -> tuple[int, list[core.Move], str, Snapshot]:
        """(seat, legal moves, token, the snapshot they come from) for the player's private choices now,
        from one reading of the game. A game not in play offers nothing (NotInLobby in its lobby)."""
        info = await self.info(game_id)
        seat = info.seat_of(user_xid)
        if seat is None:
            raise errors.NotInGame()
        if info.game.status == "lobby":
            raise errors.NotInLobby("error.not_started")
        snap = await self.snapshot_of(info)
        moves = games.rules(info.game.kind).legal_moves(snap.state, seat.seat) if info.game.status == "active" else []
        return seat.seat, moves, choices_token(moves), snap

    async def play_ai(self, game_id: int) -> MoveOutcome | None:
        """Let one awaited AI seat move; None if no AI seat is awaited."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "active" or game.paused_at is not None:
                return None
            seats = await self.store.seats(game_id)
            rules = games.rules(game.kind)
            state = await self._state(game)
            awaiting = rules.awaiting(state)
            ai = [s for s in seats if s.seat in awaiting and s.is_ai]
            if not ai:
                return None
            seat = ai[0]
            level = seat.ai_level if seat.ai_level in rules.ai_levels else rules.ai_levels[-1]
            move = rules.ai_move(state, seat.seat, level, core.derive_seed(game.seed, "ai", game.version))
            return await self._apply(game, seats, seat.seat, dict(move), actor_xid=None)

    async def system_tick(self, game_id: int) -> MoveOutcome | None:
        """Apply the game's due system move (a timer ran out), if any."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "active" or game.paused_at is not None:
                return None
            rules = games.rules(game.kind)
            state = await self._state(game)
            move = rules.system_move(state, self.clock.now_ms())
            if move is None:
                return None
            seats = await self.store.seats(game_id)
            return await self._apply(game, seats, core.SYSTEM_SEAT, dict(move), actor_xid=None)

    async def deadline(self, game_id: int) -> int | None:
        """Epoch ms at which the game's timer runs out (None: no timer running)."""
        game = await self._game(game_id)
        if game.status != "active" or game.paused_at is not None:
            return None
        return games.rules(game.kind).timer_deadline(await self._state(game))

    async def last_outcome(self, game_id: int) -> MoveOutcome | None:
        """The newest live move told again as a MoveOutcome (to announce it after a restart)."""
        game = await self._game(game_id)
        moves = await self.store.moves(game_id)
        if not moves or game.status not in ("active", "finished"):
            return None
        last = moves[-1]
        seats = await self.store.seats(game_id)
        rules = games.rules(game.kind)
        before = await self._replay_moves(game, len(seats), moves[:-1])
        after = await self._state(game)
        key, params = rules.describe(before, last.seat, last.move, after)
        awaiting = rules.awaiting(after) if game.status == "active" else frozenset()
        info = GameInfo(game, tuple(seats), awaiting)
        return MoveOutcome(info=info, seat=last.seat, move=last.move, version=game.version,
                           summary=(key, named(info, last.seat, params)),
                           finished=game.status == "finished", result=game.result,
                           newly_awaited=awaiting - rules.awaiting(before),
                           snapshot=Snapshot(info, game.version, after, self._views))

    async def _apply(self, game: store.GameRow, seats: list[store.SeatRow], seat: int,
                     move: dict[str, Any], *, actor_xid: int | None,
                     on_committed: Callable[[MoveOutcome], None] | None = None) -> MoveOutcome:
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
            version = await self.store.commit_move(
                game.id, expected_version=game.version, seat=seat, move=move, at=now,
                actor_xid=actor_xid, state=rules.to_json(after_state),
                awaiting_changed=after != before, result=result)
        except store.StaleVersion:
            raise errors.StaleAction() from None
        self._remember(game.id, version, after_state)
        key, params = rules.describe(state, seat, move, after_state)
        # The row as the transaction left it (no read): the version check proved nobody else wrote it.
        row = replace(game, version=version, updated_at=now,
                      awaiting_since=now if after != before else game.awaiting_since)
        if result is not None:
            row = replace(row, status="finished", finished_at=now, result=result)
        info = GameInfo(row, tuple(seats), after)
        params = named(info, seat, params)
        outcome = MoveOutcome(info=info, seat=seat, move=move, version=version, summary=(key, params),
                              finished=finished, result=result, newly_awaited=after - before,
                              snapshot=Snapshot(info, version, after_state, self._views))
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

    # -- undo, timeouts --------------------------------------------------------------------
    async def undo_preview(self, game_id: int, user_xid: int) -> tuple[int, dict[str, Any], int]:
        """(seat, move, version) of the user's own last move if it may be taken back, else an error.

        Allowed only while it is the newest move of the game (nobody acted since) and it revealed
        nothing (no tile drawn, no hand passed): the rules' ``undoable`` decides.
        """
        game = await self._game(game_id)
        if game.status != "active":
            raise errors.GameOver()
        seats = await self.store.seats(game_id)
        seat = next((s for s in seats if s.user_xid == user_xid), None)
        if seat is None:
            raise errors.NotInGame()
        moves = await self.store.moves(game_id)
        if not moves or moves[-1].seat != seat.seat or moves[-1].actor_xid != user_xid:
            raise errors.NotAllowed("error.undo_not_last")
        rules = games.rules(game.kind)
        before = await self._replay_moves(game, len(seats), moves[:-1])
        after = await self._state(game)
        if not rules.undoable(before, seat.seat, moves[-1].move, after):
            raise errors.NotAllowed("error.undo_reveals")
        return seat.seat, moves[-1].move, game.version

    async def _replay_moves(self, game: store.GameRow, seat_count: int, moves: list[store.MoveRow]) -> Any:
        rules = games.rules(game.kind)
        state = rules.setup(game.options, seat_count, game.seed)
        for row in moves:
            state = rules.apply(state, row.seat, row.move)
        return state

    async def undo(self, game_id: int, user_xid: int, expected_version: int) -> GameInfo:
        """Take back the user's last move (after the other players agreed, in the front-end)."""
        async with self._lock(game_id):
            seat, _, version = await self.undo_preview(game_id, user_xid)
            if version != expected_version:
                raise errors.StaleAction()
            game = await self._game(game_id)
            seats = await self.store.seats(game_id)
            moves = await self.store.moves(game_id)
            rules = games.rules(game.kind)
            before_state = await self._state(game)
            state = await self._replay_moves(game, len(seats), moves[:-1])
            try:
                new_version = await self.store.undo_last_move(
                    game_id, expected_version=version, at=self.clock.now_ms(), state=rules.to_json(state),
                    awaiting_changed=rules.awaiting(state) != rules.awaiting(before_state))
            except store.StaleVersion:
                raise errors.StaleAction() from None
            self._remember(game_id, new_version, state)
            del seat
            return await self.info(game_id)

    async def play_for(self, game_id: int, seat: int, *, level: str | None = None,
                       take_over: bool = False, unless_moved_since: int | None = None) -> MoveOutcome | None:
        """The AI plays one move for an awaited seat (a deadline passed); optionally keeps the seat.

        None (nothing done) if the seat is not awaited, or, with ``unless_moved_since``, if the seat
        itself moved after that version (the player beat the deadline by a hair).
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "active":
                return None
            if unless_moved_since is not None and any(
                    m.seat == seat for m in await self.store.moves(game_id) if m.version > unless_moved_since):
                return None
            rules = games.rules(game.kind)
            state = await self._state(game)
            if seat not in rules.awaiting(state):
                return None
            level = level if level in rules.ai_levels else rules.ai_levels[-1]
            seats = await self.store.seats(game_id)
            if take_over:
                await self.store.update_seat(game_id, seat, ai_level=level)
                seats = await self.store.seats(game_id)
            move = rules.ai_move(state, seat, level, core.derive_seed(game.seed, "ai", game.version))
            return await self._apply(game, seats, seat, dict(move), actor_xid=None)

    # -- ending ------------------------------------------------------------------------------
    async def resign(self, game_id: int, user_xid: int) -> GameInfo:
        """A player gives up: the AI plays their seat on; with one player left the game ends."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "active":
                raise errors.GameOver() if game.status != "lobby" else errors.NotInLobby("error.not_started")
            seats = await self.store.seats(game_id)
            seat = next((s for s in seats if s.user_xid == user_xid), None)
            if seat is None:
                raise errors.NotInGame()
            if seat.resigned:
                raise errors.NotAllowed("error.resigned")
            rules = games.rules(game.kind)
            await self.store.update_seat(game_id, seat.seat, resigned=True,
                                         ai_level=seat.ai_level or rules.ai_levels[-1])
            standing = [s for s in seats if not s.resigned and s.seat != seat.seat]
            people_left = [s for s in standing if s.user_xid is not None]
            # Ends when one seat is left, or nobody but AI seats would play on (no AI-only games).
            if len(standing) <= 1 or not people_left:
                result = forfeit_result(len(seats), [s.seat for s in standing])
                await self.store.finish_game(game_id, status="finished", at=self.clock.now_ms(),
                                             result=result)
                info = await self.info(game_id)
                await self._notify(self.end_listeners, info)
                return info
            return await self.info(game_id)

    async def abandon(self, game_id: int, actor_xid: int, *, is_admin: bool) -> GameInfo:
        """Stop a game for good: the host, or a member who may manage the server."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status not in store.LIVE_STATUSES:
                raise errors.GameOver()
            if game.host_xid != actor_xid and not is_admin:
                raise errors.NotAllowed("error.abandon_not_allowed")
            await self.store.finish_game(game_id, status="abandoned", at=self.clock.now_ms(), result=None)
            info = await self.info(game_id)
            await self._notify(self.end_listeners, info)
            return info

    async def withdraw(self, game_id: int) -> bool:
        """Take back a lobby nobody saw (Discord refused the message that showed it): the game and its
        seats are removed as if it had never been opened, and its channel is free. False if it has
        left its lobby meanwhile."""
        async with self._lock(game_id):
            return await self.store.withdraw_lobby(game_id)

    async def pause(self, game_id: int) -> GameInfo | None:
        """The game's channel or thread was deleted: pause it (nothing acts on it until it is
        abandoned). Returns the game if this paused it, None if it was over or already paused."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status not in store.LIVE_STATUSES or game.paused_at is not None:
                return None
            await self.store.update_game(game_id, paused_at=self.clock.now_ms())
            return await self.info(game_id)

    async def list_games(self, guild_xid: int, *, statuses: tuple[str, ...] = store.LIVE_STATUSES,
                         limit: int = 25) -> list[GameInfo]:
        return [await self.info(g.id)
                for g in await self.store.list_games(guild_xid=guild_xid, statuses=statuses, limit=limit)]

    async def forget_user(self, user_xid: int) -> int:
        """A privacy request: the user's seats keep their games playable (the AI plays them on, under
        a neutral name) but lose the Discord id and name; every feature forgets them too. In a lobby
        the user simply leaves (the host role passes on, or the lobby closes)."""
        changed = 0
        failed = False
        for lobby in await self.store.list_games(user_xid=user_xid, statuses=("lobby",), limit=10_000):
            await self.leave(lobby.id, user_xid)
            changed += 1
        changed += await self.store.delete_user_data(user_xid, replacement_name=FORGOTTEN_NAME)
        for listener in self.forget_listeners:
            try:
                changed += await listener(user_xid)
            except Exception:
                log.exception("forget listener %r failed", listener)
                failed = True
        self._cache.clear()
        self._views.clear()
        if failed:
            # Never tell a player they were forgotten when a part of the bot still holds them.
            raise errors.NotAllowed("privacy.incomplete", n=changed)
        return changed

    async def move_log(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        """The live moves of a game as (seat, move), oldest first (the game's story is told from it)."""
        return [(m.seat, m.move) for m in await self.store.moves(game_id)]

    async def games_of(self, user_xid: int, *, statuses: tuple[str, ...] = ("active",),
                       limit: int = 10_000) -> list[store.GameRow]:
        """Games a user sits in, by status."""
        return await self.store.list_games(user_xid=user_xid, statuses=statuses, limit=limit)

    async def active_games(self, limit: int = 10_000) -> list[store.GameRow]:
        """Every game in play (to resume after a restart); a paused game is not in play."""
        return [g for g in await self.store.list_games(statuses=("active",), limit=limit) if g.paused_at is None]

    async def game(self, game_id: int) -> store.GameRow:
        """A game's row (UnknownGame if there is none)."""
        return await self._game(game_id)

    async def unsettled(self) -> list[tuple[store.GameRow, MoveOutcome | None, bool]]:
        """Games whose newest change was never fully announced: (game, its last move told again,
        whether that move is the newest change). The newest change may instead be an undo, or there
        may be nothing to tell (None)."""
        return [await self._unsettled(game) for game in await self.store.unsettled_games()]

    async def left_untold(self, changed_by: int, limit: int) -> list[store.GameRow]:
        """Games with a change never fully announced, last changed at ``changed_by`` (epoch ms) or
        before: left behind by a process that stopped."""
        return await self.store.untold_games(changed_by, limit)

    async def unsettled_game(self, game_id: int) -> list[tuple[store.GameRow, MoveOutcome | None, bool]]:
        """:meth:`unsettled` for one game (empty when everything of it was announced)."""
        game = await self._game(game_id)
        if game.settled_version >= game.version or game.status not in ("active", "finished"):
            return []
        return [await self._unsettled(game)]

    async def _unsettled(self, game: store.GameRow) -> tuple[store.GameRow, MoveOutcome | None, bool]:
        outcome = await self.last_outcome(game.id)
        moves = await self.store.moves(game.id)
        newest = (outcome is not None and outcome.info.game.version == game.version
                  and bool(moves) and moves[-1].version == game.version)
        return game, outcome, newest

    async def settle(self, game_id: int, version: int) -> None:
        """Record that the moves up to ``version`` were announced (a restart tells only the rest)."""
        await self.store.settle(game_id, version)

    async def set_locale(self, game_id: int, locale: str) -> None:
        """The language of the game's channel posts; the AI seats take their names in it."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            await self.store.update_game(game_id, locale=locale)
            seats = await self.store.seats(game_id)
            for seat in seats:
                if seat.user_xid is not None or not seat.ai_level:
                    continue
                number = next((n for n in range(1, len(seats) + 1)
                               if seat.name == games.ai_seat_name(n, seat.ai_level, game.locale)), None)
                if number is not None:
                    await self.store.update_seat(game_id, seat.seat,
                                                 name=games.ai_seat_name(number, seat.ai_level, locale))

    async def set_messages(self, game_id: int, **message_xids: int | None) -> None:
        """Remember the lobby / status / turn message of a game (for edits after a restart)."""
        if not self.message_listeners:
            await self.store.update_game(game_id, **message_xids)
            return
        game = await self._game(game_id)  # its channel and version, which setting messages leaves alone

        async def tell(listener: Callable[[store.GameRow, Mapping[str, int | None]], Awaitable[None]]) -> None:
            try:
                await listener(game, message_xids)
            except Exception:
                log.exception("message listener %r failed", listener)

        # Side by side: on SQLite the listeners' writes join the update's commit (one fsync, not two).
        await asyncio.gather(self.store.update_game(game_id, **message_xids),
                             *(tell(listener) for listener in self.message_listeners))


def choices_token(moves: list[core.Move]) -> str:
    """A short fingerprint of the choices a seat is offered (8 hex digits)."""
    text = json.dumps(moves, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def forfeit_result(seat_count: int, standing: list[int]) -> dict[str, Any]:
    """A result for a game ended by resignation: standing seats share first place, resigned seats
    come after them. With nobody standing (a solo game given up) nobody wins: every seat ranks
    second and the details say ``gave_up``."""
    seats = []
    for seat in range(seat_count):
        rank = 1 if seat in standing else len(standing) + 1 if standing else 2
        seats.append({"seat": seat, "total": 0, "breakdown": {}, "rank": rank, "tiebreak": [],
                      "details": {"forfeit": seat not in standing}})
    return {"seats": seats, "decided_by": "forfeit", "details": {"forfeit": True, "gave_up": not standing}}
