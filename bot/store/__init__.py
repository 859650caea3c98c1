"""The only code that speaks SQL: games, seats, the append-only move log, snapshots, settings.

Two engines behind one interface (:mod:`bot.store.engine`; the SQL is written once, in the subset
both speak):

- SQLite through aiosqlite (the default, a file path), in WAL mode with foreign keys on and
  ``synchronous=FULL`` so that a move acknowledged to a player survives the process being killed;
  one process per file (a lock file). Migrations: ``bot/migrations/NNN_*.sql`` by ``PRAGMA user_version``.
- PostgreSQL through an asyncpg pool (a ``postgresql://`` URL): several processes share it.
  Migrations: ``bot/migrations/postgres/NNN_*.sql`` (the same numbers), recorded in ``schema_migrations``
  and applied under an advisory lock, so processes starting together migrate once.

The store holds JSON, never rules objects.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.engine import (
    NOTIFY_MOVE,
    POSTGRES,
    SQLITE,
    Engine,
    IntegrityError,
    MoveListener,
    PostgresEngine,
    Row,
    SqliteEngine,
    Tx,
    is_url,
    move_payload,
    redact,
)
from bot.store.groupcommit import GroupCommit
from bot.store.rowcache import RowCache

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgres"
LEASE_MS = 60_000
"""How long a process's claim on work (an outbox row, a game's AI or untold moves) lasts unless renewed, unless
the caller says (``LEASE_SECONDS``): after it another process takes the work over."""
POOL_SIZE = 10
"""Connections of a PostgreSQL pool (per process) unless the caller says (``DATABASE_POOL_SIZE``)."""
CONNECT_TIMEOUT = 10.0
MIGRATION_LOCK = 0x63697479626F74  # the advisory lock id processes take to migrate one at a time
APPLICATION_ID = int.from_bytes(b"CtyB", "big")
"""The mark a SQLite file of this bot carries in its header (``PRAGMA application_id``), with its schema
version (``PRAGMA user_version``): a file with neither and tables of its own is another program's."""
SQLITE_HEADER = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"games", "seats", "moves"})
"""Tables every database of this bot has had since its first migration (a file from before the mark)."""
__all__ = ["POSTGRES", "SQLITE", "IntegrityError", "MoveListener", "Row", "Tx", "is_url", "redact"]
LIVE_STATUSES = ("lobby", "active")
GAME_COLUMNS = (
    "id", "guild_xid", "channel_xid", "kind", "options", "seed", "status", "version", "host_xid",
    "created_at", "updated_at", "started_at", "finished_at", "awaiting_since", "result",
    "lobby_message_xid", "status_message_xid", "turn_message_xid", "settled_version", "locale", "paused_at",
)
UPDATABLE_GAME_COLUMNS = frozenset(GAME_COLUMNS) - {"id", "kind", "seed", "created_at", "version"}
JSON_GAME_COLUMNS = frozenset({"options", "result"})
SAVE_SNAPSHOT = ("INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)"
                 " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state")


class StoreError(Exception):
    """A storage problem the service turns into a sentence."""


class DatabaseProblem(StoreError):
    """The database cannot be used at all; ``params`` complete the start-up sentence."""

    def __init__(self, problem: str = "", **params: Any) -> None:
        super().__init__(problem)
        self.params = {"problem": problem, **params}


class DatabaseLocked(DatabaseProblem):
    """Another process (a second bot) holds the database's lock file."""


class DatabaseBusy(DatabaseProblem):
    """Another program holds a lock inside the SQLite file and did not let go within the timeout."""


class DatabaseNewer(DatabaseProblem):
    """The file was written by a newer version of the bot (``found`` > ``newest``)."""


class DatabaseCorrupt(DatabaseProblem):
    """The file is not a SQLite database, or fails the integrity check (damaged or truncated)."""


class DatabaseForeign(DatabaseProblem):
    """The SQLite file belongs to another program (no mark of this bot, tables of its own): refused
    before anything is written to it, not even its lock file."""


class DatabaseIsFolder(DatabaseProblem):
    """The database's path is a folder."""


class DatabaseUnreadable(DatabaseProblem):
    """The file or its folder cannot be opened (permissions, a folder in the way...)."""


