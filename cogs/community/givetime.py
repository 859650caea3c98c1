"""``/game give-time player: hours:`` (issue 41): a player adds time to an opponent's bank, at most once a
day for the same opponent; said in public in the game's channel (the game's history of it), the gift kept
in the clocks' records."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.community.base import CommunityError
from bot.community.clocks import MAX_GIFT_HOURS
from bot.i18n import t
from cogs import operations
from cogs.clocks import left_text
from cogs.common import mention
from cogs.community.common import GameSubcommands, stamp

if TYPE_CHECKING:
    from cogs.app import CityBot


class GiveTimeCog(GameSubcommands):
    """Giving an opponent time."""

    game_subcommands = ("give-time",)

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)
        self.clocks = bot.app.clocks

    @app_commands.describe(player="The opponent who gets the time", hours="How many hours to add to their bank")
    async def game_give_time(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        hours: app_commands.Range[int, 1, MAX_GIFT_HOURS],
    ) -> None:
        """Give an opponent more time in their bank (once a day for each opponent)."""
        if not await operations.defer(interaction, ephemeral=False):
            return  # Discord refused: the user saw a failure, so nothing is given
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        try:
            info, seat, ms = await self.clocks.give_time(info.id, interaction.user.id, player.id, hours)
        except CommunityError as exc:
            if exc.key == "community.error.give_time_daily":
                raise CommunityError(exc.key, again=stamp(int(exc.params["again"]))) from None
            raise
        loc = info.game.locale
        text = t(
            "community.give_time.given",
            loc,
            giver=mention(interaction.user.id),
            player=mention(player.id),
            left=left_text(ms, loc),
            game=info.id,
        )
        if await operations.reply(interaction, text, ephemeral=False):
            await self.bot.app.erasure.record_post(info.id, "line", await operations.original_message_id(interaction))
        del seat
