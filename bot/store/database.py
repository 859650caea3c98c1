"""The open database under :class:`~bot.store.Store`: opening (a SQLite file under its process lock, or a
PostgreSQL pool), checking and migrating it, closing it, and the primitives every table's code shares
(:meth:`Database.transaction`, :meth:`Database.fetch_one`, :meth:`Database.fetch_all`, and
:meth:`Database._writing`, the one way to write ``games`` and ``seats``)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.store.engine import (
    POSTGRES,
    SQLITE,
    Engine,
    PostgresEngine,
    Row,
    SqliteEngine,
    Tx,
    is_url,
    keep_session,
    redact,
)
from bot.store.errors import DatabaseUnreachable
from bot.store.files import lock_database, pg_problem, prepare, sqlite_problem, unlock_database
from bot.store.groupcommit import GroupCommit
from bot.store.migrations import check_sqlite, migrate_postgres, migrate_sqlite, migrations, sqlite_version
from bot.store.rowcache import RowCache

LEASE_MS = 60_000
"""How long a process's claim on work (an outbox row, a game's AI or untold moves) lasts unless renewed, unless
the caller says (``LEASE_SECONDS``): after it another process takes the work over."""
POOL_SIZE = 10
"""Connections of a PostgreSQL pool (per process) unless the caller says (``DATABASE_POOL_SIZE``)."""
CONNECT_TIMEOUT = 10.0


class Database:
    """An open database (the part of :class:`~bot.store.Store` that knows no table). Create with
    :meth:`open`; all methods are coroutines."""

    def __init__(self, engine: Engine, path: str = ":memory:") -> None:
        self._engine = engine
        self._path = path
        self.dialect = engine.dialect
        self.lease_ms = LEASE_MS
        """How long a claim of this process lasts unless renewed (see :data:`LEASE_MS`)."""
        self.rows: RowCache | None = RowCache() if engine.dialect == SQLITE else None
        """Game rows and seats kept between reads (:mod:`bot.store.rowcache`): SQLite only, whose file has
        one process; PostgreSQL may be shared by several, so there every read goes to the server."""

    # -- lifecycle ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, target: str | Path, *, pool_size: int = POOL_SIZE) -> Self:
        """Open (creating if needed) the database, check it, and bring its schema up to date.

        ``target`` is a SQLite file (or ``:memory:``), or a ``postgresql://`` URL. Raises a
        :class:`~bot.store.errors.DatabaseProblem` subclass, never a bare driver error, when the database is locked,
        busy, unreachable, unreadable, damaged or from a newer version.

        SQLite: holds the database's process lock (:func:`~bot.store.files.lock_database`) until :meth:`close`, so a
        second process on the same file is refused. PostgreSQL: at most ``pool_size`` connections.
        """
        if is_url(target):
            return await cls._open_postgres(str(target), pool_size)
        path = target
        name = str(path)
        prepare(path)
        lock_database(path)
        try:
            conn = await aiosqlite.connect(name, isolation_level=None)
        except sqlite3.Error as exc:
            unlock_database(path)
            raise sqlite_problem(exc) from None
        except BaseException:
            unlock_database(path)
            raise
        try:
            await conn.execute("PRAGMA busy_timeout=5000")
            # A deleted or changed row's old bytes are overwritten with zeros, not left in free space
            # (forget-me must reach the disk: issue 31); the checkpoint after it empties the WAL.
            await conn.execute("PRAGMA secure_delete=ON")
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            store = cls(SqliteEngine(conn), name)
            await check_sqlite(conn)
            await migrate_sqlite(conn)
        except sqlite3.Error as exc:
            await conn.close()
            unlock_database(path)
            raise sqlite_problem(exc) from None
        except BaseException:
            await conn.close()
            unlock_database(path)
            raise
        return store

    @classmethod
    async def _open_postgres(cls, url: str, pool_size: int = POOL_SIZE) -> Self:
        import asyncpg  # type: ignore[import-untyped]

        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT, reset=keep_session
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise DatabaseUnreachable(pg_problem(exc)) from None
        store = cls(PostgresEngine(pool), url)
        try:
            await migrate_postgres(pool)
        except (OSError, asyncpg.InterfaceError, asyncpg.PostgresError) as exc:
            # The server answered but refused the migration (no right to create tables, a table of
            # another program in the way...): the server's own words complete the sentence.
            await pool.close()
            raise DatabaseUnreachable(pg_problem(exc)) from None
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        try:
            await self._engine.close()
        finally:
            if self.dialect == SQLITE:
                unlock_database(self._path)
            self._path = ":memory:"  # a second close releases nothing more

    @property
    def _sqlite(self) -> aiosqlite.Connection:
        assert isinstance(self._engine, SqliteEngine)
        return self._engine.conn

    @property
    def writers(self) -> GroupCommit | None:
        """SQLite's queue of writers and its figures (commits, writes); None on PostgreSQL."""
        return self._engine.writers if isinstance(self._engine, SqliteEngine) else None

    @property
    def connection(self) -> Engine:
        """For sibling modules of this package only (their own tables); reads may use it directly,
        writes go through :meth:`transaction`."""
        return self._engine

    @property
    def target(self) -> str:
        """The database as a sentence may name it (a file path, or the URL without its password)."""
        return redact(self._path) if self.dialect == POSTGRES else self._path

    async def schema_version(self) -> int:
        if self.dialect != POSTGRES:
            return await sqlite_version(self._sqlite)
        row = await self._engine.fetch_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    async def integrity_check(self) -> str:
        """SQLite's ``integrity_check``; on PostgreSQL (which checks its own pages), that the schema is
        the newest and every table of the migrations answers."""
        if self.dialect == POSTGRES:
            newest = max(number for number, _ in migrations(POSTGRES))
            if await self.schema_version() != newest:
                return f"schema {await self.schema_version()} is not {newest}"
            rows = await self._engine.fetch_all(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
            )
            for (table,) in rows:
                await self._engine.fetch_one(f'SELECT 1 FROM "{table}" LIMIT 1')
            return "ok"
        async with self._sqlite.execute("PRAGMA integrity_check") as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else "no answer"

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """``async with store.transaction() as tx``: one transaction (a :class:`Tx`), rolled back on
        any error. SQLite: one writer at a time (``BEGIN IMMEDIATE``)."""
        return self._engine.transaction()

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Any:
        """One row of a read (None when there is none)."""
        return await self._engine.fetch_one(sql, tuple(params))

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Every row of a read."""
        return await self._engine.fetch_all(sql, tuple(params))

    _one = fetch_one
    _all = fetch_all

    async def scrub(self, tables: Iterable[str]) -> None:
        """After a forget-me: the old bytes of the rows it changed leave the disk as far as the engine
        allows (SQLite: zeroed as deleted, then the write-ahead log checkpointed and truncated;
        PostgreSQL: ``VACUUM`` of ``tables``; see README, "Privacy")."""
        await self._engine.scrub(tables)

    async def _write_one(self, sql: str, params: Iterable[Any], *game_ids: int, seats: bool = True) -> list[Row]:
        """One statement that is a whole write (:meth:`Engine.write_one`: on PostgreSQL one round trip, no
        ``BEGIN``/``COMMIT``), with :meth:`_writing`'s care of the kept rows when it writes ``games`` or ``seats``
        (``game_ids``, ``seats`` as there). Returns its ``RETURNING`` rows."""
        if self.rows is None:
            return await self._engine.write_one(sql, tuple(params))
        changing = self.rows.changing(*game_ids, seats=seats) if game_ids else self.rows.changing_all()
        with changing:
            return await self._engine.write_one(sql, tuple(params))

    @asynccontextmanager
    async def _writing(self, *game_ids: int, seats: bool = True) -> AsyncIterator[Tx]:
        """:meth:`transaction` for every write of ``games`` or ``seats``: the kept rows of those games
        (all games without ``game_ids``) are dropped before and after it; ``seats=False`` for a write
        of the ``games`` table only."""
        if self.rows is None:
            changing: AbstractContextManager[None] = nullcontext()
        else:
            changing = self.rows.changing(*game_ids, seats=seats) if game_ids else self.rows.changing_all()
        with changing:
            async with self.transaction() as db:
                yield db