class DatabaseUnreachable(DatabaseProblem):
    """The PostgreSQL server cannot be reached or refuses the connection (down, wrong host, password
    or database name)."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or in play."""


class StaleVersion(StoreError):
    """The game moved on since the move was computed."""


class SeatTaken(StoreError):
    """The user already sits in that game."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_xid: int | None
    channel_xid: int | None
    kind: str
    options: dict[str, Any]
    seed: int
    status: str
    version: int
    host_xid: int | None
    created_at: int
    updated_at: int
    started_at: int | None
    finished_at: int | None
    awaiting_since: int | None
    result: dict[str, Any] | None
    lobby_message_xid: int | None
    status_message_xid: int | None
    turn_message_xid: int | None
    settled_version: int = 0
    locale: str = "en"
    """The language of the game's channel posts (migration 006)."""
    paused_at: int | None = None
    """When the game's channel was found deleted (migration 007): nothing acts on it any more."""


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_xid: int | None
    ai_level: str | None
    name: str
    resigned: bool
    joined_at: int

    @property
    def is_ai(self) -> bool:
        """Whether the AI plays this seat (an AI seat, or a human's seat the AI took over)."""
        return self.ai_level is not None


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    version: int
    seat: int
    move: dict[str, Any]
    at: int
    actor_xid: int | None


def _game(row: Sequence[Any]) -> GameRow:
    values = dict(zip(GAME_COLUMNS, row, strict=True))
    for col in JSON_GAME_COLUMNS:
        if values[col] is not None:
            values[col] = json.loads(values[col])
    return GameRow(**values)


def _seat(row: Sequence[Any]) -> SeatRow:
    game_id, seat, user_xid, ai_level, name, resigned, joined_at = row
    return SeatRow(game_id, seat, user_xid, ai_level, name, bool(resigned), joined_at)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def migrations(dialect: str = SQLITE) -> list[tuple[int, str]]:
    """(number, SQL) of every migration file of an engine, in order."""
    folder = POSTGRES_MIGRATIONS_DIR if dialect == POSTGRES else MIGRATIONS_DIR
    out = []
    for path in sorted(folder.glob("*.sql")):
        out.append((int(path.name.split("_", 1)[0]), path.read_text(encoding="utf-8")))
    return out


_LOCKS: dict[str, list[int]] = {}
"""Lock file path -> [open descriptor, number of holders in this process]."""


def lock_path(path: str | Path) -> str:
    """The lock file of a database: ``<db>.lock`` next to it (absolute, symlinks resolved)."""
    return os.path.realpath(str(path)) + ".lock"


