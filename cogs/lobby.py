"""The lobby message: who sits, the game's options, and its Join / Leave / Add AI / Start buttons
(``lobby:<game>:<action>``), the same wherever a lobby is opened (``/game new``, or a game's own command)."""

from __future__ import annotations

import discord

from bot import games
from bot.i18n import t
from bot.service import GameInfo
from cogs import ids, operations, weblinks
from cogs.common import EMBED_COLOUR, game_title, shown_name


def lobby_embed(info: GameInfo, loc: str) -> discord.Embed:
    g = info.game
    low, high = games.rules(g.kind).seat_range(g.options)
    embed = discord.Embed(
        title=t("lobby.title", loc, title=game_title(g.kind, loc), game=g.id),
        description=t(f"lobby.state.{g.status}", loc, low=low, high=high),
        colour=EMBED_COLOUR)
    players = "\n".join(
        f"{s.seat + 1}. {shown_name(s.name)}" + (f" ({t('lobby.host', loc)})" if s.user_xid == g.host_xid else "")
        for s in info.seats) or t("lobby.empty", loc)
    embed.add_field(name=t("lobby.players", loc, n=len(info.seats), high=high), value=players,
                    inline=True)
    if g.options:
        embed.add_field(name=t("lobby.options", loc),
                        value="\n".join(f"{k}: {v}" for k, v in games.shown_options(g.kind, g.options, loc)) or "-",
                        inline=True)
    return embed


def lobby_view(info: GameInfo, loc: str, board: str | None = None) -> discord.ui.View | None:
    """Join / Leave / Add AI / Start while the game gathers players; once it started, "Open the board"
    (``board``: the game page's link, :func:`cogs.weblinks.board_url`; None without ``WEB_BASE_URL``). A game's
    page exists from its start (a lobby's link would lead to "not found"), and not for an abandoned lobby."""
    if info.game.status != "lobby":
        return weblinks.link_view(weblinks.BOARD, board, loc) if info.game.status != "abandoned" else None
    gid = info.id
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t("lobby.button.join", loc), custom_id=ids.lobby(gid, "join"),
                                    style=discord.ButtonStyle.success))
    view.add_item(discord.ui.Button(label=t("lobby.button.leave", loc),
                                    custom_id=ids.lobby(gid, "leave")))
    if games.rules(info.game.kind).ai_levels:
        view.add_item(discord.ui.Button(label=t("lobby.button.ai", loc), custom_id=ids.lobby(gid, "ai")))
    view.add_item(discord.ui.Button(label=t("lobby.button.start", loc),
                                    custom_id=ids.lobby(gid, "start"),
                                    style=discord.ButtonStyle.primary))
    view.stop()
    return view


async def refresh_lobby(bot: discord.Client, info: GameInfo, loc: str) -> None:
    """Keep the lobby message up to date (buttons removed once the game started or ended)."""
    g = info.game
    if g.lobby_message_xid is None or g.channel_xid is None:
        return
    await operations.edit(bot, g.channel_xid, g.lobby_message_xid,
                          embed=lobby_embed(info, loc),
                          view=lobby_view(info, loc, weblinks.board_url(bot, g.id)))
