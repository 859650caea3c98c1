"""A throwaway PostgreSQL server for the tests and the bench: its own data folder, 127.0.0.1 only,
a free port, trust authentication, stopped (and its folder removed) at the end. A watchdog process
does the same if the process that started it dies without stopping it (``kill -9``, a crash): it
holds one end of a pipe whose other end only the starting process has, and a closed pipe means that
process is gone.

It needs the server programs (``initdb``, ``pg_ctl``, ``postgres``) from Debian's ``postgresql``
package (``.ci/run`` installs it when missing); :func:`find_binaries` looks on ``PATH`` and in
``/usr/lib/postgresql/<version>/bin``. PostgreSQL refuses to run as root: under root the programs
run as the ``postgres`` user (``runuser``), which owns the data folder.

    server = PostgresServer.start()          # or: with PostgresServer.start() as server:
    url = server.create_database("games")    # postgresql://postgres@127.0.0.1:PORT/games
    server.stop()
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Self

START_TIMEOUT = 60.0
SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs are not installed (or cannot run here)."""


def find_binaries() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    found = shutil.which("pg_ctl")
    if found and (Path(found).resolve().parent / "initdb").exists():
        return Path(found).resolve().parent
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0
    )
    if candidates:
        return candidates[-1].parent
    raise PostgresUnavailable(
        "PostgreSQL's server programs were not found: install Debian's 'postgresql' package "
        "(apt-get install postgresql), as .ci/run does."
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One running server (see the module docstring)."""

    def __init__(self, root: Path, port: int, bindir: Path, run_as: str | None) -> None:
        self.root = root
        self.data = root / "data"
        self.port = port
        self.bindir = bindir
        self.run_as = run_as
        self._counter = 0
        self._watchdog: subprocess.Popen[bytes] | None = None

    # -- starting and stopping ---------------------------------------------------------------

    @classmethod
    def start(
        cls, *, fsync: bool = True, max_connections: int = 200, settings: Mapping[str, str] | None = None
    ) -> Self:
        """Initialise a data folder and start the server; waits until it accepts connections.

        ``fsync=False`` is for tests that never crash the server itself (much faster commits);
        figures that compare engines keep it on, like SQLite's ``synchronous=FULL``. ``settings``: more
        server settings (``name: value``), after these.
        """
        bindir = find_binaries()
        run_as = SUPERUSER if os.geteuid() == 0 else None
        root = Path(tempfile.mkdtemp(prefix="citybot-pg-"))
        server = cls(root, free_port(), bindir, run_as)
        try:
            if run_as:
                user = pwd.getpwnam(run_as)
                os.chown(root, user.pw_uid, user.pw_gid)
            server._run(
                "initdb",
                "-D",
                str(server.data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-instructions",
            )
            options = (
                f"-c listen_addresses=127.0.0.1 -c port={server.port}"
                f" -c unix_socket_directories={server.root} -c max_connections={max_connections}"
                f" -c fsync={'on' if fsync else 'off'}"
                f" -c synchronous_commit={'on' if fsync else 'off'}"
                f" -c full_page_writes={'on' if fsync else 'off'}"
                + "".join(f" -c {name}={value}" for name, value in (settings or {}).items())
            )
            server._run(
                "pg_ctl",
                "-D",
                str(server.data),
                "-l",
                str(server.root / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                str(int(START_TIMEOUT)),
                "start",
            )
            server._wait_ready()
            # Its own session: a Ctrl-C meant for the tests does not stop it before it is needed.
            server._watchdog = subprocess.Popen(
                [sys.executable, "-m", "bot.testing.postgres", "--watch", str(root), str(bindir), run_as or ""],
                stdin=subprocess.PIPE,
                start_new_session=True,
            )
        except BaseException:
            server.stop()
            raise
        return server

    def pid(self) -> int | None:
        """The server's main process (``postmaster.pid``'s first line), None when it is not running."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _command(self, program: str, *args: str) -> list[str]:
        cmd = [str(self.bindir / program), *args]
        if self.run_as:
            cmd = ["runuser", "-u", self.run_as, "--", *cmd]
        return cmd

    def _run(self, program: str, *args: str) -> str:
        try:
            done = subprocess.run(
                self._command(program, *args),
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT,
                check=False,
                cwd=self.root,
            )
        except FileNotFoundError as exc:
            raise PostgresUnavailable(f"cannot run {program}: {exc}") from exc
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PostgresUnavailable(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")
        return done.stdout

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise PostgresUnavailable("PostgreSQL did not accept connections in time") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server at once and remove its folder (safe to call twice)."""
        if self.data.exists():
            with contextlib.suppress(PostgresUnavailable, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            assert watchdog.stdin is not None
            watchdog.stdin.close()  # it finds nothing left to do, and ends
            with contextlib.suppress(subprocess.TimeoutExpired):
                watchdog.wait(timeout=START_TIMEOUT)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    # -- databases ----------------------------------------------------------------------------

    def url(self, database: str = SUPERUSER) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = SUPERUSER) -> str:
        """Run one statement with ``psql`` (set-up only; the bot speaks to it through asyncpg)."""
        psql = self.bindir / "psql"
        program = str(psql) if psql.exists() else (shutil.which("psql") or "psql")
        done = subprocess.run(
            [
                program,
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-c",
                statement,
            ],
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            raise PostgresUnavailable(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; returns its URL. Names default to ``db1``, ``db2``..."""
        if name is None:
            self._counter += 1
            name = f"db{self._counter}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)


def watch(root: str, bindir: str, run_as: str) -> int:
    """The watchdog: wait until the pipe from the starting process closes, then stop the server and
    remove its folder unless :meth:`PostgresServer.stop` already did."""
    sys.stdin.buffer.read()
    server = PostgresServer(Path(root), 0, Path(bindir), run_as or None)
    if server.data.exists():
        server.stop()
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--watch"] and len(sys.argv) == 5:
        raise SystemExit(watch(*sys.argv[2:5]))
    raise SystemExit("usage: python -m bot.testing.postgres --watch ROOT BINDIR RUN_AS")
