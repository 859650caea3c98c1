"""Migration 016 gives every league season a time control of its own, on both engines: the seasons already
there take their league's (it was "for all its seasons" until then), a league without one gives none."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot import store
from bot.testing.postgres import PostgresServer, free_port

LEAGUES = [(1, 5, "Slow", "toy", "3d+1d"), (2, 5, "Free", "toy", None)]
SEASONS = [(10, 1, 1, 0, 100), (11, 1, 2, 100, 200), (12, 2, 1, 0, 100)]
LEAGUE_SQL = "INSERT INTO community_leagues (id, guild_xid, name, kind, clock, created_at) VALUES ({}, 1)"
SEASON_SQL = "INSERT INTO community_seasons (id, league_id, number, starts_at, ends_at) VALUES ({})"


async def check_upgraded(db: store.Store) -> None:
    assert await db.schema_version() == store.migrations()[-1][0] >= 16
    rows = await db.fetch_all("SELECT id, clock FROM community_seasons ORDER BY id")
    assert [tuple(r) for r in rows] == [(10, "3d+1d"), (11, "3d+1d"), (12, None)]
    assert [tuple(r) for r in await db.fetch_all("SELECT COUNT(*) FROM clock_corrections")] == [(0,)]


async def test_sqlite_seasons_take_their_leagues_clock(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with aiosqlite.connect(path) as conn:
        await conn.execute("PRAGMA foreign_keys=ON")
        for number, sql in store.migrations(store.SQLITE):
            if number <= 15:
                await conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        await conn.executemany(LEAGUE_SQL.format("?, ?, ?, ?, ?"), LEAGUES)
        await conn.executemany(SEASON_SQL.format("?, ?, ?, ?, ?"), SEASONS)
        await conn.commit()
    db = await store.Store.open(path)
    try:
        await check_upgraded(db)
        assert await db.integrity_check() == "ok"
    finally:
        await db.close()


@pytest.mark.postgres
async def test_postgres_seasons_take_their_leagues_clock(postgres_server: PostgresServer) -> None:
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
                if number <= 15:
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
            await conn.executemany(LEAGUE_SQL.format("$1, $2, $3, $4, $5"), LEAGUES)
            await conn.executemany(SEASON_SQL.format("$1, $2, $3, $4, $5"), SEASONS)
    finally:
        await conn.close()
    db = await store.Store.open(postgres_server.url(name))
    try:
        await check_upgraded(db)
    finally:
        await db.close()
