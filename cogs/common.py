"""What every Discord module shares: the reader's and the channel's language, mentions, names made
safe for Discord's markdown, the embed colour, a game's title, and the click that made a move.

Imports nothing of ``cogs`` but :mod:`cogs.limits`, so any cogs module may import it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import games
from bot.i18n import language_name, languages, normalise_locale, t
from bot.rules.core import TERM_KEY

EMBED_COLOUR = discord.Colour(0x0072B2)  # Okabe-Ito blue, shared with the pictures

LANGUAGES = {code: language_name(code) for code in languages()}
"""The languages the bot speaks (the folders of ``bot/locales``), each by its own name (the game's language
at /game new)."""


def locale_of(interaction: discord.Interaction) -> str:
    """The clicking user's language (private replies speak it)."""
    return normalise_locale(interaction.locale)


def public_locale(interaction: discord.Interaction | None) -> str:
    """The server's preferred language where the bot speaks it, else English."""
    if interaction is not None and interaction.guild_locale is not None:
        loc = normalise_locale(interaction.guild_locale)
        return loc if loc in LANGUAGES else "en"
    return "en"


def game_title(kind: str, locale: str = "en") -> str:
    rules = games.rules(kind)
    return t(rules.title_key or kind, locale)


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game_title(kind), value=kind) for kind in games.available()]


def language_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]


def mention(user_xid: int) -> str:
    return f"<@{user_xid}>"


def shown_name(name: str) -> str:
    """A display name as typed text in a message or embed: its markdown (``**bold**``, ``||spoiler||``)
    shows as typed, and a mention in it (``<@&role>``, ``@everyone``) is plain text, never a pill."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def shown_names(names: Sequence[str]) -> list[str]:
    """The seats' names as :func:`shown_name` shows them, in seat order."""
    return [shown_name(n) for n in names]


def shown_params(params: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A move's description as :func:`bot.service.named` filled it (``player`` and every seat it refers
    to by the seat's name as typed), each of those names now :func:`shown_name`: the one way a move's
    sentence goes into a Discord message. The service names seats for every front-end (the web page
    escapes HTML, the terminal prints as typed); only Discord reads markdown, so only Discord escapes.
    A term's id is never touched."""
    typed = set(names)

    def shown(value: Any) -> Any:
        if isinstance(value, str):
            return shown_name(value) if value in typed else value
        if isinstance(value, Mapping):
            return {k: v if k == TERM_KEY else shown(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [shown(v) for v in value]
        return value

    return {k: shown(v) for k, v in params.items()}


@dataclass
class Origin:
    """The click that made a move: who to answer privately, in their language."""

    interaction: discord.Interaction
    locale: str
    ephemeral: bool
    """The click came from a private (ephemeral) menu."""
    acknowledging: asyncio.Task[None] | None = None
    """The acknowledgement, started as soon as the move was committed (:func:`cogs.play.play`)."""
    made: Any = None
    """The snapshot the committed move left (a :class:`bot.service.Snapshot`), set with :attr:`acknowledging`: the
    player's next private menu comes from it while the game is still there (:meth:`Service.private_choices`)."""
