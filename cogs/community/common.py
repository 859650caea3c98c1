"""What the community cogs share: Discord timestamps and links, permission and label helpers, and
adding a cog's subcommands to the game cog's ``/game`` group."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.i18n import normalise_locale
from bot.service import GameInfo
from cogs import ids
from cogs.common import mention, shown_name
from cogs.limits import COMMAND_DESCRIPTION, cut

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)


id_number = ids.number
"""A number read from a custom_id (ASCII digits that fit the database), or ForgedId."""


def stamp(ms: int | None, style: str = "R") -> str:
    """Discord's timestamp markup: each reader sees it in their own time zone."""
    return f"<t:{(ms or 0) // 1000}:{style}>" if ms is not None else "-"


def channel_link(guild_xid: int | None, channel_xid: int | None, message_xid: int | None = None) -> str:
    base = f"https://discord.com/channels/{guild_xid or '@me'}/{channel_xid or 0}"
    return f"{base}/{message_xid}" if message_xid else base


def locale_of(interaction: discord.Interaction) -> str:
    return normalise_locale(interaction.locale)


def is_admin(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def player_label(info: GameInfo, seat: int) -> str:
    if 0 <= seat < len(info.seats):
        row = info.seats[seat]
        return mention(row.user_xid) if row.user_xid is not None else shown_name(row.name)
    return "?"


def number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class GameSubcommands(commands.Cog):
    """A cog whose ``game_<name>`` methods become ``/game <name>`` subcommands while it is loaded (a ``-`` of
    the command's name is a ``_`` of the method's)."""

    game_subcommands: ClassVar[tuple[str, ...]] = ()

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service = bot.service
        self._added: list[app_commands.Command[Any, Any, Any]] = []

    def _game_group(self) -> app_commands.Group | None:
        group = self.bot.tree.get_command("game")
        return group if isinstance(group, app_commands.Group) else None

    def attach_game_commands(self) -> None:
        """Add this cog's subcommands to the game cog's ``/game`` group."""
        group = self._game_group()
        if group is None:
            log.warning("no /game group: the %s subcommands are not available", type(self).__name__)
            return
        for name in self.game_subcommands:
            func = getattr(type(self), f"game_{name.replace('-', '_')}")
            description = cut((func.__doc__ or name).strip().splitlines()[0], COMMAND_DESCRIPTION)
            cmd: app_commands.Command[Any, Any, Any] = app_commands.Command(
                name=name, description=description, callback=func, parent=group
            )
            cmd.binding = self
            group.add_command(cmd)
            self._added.append(cmd)

    def detach_game_commands(self) -> None:
        group = self._game_group()
        for cmd in self._added:
            if group is not None:
                group.remove_command(cmd.name)
        self._added.clear()

    async def cog_load(self) -> None:
        self.attach_game_commands()

    async def cog_unload(self) -> None:
        self.detach_game_commands()

    async def channel_game(self, interaction: discord.Interaction, game: int | None) -> GameInfo:
        """The game of that number on this server, or this channel's game."""
        if game is not None:
            info = await self.service.info(game)
            if info.game.guild_xid != interaction.guild_id:
                raise errors.UnknownGame(game=game)
            return info
        return await self.service.game_in_channel(interaction.channel_id or 0)
