"""Group commit for SQLite: writers queued at the same moment share one ``COMMIT`` (one fsync).

With ``synchronous=FULL`` every commit waits for the disk (a few milliseconds here), and the one
connection runs one writer at a time, so under load the writers queue behind each other's fsyncs and
the reads queue behind them on the same connection thread. Here each writer's work runs inside a
``SAVEPOINT`` of a transaction that stays open while more writers are already waiting for the lock
(the first writer of a group needs none; a writer that succeeded leaves its savepoint open, and the next
one's nests inside it); the last of them commits the whole group, and every writer
returns only after that commit: what a writer's caller acknowledges is on disk, as before. (A writer
that stops waiting, cancelled, leaves a flush task to commit what it would have.)

Reads on the same connection meanwhile see the open group's writes a few milliseconds before they are
committed; nothing is acknowledged from them: the per-game lock of the service keeps the next move of
a game waiting until the previous one's commit returned.

A writer whose work fails rolls back its own savepoint only; the others of its group are unaffected.
If the ``COMMIT`` itself fails, every writer of the group gets the error (nothing of theirs was
acknowledged). A group holds at most :data:`MAX_GROUP` writers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.store.counters import COUNTERS

log = logging.getLogger(__name__)

MAX_GROUP = 256
"""Writers sharing one commit at most (a bound on what one failed commit takes back). Under the load bench
(100 channels, about 800 writers a second) groups reach the bound: at 256 rather than 64, a move was
acknowledged about 50 ms sooner at the median and 40 ms at the 95th percentile, at the same rate (four
alternating pairs of runs); at 8 the rate fell by a fifth, and 1024 gained nothing more."""


class _Group:
    """The writers of one open transaction, waiting for its commit."""

    def __init__(self) -> None:
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.size = 0


class GroupCommit:
    """One writer at a time on ``conn`` (an aiosqlite connection in autocommit mode), commits shared."""

    def __init__(self, conn: Any, max_group: int = MAX_GROUP) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._group: _Group | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._queued = 0
        """Writers waiting for the lock."""
        self.max_group = max_group
        self.commits = 0
        """How many commits were made (a figure for the benches)."""
        self.writes = 0
        """How many writers committed."""

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One writer's work: rolled back alone on any error; returns once its group is committed."""
        self._queued += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._queued -= 1
            # A writer that stopped waiting may have been the one to close the open group.
            self._flusher = asyncio.create_task(self._flush(), name="store-group-commit")
            raise
        self._queued -= 1
        COUNTERS.transactions += 1
        try:
            # The group's first writer needs no savepoint: should it fail, the whole transaction is
            # its own and is rolled back.
            first = self._group is None
            COUNTERS.round_trips += 1
            if first:
                await self._conn.execute("BEGIN IMMEDIATE")
                self._group = _Group()
            else:
                await self._conn.execute("SAVEPOINT writer")
            group = self._group
            assert group is not None
            try:
                yield
            except BaseException:
                if first:
                    self._group = None
                    group.done.set_result(None)  # nobody else joined it
                    COUNTERS.round_trips += 1
                    await self._conn.execute("ROLLBACK")
                else:
                    COUNTERS.round_trips += 2
                    await self._conn.execute("ROLLBACK TO writer")
                    await self._conn.execute("RELEASE writer")
                raise
            # A writer that succeeded leaves its savepoint open (no RELEASE: one trip to the connection's
            # thread less per writer): the next writer's savepoint nests inside it, a later ROLLBACK TO
            # undoes only the most recent one of that name, and the group's COMMIT ends them all.
            group.size += 1
        finally:
            try:
                # Commit now when nobody else waits to write (or the group is full); else the next
                # writer, already queued, continues the group and decides again.
                if self._group is not None and (self._queued == 0 or self._group.size >= self.max_group):
                    await self._commit(self._group)
            finally:
                self._lock.release()
        await asyncio.shield(group.done)

    async def _flush(self) -> None:
        try:
            await self.flush()
        except Exception:
            log.exception("a group commit failed")  # its writers were given the error

    async def _commit(self, group: _Group) -> None:
        self._group = None
        COUNTERS.round_trips += 1
        COUNTERS.commits += 1
        commit = asyncio.ensure_future(self._conn.execute("COMMIT"))
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            # The commit goes on in the connection's thread: its writers learn how it ended.
            commit.add_done_callback(lambda done: self._settle(group, done))
            raise
        except Exception:
            try:
                await self._conn.execute("ROLLBACK")
            except Exception:
                log.exception("rollback after a failed commit failed")
        self._settle(group, commit)
        commit.result()  # the committing writer gets the error too

    def _settle(self, group: _Group, commit: asyncio.Future[Any]) -> None:
        if group.done.done():
            return
        exc = commit.exception() if not commit.cancelled() else RuntimeError("the commit was cancelled")
        if exc is not None:
            group.done.set_exception(exc)
            group.done.exception()  # marked retrieved: each writer re-raises it
            return
        self.commits += 1
        self.writes += group.size
        group.done.set_result(None)

    async def flush(self) -> None:
        """Commit the open group, if any (before closing the connection)."""
        async with self._lock:
            if self._group is not None:
                await self._commit(self._group)

    async def alone(self, sql: str) -> list[Any]:
        """Run a statement outside any transaction (the open group committed first, no writer meanwhile):
        a checkpoint of the write-ahead log. Returns its rows."""
        async with self._lock:
            if self._group is not None:
                await self._commit(self._group)
            return list(await self._conn.execute_fetchall(sql))
