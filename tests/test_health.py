"""``python -m bot health`` reads the heartbeat the running bot writes (:mod:`bot.health`): healthy only
when the file is fresh, its process runs, the gateway is connected and the database answered."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import health
from bot.__main__ import main


def beat(
    path: Path,
    *,
    pid: int | None = None,
    host: str | None = None,
    age: float = 0.0,
    gateway: bool = True,
    database: bool = True,
) -> Path:
    health.write(
        path,
        health.Beat(
            os.getpid() if pid is None else pid, host or socket.gethostname(), time.time() - age, gateway, database
        ),
    )
    return path


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_fresh_heartbeat_of_a_connected_bot_is_healthy(tmp_path: Path) -> None:
    healthy, key, params = health.check(beat(tmp_path / "bot.sqlite3.health", age=3))
    assert (healthy, key, params["pid"]) == (True, "cli.health.ok", os.getpid())


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"gateway": False}, "cli.health.gateway"),
        ({"database": False}, "cli.health.database"),
        ({"age": health.STALE_SECONDS + 5}, "cli.health.stale"),
    ],
)
def test_an_unhealthy_heartbeat_says_why(tmp_path: Path, kwargs: dict[str, object], key: str) -> None:
    assert health.check(beat(tmp_path / "h", **kwargs))[:2] == (False, key)  # type: ignore[arg-type]


def test_a_heartbeat_of_a_process_that_is_gone_is_unhealthy_at_once(tmp_path: Path) -> None:
    assert health.check(beat(tmp_path / "h", pid=dead_pid()))[:2] == (False, "cli.health.gone")
    # Written on another host (a file on a shared volume): its process cannot be asked, its age decides.
    assert health.check(beat(tmp_path / "h", pid=dead_pid(), host="elsewhere"))[:2] == (True, "cli.health.ok")


def test_no_heartbeat_or_a_garbled_one_is_unhealthy(tmp_path: Path) -> None:
    assert health.check(tmp_path / "none")[:2] == (False, "cli.health.none")
    (tmp_path / "bad").write_text('{"pid": "x"')
    assert health.check(tmp_path / "bad")[:2] == (False, "cli.health.unreadable")


async def test_the_bot_writes_its_heartbeat_and_removes_it_when_it_stops(tmp_path: Path) -> None:
    path = tmp_path / "data" / "bot.sqlite3.health"  # a folder nobody made yet (PostgreSQL, no DATA_DIR)
    connected = [True]

    async def query() -> int:
        return 1

    task = asyncio.create_task(health.beat(path, lambda: connected[0], query, every=0.01))
    for _ in range(500):
        if path.exists():
            break
        await asyncio.sleep(0.01)
    assert health.check(path)[:2] == (True, "cli.health.ok")
    connected[0] = False
    for _ in range(500):
        if health.check(path)[1] == "cli.health.gateway":
            break
        await asyncio.sleep(0.01)
    assert health.check(path)[:2] == (False, "cli.health.gateway")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not path.exists()


async def test_a_database_that_does_not_answer_is_reported(tmp_path: Path) -> None:
    async def broken() -> None:
        raise OSError("connection refused")

    assert await health.database_answers(broken) is False


def test_the_command_finds_the_heartbeat_with_the_bots_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    assert main(["health"]) == 1
    assert "no heartbeat" in capsys.readouterr().err
    (tmp_path / "data").mkdir()
    beat(tmp_path / "data" / "bot.sqlite3.health")
    assert main(["health"]) == 0
    assert capsys.readouterr().out.startswith("healthy:")
    monkeypatch.setenv("DATABASE_PATH", "games/x.sqlite3")
    (tmp_path / "data" / "games").mkdir()
    beat(tmp_path / "data" / "games" / "x.sqlite3.health", gateway=False)
    assert main(["health"]) == 1
    assert "gateway" in capsys.readouterr().err
    assert main(["health", "--help"]) == 0
    assert "HEALTHCHECK" in capsys.readouterr().out
    assert main(["health", "--now"]) == 2
