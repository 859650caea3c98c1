"""The board as a Discord Activity (issue 39), Discord's side: whether it is on (``ACTIVITY=on``, with pages
that sign in), the launch that answers "Play on the board", the Entry Point command synced beside the slash
commands (so the App Launcher opens it), and the instance lookup the Activity's pages ask
(:mod:`bot.web.activity`: where an instance runs and who is in it, with the bot's token).

Every request goes through discord.py's HTTP client, so the fake Discord checks it against the OpenAPI
description as every other request.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.i18n import normalise_locale, t
from bot.web.activity import Instance, InstanceUnknown
from cogs import weblinks

log = logging.getLogger(__name__)

ENTRY_POINT_NAME = "launch"
PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
"""The Entry Point command's handler: Discord launches the Activity itself (no interaction for the bot)."""
ENTRY_LOCALES = (discord.Locale.hungarian, discord.Locale.spain_spanish, discord.Locale.russian, discord.Locale.polish)


def enabled(bot: Any) -> bool:
    """Whether "Play on the board" launches the Activity: ``ACTIVITY=on`` and pages that sign in."""
    settings = getattr(bot, "settings", None)
    return bool(getattr(settings, "activity", False)) and weblinks.signs_in(bot)


async def launch(interaction: discord.Interaction) -> bool:
    """Answer the interaction with ``LAUNCH_ACTIVITY`` (callback type 12): True when Discord launched it;
    False when Discord refused (in a DM, or Activities not enabled), the interaction still unanswered."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        log.info("activity: Discord refused the launch (%s %s)", exc.status, exc.code)
        return False
    return True


def entry_point() -> dict[str, Any]:
    """The Entry Point command (``PRIMARY_ENTRY_POINT``, handled by Discord: it launches the Activity)."""
    return {
        "name": ENTRY_POINT_NAME,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": t("web.activity.command", "en"),
        "description_localizations": {
            locale.value: t("web.activity.command", normalise_locale(locale.value)) for locale in ENTRY_LOCALES
        },
        "integration_types": [0],
        "contexts": [0, 1, 2],
    }


async def sync_global(tree: app_commands.CommandTree[Any], http: Any, application_id: int) -> list[Any]:
    """The global commands synced as ``tree.sync()`` does, with the Entry Point among them (Discord refuses a
    bulk overwrite that drops an app's Entry Point)."""
    commands = tree.get_commands()
    translator = tree.translator
    if translator is not None:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    else:
        payload = [command.to_dict(tree) for command in commands]
    payload.append(entry_point())
    data = await http.bulk_upsert_global_commands(application_id, payload=payload)
    return [app_commands.AppCommand(data=d, state=tree._state) for d in data]


async def add_entry_point(http: Any, application_id: int) -> None:
    """The Entry Point alone, as a global command (with a development server's commands synced to it)."""
    await http.upsert_global_command(application_id, entry_point())


async def instance(bot: Any, instance_id: str) -> Instance | None:
    """Discord's answer about an Activity's instance (None: Discord knows no such instance; ``InstanceUnknown``:
    Discord could not be asked, or answered with another error)."""
    route = discord.http.Route(
        "GET",
        "/applications/{application_id}/activity-instances/{instance_id}",
        application_id=bot.application_id,
        instance_id=instance_id,
    )
    try:
        data = await bot.http.request(route)
    except discord.NotFound:
        log.info("activity: Discord knows no such instance")
        return None
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:  # not an answer about the instance
        log.info("activity: Discord could not be asked about an instance: %s", type(exc).__name__)
        raise InstanceUnknown from exc
    location = data.get("location") if isinstance(data, dict) else None
    channel = location.get("channel_id") if isinstance(location, dict) else None
    if not isinstance(channel, str) or not channel.isdigit():
        return None
    guild = location.get("guild_id") if isinstance(location, dict) else None
    users = frozenset(int(u) for u in data.get("users", []) if isinstance(u, str) and u.isdigit())
    return Instance(int(channel), int(guild) if isinstance(guild, str) and guild.isdigit() else None, users)
