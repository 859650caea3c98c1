"""``/game follow`` and ``/game unfollow``: followers are mentioned on a game's turns and at its end."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import t
from cogs import operations
from cogs.community.common import GameSubcommands, locale_of

if TYPE_CHECKING:
    from cogs.app import CityBot


class FollowersCog(GameSubcommands):
    """Following games."""

    game_subcommands = ("follow", "unfollow")

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)
        self.followers = bot.app.followers

    async def cog_load(self) -> None:
        self.bot.mention_providers.append(self.followers.followers)
        self.attach_game_commands()

    async def cog_unload(self) -> None:
        if self.followers.followers in self.bot.mention_providers:
            self.bot.mention_providers.remove(self.followers.followers)
        self.detach_game_commands()

    @app_commands.describe(game="The game's number (default: this channel's game)")
    async def game_follow(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None] | None = None
    ) -> None:
        """Follow a game: you are mentioned on its turns and at its end."""
        if not await operations.defer(interaction):
            return  # Discord refused: the user saw a failure, so nothing is saved
        info = await self.channel_game(interaction, game)
        await self.followers.follow(interaction.guild_id, info.id, interaction.user.id)
        await operations.reply(interaction, t("community.follow.done", locale_of(interaction), game=info.id))

    @app_commands.describe(game="The game's number (default: this channel's game)")
    async def game_unfollow(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None] | None = None
    ) -> None:
        """Stop following a game."""
        if not await operations.defer(interaction):
            return
        info = await self.channel_game(interaction, game)
        await self.followers.unfollow(interaction.guild_id, info.id, interaction.user.id)
        await operations.reply(interaction, t("community.unfollow.done", locale_of(interaction), game=info.id))
