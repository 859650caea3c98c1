"""``/game link``: the link to a game's web page (this channel's game, or a game of this server by number),
with a button to the asker's own player page, and the asker's own single-use sign-in link (issue 38); private.
A turn post's "Play on the board" button (``board:<game>``) answers privately with that sign-in link, or, with
``ACTIVITY=on``, launches the board as a Discord Activity (issue 39; refused by Discord: the link). Both
acknowledge first and make the link after (a refused acknowledgement makes none). Without ``WEB_BASE_URL``
``/game link`` says the pages have no public address."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import errors
from bot.i18n import t
from cogs import activity, operations, weblinks
from cogs.community.common import GameSubcommands, locale_of

if TYPE_CHECKING:
    from cogs.app import CityBot


class LinksCog(GameSubcommands):
    """The web pages' links."""

    game_subcommands = ("link",)

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.component_routes[weblinks.PLAY_PREFIX] = self.play_click

    async def play_click(self, interaction: discord.Interaction, custom_id: str, data: dict[str, object]) -> None:
        """ "Play on the board": the clicker's own sign-in link, opening that game (private)."""
        loc = locale_of(interaction)
        _, _, raw = custom_id.partition(":")
        if not raw.isdigit() or len(raw) > 19:
            await operations.reply(interaction, t("error.stale", loc))
            return
        if activity.enabled(self.bot) and await activity.launch(interaction):
            return  # the board opens inside Discord (issue 39); refused: the sign-in link below
        if not await operations.defer(interaction):
            return  # Discord refused: no link is made
        url = await weblinks.signin_url(self.bot, interaction.user.id, int(raw), loc)
        await operations.reply(
            interaction, t("web.link.signin", loc, game=int(raw), url=url) if url else t("web.link.off", loc)
        )

    @app_commands.describe(game="The game's number (#) (default: this channel's game)")
    async def game_link(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None] | None = None
    ) -> None:
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
        if not await operations.defer(interaction):
            return  # Discord refused: no sign-in link is made
        signin = await weblinks.signin_url(self.bot, interaction.user.id, info.id, loc)
        view = discord.ui.View(timeout=None)
        weblinks.add_link(view, weblinks.BOARD, board, loc)
        if interaction.guild_id is not None:
            weblinks.add_link(view, weblinks.PLAYER, links.player(interaction.guild_id, interaction.user.id, loc), loc)
        view.stop()
        lines = [t("web.link.game", loc, game=info.id, url=board)]
        if signin is not None:
            lines.append(t("web.link.signin", loc, game=info.id, url=signin))
        await operations.reply(interaction, "\n".join(lines), view=view)
