"""The component router: one listener reads every button and menu by its custom_id (:mod:`cogs.ids`), so
components keep working after a restart and a forged or stale one gets a sentence. Lobby buttons,
"Open my choices" and moves are read here; a custom_id with another prefix goes to the route a cog
registered on the bot (``bot.component_routes``: rules pages, a game's own steps, votes, undo)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import errors
from bot.i18n import t
from cogs import ids, limits, lobby, operations, presenters, rulebook
from cogs.common import locale_of
from cogs.play import play

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)


class ComponentRouter(commands.Cog):
    """Routes every component interaction."""

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def cog_load(self) -> None:
        self.bot.component_routes[rulebook.RULES_PREFIX] = rulebook.rules_click

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        loc = locale_of(interaction)
        custom_id = str(data.get("custom_id", ""))
        route = self.bot.component_routes.get(custom_id.partition(":")[0])
        try:
            if route is not None:
                await route(interaction, custom_id, data)
                return
            parsed = ids.parse(custom_id)
            if parsed.kind == "lobby":
                await self.lobby_click(interaction, parsed)
            elif parsed.kind == "open":
                await self.open_click(interaction, parsed)
            elif parsed.kind == "mv":
                assert parsed.move is not None
                await self.move_click(interaction, parsed, parsed.move)
            elif parsed.kind == "sel":
                values = data.get("values") or []
                if len(values) != 1:
                    raise ids.ForgedId("select")
                await self.move_click(interaction, parsed, ids.parse_move_value(str(values[0])))
        except ids.ForgedId:
            await operations.reply(interaction, t("error.forged", loc))
        except errors.GameError as exc:
            await operations.reply(interaction, limits.refusal(exc, loc))
        except Exception:
            # Only the kind and game of the id: a move's own JSON may name tiles of a secret hand.
            log.exception("component %s failed", ":".join(str(data.get("custom_id", "")).split(":")[:2]))
            await operations.reply(interaction, t("error.internal", loc))

    async def open_click(self, interaction: discord.Interaction, parsed: ids.ParsedId) -> None:
        """Show the clicker their private choices (and hand) in an ephemeral message."""
        loc = locale_of(interaction)
        seat, moves, token, snap = await self.service.private_choices(parsed.game_id, interaction.user.id)
        info = snap.info
        presenter = presenters.get(info.game.kind)
        private = snap.view(seat)
        image = await asyncio.to_thread(presenter.render_turn, private, seat, [s.name for s in info.seats], loc)
        if not moves:
            await operations.reply(interaction, t("play.nothing_now", loc), file_png=image)
            return
        await operations.reply(
            interaction,
            presenter.prompt(moves, private, loc),
            file_png=image,
            view=presenter.controls(info.id, snap.version, token, moves, private, loc),
        )

    async def move_click(self, interaction: discord.Interaction, parsed: ids.ParsedId, move: dict[str, Any]) -> None:
        await play(
            self.bot,
            interaction,
            parsed.game_id,
            move,
            update=True,
            expected_version=parsed.version,
            token=parsed.token,
        )

    async def lobby_click(self, interaction: discord.Interaction, parsed: ids.ParsedId) -> None:
        assert parsed.action is not None
        await lobby.door(self.bot, interaction, parsed.action, parsed.game_id)
