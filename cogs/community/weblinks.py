"""``/game link``: the link to a game's web page (this channel's game, or a game of this server by number),
with a button to the asker's own player page; private, read-only. Without ``WEB_BASE_URL`` it says the
pages have no public address."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import errors
from bot.i18n import t
from cogs import operations, weblinks
from cogs.community.common import GameSubcommands, locale_of

if TYPE_CHECKING:
    from cogs.app import CityBot


class LinksCog(GameSubcommands):
    """The web pages' links."""

    game_subcommands = ("link",)

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)

    @app_commands.describe(game="The game's number (#) (default: this channel's game)")
    async def game_link(self, interaction: discord.Interaction,
                        game: app_commands.Range[int, 1, None] | None = None) -> None:
        """The link to a game's live web page (only you see it)."""
        loc = locale_of(interaction)
        links = weblinks.links_of(self.bot)
        if game is None:
            info = await self.service.game_in_channel(interaction.channel_id or 0)
        else:
            info = await self.service.info(game)
            if info.game.guild_xid != interaction.guild_id:
                raise errors.UnknownGame(game=game)  # another server's game: as if there were none
        board = links.game(info.id)
        if board is None:
            await operations.reply(interaction, t("web.link.off", loc))
            return
        if info.game.status == "lobby":  # its page opens when it starts
            await operations.reply(interaction, t("web.link.lobby", loc, game=info.id))
            return
        view = discord.ui.View(timeout=None)
        weblinks.add_link(view, weblinks.BOARD, board, loc)
        if interaction.guild_id is not None:
            weblinks.add_link(view, weblinks.PLAYER, links.player(interaction.guild_id, interaction.user.id, loc),
                              loc)
        view.stop()
        await operations.reply(interaction, t("web.link.game", loc, game=info.id, url=board), view=view)
