"""The schema's migrations, with the same numbers on both engines: ``bot/migrations/NNN_*.sql`` on SQLite
(applied by ``PRAGMA user_version``, the file then marked with :data:`~bot.store.files.APPLICATION_ID`),
``bot/migrations/postgres/NNN_*.sql`` on PostgreSQL (recorded in ``schema_migrations``, applied under an
advisory lock, so processes starting together migrate once). A schema newer than the code is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.engine import POSTGRES, SQLITE
from bot.store.errors import DatabaseCorrupt, DatabaseNewer
from bot.store.files import APPLICATION_ID

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgres"
MIGRATION_LOCK = 0x63697479626F74  # the advisory lock id processes take to migrate one at a time


def migrations(dialect: str = SQLITE) -> list[tuple[int, str]]:
    """(number, SQL) of every migration file of an engine, in order."""
    folder = POSTGRES_MIGRATIONS_DIR if dialect == POSTGRES else MIGRATIONS_DIR
    out = []
    for path in sorted(folder.glob("*.sql")):
        out.append((int(path.name.split("_", 1)[0]), path.read_text(encoding="utf-8")))
    return out


async def sqlite_version(conn: aiosqlite.Connection) -> int:
    """The schema version of a SQLite file (``PRAGMA user_version``)."""
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def check_sqlite(conn: aiosqlite.Connection) -> None:
    """The file is a whole SQLite database (``quick_check``) from this version or an older one."""
    async with conn.execute("PRAGMA quick_check") as cur:
        rows = await cur.fetchall()
    found = [str(r[0]) for r in rows]
    if found != ["ok"]:
        raise DatabaseCorrupt("; ".join(found)[:200])
    newest = max((number for number, _ in migrations()), default=0)
    current = await sqlite_version(conn)
    if current > newest:
        raise DatabaseNewer(found=current, newest=newest)


async def migrate_sqlite(conn: aiosqlite.Connection) -> None:
    """Apply the missing migrations, each in its own transaction with its ``user_version`` bump; then mark
    the file as this bot's."""
    current = await sqlite_version(conn)
    for number, sql in migrations():
        if number <= current:
            continue
        # executescript commits first; the user_version bump is part of the same script.
        await conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    async with conn.execute("PRAGMA application_id") as cur:
        row = await cur.fetchone()
    if not row or int(row[0]) != APPLICATION_ID:
        await conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


async def migrate_postgres(pool: Any) -> None:
    """Check the version and apply the missing migrations, in one transaction under an advisory
    lock (two processes starting together: the second waits, then finds nothing to do)."""
    newest = max((number for number, _ in migrations(POSTGRES)), default=0)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
        if current > newest:
            raise DatabaseNewer(found=current, newest=newest)
        for number, sql in migrations(POSTGRES):
            if number <= current:
                continue
            await conn.execute(sql)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
