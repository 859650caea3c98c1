"""The bot as a child process pointed at the fake Discord: start, wait for READY, kill -9, restart.

``BotProcess(fake, workdir)`` runs ``python -m bot.testing.fakediscord.launch`` (default entry
``bot.__main__:main``; ``entry="bot.testing.fakediscord.standin:main"`` for the stand-in) with a
DATABASE_PATH in ``workdir``, the fake's token and guild, and its log in ``workdir``. It needs no
pytest: the load bench uses it from an installed package, the tests through
``tests/fakediscord/fixtures.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Self

from bot.testing.fakediscord.server import READY_TIMEOUT, FakeDiscord

LAUNCH_MODULE = "bot.testing.fakediscord.launch"
STANDIN_ENTRY = "bot.testing.fakediscord.standin:main"
STOP_TIMEOUT = 5.0
LOG_TAIL_LINES = 300


class BotProcess:
    """The bot as a child process pointed at the fake (see the module docstring)."""

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        name: str = "bot",
        entry: str | None = None,
        env: Mapping[str, str] | None = None,
        log_level: str = "INFO",
    ) -> None:
        self.fake = fake
        self.name = name
        self.entry = entry
        self.extra_env = dict(env or {})
        self.log_level = log_level
        self.workdir = workdir
        self.db_path = workdir / f"{name}.sqlite3"
        self.log_path = workdir / f"{name}.log"
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._ready_before = 0
        self._log: IO[bytes] | None = None
        self._watcher: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "FAKE_DISCORD_"))}
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DATABASE_PATH=str(self.db_path),
            DEV_GUILD_ID=str(self.fake.world.guild_id),
            LOG_LEVEL=self.log_level,
            FAKE_DISCORD_URL=self.fake.url,
            PYTHONUNBUFFERED="1",
            WEB_PORT="off",  # the pages only where a test asks for them (env=): processes never share a port
        )
        if self.entry:
            env["FAKE_DISCORD_ENTRY"] = self.entry
        env.update(self.extra_env)
        return env

    async def start(self) -> Self:
        """Spawn the process (does not wait for READY: see :meth:`wait_ready`)."""
        if self.running:
            raise RuntimeError(f"{self.name} is already running (pid {self.pid})")
        self.starts += 1
        self._ready_before = self.fake.gateway.ready_count
        if self._log is None:
            self._log = self.log_path.open("ab")
        self._log.write(f"===== {self.name} start #{self.starts} =====\n".encode())
        self._log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            LAUNCH_MODULE,
            cwd=self.workdir,
            env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._watcher = asyncio.create_task(self._watch(self.proc), name=f"fakediscord-watch-{self.name}")
        return self

    async def _watch(self, proc: asyncio.subprocess.Process) -> None:
        await proc.wait()
        self.fake.notify()  # wake waiters so a dead process is noticed at once

    async def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:  # noqa: ASYNC109
        """Wait until this start of the process got READY; fails at once if the process dies."""

        def ready() -> bool:
            if self.proc is not None and self.proc.returncode is not None:
                raise AssertionError(f"{self.name} exited with {self.proc.returncode} before READY\n{self.log_tail()}")
            return self.fake.gateway.ready_count > self._ready_before and self.fake.gateway.connected

        await self.fake.wait_until(ready, timeout, f"{self.name} to connect and get READY")

    async def kill(self) -> None:
        """kill -9 and wait for the process to be gone."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
        self._note(f"killed with SIGKILL (returncode {proc.returncode})")

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL after a few seconds; closes the log."""
        proc = self.proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
            except TimeoutError:
                await self.kill()
            self._note(f"stopped (returncode {proc.returncode})")
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self._log is not None:
            self._log.close()
            self._log = None

    async def restart(self, *, wait_ready: bool = True) -> Self:
        """kill -9 if running, start again on the same database, and wait for READY."""
        await self.kill()
        await self.start()
        if wait_ready:
            await self.wait_ready()
        return self

    def _note(self, text: str) -> None:
        if self._log is not None:
            self._log.write(f"===== {self.name} {text} =====\n".encode())
            self._log.flush()

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])
