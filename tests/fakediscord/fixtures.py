"""pytest fixtures for the fake Discord. Use from a conftest.py::

    from tests.fakediscord.fixtures import bot_process, fake_discord  # noqa: F401

- ``fake_discord``: a started :class:`FakeDiscord` on a free 127.0.0.1 port, stopped at the end;
  the test fails at teardown if the fake itself hit an internal error.
- ``bot_process``: an async factory, ``bp = await bot_process()``, that runs
  ``python -m bot.testing.fakediscord.launch`` (default entry ``bot.__main__:main``; pass
  ``entry="bot.testing.fakediscord.standin:main"`` for the stand-in) with a temp DATABASE_PATH, the fake's
  token and guild, and waits for READY. ``await bp.kill()`` is kill -9, ``await bp.restart()``
  starts it again on the same database. Every process is stopped at teardown, and when the test
  fails its log (and the fake's recent requests) are attached to the report.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.testing.fakediscord.process import LOG_TAIL_LINES, STANDIN_ENTRY, BotProcess
from bot.testing.fakediscord.server import FakeDiscord

__all__ = ["LOG_TAIL_LINES", "STANDIN_ENTRY", "BotProcess", "bot_process", "fake_discord"]
_SECTIONS = pytest.StashKey[list[Callable[[], tuple[str, str]]]]()
_PLUGIN_NAME = "fakediscord-report-sections"


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
        bp = BotProcess(fake_discord, tmp_path, name=f"bot{len(procs) + 1}", entry=entry, env=env, log_level=log_level)
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


__all__ = ["STANDIN_ENTRY", "BotProcess", "BotProcessFactory", "add_report_section", "bot_process", "fake_discord"]
