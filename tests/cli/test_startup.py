"""Operator safety at start-up: every database fault is one sentence and exit 2 before Discord is
contacted, and a second process on the same database is refused while the first one lives."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot import store
from tests.cli.helpers import ROOT, environment, one_sentence, run_process

NOT_DISCORD = "Discord"


def start_bot(db: Path, tmp_path: Path) -> str:
    """``python -m bot`` with a token and this database; returns its one sentence (exit 2 asserted).
    No Discord is reachable from the test: the database must be refused before any connection."""
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(db)), cwd=tmp_path)
    assert ran.status == 2, (ran.status, ran.err)
    assert "PyNaCl" not in ran.err and "davey" not in ran.err
    return one_sentence(ran.err)


def good_database(path: Path, games: int = 200) -> Path:
    async def fill() -> None:
        db = await store.Store.open(path)
        try:
            async with db.transaction() as conn:
                for i in range(games):
                    await conn.execute(
                        "INSERT INTO games (guild_xid, channel_xid, kind, options, seed, status, version, host_xid,"
                        " created_at, updated_at) VALUES (1, ?, 'btc', '{}', 1, 'finished', 0, 1, 0, 0)",
                        (i,),
                    )
        finally:
            await db.close()

    asyncio.run(fill())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    db.write_bytes(os.urandom(8192))
    sentence = start_bot(db, tmp_path)
    assert "damaged" in sentence and str(db) in sentence and NOT_DISCORD not in sentence


def test_a_truncated_database(tmp_path: Path) -> None:
    db = good_database(tmp_path / "bot.sqlite3")
    data = db.read_bytes()
    assert len(data) > 3 * 4096
    db.write_bytes(data[: len(data) // 2 + 100])
    sentence = start_bot(db, tmp_path)
    assert "damaged" in sentence and "backup" in sentence


def test_a_database_from_a_newer_version(tmp_path: Path) -> None:
    db = good_database(tmp_path / "bot.sqlite3", games=1)
    newest = max(n for n, _ in store.migrations())
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {newest + 5}")
    conn.close()
    sentence = start_bot(db, tmp_path)
    assert "newer version" in sentence and f"schema {newest + 5}" in sentence
    conn = sqlite3.connect(db)  # opened, refused, and left as it was
    assert conn.execute("PRAGMA user_version").fetchone()[0] == newest + 5
    conn.close()


def test_a_database_locked_by_another_program(tmp_path: Path) -> None:
    db = good_database(tmp_path / "bot.sqlite3", games=1)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        sentence = start_bot(db, tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "locked by another program" in sentence


def test_a_database_that_cannot_be_opened(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    Path(store.lock_path(db)).mkdir()  # its lock file cannot be made
    sentence = start_bot(db, tmp_path)
    assert "cannot open the database" in sentence and "permissions" in sentence


HOLDER = textwrap.dedent("""
    import asyncio, sys
    sys.path.insert(0, {root!r})
    from bot import store

    async def main():
        db = await store.Store.open({path!r})
        print("OPEN", flush=True)
        await asyncio.sleep(120)

    asyncio.run(main())
""")


def test_a_second_process_on_the_same_database_is_refused(tmp_path: Path) -> None:
    """While one process has the database open, ``python -m bot`` on it stops with a sentence; once
    that process is gone (even killed), the database opens again."""
    db = tmp_path / "bot.sqlite3"
    first = subprocess.Popen(
        [sys.executable, "-c", HOLDER.format(root=str(ROOT), path=str(db))], stdout=subprocess.PIPE, text=True
    )
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "OPEN"
        sentence = start_bot(db, tmp_path)
        assert "another bot process" in sentence and "DATABASE_PATH" in sentence

        async def second_in_this_process() -> None:
            with pytest.raises(store.DatabaseLocked):
                await store.Store.open(db)

        asyncio.run(second_in_this_process())
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)

    async def reopen() -> None:
        db_again = await store.Store.open(db)
        await db_again.close()

    asyncio.run(reopen())


def probe(path: Path) -> subprocess.CompletedProcess[str]:
    """Another process opening the database (and closing it at once)."""
    code = HOLDER.replace("await asyncio.sleep(120)", "await db.close()").format(root=str(ROOT), path=str(path))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_one_process_may_open_its_database_twice(tmp_path: Path) -> None:
    """The lock is per process: the bot's own second connection (and the tests') is not refused,
    and the lock is let go only when the last one closes."""
    path = tmp_path / "bot.sqlite3"

    async def check() -> None:
        one = await store.Store.open(path)
        two = await store.Store.open(path)
        await one.close()
        held = await asyncio.to_thread(probe, path)
        assert "DatabaseLocked" in held.stderr
        await two.close()
        free = await asyncio.to_thread(probe, path)
        assert free.returncode == 0 and free.stdout.strip() == "OPEN", free.stderr

    asyncio.run(check())


@pytest.mark.parametrize(
    "env, named",
    [
        ({"AI_PAUSE_SECONDS": "nan"}, "AI_PAUSE_SECONDS"),
        ({"AI_PAUSE_SECONDS": "1e400"}, "AI_PAUSE_SECONDS"),
        ({"DEV_GUILD_ID": "٣٤٥"}, "DEV_GUILD_ID"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
    ],
)
def test_bad_settings_are_one_sentence_naming_the_setting(env: dict[str, str], named: str, tmp_path: Path) -> None:
    ran = run_process(
        "-m",
        "bot",
        env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(tmp_path / "b.sqlite3"), **env),
        cwd=tmp_path,
    )
    assert ran.status == 2 and named in one_sentence(ran.err)
