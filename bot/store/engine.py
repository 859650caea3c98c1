"""The database engines under the store: SQLite (aiosqlite, the default) and PostgreSQL (asyncpg, a pool).

Every SQL statement of the bot is written once, in the subset both engines speak:

- ``?`` placeholders (translated to ``$1, $2...`` for PostgreSQL);
- ``INSERT ... ON CONFLICT ... DO NOTHING / DO UPDATE SET col = excluded.col`` (never ``OR IGNORE`` /
  ``OR REPLACE``), and new ids through ``RETURNING id`` (never ``lastrowid``);
- ``GREATEST(a, b)`` / ``LEAST(a, b)`` for the two-argument maximum and minimum (SQLite's ``MAX`` /
  ``MIN``: translated for it);
- ``IS NOT DISTINCT FROM ?`` to compare with a value that may be NULL, ``CAST(? AS BIGINT) IS NULL`` for
  an optional filter (PostgreSQL must know a parameter's type), ``? = 1`` for a flag, never a bare ``?``
  as a condition; ``lower(a) = lower(?)`` instead of ``COLLATE NOCASE``;
- integers are 64-bit everywhere (Discord ids and epoch milliseconds exceed 32 bits), flags are 0/1
  integers and JSON is text, so rows read the same from both engines.

A :class:`Tx` (one transaction) and the :class:`Engine` (reads outside a transaction) offer the same few
calls: ``execute`` (returns the rows changed), ``executemany``, ``fetch_one``, ``fetch_all``. A
constraint violation is :class:`IntegrityError` on both engines. ``tx.for_update`` is ``" FOR UPDATE"``
on PostgreSQL (a row lock, so a read-then-write holds across processes) and empty on SQLite, where
``BEGIN IMMEDIATE`` already serialises every writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg  # type: ignore[import-untyped]

from bot.store.groupcommit import GroupCommit

log = logging.getLogger(__name__)

Row = Sequence[Any]
SQLITE = "sqlite"
POSTGRES = "postgres"
URL_SCHEMES = ("postgresql://", "postgres://")


class IntegrityError(Exception):
    """A constraint refused a write (either engine). ``kind``: unique, check, foreign_key, not_null."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(f"{kind.upper()}: {text}")
        self.kind = kind


def is_url(target: object) -> bool:
    """Whether a database setting names a PostgreSQL server (else it is a SQLite file)."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def redact(url: str) -> str:
    """A database URL fit for a log or a sentence: the password replaced by ``***``."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.hostname or ""
        netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    except ValueError:
        return url.split("@", 1)[-1]


@functools.lru_cache(maxsize=2048)
def to_sqlite(sql: str) -> str:
    """The portable SQL in SQLite's words (two-argument ``MAX`` / ``MIN``)."""
    return re.sub(r"\bGREATEST\(", "MAX(", re.sub(r"\bLEAST\(", "MIN(", sql))


