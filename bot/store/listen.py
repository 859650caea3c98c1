"""PostgreSQL's notifications of moves: a committed move is announced (``NOTIFY``, in the move's own
transaction) and a :class:`MoveListener` hears every move committed by any process on the database.
Re-exported by :mod:`bot.store.engine`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]

log = logging.getLogger("bot.store.engine")  # the name these records had before the split

MOVES_CHANNEL = "game_moves"
"""The channel a committed move is announced on (``NOTIFY``, in the move's own transaction): payload
``"<game id>:<version>"``."""
NOTIFY_MOVE = f"SELECT pg_notify('{MOVES_CHANNEL}', ?)"
RECONNECT_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""The pauses before each new try when the listening connection is lost (the last one repeats)."""


def move_payload(game_id: int, version: int) -> str:
    return f"{game_id}:{version}"


def parse_move_payload(payload: str) -> tuple[int, int] | None:
    """``(game id, version)`` from a notification, or None for anything else (never an exception)."""
    game, sep, version = payload.partition(":")
    if not sep or not game.isdigit() or not version.isdigit():
        return None
    return int(game), int(version)


class MoveListener:
    """One dedicated connection (outside the pool) that ``LISTEN``s on :data:`MOVES_CHANNEL` and calls
    ``on_move(game_id, version)`` for every move committed by any process on the database. When the
    connection drops it tries again (after :data:`RECONNECT_SECONDS`) until :meth:`close`;
    ``on_state(True/False)`` says when it is listening and when not (a move committed while it was down
    is not announced again: the caller reads the versions itself then)."""

    def __init__(
        self,
        url: str,
        on_move: Callable[[int, int], None],
        on_state: Callable[[bool], None] | None = None,
        *,
        timeout: float = 10.0,
    ) -> None:
        self.url = url
        self.on_move = on_move
        self.on_state = on_state or (lambda live: None)
        self.timeout = timeout
        self.live = False
        self.connects = 0
        """Connections made (the first and every reconnection)."""
        self.heard = 0
        """Notifications of moves received."""
        self._conn: Any = None
        self._lost = asyncio.Event()
        self._closed = False
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect once now (so a caller knows it listens before it returns), then keep listening."""
        with contextlib.suppress(*_CONNECT_ERRORS):
            await self._connect()
        self._task = asyncio.create_task(self._keep(), name="store-listen-moves")

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url, timeout=self.timeout)
        try:
            self._lost.clear()
            conn.add_termination_listener(lambda _conn: self._lost.set())
            await conn.add_listener(MOVES_CHANNEL, self._heard)
        except BaseException:
            await conn.close(timeout=1)
            raise
        self._conn = conn
        self.connects += 1
        self._set_live(True)

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        found = parse_move_payload(payload)
        if found is None:
            return
        self.heard += 1
        try:
            self.on_move(*found)
        except Exception:
            log.exception("store: a move's notification could not be handled")

    def _set_live(self, live: bool) -> None:
        if live != self.live:
            self.live = live
            try:
                self.on_state(live)
            except Exception:
                log.exception("store: the listener's state could not be handled")

    async def _keep(self) -> None:
        tries = 0
        while not self._closed:
            if self._conn is not None:
                await self._lost.wait()
                if self._closed:
                    return
                log.warning("store: the connection listening for moves was lost; connecting again")
                self._set_live(False)
                conn, self._conn = self._conn, None
                with contextlib.suppress(Exception):
                    conn.terminate()
            await asyncio.sleep(RECONNECT_SECONDS[min(tries, len(RECONNECT_SECONDS) - 1)])
            try:
                await self._connect()
                tries = 0
            except _CONNECT_ERRORS:
                tries += 1

    def drop(self) -> None:
        """Cut the listening connection as a network failure would (it connects again by itself)."""
        if self._conn is not None:
            self._conn.terminate()

    async def close(self) -> None:
        self._closed = True
        self._lost.set()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=1)
        self._set_live(False)


_CONNECT_ERRORS = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
