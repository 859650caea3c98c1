"""Urban Panic's own clicks (``up:``): the next private step of a turn, and the party's Draw and Take.

A step button ("Planner…", "Engineer…", "Spy…") opens the next private menu, built from the game as it
is now (:func:`cogs.urbanpanic_steps.step_menu`), so it never offers an illegal
choice; nothing changes. Draw and Take are moves, played through the one way into a move
(:func:`cogs.play.play`) with no version check: the server applies them in arrival order, and the
rules refuse a tile someone else took first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import commands

from bot import errors, games
from bot.rules.urbanpanic.viewtypes import UpView
from bot.service import choices_token
from cogs import ids, operations
from cogs.common import locale_of
from cogs.play import play
from cogs.urbanpanic_steps import KIND, ROUTE_PREFIX, TILE_PATTERN, Step, build_view, parse_step, step_menu

if TYPE_CHECKING:
    from cogs.app import CityBot

PARTY_STEPS = ("d", "t", "ts")
"""Draw, Take by a button, Take from a select menu: the steps that are moves."""


class UrbanPanicCog(commands.Cog):
    """Urban Panic: steps of a turn and the party's grabs, by button."""

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.component_routes[ROUTE_PREFIX] = self.handle_component

    async def cog_unload(self) -> None:
        self.bot.component_routes.pop(ROUTE_PREFIX, None)

    async def handle_component(self, interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
        """An ``up:`` click: the next private step of a turn, or a party Draw / Take."""
        step = parse_step(custom_id)
        if step.name in PARTY_STEPS:
            await self._party_grab(interaction, step, data)
        else:
            await self._show_step(interaction, step)

    async def _party_grab(self, interaction: discord.Interaction, step: Step, data: dict[str, Any]) -> None:
        """Draw or Take, applied in arrival order with no version check: the move means the same
        thing whenever it arrives, and the rules refuse a tile someone else took first."""
        if step.name == "d":
            move: dict[str, Any] = {"kind": "draw"}
        else:
            if step.name == "ts":
                values = data.get("values") or []
                if len(values) != 1 or not TILE_PATTERN.fullmatch(str(values[0])):
                    raise ids.ForgedId("take select")
                code = str(values[0])
            else:
                code = step.args[0]
            move = {"kind": "take", "tile": code}
        await play(self.bot, interaction, step.game_id, move, update=True)

    async def _show_step(self, interaction: discord.Interaction, step: Step) -> None:
        loc = locale_of(interaction)
        snap = await self.bot.service.snapshot(step.game_id)
        info = snap.info
        if info.game.kind != KIND:
            raise ids.ForgedId("not an Urban Panic game")
        row = info.seat_of(interaction.user.id)
        if row is None:
            raise errors.NotInGame()
        if info.game.status != "active":
            raise errors.GameOver()
        moves = games.rules(KIND).legal_moves(snap.state, row.seat)
        if not moves:
            raise errors.NotYourTurn()
        view = cast(UpView, snap.view(row.seat))  # an Urban Panic game
        menu = step_menu(step, moves, view, loc, info.id, snap.version, choices_token(moves))
        if menu is None:
            raise errors.StaleAction()
        text, entries = menu
        ui = build_view(entries, loc)
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await operations.edit_original(interaction, content=text, view=ui)
        else:
            await operations.reply(interaction, text, view=ui)
