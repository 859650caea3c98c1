"""Slash commands in the players' languages: discord.py's ``app_commands.Translator`` over the catalogue.

Every command, group, option and choice has catalogue ids derived from its qualified name
(``cmd.game.new.name``, ``cmd.game.new.description``, ``cmd.game.new.mode.name``,
``cmd.game.new.mode.description``, ``cmd.choice.<value>``). English is the commands' own text; another
language answers from its catalogue, and only with names Discord accepts (lower case, at most 32
characters, letters, digits, ``-`` and ``_``) and descriptions of at most 100 characters.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalogue, languages, normalise_locale, t

NAME_LIMIT = 32
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")


def locales() -> tuple[discord.Locale, ...]:
    """The Discord locales the bot speaks beside English: those whose language has a folder of
    ``bot/locales`` (:func:`bot.i18n.languages`; both Spanish ones read the same catalogue)."""
    spoken = set(languages()) - {DEFAULT_LOCALE}
    return tuple(loc for loc in discord.Locale if normalise_locale(loc) in spoken)


Location = app_commands.TranslationContextLocation


def _qualified(data: Any) -> str:
    return ".".join(str(getattr(data, "qualified_name", getattr(data, "name", ""))).split())


def key_for(context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue id of one translatable string of the command tree (None: not one of ours)."""
    location, data = context.location, context.data
    if isinstance(data, app_commands.Parameter):
        param_key = f"cmd.{_qualified(data.command)}.{data.name}"
        if location is Location.parameter_name:
            return f"{param_key}.name"
        if location is Location.parameter_description:
            return f"{param_key}.description"
        return None
    if isinstance(data, app_commands.Choice):
        return f"cmd.choice.{data.value}" if location is Location.choice_name else None
    if location is Location.command_name or location is Location.group_name:
        return f"cmd.{_qualified(data)}.name"
    if location is Location.command_description or location is Location.group_description:
        return f"cmd.{_qualified(data)}.description"
    return None


def valid(location: Location, text: str) -> bool:
    """Whether Discord accepts ``text`` at ``location``."""
    if location in (Location.command_name, Location.group_name, Location.parameter_name):
        return bool(NAME_PATTERN.fullmatch(text)) and text == text.lower() and len(text) <= NAME_LIMIT
    if location is Location.choice_name:
        return 0 < len(text) <= CHOICE_LIMIT
    return 0 < len(text) <= DESCRIPTION_LIMIT


class CatalogueTranslator(app_commands.Translator):
    """Localised command names and descriptions from ``bot/locales/<lang>/commands.json``."""

    def __init__(self) -> None:
        self.spoken = frozenset(locales())
        """The locales it answers for, read once (the folders of ``bot/locales`` when the bot starts)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        folder = normalise_locale(locale)
        key = key_for(context)
        if key is None or locale not in self.spoken or key not in catalogue(folder):
            return None
        text = t(key, folder)
        if text == string.message or not valid(context.location, text):
            return None
        return text


class _Recorder(app_commands.Translator):
    """Records the English string of every translatable place (used to list the command catalogue)."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = key_for(context)
        if key is not None:
            self.found.setdefault(key, string.message)
        return None


async def english_strings(tree: app_commands.CommandTree[Any]) -> dict[str, str]:
    """Every catalogue id of the command tree with its English text, as Discord would be sent them."""
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return dict(sorted(recorder.found.items()))
