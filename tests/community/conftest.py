"""Fixtures for the community features: a toy game in a channel, every feature from the composition
root over the service."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import pytest

from bot import store
from bot.community.base import HOUR_MS, Action
from bot.composition import App, compose
from bot.service import Service
from tests.conftest import FakeClock

GUILD = 9
ANA, BEA, CEM, DAN = 101, 202, 303, 404
NAMES = {ANA: "Ana", BEA: "Bea", CEM: "Cem", DAN: "Dan"}


@pytest.fixture
async def community(service: Service) -> App:
    return compose(service, boot="first")


async def toy_game(service: Service, channel: int = 1, host: int = ANA, guest: int = BEA, guild: int = GUILD) -> int:
    """A started toy game (two seats, both choose at once) in a channel of the server."""
    info = await service.create_game(
        guild_xid=guild, channel_xid=channel, kind="toy", options={}, host_xid=host, host_name=NAMES.get(host, "P")
    )
    await service.join(info.id, guest, NAMES.get(guest, "Q"))
    await service.start(info.id, host)
    return info.id


async def bid(service: Service, game_id: int, user: int, card: int) -> None:
    await service.move(game_id, user, {"kind": "bid", "card": card})


def kinds(actions: Iterable[Action]) -> list[tuple[str, int | None]]:
    return [(a.kind, a.user_xid) for a in actions]


async def confirm(community: App, actions: Iterable[Action]) -> None:
    """What the Discord layer does after sending: confirm each action (AI moves are executed)."""
    for a in actions:
        if a.kind == "ai_move":
            await community.reminders.execute_ai(a)
        elif a.kind == "forfeit":
            if await community.reminders.execute_forfeit(a) is not None:
                await community.reminders.mark_sent(a.id)
        else:
            await community.reminders.mark_sent(a.id, message_xid=10_000 + a.id)


async def run(community: App, clock: FakeClock, *, send: bool = True) -> list[Action]:
    """One loop pass at the clock's time (sent and confirmed unless ``send`` is False)."""
    actions = await community.reminders.run_due(clock.now_ms())
    if send:
        await confirm(community, actions)
    return actions


async def run_until(
    community: App, clock: FakeClock, hours: float, step_hours: float = 0.25
) -> list[tuple[float, Action]]:
    """Tick the loop every ``step_hours`` for ``hours``; every action with its hour offset."""
    start = clock.now_ms()
    out: list[tuple[float, Action]] = []
    steps = int(hours / step_hours)
    for _ in range(steps):
        clock.advance(step_hours * 3600)
        for a in await run(community, clock):
            out.append(((clock.now_ms() - start) / HOUR_MS, a))
    return out


@pytest.fixture
async def reopen(database: str | Path, clock: FakeClock) -> AsyncIterator[object]:
    """Open the same database again as a new process would (new Store, Service, features)."""
    opened: list[store.Store] = []

    async def _open(boot: str) -> App:
        db = await store.Store.open(database)
        opened.append(db)
        seeds = iter(range(50_000, 100_000))
        return compose(Service(db, clock, seed_source=lambda: next(seeds)), boot=boot)

    yield _open
    for db in opened:
        await db.close()


from tests.discord.conftest import Harness, harness  # noqa: E402, F401  (the in-process Discord harness)
