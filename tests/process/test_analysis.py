"""The after-game analysis's queue across processes (issue 40): a process killed with SIGKILL while its worker
weighs a game leaves a claim that the next process takes over (on PostgreSQL once its lease has run out; a
SQLite file has one process, so at the next start), and two processes started together over one PostgreSQL
database weigh every queued game exactly once between them."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.composition import App, compose
from bot.service import Service
from bot.store import Store
from bot.testing.postgres import PostgresServer
from tests.community.test_analyses import quadropolis_game
from tests.conftest import ROOT, FakeClock, fresh_postgres_database

LEASE_MS = 3000
WAIT = 120.0


@pytest.fixture
async def queued(postgres_server: PostgresServer, clock: FakeClock) -> AsyncIterator[tuple[str, App]]:
    """A fresh PostgreSQL database and the composition root over it (the test's own process)."""
    url = await fresh_postgres_database(postgres_server)
    db = await Store.open(url)
    app = compose(Service(db, clock), boot="test")
    try:
        yield url, app
    finally:
        app.analyses.close()
        await db.close()


@pytest.fixture
def runners() -> Iterator[list[subprocess.Popen[str]]]:
    """Start runners in their own process groups; whatever is left of them (their workers too) is killed."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def runner(runners: list[subprocess.Popen[str]], url: str, boot: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.process.analysis_runner", url, boot, str(LEASE_MS)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    runners.append(proc)
    return proc


async def finished(proc: subprocess.Popen[str]) -> list[int]:
    """The games a runner kept, once it exits by itself."""
    out, _ = await asyncio.to_thread(proc.communicate, timeout=WAIT)
    assert proc.returncode == 0
    return [int(line.split()[1]) for line in out.splitlines() if line.startswith("kept ")]


async def test_a_runner_killed_mid_analysis_is_taken_over_and_the_game_weighed_once(
    queued: tuple[str, App], runners: list[subprocess.Popen[str]]
) -> None:
    url, app = queued
    game = await quadropolis_game(app.service)
    doomed = runner(runners, url, "doomed")
    for _ in range(int(WAIT / 0.05)):
        row = await app.analyses.get(game)
        if row is not None and row.status == "claimed":
            break
        await asyncio.sleep(0.05)
    assert row is not None and row.status == "claimed" and row.claim_boot == "doomed"
    os.killpg(doomed.pid, signal.SIGKILL)  # the process and its worker, mid-weighing
    await asyncio.to_thread(doomed.wait)
    row = await app.analyses.get(game)
    assert row is not None and row.status == "claimed" and row.result is None  # nothing was kept

    assert await finished(runner(runners, url, "heir")) == [game]  # after the dead claim's lease ran out
    row = await app.analyses.get(game)
    assert row is not None and row.status == "done" and row.claim_boot == "heir" and row.attempts == 2
    assert [p["seat"] for p in row.result["players"]] == [0, 1]  # type: ignore[index]


async def test_two_runners_on_one_database_weigh_every_game_exactly_once(
    queued: tuple[str, App], runners: list[subprocess.Popen[str]]
) -> None:
    url, app = queued
    played = [await quadropolis_game(app.service) for _ in range(3)]
    first, second = runner(runners, url, "first"), runner(runners, url, "second")
    kept = await asyncio.gather(finished(first), finished(second))
    assert sorted(kept[0] + kept[1]) == sorted(played)
    assert not set(kept[0]) & set(kept[1])
    for game in played:
        row = await app.analyses.get(game)
        assert row is not None and row.status == "done" and row.attempts == 1


async def test_on_sqlite_a_runner_killed_mid_analysis_is_resumed_at_the_next_start(
    tmp_path: Path, clock: FakeClock, runners: list[subprocess.Popen[str]]
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Store.open(path)
    app = compose(Service(db, clock), boot="test")
    game = await quadropolis_game(app.service)
    await db.close()  # the file admits one process: the runner's

    def state() -> tuple[str, str] | None:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as read:
            row = read.execute("SELECT status, claim_boot FROM game_analyses WHERE game_id = ?", (game,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    doomed = runner(runners, str(path), "doomed")
    for _ in range(int(WAIT / 0.05)):
        if state() == ("claimed", "doomed"):
            break
        await asyncio.sleep(0.05)
    assert state() == ("claimed", "doomed")
    os.killpg(doomed.pid, signal.SIGKILL)  # the process and its worker, mid-weighing
    await asyncio.to_thread(doomed.wait)
    assert state() == ("claimed", "doomed")  # nothing was kept

    assert await finished(runner(runners, str(path), "heir")) == [game]  # at once: the dead run's claim
    db = await Store.open(path)
    try:
        row = await compose(Service(db, clock), boot="check").analyses.get(game)
    finally:
        await db.close()
    assert row is not None and row.status == "done" and row.claim_boot == "heir" and row.attempts == 2
