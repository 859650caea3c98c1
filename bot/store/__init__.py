"""The only code that speaks SQL: games, seats, the append-only move log, snapshots, settings.

Two engines behind one interface (:mod:`bot.store.engine`; the SQL is written once, in the subset
both speak):

- SQLite through aiosqlite (the default, a file path), in WAL mode with foreign keys on and
  ``synchronous=FULL`` so that a move acknowledged to a player survives the process being killed;
  one process per file (a lock file). Migrations: ``bot/migrations/NNN_*.sql`` by ``PRAGMA user_version``.
- PostgreSQL through an asyncpg pool (a ``postgresql://`` URL): several processes share it.
  Migrations: ``bot/migrations/postgres/NNN_*.sql`` (the same numbers), recorded in ``schema_migrations``
  and applied under an advisory lock, so processes starting together migrate once.

The store holds JSON, never rules objects. This module only re-exports its modules' public names:
``errors`` (what it raises), ``rows`` (what it returns), ``files`` (the SQLite file's lock and the refusal of
another program's file), ``migrations``, ``database`` (opening, closing, transactions), ``games`` (games,
seats, settings), ``moves`` (the move log, snapshots, live updates) and ``store`` (:class:`Store`, all of
them; :class:`TableStore`, the base of the modules with tables of their own).
"""

from bot.store.database import CONNECT_TIMEOUT, LEASE_MS, POOL_SIZE
from bot.store.engine import POSTGRES, SQLITE, IntegrityError, MoveListener, Row, Tx, is_url, redact
from bot.store.errors import (
    ChannelBusy,
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseForeign,
    DatabaseIsFolder,
    DatabaseLocked,
    DatabaseNewer,
    DatabaseProblem,
    DatabaseUnreachable,
    DatabaseUnreadable,
    SeatTaken,
    StaleVersion,
    StoreError,
)
from bot.store.files import (
    APPLICATION_ID,
    OUR_TABLES,
    SQLITE_HEADER,
    lock_database,
    lock_path,
    refuse_foreign,
    unlock_database,
)
from bot.store.migrations import MIGRATION_LOCK, MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR, migrations
from bot.store.moves import SAVE_SNAPSHOT, Committed
from bot.store.rows import (
    GAME_COLUMNS,
    JSON_GAME_COLUMNS,
    LIVE_STATUSES,
    UPDATABLE_GAME_COLUMNS,
    GameRow,
    MoveRow,
    PostRecord,
    SeatRow,
)
from bot.store.store import Store, TableStore

__all__ = [
    "APPLICATION_ID",
    "CONNECT_TIMEOUT",
    "GAME_COLUMNS",
    "JSON_GAME_COLUMNS",
    "LEASE_MS",
    "LIVE_STATUSES",
    "MIGRATIONS_DIR",
    "MIGRATION_LOCK",
    "OUR_TABLES",
    "POOL_SIZE",
    "POSTGRES",
    "POSTGRES_MIGRATIONS_DIR",
    "SAVE_SNAPSHOT",
    "SQLITE",
    "SQLITE_HEADER",
    "UPDATABLE_GAME_COLUMNS",
    "ChannelBusy",
    "Committed",
    "DatabaseBusy",
    "DatabaseCorrupt",
    "DatabaseForeign",
    "DatabaseIsFolder",
    "DatabaseLocked",
    "DatabaseNewer",
    "DatabaseProblem",
    "DatabaseUnreachable",
    "DatabaseUnreadable",
    "GameRow",
    "IntegrityError",
    "MoveListener",
    "MoveRow",
    "PostRecord",
    "Row",
    "SeatRow",
    "SeatTaken",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableStore",
    "Tx",
    "is_url",
    "lock_database",
    "lock_path",
    "migrations",
    "redact",
    "refuse_foreign",
    "unlock_database",
]
