"""Tests of the strict fake Discord: schema validation, documented limits, archived threads."""

from collections.abc import Iterator

import pytest

from bot.testing.fakediscord.server import FakeDiscord
from tests.fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]


@pytest.fixture(autouse=True)
def strict_fake(fake_discord: FakeDiscord) -> Iterator[FakeDiscord]:
    """These tests are about strictness: on even when FAKE_DISCORD_STRICT=0 is set for a run."""
    fake_discord.strict = True
    yield fake_discord
