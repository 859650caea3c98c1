"""The SQLite file before it is opened: one process per file (an exclusive ``flock`` on ``<db>.lock``
beside it, shared by the holders of one process), the refusal of a file that is not this bot's (read from
its header, nothing written), and a driver's error met while opening as the start-up problem it means."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from pathlib import Path

from bot.store.errors import (
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseForeign,
    DatabaseIsFolder,
    DatabaseLocked,
    DatabaseProblem,
    DatabaseUnreadable,
)

APPLICATION_ID = int.from_bytes(b"CtyB", "big")
"""The mark a SQLite file of this bot carries in its header (``PRAGMA application_id``), with its schema
version (``PRAGMA user_version``): a file with neither and tables of its own is another program's."""
SQLITE_HEADER = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"games", "seats", "moves"})
"""Tables every database of this bot has had since its first migration (a file from before the mark)."""

_LOCKS: dict[str, list[int]] = {}
"""Lock file path -> [open descriptor, number of holders in this process]."""


def lock_path(path: str | Path) -> str:
    """The lock file of a database: ``<db>.lock`` next to it (absolute, symlinks resolved)."""
    return os.path.realpath(str(path)) + ".lock"


def lock_database(path: str | Path) -> None:
    """Take the database's process lock (an exclusive ``flock`` on ``<db>.lock``), or raise
    :class:`DatabaseLocked` when another process has it. The lock lasts until this process ends or
    every holder called :func:`unlock_database`; holders in one process share it."""
    if str(path) == ":memory:":
        return
    name = lock_path(path)
    held = _LOCKS.get(name)
    if held is not None:
        held[1] += 1
        return
    refuse_foreign(path)  # another program's file (or no database at all) gets no lock file beside it
    try:
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise DatabaseUnreadable(exc.strerror or str(exc)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DatabaseLocked(lock=name) from None
    try:
        same = os.fstat(fd).st_ino == os.stat(name).st_ino
    except OSError:
        same = False
    if not same:
        # The process that held it removed the file as it stopped (unlock_database(remove=True))
        # between our open and our lock: ours is a lock on a deleted file. Take the new one.
        os.close(fd)
        lock_database(path)
        return
    _LOCKS[name] = [fd, 1]


def unlock_database(path: str | Path, *, remove: bool = False) -> None:
    """One holder lets go of the process lock; the last one releases it (``remove``: and deletes the
    lock file first, while still holding it: a graceful stop leaves nothing behind)."""
    if str(path) == ":memory:":
        return
    name = lock_path(path)
    held = _LOCKS.get(name)
    if held is None:
        return
    held[1] -= 1
    if held[1] <= 0:
        del _LOCKS[name]
        if remove:
            with contextlib.suppress(OSError):
                os.unlink(name)
        os.close(held[0])  # closing the descriptor releases the flock


def prepare(path: str | Path) -> None:
    """The database's folder exists, the path is not a folder, and the file (if any) is this bot's."""
    if str(path) == ":memory:":
        return
    if Path(path).is_dir():
        raise DatabaseIsFolder()
    refuse_foreign(path)
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnreadable(exc.strerror or str(exc)) from None


def refuse_foreign(path: str | Path) -> None:
    """Read (never write) an existing file's header: :class:`DatabaseCorrupt` when it is not a SQLite
    database, :class:`DatabaseForeign` when it is another program's. This bot's files carry
    :data:`APPLICATION_ID`; an older one has a ``user_version`` and this bot's tables; an empty file, or a
    SQLite file with no table, is taken as new. Nothing is created, not even the lock file."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise DatabaseUnreadable(exc.strerror or str(exc)) from None
    if not head:
        return
    if len(head) < 100 or not head.startswith(SQLITE_HEADER):
        raise DatabaseCorrupt("file is not a database")
    user_version = int.from_bytes(head[60:64], "big")
    application_id = int.from_bytes(head[68:72], "big", signed=True)
    if application_id == APPLICATION_ID:
        return
    tables = _tables_of(path)
    if application_id == 0 and (not tables or (user_version > 0 and set(tables) >= OUR_TABLES)):
        return
    raise DatabaseForeign(tables=", ".join(tables[:5]) + (", …" if len(tables) > 5 else "") or "-")


def _tables_of(path: str | Path) -> list[str]:
    """The table names of a SQLite file, read as immutable (no lock, no journal, nothing written)."""
    uri = Path(os.path.abspath(path)).as_uri() + "?immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            rows = conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise sqlite_problem(exc) from None
    return [str(r[0]) for r in rows]


def pg_problem(exc: BaseException) -> str:
    """A PostgreSQL connection problem in a few words (never the URL, which may hold a password)."""
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:200]


def sqlite_problem(exc: sqlite3.Error) -> DatabaseProblem:
    """A sqlite3 error met while opening, as the start-up problem it means."""
    text = str(exc)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return DatabaseBusy(text)
    if (
        "unable to open" in lowered
        or "readonly" in lowered
        or "read-only" in lowered
        or "disk i/o" in lowered
        or "permission" in lowered
    ):
        return DatabaseUnreadable(text)
    return DatabaseCorrupt(text)
