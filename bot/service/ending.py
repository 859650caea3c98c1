"""Undo, resign, abandon, pause, forget-me, and the game's language and message ids."""

from __future__ import annotations

import re
from typing import Any

from bot import errors, games, store
from bot.service.base import log
from bot.service.lobby import Lobby
from bot.service.model import FORGOTTEN_NAME, GameInfo, forfeit_result


class Ending(Lobby):
    """Undo, the endings and forget-me: a part of :class:`bot.service.Service` (forget-me leaves the lobbies
    the player sits in, so it builds on :class:`~bot.service.lobby.Lobby`)."""

    # -- undo ------------------------------------------------------------------------------
    async def undo_preview(self, game_id: int, user_xid: int) -> tuple[int, dict[str, Any], int]:
        """(seat, move, version) of the user's own last move if it may be taken back, else an error.

        Allowed only while it is the newest move of the game (nobody acted since) and it revealed
        nothing (no tile drawn, no hand passed): the rules' ``undoable`` decides.
        """
        game = await self._game(game_id)
        if game.status != "active":
            raise errors.GameOver()
        seats = await self._store.seats(game_id)
        seat = next((s for s in seats if s.user_xid == user_xid), None)
        if seat is None:
            raise errors.NotInGame()
        moves = await self._store.moves(game_id)
        if not moves or moves[-1].seat != seat.seat or moves[-1].actor_xid != user_xid:
            raise errors.NotAllowed("error.undo_not_last")
        rules = games.rules(game.kind)
        before = await self._replay_moves(game, len(seats), moves[:-1])
        after = await self._state(game)
        if not rules.undoable(before, seat.seat, moves[-1].move, after):
            raise errors.NotAllowed("error.undo_reveals")
        return seat.seat, moves[-1].move, game.version

    async def undo(self, game_id: int, user_xid: int, expected_version: int) -> GameInfo:
        """Take back the user's last move (after the other players agreed, in the front-end)."""
        async with self._lock(game_id):
            seat, _, version = await self.undo_preview(game_id, user_xid)
            if version != expected_version:
                raise errors.StaleAction()
            game = await self._game(game_id)
            seats = await self._store.seats(game_id)
            moves = await self._store.moves(game_id)
            rules = games.rules(game.kind)
            before_state = await self._state(game)
            state = await self._replay_moves(game, len(seats), moves[:-1])
            try:
                new_version = await self._store.undo_last_move(
                    game_id,
                    expected_version=version,
                    at=self.clock.now_ms(),
                    state=rules.to_json(state),
                    awaiting_changed=rules.awaiting(state) != rules.awaiting(before_state),
                )
            except store.StaleVersion:
                raise errors.StaleAction() from None
            self._remember(game_id, new_version, state)
            del seat
            return await self.info(game_id)

    # -- ending ------------------------------------------------------------------------------
    async def resign(self, game_id: int, user_xid: int) -> GameInfo:
        """A player gives up: the AI plays their seat on; with one player left the game ends."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status != "active":
                raise errors.GameOver() if game.status != "lobby" else errors.NotInLobby("error.not_started")
            seats = await self._store.seats(game_id)
            seat = next((s for s in seats if s.user_xid == user_xid), None)
            if seat is None:
                raise errors.NotInGame()
            if seat.resigned:
                raise errors.NotAllowed("error.resigned")
            rules = games.rules(game.kind)
            await self._store.update_seat(
                game_id, seat.seat, resigned=True, ai_level=seat.ai_level or rules.ai_levels[-1]
            )
            standing = [s for s in seats if not s.resigned and s.seat != seat.seat]
            people_left = [s for s in standing if s.user_xid is not None]
            # Ends when one seat is left, or nobody but AI seats would play on (no AI-only games).
            if len(standing) <= 1 or not people_left:
                result = forfeit_result(len(seats), [s.seat for s in standing])
                await self._store.finish_game(game_id, status="finished", at=self.clock.now_ms(), result=result)
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
            await self._store.finish_game(game_id, status="abandoned", at=self.clock.now_ms(), result=None)
            info = await self.info(game_id)
            await self._notify(self.end_listeners, info)
            return info

    async def pause(self, game_id: int) -> GameInfo | None:
        """The game's channel or thread was deleted: pause it (nothing acts on it until it is
        abandoned). Returns the game if this paused it, None if it was over or already paused."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            if game.status not in store.LIVE_STATUSES or game.paused_at is not None:
                return None
            await self._store.update_game(game_id, paused_at=self.clock.now_ms())
            return await self.info(game_id)

    async def forget_user(self, user_xid: int) -> int:
        """A privacy request: the user's seats keep their games playable (the AI plays them on, under
        a neutral name) but lose the Discord id and name; every feature forgets them too. In a lobby
        the user simply leaves (the host role passes on, or the lobby closes)."""
        changed = 0
        failed = False
        for lobby in await self._store.list_games(user_xid=user_xid, statuses=("lobby",), limit=10_000):
            await self.leave(lobby.id, user_xid)
            changed += 1
        changed += await self._store.delete_user_data(user_xid, replacement_name=FORGOTTEN_NAME)
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

    async def set_locale(self, game_id: int, locale: str) -> None:
        """The language of the game's channel posts; the AI seats take their names in it."""
        async with self._lock(game_id):
            game = await self._game(game_id)
            await self._store.update_game(game_id, locale=locale)
            seats = await self._store.seats(game_id)
            for seat in seats:
                if seat.user_xid is not None or not seat.ai_level:
                    continue
                number = next(
                    (
                        n
                        for n in range(1, len(seats) + 1)
                        if seat.name == games.ai_seat_name(n, seat.ai_level, game.locale)
                    ),
                    None,
                )
                if number is None:
                    number = _older_ai_number(seat.name, games.ai_level_name(seat.ai_level, game.locale))
                if number is not None:
                    await self._store.update_seat(
                        game_id, seat.seat, name=games.ai_seat_name(number, seat.ai_level, locale)
                    )

    async def set_messages(
        self, game_id: int, *, shown: store.GameRow | None = None, **message_xids: int | None
    ) -> store.GameRow | None:
        """Remember the lobby / status / turn message of a game (for edits after a restart); returns the game's row
        as the update left it (None: no such game). ``shown``: the game's row the messages were made from, when the
        caller has it (the recorders get it instead of a row read again: its channel, and the version the messages
        show). The posts the :attr:`post_recorders` name are recorded with the update (on PostgreSQL in its
        statement: one round trip)."""
        columns: dict[str, Any] = dict(message_xids)
        if not self.post_recorders:
            return await self._store.update_game(game_id, **columns)
        game = shown if shown is not None and shown.id == game_id else await self._game(game_id)
        posts: list[store.PostRecord] = []
        for recorder in self.post_recorders:
            try:
                posts += recorder(game, message_xids)
            except Exception:
                log.exception("post recorder %r failed", recorder)
        return await self._store.update_game(game_id, posts=posts, **columns)


def _older_ai_number(name: str, level: str) -> int | None:
    """The number of an AI seat named by an older catalogue ("AI 2 (strong)" before "AI 2 – strong"): the
    name's one number, when the name also holds the level's name in the game's language."""
    numbers = re.findall(r"\d+", name)
    return int(numbers[0]) if len(numbers) == 1 and level in name else None
