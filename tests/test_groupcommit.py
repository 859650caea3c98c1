"""Writers that queue at the same moment share one commit, and each still sees its own fate."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot import store
from bot.service import Service


def committed_moves(path: Path) -> int:
    """Moves another connection can read (committed, on disk)."""
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
    finally:
        db.close()


async def test_concurrent_moves_share_commits_and_each_is_on_disk_when_acknowledged(
    db: store.Store, service: Service, db_path: Path
) -> None:
    """Twenty games moving at once: fewer commits than moves, and when a move returns another
    connection already reads it."""
    games = []
    for channel in range(20):
        info = await service.create_game(
            guild_xid=9, channel_xid=channel + 1, kind="toy", options={}, host_xid=100, host_name="Ana"
        )
        await service.join(info.id, 200 + channel, "Bea")
        await service.start(info.id, 100)
        games.append(info.id)
    writers = db.writers
    assert writers is not None
    commits_before = writers.commits
    seen: list[int] = []

    async def play(gid: int) -> None:
        await service.move(gid, 100, {"kind": "bid", "card": 3})
        seen.append(committed_moves(db_path))

    await asyncio.gather(*(play(g) for g in games))
    assert committed_moves(db_path) == 20
    # each move was readable from outside when its caller got it back
    assert all(count >= rank + 1 for rank, count in enumerate(sorted(seen)))
    assert writers.commits - commits_before < 20


@pytest.mark.parametrize("failing", [{1}, {3}, {5}, {2, 4}])
async def test_a_failing_writer_takes_back_only_its_own_work(db: store.Store, db_path: Path, failing: set[int]) -> None:
    """Writers of a group fail (the first of it, one inside it, the last, two of them): their rows are gone,
    the rows of the others, whose savepoints the failing ones nest in, are committed."""

    async def write(key: int, fail: bool) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_xid, data) VALUES (?, '{}')", (key,))
            if fail:
                raise RuntimeError("refused")

    results = await asyncio.gather(*(write(k, k in failing) for k in range(1, 6)), return_exceptions=True)
    assert [isinstance(r, RuntimeError) for r in results] == [k in failing for k in range(1, 6)]
    reader = sqlite3.connect(db_path)
    try:
        keys = [r[0] for r in reader.execute("SELECT guild_xid FROM guild_settings ORDER BY guild_xid")]
    finally:
        reader.close()
    assert keys == [k for k in range(1, 6) if k not in failing]


async def test_a_stale_move_in_a_group_changes_nothing(service: Service) -> None:
    """The version check still holds inside a shared commit: of two clicks on one button, one plays."""
    info = await service.create_game(guild_xid=9, channel_xid=1, kind="toy", options={}, host_xid=100, host_name="Ana")
    await service.join(info.id, 200, "Bea")
    await service.start(info.id, 100)
    results = await asyncio.gather(
        service.move(info.id, 100, {"kind": "bid", "card": 3}, expected_version=0),
        service.move(info.id, 100, {"kind": "bid", "card": 2}, expected_version=0),
        return_exceptions=True,
    )
    played = [r for r in results if not isinstance(r, Exception)]
    assert len(played) == 1
    assert (await service.game(info.id)).version == 1


@pytest.mark.parametrize("size", [1, 3])
async def test_group_size_is_bounded(db: store.Store, size: int) -> None:
    """A group never holds more writers than its bound (each commit takes back at most that many)."""
    writers = db.writers
    assert writers is not None
    writers.max_group = size
    before = writers.commits

    async def write(key: int) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_xid, data) VALUES (?, '{}')", (key,))

    await asyncio.gather(*(write(k) for k in range(1, 7)))
    assert writers.commits - before >= 6 // size


async def test_a_full_group_of_nested_savepoints_commits_all_but_the_failed(db: store.Store, db_path: Path) -> None:
    """More writers at once than a group holds: each group nests up to its bound of savepoints (a writer
    that succeeded leaves its own open), and every writer but the failing ones is committed."""
    writers = db.writers
    assert writers is not None
    count = writers.max_group + 44
    failing = set(range(7, count, 50))
    before = writers.commits

    async def write(key: int) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_xid, data) VALUES (?, '{}')", (key,))
            if key in failing:
                raise RuntimeError("refused")

    results = await asyncio.gather(*(write(k) for k in range(count)), return_exceptions=True)
    assert {k for k, r in enumerate(results) if isinstance(r, RuntimeError)} == failing
    assert writers.commits - before <= 3, "the writers did not share commits: nothing was nested"
    reader = sqlite3.connect(db_path)
    try:
        keys = {r[0] for r in reader.execute("SELECT guild_xid FROM guild_settings")}
    finally:
        reader.close()
    assert keys == set(range(count)) - failing
