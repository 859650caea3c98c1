"""The lobby message: who sits, the game's options, and its Join / Leave / Add AI / Start buttons
(``lobby:<game>:<action>``), the same wherever a lobby is opened (``/game new``, or a game's own command);
and the one door into a lobby (:func:`door`), for its buttons and for ``/game join``, ``leave`` and ``start``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot import errors, games
from bot.i18n import t
from bot.service import GameInfo
from cogs import ids, limits, operations, weblinks
from cogs.common import EMBED_COLOUR, game_title, locale_of, shown_name

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

SAID = {"join": "lobby.joined", "leave": "lobby.left", "start": "lobby.started"}
"""A slash command's answer to each action (a button's answer is the lobby message itself)."""


def more_options(text: str) -> dict[str, str]:
    """``"party_minutes=30, party_goals=on"`` -> the options it names (the rules check names and values)."""
    out: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise errors.IllegalMove("error.bad_more_option", text=limits.quote(part))
        out[name.strip().lower()] = value.strip()
    return out


def lobby_embed(info: GameInfo, loc: str) -> discord.Embed:
    g = info.game
    low, high = games.rules(g.kind).seat_range(g.options)
    embed = discord.Embed(
        title=t("lobby.title", loc, title=game_title(g.kind, loc), game=g.id),
        description=t(f"lobby.state.{g.status}", loc, low=low, high=high),
        colour=EMBED_COLOUR,
    )
    players = "\n".join(
        f"{s.seat + 1}. {shown_name(s.name)}" + (f" ({t('lobby.host', loc)})" if s.user_xid == g.host_xid else "")
        for s in info.seats
    ) or t("lobby.empty", loc)
    embed.add_field(name=t("lobby.players", loc, n=len(info.seats), high=high), value=players, inline=True)
    if g.options:
        embed.add_field(
            name=t("lobby.options", loc),
            value="\n".join(f"{k}: {v}" for k, v in games.shown_options(g.kind, g.options, loc)) or "-",
            inline=True,
        )
    return embed


def lobby_view(info: GameInfo, loc: str, board: str | None = None) -> discord.ui.View | None:
    """Join / Leave / Add AI / Start while the game gathers players; once it started, "Open the board"
    (``board``: the game page's link, :func:`cogs.weblinks.board_url`; None without ``WEB_BASE_URL``). A game's
    page exists from its start (a lobby's link would lead to "not found"), and not for an abandoned lobby."""
    if info.game.status != "lobby":
        return weblinks.link_view(weblinks.BOARD, board, loc) if info.game.status != "abandoned" else None
    gid = info.id
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("lobby.button.join", loc), custom_id=ids.lobby(gid, "join"), style=discord.ButtonStyle.success
        )
    )
    view.add_item(discord.ui.Button(label=t("lobby.button.leave", loc), custom_id=ids.lobby(gid, "leave")))
    if games.rules(info.game.kind).ai_levels:
        view.add_item(discord.ui.Button(label=t("lobby.button.ai", loc), custom_id=ids.lobby(gid, "ai")))
    view.add_item(
        discord.ui.Button(
            label=t("lobby.button.start", loc), custom_id=ids.lobby(gid, "start"), style=discord.ButtonStyle.primary
        )
    )
    view.stop()
    return view


async def refresh_lobby(bot: discord.Client, info: GameInfo, loc: str) -> None:
    """Keep the lobby message up to date (buttons removed once the game started or ended)."""
    g = info.game
    if g.lobby_message_xid is None or g.channel_xid is None:
        return
    await operations.edit(
        bot,
        g.channel_xid,
        g.lobby_message_xid,
        embed=lobby_embed(info, loc),
        view=lobby_view(info, loc, weblinks.board_url(bot, g.id)),
    )


async def door(bot: CityBot, interaction: discord.Interaction, action: str, game_id: int | None = None) -> None:
    """Join, leave, add an AI or start: a click on a lobby's button (``game_id``: the lobby's game, whose message
    the answer is) or a ``/game`` command (``game_id`` None: this channel's game, answered with a sentence, and
    the lobby message brought up to date). A start publishes the game's first turn.

    A joining click is answered by the lobby showing the new seat: if Discord refused that, the seat is given up
    again. Everything else is acknowledged first; if Discord refused, nothing changes."""
    service, user, loc = bot.service, interaction.user, locale_of(interaction)
    clicked = game_id is not None
    shown_join = clicked and action == "join"
    if not shown_join and not await operations.defer(interaction, update=clicked):
        return  # Discord refused: the user saw a failure, so nothing changes
    if game_id is None:
        game_id = (await service.game_in_channel(interaction.channel_id or 0)).id
    as_of = (await service.game(game_id)).updated_at if shown_join else None
    if action == "join":
        info = await service.join(game_id, user.id, user.display_name)
    elif action == "leave":
        info = await service.leave(game_id, user.id)
    elif action == "ai":
        info = await service.add_ai(game_id, user.id)
    else:
        info = await service.start(game_id, user.id)
    ploc = info.game.locale
    if clicked:
        shown = await operations.edit_original(
            interaction, embed=lobby_embed(info, ploc), view=lobby_view(info, ploc, weblinks.board_url(bot, game_id))
        )
        if as_of is not None and not shown:  # a joining click Discord refused to show
            log.info("join of game %s not shown: taken back", game_id)
            await service.unjoin(game_id, user.id, as_of=as_of)
            return
    else:
        await operations.reply(interaction, t(SAID[action], loc, game=info.id))
        await refresh_lobby(bot, info, ploc)
    if action == "start":
        # The league's time control before the first post is built, so that post already shows the banks
        # (the reminder loop's adoption is only the safety net of a start this process did not finish).
        await bot.app.clocks.adopt_league_clock(info)
        problem = await bot.flow.publish(info.id, None, ploc)
        if problem is not None:
            await operations.reply(interaction, t(problem, loc))
