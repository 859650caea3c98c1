"""pytest fixtures for the fake Discord. Use from a conftest.py::

    from tests.fakediscord.fixtures import bot_process, fake_discord  # noqa: F401

- ``fake_discord``: a started :class:`FakeDiscord` on a free 127.0.0.1 port, stopped at the end;
  the test fails at teardown if the fake itself hit an internal error.
- ``bot_process``: an async factory, ``bp = await bot_process()``, that runs
  ``python -m tests.fakediscord.launch`` (default entry ``bot.__main__:main``; pass
  ``entry="tests.fakediscord.standin:main"`` for the stand-in) with a temp DATABASE_PATH, the fake's
  token and guild, and waits for READY. ``await bp.kill()`` is kill -9, ``await bp.restart()``
  starts it again on the same database. Every process is stopped at teardown, and when the test
  fails its log (and the fake's recent requests) are attached to the report.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import IO, Any, Self

import pytest
import pytest_asyncio

from tests.fakediscord.server import READY_TIMEOUT, FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
LAUNCH_MODULE = "tests.fakediscord.launch"
STANDIN_ENTRY = "tests.fakediscord.standin:main"
STOP_TIMEOUT = 5.0
LOG_TAIL_LINES = 300
_SECTIONS = pytest.StashKey[list[Callable[[], tuple[str, str]]]]()
_PLUGIN_NAME = "fakediscord-report-sections"


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
            PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p),
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
            cwd=REPO_ROOT,
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
                raise AssertionError(
                    f"{self.name} exited with {self.proc.returncode} before READY\n{self.log_tail()}"
                )
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


class _ReportSections:
    """Adds the registered sections (bot logs, fake activity) to the report of a failed test."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        report = yield
        if report.failed:
            for make in item.stash.get(_SECTIONS, []):
                with contextlib.suppress(Exception):
                    report.sections.append(make())
        return report


def add_report_section(request: pytest.FixtureRequest, make: Callable[[], tuple[str, str]]) -> None:
    """Attach ``make()`` = (title, text) to this test's report if it fails."""
    manager = request.config.pluginmanager
    if not manager.has_plugin(_PLUGIN_NAME):
        manager.register(_ReportSections(), name=_PLUGIN_NAME)
    request.node.stash.setdefault(_SECTIONS, []).append(make)


@pytest_asyncio.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord on a free loopback port."""
    fake = await FakeDiscord().start()
    add_report_section(request, lambda: ("fake discord", fake.describe(last=40)))
    try:
        yield fake
    finally:
        await fake.stop()
    if fake.internal_errors:
        pytest.fail("the fake Discord hit internal errors:\n" + "\n".join(fake.internal_errors))


BotProcessFactory = Callable[..., Awaitable[BotProcess]]


@pytest_asyncio.fixture
async def bot_process(
    fake_discord: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotProcessFactory]:
    """Factory: ``await bot_process(entry=None, env=None, wait_ready=True, log_level="INFO")``."""
    procs: list[BotProcess] = []

    async def launch(
        *,
        entry: str | None = None,
        env: Mapping[str, str] | None = None,
        wait_ready: bool = True,
        log_level: str = "INFO",
    ) -> BotProcess:
        bp = BotProcess(
            fake_discord, tmp_path, name=f"bot{len(procs) + 1}", entry=entry, env=env, log_level=log_level
        )
        procs.append(bp)
        add_report_section(request, lambda: (f"{bp.name} process log ({bp.log_path})", bp.log_tail()))
        await bp.start()
        if wait_ready:
            await bp.wait_ready()
        return bp

    try:
        yield launch
    finally:
        for bp in procs:
            await bp.stop()


__all__ = [
    "STANDIN_ENTRY",
    "BotProcess",
    "BotProcessFactory",
    "add_report_section",
    "bot_process",
    "fake_discord",
]
