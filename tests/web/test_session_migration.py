"""Migration 013 (the Activity's sessions bound to their instance) upgrades a database that has 012's sessions
in it, on both engines: every session and every move's key is kept (the old ones bound to no instance), the
indexes and the cascade from a session to its keys still hold, and ``how = 'activity'`` needs an instance."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot import store
from bot.testing.postgres import PostgresServer, free_port

SESSIONS = [("a" * 64, 11, "link", 1, 100), ("b" * 64, 11, "discord", 2, 200), ("c" * 64, 12, "local", 3, 300)]
MOVES = [("a" * 64, "k1", "d1", 4, 5), ("b" * 64, "k2", "d2", 6, 7)]


async def check_upgraded(db: store.Store) -> None:
    assert await db.schema_version() == store.migrations()[-1][0] >= 13
    rows = await db.fetch_all(
        "SELECT id_hash, user_xid, how, created_at, expires_at, instance_id FROM web_sessions ORDER BY id_hash"
    )
    assert [tuple(r) for r in rows] == [(*s, None) for s in SESSIONS]
    moves = await db.fetch_all("SELECT session_hash, key, digest, version, created_at FROM web_moves ORDER BY key")
    assert [tuple(r) for r in moves] == MOVES
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO web_sessions (id_hash, user_xid, how, created_at, expires_at, instance_id)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            ("d" * 64, 11, "activity", 8, 9, "i-1"),
        )
        await tx.execute("DELETE FROM web_sessions WHERE id_hash = ?", ("a" * 64,))  # its key goes with it
    assert [r[0] for r in await db.fetch_all("SELECT key FROM web_moves")] == ["k2"]
    for bad in (("e" * 64, "activity", None), ("f" * 64, "link", "i-1"), ("g" * 64, "other", None)):
        with pytest.raises(Exception, match=r"(?i)check"):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO web_sessions (id_hash, user_xid, how, created_at, expires_at, instance_id)"
                    " VALUES (?, 11, ?, 1, 2, ?)",
                    bad,
                )
    assert await db.integrity_check() == "ok"


async def test_sqlite_sessions_of_012_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with aiosqlite.connect(path) as conn:
        await conn.execute("PRAGMA foreign_keys=ON")
        for number, sql in store.migrations(store.SQLITE):
            if number <= 12:
                await conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        await conn.executemany("INSERT INTO web_sessions VALUES (?, ?, ?, ?, ?)", SESSIONS)
        await conn.executemany("INSERT INTO web_moves VALUES (?, ?, ?, ?, ?)", MOVES)
        await conn.commit()
    db = await store.Store.open(path)
    try:
        await check_upgraded(db)
        indexes = await db.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'web_sessions'"
        )
        assert {"web_sessions_by_user", "web_sessions_by_instance"} <= {r[0] for r in indexes}
        assert await db.fetch_all("PRAGMA foreign_key_check") == []
    finally:
        await db.close()


@pytest.mark.postgres
async def test_postgres_sessions_of_012_are_kept(postgres_server: PostgresServer) -> None:
    name = f"upgrade{free_port()}"
    admin = await asyncpg.connect(postgres_server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    conn = await asyncpg.connect(postgres_server.url(name))
    try:
        async with conn.transaction():
            await conn.execute("CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ)")
            for number, sql in store.migrations(store.POSTGRES):
                if number <= 12:
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
            await conn.executemany("INSERT INTO web_sessions VALUES ($1, $2, $3, $4, $5)", SESSIONS)
            await conn.executemany("INSERT INTO web_moves VALUES ($1, $2, $3, $4, $5)", MOVES)
    finally:
        await conn.close()
    db = await store.Store.open(postgres_server.url(name))
    try:
        await check_upgraded(db)
        indexes = await db.fetch_all("SELECT indexname FROM pg_indexes WHERE tablename = 'web_sessions'")
        assert {"web_sessions_by_user", "web_sessions_by_instance"} <= {r[0] for r in indexes}
    finally:
        await db.close()