@functools.lru_cache(maxsize=2048)
def to_postgres(sql: str) -> str:
    """The portable SQL in PostgreSQL's words: ``?`` -> ``$n`` (outside quoted text)."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(ch)
    return "".join(out)


def _sqlite_integrity(exc: sqlite3.IntegrityError) -> IntegrityError:
    text = str(exc)
    upper = text.upper()
    kind = (
        "unique"
        if "UNIQUE" in upper
        else "check"
        if "CHECK" in upper
        else "foreign_key"
        if "FOREIGN KEY" in upper
        else "not_null"
        if "NOT NULL" in upper
        else "constraint"
    )
    return IntegrityError(kind, text)


class Tx(Protocol):
    """One open transaction (or the engine itself, for reads)."""

    dialect: str
    for_update: str

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int: ...

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None: ...

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...


class Engine(Protocol):
    """An open database: reads outside a transaction, one :class:`Tx` per write."""

    dialect: str

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """``async with engine.transaction() as tx`` (a :class:`Tx`); rolled back on any error."""

    async def scrub(self, tables: Iterable[str]) -> None:
        """After a forget-me, outside any transaction: the old bytes of changed rows leave the disk
        (SQLite: a ``TRUNCATE`` checkpoint of the write-ahead log; PostgreSQL: ``VACUUM`` of ``tables``)."""

    async def close(self) -> None: ...


# -- SQLite ------------------------------------------------------------------------------------------
class SqliteEngine:
    """One aiosqlite connection; one writer at a time (an asyncio lock, then ``BEGIN IMMEDIATE``)."""

    dialect = SQLITE
    for_update = ""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.writers = GroupCommit(conn)
        """Writers queued at the same moment share one commit (:mod:`bot.store.groupcommit`)."""

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        try:
            cur = await self.conn.execute(to_sqlite(sql), tuple(params))
        except sqlite3.IntegrityError as exc:
            raise _sqlite_integrity(exc) from None
        # No close (another trip to the connection's thread): the statement is done, the cursor goes
        # with its last reference.
        return max(0, int(cur.rowcount))

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        try:
            await self.conn.executemany(to_sqlite(sql), [tuple(r) for r in rows])
        except sqlite3.IntegrityError as exc:
            raise _sqlite_integrity(exc) from None

    # A read is one trip to the connection's thread (execute and fetch together), not three (execute,
    # fetch, close): each trip costs the event loop a wake-up, and a busy bot makes a dozen reads a click.
    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        try:
            return list(await self.conn.execute_fetchall(to_sqlite(sql), tuple(params)))
        except sqlite3.IntegrityError as exc:  # an INSERT ... RETURNING
            raise _sqlite_integrity(exc) from None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteEngine]:
        """One writer at a time; rolled back on any error. Returns once committed: writers queued at the
        same moment share one commit (one fsync), each in its own savepoint (:mod:`bot.store.groupcommit`)."""
        async with self.writers.transaction():
            yield self

    async def scrub(self, tables: Iterable[str]) -> None:
        """After a forget-me: the write-ahead log's old frames (which still hold the rows as they were)
        are copied into the file and the log truncated to nothing (``wal_checkpoint(TRUNCATE)``); the
        rows' old bytes in the file itself were zeroed as they were deleted (``secure_delete``, set on
        the connection at open). ``tables``: unused here (a checkpoint is of the whole file)."""
        del tables
        await self.writers.alone("PRAGMA wal_checkpoint(TRUNCATE)")

    async def close(self) -> None:
        await self.writers.flush()
        await self.conn.close()


# -- PostgreSQL --------------------------------------------------------------------------------------
def _count(status: str) -> int:
    """Rows changed, from asyncpg's command tag (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _pg_integrity(exc: Exception) -> IntegrityError:
    kind = (
        "unique"
        if isinstance(exc, asyncpg.UniqueViolationError)
        else "check"
        if isinstance(exc, asyncpg.CheckViolationError)
        else "foreign_key"
        if isinstance(exc, asyncpg.ForeignKeyViolationError)
        else "not_null"
        if isinstance(exc, asyncpg.NotNullViolationError)
        else "constraint"
    )
    return IntegrityError(kind, str(exc))


class PostgresTx:
    """One transaction on one pooled connection."""

    dialect = POSTGRES
    for_update = " FOR UPDATE"

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        try:
            return _count(await self.conn.execute(to_postgres(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        try:
            await self.conn.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        try:
            row: Row | None = await self.conn.fetchrow(to_postgres(sql), *params)
            return row
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        try:
            return list(await self.conn.fetch(to_postgres(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None


class PostgresEngine:
    """An asyncpg pool. Writers run side by side; what must not interleave is guarded inside the SQL
    (the version check in ``UPDATE ... WHERE version = ?``, ``FOR UPDATE`` row locks, unique keys)."""

    dialect = POSTGRES
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        row: Row | None = await self.pool.fetchrow(to_postgres(sql), *params)
        return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self.pool.fetch(to_postgres(sql), *params))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PostgresTx(conn)

    async def scrub(self, tables: Iterable[str]) -> None:
        """After a forget-me: ``VACUUM`` the tables that held the player, so their dead row versions
        (which still hold the old values) are removed now rather than whenever autovacuum comes by.
        Run outside any transaction, as VACUUM must be. ``tables`` are the schema's own names."""
        names = sorted(set(tables))
        if names:
            async with self.pool.acquire() as conn:
                await conn.execute("VACUUM " + ", ".join(f'"{name}"' for name in names))

    async def close(self) -> None:
        await self.pool.close()


# -- PostgreSQL's notifications of moves -------------------------------------------------------------
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
