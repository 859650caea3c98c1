"""The moves: a player's choices and move (an old button obeyed while it still means the same thing), the AI
seats' moves, the timers' system moves, the AI playing for a seat whose deadline passed; and what a restart
tells again (the newest move, the games never fully announced)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot import errors, games, store
from bot.rules import core
from bot.service.base import ServiceBase
from bot.service.model import GameInfo, MoveOutcome, Snapshot, choices_token, named


class Play(ServiceBase):
    """The moves' part of :class:`bot.service.Service`."""

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

    async def move(
        self,
        game_id: int,
        user_xid: int,
        move: Mapping[str, Any],
        expected_version: int | None = None,
        token: str | None = None,
        on_committed: Callable[[MoveOutcome], None] | None = None,
    ) -> MoveOutcome:
        """Apply a human's move.

        ``expected_version`` (from a button) must still be current, with one exception for games
        where everyone acts at once: a button whose ``token`` shows the seat is still offered exactly
        the same choices, and who has not moved since, means the same thing now and is obeyed.
        ``on_committed`` is called with the outcome as soon as the move is committed, before the move
        listeners (reminders, undo) run: a front-end starts the player's acknowledgement there.
        """
        async with self._lock(game_id):
            game, seats = await self._game_and_seats(game_id)
            if game.status == "lobby":
                raise errors.NotInLobby("error.not_started")
            if game.status != "active":
                raise errors.GameOver()
            seat = next((s for s in seats if s.user_xid == user_xid), None)
            if seat is None:
                raise errors.NotInGame()
            if seat.resigned:
                raise errors.NotAllowed("error.resigned")
            if expected_version is not None and expected_version != game.version:
                await self._check_still_meant(game, seat.seat, expected_version, token)
            return await self._apply(game, seats, seat.seat, dict(move), actor_xid=user_xid, on_committed=on_committed)

    async def _check_still_meant(self, game: store.GameRow, seat: int, version: int, token: str | None) -> None:
        """StaleAction unless an old button still means the same thing (see :meth:`move`)."""
        if token is None or version > game.version:
            raise errors.StaleAction()
        if any(m.seat == seat for m in await self._store.moves(game.id) if m.version > version):
            raise errors.StaleAction()
        state = await self._state(game)
        if choices_token(games.rules(game.kind).legal_moves(state, seat)) != token:
            raise errors.StaleAction()

    async def choices(self, game_id: int, user_xid: int) -> tuple[GameInfo, int, list[core.Move], str]:
        """(info, seat, legal moves, token) for the player's private choices now."""
        info, seat, moves = await self.legal_moves(game_id, user_xid)
        return info, seat, moves, choices_token(moves)

    async def private_choices(
        self, game_id: int, user_xid: int, made: Snapshot | None = None
    ) -> tuple[int, list[core.Move], str, Snapshot]:
        """(seat, legal moves, token, the snapshot they come from) for the player's private choices now,
        from one reading of the game. A game not in play offers nothing (NotInLobby in its lobby). ``made``: the
        snapshot a move of this process left, used without a reading while this process knows of no later version
        of the game (its states' cache); a menu it offers after another process's move is stale, and its click
        refused (or obeyed, when it still means the same thing), by the version checked in the database."""
        fresh = made is not None and made.info.id == game_id and self.knows_no_later(made)
        info = made.info if made is not None and fresh else await self.info(game_id)
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
            seats = await self._store.seats(game_id)
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
            seats = await self._store.seats(game_id)
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
        moves = await self._store.moves(game_id)
        if not moves or game.status not in ("active", "finished"):
            return None
        last = moves[-1]
        seats = await self._store.seats(game_id)
        rules = games.rules(game.kind)
        before = await self._replay_moves(game, len(seats), moves[:-1])
        after = await self._state(game)
        key, params = rules.describe(before, last.seat, last.move, after)
        awaiting = rules.awaiting(after) if game.status == "active" else frozenset()
        info = GameInfo(game, tuple(seats), awaiting)
        return MoveOutcome(
            info=info,
            seat=last.seat,
            move=last.move,
            version=game.version,
            summary=(key, named(info, last.seat, params)),
            finished=game.status == "finished",
            result=game.result,
            newly_awaited=awaiting - rules.awaiting(before),
            snapshot=Snapshot(info, game.version, after, self._views),
        )

    async def play_for(
        self,
        game_id: int,
        seat: int,
        *,
        level: str | None = None,
        take_over: bool = False,
        unless_moved_since: int | None = None,
    ) -> MoveOutcome | None:
        """The AI plays one move for an awaited seat (a deadline passed); optionally keeps the seat.

        None (nothing done) if the seat is not awaited, or, with ``unless_moved_since``, if the seat
        itself moved after that version (the player beat the deadline by a hair).
        """
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "active":
                return None
            if unless_moved_since is not None and any(
                m.seat == seat for m in await self._store.moves(game_id) if m.version > unless_moved_since
            ):
                return None
            rules = games.rules(game.kind)
            state = await self._state(game)
            if seat not in rules.awaiting(state):
                return None
            level = level if level in rules.ai_levels else rules.ai_levels[-1]
            seats = await self._store.seats(game_id)
            if take_over:
                await self._store.update_seat(game_id, seat, ai_level=level)
                seats = await self._store.seats(game_id)
            move = rules.ai_move(state, seat, level, core.derive_seed(game.seed, "ai", game.version))
            return await self._apply(game, seats, seat, dict(move), actor_xid=None)

    # -- what a restart tells again ----------------------------------------------------------
    async def unsettled(self) -> list[tuple[store.GameRow, MoveOutcome | None, bool]]:
        """Games whose newest change was never fully announced: (game, its last move told again,
        whether that move is the newest change). The newest change may instead be an undo, or there
        may be nothing to tell (None)."""
        return [await self._unsettled(game) for game in await self._store.unsettled_games()]

    async def left_untold(self, changed_by: int, limit: int) -> list[store.GameRow]:
        """Games with a change never fully announced, last changed at ``changed_by`` (epoch ms) or
        before: left behind by a process that stopped."""
        return await self._store.untold_games(changed_by, limit)

    async def unsettled_game(self, game_id: int) -> list[tuple[store.GameRow, MoveOutcome | None, bool]]:
        """:meth:`unsettled` for one game (empty when everything of it was announced)."""
        game = await self._game(game_id)
        if game.settled_version >= game.version or game.status not in ("active", "finished"):
            return []
        return [await self._unsettled(game)]

    async def _unsettled(self, game: store.GameRow) -> tuple[store.GameRow, MoveOutcome | None, bool]:
        outcome = await self.last_outcome(game.id)
        moves = await self._store.moves(game.id)
        newest = (
            outcome is not None
            and outcome.info.game.version == game.version
            and bool(moves)
            and moves[-1].version == game.version
        )
        return game, outcome, newest

    async def settle(self, game_id: int, version: int) -> store.GameRow | None:
        """Record that the moves up to ``version`` were announced (a restart tells only the rest); returns the game's
        row as the write left it (None for an unknown game)."""
        return await self._store.settle(game_id, version)

    def knows_no_later(self, snap: Snapshot) -> bool:
        """Whether ``snap`` (a move's snapshot) is still the newest version of its game this process knows of (its
        states' cache): what follows the move may then use it without a reading. Another process's later move is
        not known here: whoever uses it checks against the database (a version, a row written or returned)."""
        cached = self._cache.get(snap.info.id)
        return cached is not None and cached[0] == snap.version

    def knows_version(self, game_id: int, version: int) -> bool:
        """Whether this process has seen the game at ``version`` or later (its states' cache)."""
        cached = self._cache.get(game_id)
        return cached is not None and cached[0] >= version
