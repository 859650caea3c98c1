"""The slash commands in the players' languages: the registration Discord receives carries localisations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot import i18n
from cogs.game import LANGUAGES
from cogs.translator import NAME_PATTERN, english_strings
from tests.discord.conftest import Harness

LOCALES = Path(i18n.__file__).with_name("locales")
DISCORD_LOCALES = ("hu", "es-ES", "es-419", "ru", "pl")


def _english_command_catalogue() -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((LOCALES / "en").glob("*commands.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def _walk(node: dict[str, Any]) -> list[dict[str, Any]]:
    out = [node]
    for option in node.get("options") or []:
        out += _walk(option)
    return out


async def test_the_command_catalogue_is_the_command_tree(harness: Harness) -> None:
    """Every command, option and choice the bot registers has its id in the English catalogue, with its text."""
    found = await english_strings(harness.bot.tree)
    found.pop("cmd.choice.toy", None)  # the tests' own game
    assert found == _english_command_catalogue()


async def test_registration_carries_every_language_within_discords_rules(harness: Harness) -> None:
    """Every command and option Discord receives is named and described in Hungarian, both Spanish
    locales, Russian and Polish; names are lower case, at most 32 characters, descriptions at most 100."""
    commands = harness.fake.commands()
    assert commands
    for command in commands:
        for node in _walk(command):
            names, descriptions = node.get("name_localizations") or {}, node.get("description_localizations") or {}
            assert set(DISCORD_LOCALES) <= set(names), (node["name"], sorted(names))
            assert set(DISCORD_LOCALES) <= set(descriptions), (node["name"], sorted(descriptions))
            for text in names.values():
                assert NAME_PATTERN.fullmatch(text) and text == text.lower() and len(text) <= 32, text
            for text in descriptions.values():
                assert 0 < len(text) <= 100, text
            for choice in node.get("choices") or []:
                if choice["value"] == "toy" or choice["value"] in LANGUAGES:
                    continue  # the tests' own game has no translations; a language is named in its own
                assert set(DISCORD_LOCALES) <= set(choice.get("name_localizations") or {}), choice["name"]
    game = next(c for c in commands if c["name"] == "game")
    assert game["name_localizations"]["es-ES"] == game["name_localizations"]["es-419"]
