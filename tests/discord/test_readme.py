"""The README's command reference names every slash command the bot registers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from discord import app_commands

from tests.discord.conftest import Harness

README = Path(__file__).resolve().parents[2] / "README.md"


def paths(command: object, prefix: str = "") -> Iterator[str]:
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            yield from paths(sub, f"{prefix}{command.name} ")
    elif isinstance(command, app_commands.Command):
        yield f"/{prefix}{command.name}"


async def test_readme_lists_every_command(harness: Harness) -> None:
    """Every registered command path (e.g. /game new) appears in the README."""
    text = README.read_text(encoding="utf-8")
    registered = [p for c in harness.bot.tree.get_commands() for p in paths(c)]
    assert len(registered) >= 20
    missing = [p for p in registered if f"`{p}" not in text]
    assert not missing, missing
