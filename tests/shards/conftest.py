"""Two "processes" on one database, on both engines: SQLite (the same file opened twice in this process;
the lock file keeps a second real process out) and a real PostgreSQL server the tests start themselves."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot import store
from tests.conftest import fresh_postgres_database

Opener = Callable[[], Awaitable[store.Store]]


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def open_db(request: pytest.FixtureRequest, engine: str, tmp_path: Path) -> AsyncIterator[Opener]:
    """Opens the same database once more each call (a new process's store); closed at the end."""
    target: str | Path
    if engine == "postgres":
        target = await fresh_postgres_database(request.getfixturevalue("postgres_server"))
    else:
        target = tmp_path / "bot.sqlite3"
    opened: list[store.Store] = []

    async def _open() -> store.Store:
        db = await store.Store.open(target)
        opened.append(db)
        return db

    yield _open
    for db in reversed(opened):
        await db.close()
