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

import functools
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg  # type: ignore[import-untyped]

from bot.store.counters import COUNTERS
from bot.store.groupcommit import GroupCommit
from bot.store.keeper import KEEP_USES as KEEP_USES
from bot.store.keeper import Keeper
from bot.store.listen import MOVES_CHANNEL as MOVES_CHANNEL
from bot.store.listen import NOTIFY_MOVE as NOTIFY_MOVE
from bot.store.listen import RECONNECT_SECONDS as RECONNECT_SECONDS
from bot.store.listen import MoveListener as MoveListener
from bot.store.listen import move_payload as move_payload
from bot.store.listen import parse_move_payload as parse_move_payload

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

    async def write_one(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """One write that is a whole transaction by itself (a single statement, its ``RETURNING`` rows
        returned): PostgreSQL runs it on its own (one round trip: no ``BEGIN``, no ``COMMIT``, the statement
        is atomic); SQLite as a writer of its queue (:meth:`transaction`)."""

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
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1
        try:
            cur = await self.conn.execute(to_sqlite(sql), tuple(params))
        except sqlite3.IntegrityError as exc:
            raise _sqlite_integrity(exc) from None
        # No close (another trip to the connection's thread): the statement is done, the cursor goes
        # with its last reference.
        return max(0, int(cur.rowcount))

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1
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
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1
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

    async def write_one(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        async with self.transaction() as tx:
            return await tx.fetch_all(sql, params)

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
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1
        try:
            return _count(await self.conn.execute(to_postgres(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1  # asyncpg pipelines the rows: one wait for all of them
        try:
            await self.conn.executemany(to_postgres(sql), [tuple(r) for r in rows])
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1
        try:
            row: Row | None = await self.conn.fetchrow(to_postgres(sql), *params)
            return row
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        COUNTERS.statements += 1
        COUNTERS.round_trips += 1
        try:
            return list(await self.conn.fetch(to_postgres(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None


async def keep_session(conn: Any) -> None:
    """The pool's reset of a connection given back: nothing beyond asyncpg's own (which rolls back a transaction
    left open and drops the connection's listeners), instead of its default query (advisory locks unlocked,
    cursors closed, ``UNLISTEN *``, ``RESET ALL``), one more round trip per acquisition. The store leaves none of
    those behind: its only advisory lock is transaction-scoped (the migration's), it sets no session setting,
    opens no cursor, and listens on a connection of its own outside the pool (:class:`MoveListener`)."""
    del conn


class PostgresEngine:
    """An asyncpg pool. Writers run side by side; what must not interleave is guarded inside the SQL
    (the version check in ``UPDATE ... WHERE version = ?``, ``FOR UPDATE`` row locks, unique keys).

    Connections are kept between uses, and handed from a use to the next waiting for one, by the engine's
    :class:`~bot.store.keeper.Keeper`: a busy bot pays for no acquire nor release of asyncpg's pool.
    The pool's size still bounds the connections in use, kept or not."""

    dialect = POSTGRES
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any, *, reset_trips: int = 0) -> None:
        self.pool = pool
        self.keeper = Keeper(pool, reset_trips=reset_trips)
        """The connections kept between uses and the uses waiting in line for one (:mod:`bot.store.keeper`)."""

    @asynccontextmanager
    async def _connection(self, trips: int) -> AsyncIterator[Any]:
        """A connection for one use of ``trips`` round trips (:meth:`Keeper.take`), given back after it."""
        COUNTERS.round_trips += trips
        kept = await self.keeper.take()
        clean = False
        try:
            yield kept.conn
            clean = True
        except asyncpg.PostgresError:
            clean = True  # the server refused the statement; the connection itself is as it was
            raise
        finally:
            await self.keeper.give_back(kept, clean=clean)

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        COUNTERS.statements += 1
        async with self._connection(1) as conn:
            row: Row | None = await conn.fetchrow(to_postgres(sql), *params)
            return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        COUNTERS.statements += 1
        async with self._connection(1) as conn:
            return list(await conn.fetch(to_postgres(sql), *params))

    async def write_one(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        COUNTERS.statements += 1
        COUNTERS.commits += 1
        try:
            async with self._connection(1) as conn:
                return list(await conn.fetch(to_postgres(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _pg_integrity(exc) from None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        COUNTERS.transactions += 1
        COUNTERS.commits += 1
        async with self._connection(2) as conn, conn.transaction():  # BEGIN and COMMIT (or ROLLBACK)
            yield PostgresTx(conn)

    async def scrub(self, tables: Iterable[str]) -> None:
        """After a forget-me: ``VACUUM`` the tables that held the player, so their dead row versions
        (which still hold the old values) are removed now rather than whenever autovacuum comes by.
        Run outside any transaction, as VACUUM must be. ``tables`` are the schema's own names."""
        names = sorted(set(tables))
        if names:
            async with self._connection(1) as conn:
                await conn.execute("VACUUM " + ", ".join(f'"{name}"' for name in names))

    async def close(self) -> None:
        await self.keeper.close()
        await self.pool.close()
