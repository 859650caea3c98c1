"""Tests of the strict fake Discord: schema validation, documented limits, archived threads."""

from tests.fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]
