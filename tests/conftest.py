"""Shared fixtures: a fresh store, a fake clock, a service, the toy game registered."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import cli, games, store
from bot.service import Service
from bot.testing.toygame import RULES as TOY

games.register_rules(TOY, secret=True)

# The command line speaks the terminal's language (LC_ALL, LC_MESSAGES, LANG): the tests, and the
# processes they start, expect English unless a test sets another.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
cli.LOCALE = cli.terminal_locale(os.environ)


class FakeClock:
    """A clock tests move by hand (epoch ms)."""

    def __init__(self, start_ms: int = 1_800_000_000_000) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[store.Store]:
    s = await store.Store.open(db_path)
    yield s
    await s.close()


@pytest.fixture
def service(db: store.Store, clock: FakeClock) -> Service:
    seeds = iter(range(1000, 100000))
    return Service(db, clock, seed_source=lambda: next(seeds))
