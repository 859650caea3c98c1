"""The slash commands in the players' languages: the registration Discord receives carries localisations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot import i18n
from cogs.translator import NAME_PATTERN, english_strings
from tests.discord.conftest import Harness

LOCALES = Path(i18n.__file__).with_name("locales")
DISCORD_LOCALES = ("hu", "es-ES", "es-419", "ru", "pl")


def _english_command_catalogue() -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((LOCALES / "en").glob("*commands.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def _walk(node: dict[str, Any], path: tuple[str, ...] = ()) -> list[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option with its catalogue id stem (``cmd.game.new.mode``)."""
    here = (*path, node["name"])
    out = [("cmd." + ".".join(here), node)]
    for option in node.get("options") or []:
        out += _walk(option, here)
    return out


async def test_the_command_catalogue_is_the_command_tree(harness: Harness) -> None:
    """Every command, option and choice the bot registers has its id in the English catalogue, with its text."""
    found = await english_strings(harness.bot.tree)
    found.pop("cmd.choice.toy", None)  # the tests' own game
    assert found == _english_command_catalogue()


def _expected(key: str, english: str, locale: str) -> str | None:
    """What Discord should receive for ``key`` in ``locale``: the translation, or nothing where it reads as English."""
    text = i18n.t(key, locale)
    return None if text == english else text


async def test_registration_carries_every_language_within_discords_rules(harness: Harness) -> None:
    """Every command, option and choice Discord receives is named and described in Hungarian, both Spanish
    locales, Russian and Polish (unless the word is the same as in English); names are lower case, at most 32
    characters, descriptions at most 100."""
    english = _english_command_catalogue()
    commands = harness.fake.commands()
    assert commands
    localised = 0
    for command in commands:
        for stem, node in _walk(command):
            names, descriptions = node.get("name_localizations") or {}, node.get("description_localizations") or {}
            for text in names.values():
                assert NAME_PATTERN.fullmatch(text) and text == text.lower() and len(text) <= 32, text
            for text in descriptions.values():
                assert 0 < len(text) <= 100, text
            name_key, description_key = f"{stem}.name", f"{stem}.description"
            for locale in DISCORD_LOCALES:
                assert names.get(locale) == _expected(name_key, english[name_key], locale), (name_key, locale)
                assert descriptions.get(locale) == _expected(description_key, english[description_key], locale), (
                    description_key,
                    locale,
                )
                localised += bool(names.get(locale)) + bool(descriptions.get(locale))
            for choice in node.get("choices") or []:
                if choice["value"] == "toy":
                    continue  # the tests' own game
                key = f"cmd.choice.{choice['value']}"
                for locale in DISCORD_LOCALES:
                    assert (choice.get("name_localizations") or {}).get(locale) == _expected(
                        key, english[key], locale
                    ), (key, locale)
    assert localised > 0.9 * 2 * len(DISCORD_LOCALES) * sum(len(_walk(c)) for c in commands)
    game = next(c for c in commands if c["name"] == "game")
    assert game["name_localizations"]["es-ES"] == game["name_localizations"]["es-419"]


async def test_a_sentence_naming_a_command_links_it(harness: Harness) -> None:
    """A reply that names /game new carries a command mention, which Discord shows in the reader's language."""
    h = harness
    status = await h.fake.slash("game", "status", user="alice")
    reply = await status.response()
    game_id = next(c["id"] for c in h.fake.commands() if c["name"] == "game")
    assert f"</game new:{game_id}>" in (reply.content or ""), reply.content
