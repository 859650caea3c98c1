"""The PostgreSQL connections the engine keeps between uses (:class:`Keeper`), and the line of uses waiting
for one.

asyncpg's acquire and release of a pooled connection cost about as much of the bot's CPU as a short statement
itself (about 70 µs each way on the 2-core test machine: 150 µs per pooled ``SELECT`` against 60 to 80 µs on a
held connection), and a move makes a dozen reads. So every use takes a kept connection; when none is free, one
from the pool while the engine holds fewer than the pool's size; else it waits in line (first come, first
served) for the next connection a use gives back, which is handed to it directly: a busy bot, whose uses
outnumber its connections, pays for no acquire nor release (issue 42: 21 acquisitions per move on the load
bench before, none after).

A use gives its connection back to the kept ones (or to the first in line) when it is clean: no exception but
the server's own refusal of a statement, not in a transaction, not closed. A connection that is not clean (a
cancelled statement, a lost connection), one that served :data:`KEEP_USES` uses, and every kept one at
:meth:`Keeper.close` go back to the pool, whose reset and checks then apply; the first in line then takes one
from the pool. A use cancelled while in line leaves it; one cancelled just as a connection was handed to it
hands that connection on. The pool's size still bounds the connections in use, kept or not.

Split from :mod:`bot.store.engine` (the module budget, ARCHITECTURE.md)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from typing import Any

from bot.store.counters import COUNTERS

KEEP_USES = 1000
"""How many statements or transactions a kept connection serves before it goes back to the pool (whose own rules,
``max_queries`` and ``expire_connections``, then apply to it as to any other)."""


class Kept:
    """A connection taken from the pool and kept by the engine, with the uses it served since."""

    __slots__ = ("conn", "uses")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.uses = 0


class Keeper:
    """The connections an asyncpg pool lent the engine (module docstring)."""

    def __init__(self, pool: Any, *, reset_trips: int = 0) -> None:
        self.pool = pool
        self.reset_trips = reset_trips
        """Round trips a connection's return to the pool costs: none with the store's reset (``keep_session``);
        asyncpg's default reset is one more query per acquisition."""
        self._kept: list[Kept] = []
        self._held = 0
        """Connections taken from the pool and not given back to it (kept, in use, or on their way to a use)."""
        self._line: collections.deque[asyncio.Future[Kept | None]] = collections.deque()
        """Uses waiting for a connection, first come first served: each gets one a use gave back, or None when
        a connection went back to the pool (it then takes one from the pool)."""
        self._closing = False

    @property
    def waiting(self) -> int:
        """Uses waiting in line for a connection."""
        return sum(1 for waiter in self._line if not waiter.done())

    def _size(self) -> int:
        size = self.pool.get_max_size()
        return int(size) if isinstance(size, int) else 1

    async def take(self) -> Kept:
        """A kept connection, else one from the pool while the engine holds fewer than its size, else the next
        one a use gives back (in line)."""
        while True:
            if self._kept:
                return self._kept.pop()
            if self._held < self._size() or self._closing:
                self._held += 1
                COUNTERS.acquisitions += 1
                COUNTERS.round_trips += self.reset_trips
                try:
                    return Kept(await self.pool.acquire())
                except BaseException:
                    self._held -= 1
                    self._pass_on(None)
                    raise
            waiter: asyncio.Future[Kept | None] = asyncio.get_running_loop().create_future()
            self._line.append(waiter)
            try:
                given = await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._pass_on(waiter.result())  # handed over as this use was cancelled: to the next one
                else:
                    with contextlib.suppress(ValueError):
                        self._line.remove(waiter)
                raise
            if given is not None:
                return given

    def _pass_on(self, kept: Kept | None) -> None:
        """A clean connection (or, None, a free place in the pool) to the first use in line; a connection nobody
        waits for is kept."""
        while self._line:
            waiter = self._line.popleft()
            if not waiter.done():
                waiter.set_result(kept)
                return
        if kept is not None:
            self._kept.append(kept)

    async def give_back(self, kept: Kept, *, clean: bool) -> None:
        """After a use: a clean connection to the first in line or the kept ones, any other to the pool."""
        kept.uses += 1
        conn = kept.conn
        if clean and not self._closing and kept.uses < KEEP_USES and not conn.is_closed():
            clean = not conn.is_in_transaction()
        else:
            clean = False
        if clean:
            self._pass_on(kept)
            return
        self._held -= 1
        try:
            await self.pool.release(conn)  # asyncpg shields it: it finishes even when this task is cancelled
        finally:
            self._pass_on(None)

    async def close(self) -> None:
        """Every kept connection back to the pool (before it closes); a use still in line goes to the pool,
        which refuses it."""
        self._closing = True
        kept, self._kept = self._kept, []
        for one in kept:
            self._held -= 1
            await self.pool.release(one.conn)
        while self._line:
            self._pass_on(None)
