"""Is the running bot healthy? The bot writes a heartbeat file; ``python -m bot health`` reads it.

The running bot (:func:`beat`) writes ``<database file>.health`` (beside its lock file: with the image's
``DATA_DIR=/data``, ``/data/bot.sqlite3.health``, also when the database is PostgreSQL) every
:data:`BEAT_SECONDS`: a small JSON object with its process id, host name, the time, whether every gateway
shard is connected and whether the database answered a query. It replaces the file in one rename, so a
reader never sees half of it, and removes it when it stops.

``python -m bot health`` (the image's ``HEALTHCHECK``) reads the same settings as the bot (the environment
and ``.env``) to find the file, and exits 0 only when the file is there and readable, younger than
:data:`STALE_SECONDS`, written by a process that still runs (checked when it was written on this host:
a container's check runs beside the bot), and says the gateway is connected and the database answered.
Otherwise it exits 1 with one sentence saying which. Nothing listens on a port: the check needs no
network, no extra setting, and works the same with several processes (each its own database path).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

BEAT_SECONDS = 5.0
"""How often the running bot writes its heartbeat."""
STALE_SECONDS = 30.0
"""A heartbeat older than this is a bot that hangs or is gone."""
DATABASE_TIMEOUT = 5.0
"""A database that takes longer than this to answer ``SELECT 1`` does not answer."""
SUFFIX = ".health"


def health_path(database_path: Path | str) -> Path:
    """The heartbeat file of the bot whose SQLite path (``DATABASE_PATH``, in ``DATA_DIR``) is ``database_path``."""
    return Path(f"{database_path}{SUFFIX}")


@dataclass(frozen=True)
class Beat:
    pid: int
    host: str
    at: float
    """Epoch seconds."""
    gateway: bool
    database: bool

    def to_json(self) -> str:
        return json.dumps(
            {"pid": self.pid, "host": self.host, "at": self.at, "gateway": self.gateway, "database": self.database}
        )


def write(path: Path, beat: Beat) -> None:
    """Replace the heartbeat file in one rename."""
    tmp = path.with_name(f".{path.name}.{beat.pid}.tmp")
    tmp.write_text(beat.to_json(), encoding="utf-8")
    os.replace(tmp, path)


def remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


async def database_answers(query: Callable[[], Awaitable[Any]]) -> bool:
    try:
        await asyncio.wait_for(query(), DATABASE_TIMEOUT)
    except Exception:
        return False
    return True


async def beat(
    path: Path, gateway: Callable[[], bool], query: Callable[[], Awaitable[Any]], every: float = BEAT_SECONDS
) -> None:
    """Write the heartbeat every ``every`` seconds until cancelled (then remove it)."""
    host = socket.gethostname()
    failing = False
    try:
        while True:
            database = await database_answers(query)
            try:
                # Written here, not in a thread: a few bytes, and a write still running in a thread
                # after a stop could bring back the file the stop removed.
                path.parent.mkdir(parents=True, exist_ok=True)  # (with PostgreSQL nothing else made it)
                write(path, Beat(os.getpid(), host, time.time(), gateway(), database))
                failing = False
            except OSError as exc:
                if not failing:  # once, not every few seconds
                    log.warning("could not write the heartbeat %s: %s", path, exc.strerror or exc)
                failing = True
            await asyncio.sleep(every)
    finally:
        remove(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    return True


def check(path: Path, now: float | None = None) -> tuple[bool, str, dict[str, Any]]:
    """(healthy, catalogue id, its parameters) of the bot whose heartbeat file is ``path``."""
    now = time.time() if now is None else now
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        beat = Beat(
            int(data["pid"]), str(data["host"]), float(data["at"]), bool(data["gateway"]), bool(data["database"])
        )
    except FileNotFoundError:
        return False, "cli.health.none", {"path": path}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return (
            False,
            "cli.health.unreadable",
            {"path": path, "problem": getattr(exc, "strerror", None) or type(exc).__name__},
        )
    age = max(0, round(now - beat.at))
    if beat.host == socket.gethostname() and not _alive(beat.pid):
        return False, "cli.health.gone", {"pid": beat.pid}
    if now - beat.at > STALE_SECONDS:
        return False, "cli.health.stale", {"seconds": age}
    if not beat.gateway:
        return False, "cli.health.gateway", {"seconds": age}
    if not beat.database:
        return False, "cli.health.database", {"seconds": age}
    return True, "cli.health.ok", {"pid": beat.pid, "seconds": age}