def lock_database(path: str | Path) -> None:
    """Take the database's process lock (an exclusive ``flock`` on ``<db>.lock``), or raise
    :class:`DatabaseLocked` when another process has it. The lock lasts until this process ends or
    every holder called :func:`unlock_database`; holders in one process share it."""
    if str(path) == ":memory:":
        return
    name = lock_path(path)
    held = _LOCKS.get(name)
    if held is not None:
        held[1] += 1
        return
    refuse_foreign(path)  # another program's file (or no database at all) gets no lock file beside it
    try:
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise DatabaseUnreadable(exc.strerror or str(exc)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DatabaseLocked(lock=name) from None
    try:
        same = os.fstat(fd).st_ino == os.stat(name).st_ino
    except OSError:
        same = False
    if not same:
        # The process that held it removed the file as it stopped (unlock_database(remove=True))
        # between our open and our lock: ours is a lock on a deleted file. Take the new one.
        os.close(fd)
        lock_database(path)
        return
    _LOCKS[name] = [fd, 1]


def unlock_database(path: str | Path, *, remove: bool = False) -> None:
    """One holder lets go of the process lock; the last one releases it (``remove``: and deletes the
    lock file first, while still holding it: a graceful stop leaves nothing behind)."""
    if str(path) == ":memory:":
        return
    name = lock_path(path)
    held = _LOCKS.get(name)
    if held is None:
        return
    held[1] -= 1
    if held[1] <= 0:
        del _LOCKS[name]
        if remove:
            with contextlib.suppress(OSError):
                os.unlink(name)
        os.close(held[0])  # closing the descriptor releases the flock


def _prepare(path: str | Path) -> None:
    """The database's folder exists, the path is not a folder, and the file (if any) is this bot's."""
    if str(path) == ":memory:":
        return
    if Path(path).is_dir():
        raise DatabaseIsFolder()
    refuse_foreign(path)
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnreadable(exc.strerror or str(exc)) from None


def refuse_foreign(path: str | Path) -> None:
    """Read (never write) an existing file's header: :class:`DatabaseCorrupt` when it is not a SQLite
    database, :class:`DatabaseForeign` when it is another program's. This bot's files carry
    :data:`APPLICATION_ID`; an older one has a ``user_version`` and this bot's tables; an empty file, or a
    SQLite file with no table, is taken as new. Nothing is created, not even the lock file."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise DatabaseUnreadable(exc.strerror or str(exc)) from None
    if not head:
        return
    if len(head) < 100 or not head.startswith(SQLITE_HEADER):
        raise DatabaseCorrupt("file is not a database")
    user_version = int.from_bytes(head[60:64], "big")
    application_id = int.from_bytes(head[68:72], "big", signed=True)
    if application_id == APPLICATION_ID:
        return
    tables = _tables_of(path)
    if application_id == 0 and (not tables or (user_version > 0 and set(tables) >= OUR_TABLES)):
        return
    raise DatabaseForeign(tables=", ".join(tables[:5]) + (", …" if len(tables) > 5 else "") or "-")


def _tables_of(path: str | Path) -> list[str]:
    """The table names of a SQLite file, read as immutable (no lock, no journal, nothing written)."""
    uri = Path(os.path.abspath(path)).as_uri() + "?immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                " AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise _problem(exc) from None
    return [str(r[0]) for r in rows]


def _pg_problem(exc: BaseException) -> str:
    """A PostgreSQL connection problem in a few words (never the URL, which may hold a password)."""
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:200]


def _problem(exc: sqlite3.Error) -> DatabaseProblem:
    """A sqlite3 error met while opening, as the start-up problem it means."""
    text = str(exc)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return DatabaseBusy(text)
    if "unable to open" in lowered or "readonly" in lowered or "read-only" in lowered \
            or "disk i/o" in lowered or "permission" in lowered:
        return DatabaseUnreadable(text)
    return DatabaseCorrupt(text)


class Store:
    """An open database. Create with :meth:`open`; all methods are coroutines."""

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
    async def open(cls, target: str | Path, *, pool_size: int = POOL_SIZE) -> Store:
        """Open (creating if needed) the database, check it, and bring its schema up to date.

        ``target`` is a SQLite file (or ``:memory:``), or a ``postgresql://`` URL. Raises a
        :class:`DatabaseProblem` subclass, never a bare driver error, when the database is locked,
        busy, unreachable, unreadable, damaged or from a newer version.

        SQLite: holds the database's process lock (:func:`lock_database`) until :meth:`close`, so a
        second process on the same file is refused. PostgreSQL: at most ``pool_size`` connections.
        """
        if is_url(target):
            return await cls._open_postgres(str(target), pool_size)
        path = target
        name = str(path)
        _prepare(path)
        lock_database(path)
        try:
            conn = await aiosqlite.connect(name, isolation_level=None)
        except sqlite3.Error as exc:
            unlock_database(path)
            raise _problem(exc) from None
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
            await store._check()
            await store._migrate()
        except sqlite3.Error as exc:
            await conn.close()
            unlock_database(path)
            raise _problem(exc) from None
        except BaseException:
            await conn.close()
            unlock_database(path)
            raise
        return store

    @classmethod
    async def _open_postgres(cls, url: str, pool_size: int = POOL_SIZE) -> Store:
        import asyncpg  # type: ignore[import-untyped]

        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            raise DatabaseUnreachable(_pg_problem(exc)) from None
        store = cls(PostgresEngine(pool), url)
        try:
            await store._migrate_postgres()
        except (OSError, asyncpg.InterfaceError, asyncpg.PostgresError) as exc:
            # The server answered but refused the migration (no right to create tables, a table of
            # another program in the way...): the server's own words complete the sentence.
            await pool.close()
            raise DatabaseUnreachable(_pg_problem(exc)) from None
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

    async def _check(self) -> None:
        """The file is a whole SQLite database (``quick_check``) from this version or an older one."""
        async with self._sqlite.execute("PRAGMA quick_check") as cur:
            rows = await cur.fetchall()
        found = [str(r[0]) for r in rows]
        if found != ["ok"]:
            raise DatabaseCorrupt("; ".join(found)[:200])
        newest = max((number for number, _ in migrations()), default=0)
        current = await self.schema_version()
        if current > newest:
            raise DatabaseNewer(found=current, newest=newest)

    async def _migrate(self) -> None:
        async with self._sqlite.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = int(row[0]) if row else 0
        for number, sql in migrations():
            if number <= current:
                continue
            # executescript commits first; the user_version bump is part of the same script.
            await self._sqlite.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        async with self._sqlite.execute("PRAGMA application_id") as cur:
            row = await cur.fetchone()
        if not row or int(row[0]) != APPLICATION_ID:
            await self._sqlite.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    async def _migrate_postgres(self) -> None:
        """Check the version and apply the missing migrations, in one transaction under an advisory
        lock (two processes starting together: the second waits, then finds nothing to do)."""
        assert isinstance(self._engine, PostgresEngine)
        newest = max((number for number, _ in migrations(POSTGRES)), default=0)
        async with self._engine.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
            if current > newest:
                raise DatabaseNewer(found=current, newest=newest)
            for number, sql in migrations(POSTGRES):
                if number <= current:
                    continue
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)

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
        if self.dialect == POSTGRES:
            row = await self._engine.fetch_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        else:
            async with self._sqlite.execute("PRAGMA user_version") as cur:
                row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def integrity_check(self) -> str:
        """SQLite's ``integrity_check``; on PostgreSQL (which checks its own pages), that the schema is
        the newest and every table of the migrations answers."""
        if self.dialect == POSTGRES:
            newest = max(number for number, _ in migrations(POSTGRES))
            if await self.schema_version() != newest:
                return f"schema {await self.schema_version()} is not {newest}"
            rows = await self._engine.fetch_all(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
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

    # -- games -------------------------------------------------------------------------------
    async def create_game(
        self, *, guild_xid: int | None, channel_xid: int | None, kind: str, options: Mapping[str, Any],
        seed: int, host_xid: int | None, at: int, locale: str = "en",
    ) -> GameRow:
        """A new game in its lobby; ChannelBusy if the channel already has a live game."""
        try:
            async with self.transaction() as db:
                row = await db.fetch_one(
                    "INSERT INTO games (guild_xid, channel_xid, kind, options, seed, status, host_xid,"
                    " created_at, updated_at, locale) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING id",
                    (guild_xid, channel_xid, kind, _dumps(options), seed, host_xid, at, at, locale),
                )
                assert row is not None
                game_id = int(row[0])
        except IntegrityError as exc:
            raise ChannelBusy(str(exc)) from None
        game = await self.get_game(game_id)
        assert game is not None
        return game

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

    async def get_game(self, game_id: int) -> GameRow | None:
        rows = self.rows
        if rows is None:
            return await self._read_game(game_id)
        kept: GameRow | None = rows.get("game", game_id)
        if kept is not None:
            return kept
        with rows.reading(game_id) as keep:
            game = await self._read_game(game_id)
            if game is not None:
                keep.append(("game", game))
        return game

    async def _read_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def live_game_in_channel(self, channel_xid: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE channel_xid = ?"
            " AND status IN ('lobby', 'active')",
            (channel_xid,),
        )
        return _game(row) if row else None

    async def list_games(
        self, *, guild_xid: int | None = None, statuses: Sequence[str] = LIVE_STATUSES,
        channel_xid: int | None = None, user_xid: int | None = None, limit: int = 25,
    ) -> list[GameRow]:
        """Games filtered by server, channel, player and status, newest first."""
        where = [f"status IN ({', '.join('?' for _ in statuses)})"]
        params: list[Any] = list(statuses)
        if guild_xid is not None:
            where.append("guild_xid = ?")
            params.append(guild_xid)
        if channel_xid is not None:
            where.append("channel_xid = ?")
            params.append(channel_xid)
        if user_xid is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE user_xid = ?)")
            params.append(user_xid)
        params.append(limit)
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE {' AND '.join(where)}"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            params,
        )
        return [_game(r) for r in rows]

    async def unsettled_games(self, limit: int = 1000) -> list[GameRow]:
        """Games with moves the Discord layer has not finished announcing (see migration 005)."""
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE settled_version < version"
            " AND status IN ('active', 'finished') ORDER BY id LIMIT ?", (limit,))
        return [_game(r) for r in rows]

    async def untold_games(self, changed_by: int, limit: int) -> list[GameRow]:
        """:meth:`unsettled_games` last changed at ``changed_by`` (epoch ms) or before, oldest first: a
        look every few seconds, which the partial index of migration 009 keeps as small as its answer."""
        rows = await self._all(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE settled_version < version AND updated_at <= ?"
            " AND status IN ('active', 'finished') ORDER BY updated_at LIMIT ?", (changed_by, limit))
        return [_game(r) for r in rows]

    async def settle(self, game_id: int, version: int) -> None:
        """Record that the moves up to ``version`` were announced (never moves backwards)."""
        async with self._writing(game_id, seats=False) as db:
            await db.execute("UPDATE games SET settled_version = GREATEST(settled_version, ?) WHERE id = ?",
                             (version, game_id))

    async def game_versions(self, game_ids: Iterable[int]) -> dict[int, int]:
        """The current version of each of these games (one query per 500 ids; unknown ids are left out):
        the web pages' live updates poll it for every watched game at once."""
        ids = sorted(set(game_ids))
        found: dict[int, int] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            rows = await self._all(f"SELECT id, version FROM games WHERE id IN ({', '.join('?' for _ in chunk)})",
                                   chunk)
            found.update((int(r[0]), int(r[1])) for r in rows)
        return found

    async def _announce(self, db: Tx, game_id: int, version: int) -> None:
        """PostgreSQL: ``NOTIFY`` the new version on :data:`~bot.store.engine.MOVES_CHANNEL` in the move's
        own transaction (sent by the server at its commit, never for a rolled-back one), so every process's
        :meth:`listen_moves` hears of it. SQLite (one process per file): nothing."""
        if db.dialect == POSTGRES:
            await db.fetch_one(NOTIFY_MOVE, (move_payload(game_id, version),))

    async def listen_moves(self, on_move: Callable[[int, int], None],
                           on_state: Callable[[bool], None] | None = None) -> MoveListener | None:
        """PostgreSQL: ``on_move(game_id, version)`` for every move (or take-back) committed by any process
        on this database, heard on one dedicated connection of this process (``LISTEN``), connected again
        when it drops; ``on_state(listening)`` when it starts or stops listening (while it does not, the
        caller reads :meth:`game_versions` itself). Returns the listener (``await listener.close()``), already
        listening unless the server could not be reached (then it keeps trying). SQLite: None (one process
        per file: its own moves are all there is)."""
        if self.dialect != POSTGRES:
            return None
        listener = MoveListener(self._path, on_move, on_state, timeout=CONNECT_TIMEOUT)
        await listener.start()
        return listener

    async def count_games(self) -> int:
        row = await self._one("SELECT COUNT(*) FROM games")
        return int(row[0])

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set columns of a game that are not guarded by the version (messages, timestamps...)."""
        bad = set(fields) - UPDATABLE_GAME_COLUMNS
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        sets = ", ".join(f"{k} = ?" for k in fields)
        values = [_dumps(v) if k in JSON_GAME_COLUMNS and v is not None else v for k, v in fields.items()]
        async with self._writing(game_id, seats=False) as db:
            await db.execute(f"UPDATE games SET {sets} WHERE id = ?", (*values, game_id))

    # -- seats -------------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = self.rows
        if rows is None:
            return list(await self._read_seats(game_id))
        kept: tuple[SeatRow, ...] | None = rows.get("seats", game_id)
        if kept is not None:
            return list(kept)
        with rows.reading(game_id) as keep:
            seats = await self._read_seats(game_id)
            keep.append(("seats", seats))
        return list(seats)

    async def _read_seats(self, game_id: int) -> tuple[SeatRow, ...]:
        rows = await self._all(
            "SELECT game_id, seat, user_xid, ai_level, name, resigned, joined_at FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return tuple(_seat(r) for r in rows)

    async def add_seat(
        self, game_id: int, *, user_xid: int | None, ai_level: str | None, name: str, at: int,
        max_seats: int,
    ) -> SeatRow | None:
        """Append a seat to a lobby; None if the lobby is full or no longer a lobby.

        SeatTaken if the user already sits there.
        """
        try:
            async with self._writing(game_id) as db:
                # The game's row first (locked on PostgreSQL until the commit: two processes seating
                # players wait for each other), then the seats, read after the lock is held.
                game = await db.fetch_one(f"SELECT status FROM games WHERE id = ?{db.for_update}", (game_id,))
                taken = await db.fetch_one("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))
                row = None if game is None or taken is None else (game[0], int(taken[0]))
                if user_xid is not None and await db.fetch_one(
                        "SELECT 1 FROM seats WHERE game_id = ? AND user_xid = ?", (game_id, user_xid)) is not None:
                    raise SeatTaken(str(user_xid))
                if row is None or row[0] != "lobby" or row[1] >= max_seats:
                    return None
                seat = int(row[1])
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_xid, ai_level, name, joined_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seat, user_xid, ai_level, name, at),
                )
                await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))
        except IntegrityError:
            raise SeatTaken(str(user_xid)) from None
        return SeatRow(game_id, seat, user_xid, ai_level, name, False, at)

    async def remove_seat(self, game_id: int, seat: int, at: int) -> bool:
        """Remove a lobby seat and close the gap in seat numbers; ``at`` is the lobby's last change
        (``updated_at``) from now on. False if nothing was removed."""
        async with self._writing(game_id) as db:
            row = await db.fetch_one(f"SELECT status FROM games WHERE id = ?{db.for_update}", (game_id,))
            if row is None or row[0] != "lobby":
                return False
            if await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)) == 0:
                return False
            # Two steps so the primary key never collides while renumbering.
            await db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?", (game_id, seat))
            await db.execute(
                "UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,))
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))
        return True

    async def update_seat(self, game_id: int, seat: int, *, ai_level: str | None = None,
                          resigned: bool | None = None, name: str | None = None) -> None:
        fields: dict[str, Any] = {}
        if ai_level is not None:
            fields["ai_level"] = ai_level
        if resigned is not None:
            fields["resigned"] = int(resigned)
        if name is not None:
            fields["name"] = name
        if not fields:
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self._writing(game_id) as db:
            await db.execute(f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                             (*fields.values(), game_id, seat))

    # -- play --------------------------------------------------------------------------------
    async def start_game(self, game_id: int, *, state: Mapping[str, Any], at: int) -> bool:
        """Lobby -> active with the initial snapshot at version 0. False if it was not a lobby."""
        async with self._writing(game_id, seats=False) as db:
            changed = await db.execute(
                "UPDATE games SET status = 'active', started_at = ?, updated_at = ?, awaiting_since = ?"
                " WHERE id = ? AND status = 'lobby' AND version = 0",
                (at, at, at, game_id),
            )
            if changed == 0:
                return False
            await db.execute(SAVE_SNAPSHOT, (game_id, 0, _dumps(state)))
        return True

    async def commit_move(
        self, game_id: int, *, expected_version: int, seat: int, move: Mapping[str, Any], at: int,
        actor_xid: int | None, state: Mapping[str, Any], awaiting_changed: bool,
        result: Mapping[str, Any] | None = None,
    ) -> int:
        """Append a move and its snapshot in one transaction; returns the new version.

        StaleVersion (and nothing written) if the game is not active at ``expected_version``.
        """
        new_version = expected_version + 1
        async with self._writing(game_id, seats=False) as db:
            sets = ["version = ?", "updated_at = ?"]
            params: list[Any] = [new_version, at]
            if awaiting_changed:
                sets.append("awaiting_since = ?")
                params.append(at)
            if result is not None:
                sets += ["status = 'finished'", "finished_at = ?", "result = ?"]
                params += [at, _dumps(result)]
            # The version check is this UPDATE's WHERE, inside the transaction: on PostgreSQL a second
            # process committing the same version waits for the row, then matches nothing.
            changed = await db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? AND status = 'active'",
                (*params, game_id, expected_version),
            )
            if changed == 0:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            await db.execute(
                "INSERT INTO moves (game_id, version, seat, move, at, actor_xid) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, _dumps(move), at, actor_xid),
            )
            await db.execute(SAVE_SNAPSHOT, (game_id, new_version, _dumps(state)))
            await self._announce(db, game_id, new_version)
        return new_version

    async def undo_last_move(self, game_id: int, *, expected_version: int, at: int,
                             state: Mapping[str, Any], awaiting_changed: bool = True) -> int:
        """Mark the newest live move taken back, bump the version, store the rebuilt snapshot.

        StaleVersion (nothing written) if the game moved on. Returns the new version.
        """
        new_version = expected_version + 1
        async with self._writing(game_id, seats=False) as db:
            changed = await db.execute(
                "UPDATE games SET version = ?, updated_at = ?, awaiting_since = CASE WHEN ? = 1 THEN ?"
                " ELSE awaiting_since END WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, at, int(awaiting_changed), at, game_id, expected_version))
            if changed == 0:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            changed = await db.execute(
                "UPDATE moves SET undone_at = ? WHERE game_id = ? AND version ="
                " (SELECT MAX(version) FROM moves WHERE game_id = ? AND undone_at IS NULL)",
                (at, game_id, game_id))
            if changed != 1:
                raise StaleVersion(f"game {game_id} has no move to take back")
            await db.execute(SAVE_SNAPSHOT, (game_id, new_version, _dumps(state)))
            await self._announce(db, game_id, new_version)
        return new_version

    async def finish_game(self, game_id: int, *, status: str, at: int,
                          result: Mapping[str, Any] | None) -> bool:
        """Mark a live game finished or abandoned (outside a move). False if it was not live."""
        async with self._writing(game_id, seats=False) as db:
            changed = await db.execute(
                "UPDATE games SET status = ?, finished_at = ?, updated_at = ?, result = ?"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (status, at, at, _dumps(result) if result is not None else None, game_id),
            )
            return changed > 0

    async def withdraw_lobby(self, game_id: int) -> bool:
        """Remove a lobby that was never shown, with its seats (the foreign keys cascade), as if it had
        never been opened. False if the game is no longer in its lobby."""
        async with self._writing(game_id) as db:
            return await db.execute("DELETE FROM games WHERE id = ? AND status = 'lobby'", (game_id,)) > 0

    async def moves(self, game_id: int, *, upto: int | None = None,
                    include_undone: bool = False) -> list[MoveRow]:
        """The live moves of a game (oldest first), up to a version; taken-back moves only on request."""
        rows = await self._all(
            "SELECT game_id, version, seat, move, at, actor_xid FROM moves WHERE game_id = ?"
            " AND (CAST(? AS BIGINT) IS NULL OR version <= ?) AND (? = 1 OR undone_at IS NULL) ORDER BY version",
            (game_id, upto, upto, int(include_undone)),
        )
        return [MoveRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        row = await self._one("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (int(row[0]), json.loads(row[1])) if row else None

    # -- settings ----------------------------------------------------------------------------
    async def guild_settings(self, guild_xid: int) -> dict[str, Any]:
        row = await self._one("SELECT data FROM guild_settings WHERE guild_xid = ?", (guild_xid,))
        return dict(json.loads(row[0])) if row else {}

    async def set_guild_settings(self, guild_xid: int, data: Mapping[str, Any]) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_xid, data) VALUES (?, ?)"
                " ON CONFLICT (guild_xid) DO UPDATE SET data = excluded.data",
                (guild_xid, _dumps(data)),
            )

    async def delete_user_data(self, user_xid: int, *, replacement_name: str) -> int:
        """Forget a user: their seats keep the game playable but lose the Discord id and name; the
        games they host and the moves they clicked lose the id. Returns the rows changed."""
        async with self._writing() as db:
            changed = 0
            for sql, params in (
                ("UPDATE seats SET user_xid = NULL, ai_level = COALESCE(ai_level, 'greedy'), name = ?"
                 " WHERE user_xid = ?", (replacement_name, user_xid)),
                ("UPDATE games SET host_xid = NULL WHERE host_xid = ?", (user_xid,)),
                ("UPDATE moves SET actor_xid = NULL WHERE actor_xid = ?", (user_xid,)),
            ):
                changed += await db.execute(sql, params)
            return changed


class TableStore:
    """Base of the sibling modules of this package that own tables of their own (community,
    campaigns): reads through the open :class:`Store`, writes in ``self.store.transaction()``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return await self.store.fetch_one(sql, params)

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await self.store.fetch_all(sql, params)
