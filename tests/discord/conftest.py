"""The in-process Discord harness: the real bot object against the fake Discord on loopback.

Interactions are real INTERACTION_CREATE payloads fed through discord.py's own parser
(``bot._connection.parse_interaction_create``); every reply goes over HTTP to the fake, which
records it, so tests assert on exactly what Discord would receive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.settings import Settings
from bot.testing.fakediscord.server import FakeDiscord
from cogs import presenters
from cogs.app import CityBot
from tests.conftest import FakeClock


class ToyPresenter(presenters.Presenter):
    """The toy game's bids are secret: choices open privately."""

    kind = "toy"


presenters.register(ToyPresenter())


@dataclass
class Harness:
    fake: FakeDiscord
    bot: CityBot
    clock: FakeClock

    @property
    def service(self) -> Any:
        return self.bot.service

    async def settle(self, limit: float = 30.0) -> None:
        """Wait until the bot's own background work (AI turns, posts) has finished."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while loop.time() < deadline:
            await asyncio.sleep(0.02)
            pending = [
                t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done() and _is_bot_task(t)
            ]
            if not pending:
                await asyncio.sleep(0.02)
                return
        raise AssertionError("the bot did not settle")

    def channel_messages(self, channel: str = "games") -> list[Any]:
        """What everyone in the channel sees (ephemeral replies excluded)."""
        return [m for m in self.fake.messages(channel) if not m.ephemeral]


def _is_bot_task(task: asyncio.Task[Any]) -> bool:
    name = task.get_name()
    coro = task.get_coro()
    qual = getattr(coro, "__qualname__", "")
    return (
        name.startswith(("ai-", "CommandTree", "discord-ui"))
        or "_run_event" in qual
        or ("on_interaction" in qual)
        or "CommandTree" in qual
        or "_call" in qual
    )


@pytest.fixture
async def harness(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    """The bot on this test's engine (the ``database`` fixture): SQLite, or a fresh PostgreSQL database."""
    async for h in _harness(tmp_path, clock, database, web=False):
        yield h


@pytest.fixture
async def web_harness(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    """The harness with the web pages on a free port of this machine (``bot.web``, its ``WEB_BASE_URL``)."""
    async for h in _harness(tmp_path, clock, database, web=True):
        yield h


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _harness(
    tmp_path: Path,
    clock: FakeClock,
    database: str | Path,
    *,
    web: bool,
    base_url: str | None = None,
    analysis_workers: int = 0,
) -> AsyncIterator[Harness]:
    """The bot against a fake Discord; ``web``: its pages served on a free port; ``base_url``: the
    ``WEB_BASE_URL`` its links name (default: the served pages' address, or none); ``analysis_workers``:
    the after-game analysis's worker processes (none unless a test weighs games: tests/discord/test_analysis.py)."""
    url = database if isinstance(database, str) else None
    fake = await FakeDiscord().start()
    old_base = discord.http.Route.BASE
    discord.http.Route.BASE = fake.api_url
    port = free_port() if web else None
    settings = Settings(
        token=fake.token,
        database_path=Path(database) if url is None else tmp_path / "unused.sqlite3",
        dev_guild_id=fake.world.guild_id,
        log_level=logging.INFO,
        ai_pause_seconds=0.0,
        database_url=url,
        web_port=port,
        web_base_url=base_url if base_url is not None else f"http://127.0.0.1:{port}" if port is not None else "",
        analysis_workers=analysis_workers,
    )
    bot = CityBot(settings, clock=clock)
    try:
        await bot.login(fake.token)
        fake.use_client(bot)
        yield Harness(fake, bot, clock)
    finally:
        with contextlib.suppress(AssertionError):
            await Harness(fake, bot, clock).settle()
        await bot.close()
        await fake.stop()
        discord.http.Route.BASE = old_base


Finder = Callable[[Any], bool]


async def answer(handle: Any, limit: float = 5.0) -> Any:
    """The interaction's visible answer: the first thing sent with content, embeds, components or a
    file (the bot defers first, then answers in a follow-up or an edit of its first response)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while loop.time() < deadline:
        for sent in list(handle.sent):
            if sent.content or sent.embeds or sent.components or sent.files:
                return sent
        await asyncio.sleep(0.01)
    raise AssertionError(f"no visible answer to {handle}: {[(s.kind, s.data) for s in handle.sent]}")
