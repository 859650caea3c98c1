"""/quadropolis commands: the typed fallback for every step of a turn, and pictures on demand."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, labels
from bot.games.quadropolis import slot_text
from bot.i18n import t
from bot.rules.core import is_kind
from bot.rules.quadropolis.movetypes import QuadBuild, QuadDiscard, QuadTake
from bot.service import MoveOutcome
from cogs import operations, presenters
from cogs.common import locale_of, shown_name
from cogs.play import choice_value, play, typed_move

if TYPE_CHECKING:
    from cogs.app import CityBot

KIND = "quadropolis"
ARROWS = "→←↓↑"
"""The arrows of the slots' names (``→3``), split from a number typed against them ("2→3")."""
MAX_CHOICES = 25


class QuadropolisCog(commands.Cog):
    """Quadropolis: take and build by typing, and look at any city."""

    group = app_commands.Group(
        name="quadropolis", description="Quadropolis: play by typing, see cities", guild_only=True
    )

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot

    async def _game_here(self, interaction: discord.Interaction) -> Any:
        info = await self.bot.service.game_in_channel(interaction.channel_id or 0)
        if info.game.kind != KIND:
            raise errors.NoGameHere("quadropolis.ui.not_quadropolis")
        return info

    async def _choices(
        self, interaction: discord.Interaction, kinds: tuple[str, ...], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            info = await self._game_here(interaction)
            _, seat, moves, _ = await self.bot.service.choices(info.id, interaction.user.id)
            view = (await self.bot.service.snapshot(info.id)).view(seat)
        except errors.GameError:
            return []
        loc = locale_of(interaction)
        out = []
        for move in moves:
            if move.get("kind") not in kinds:
                continue
            label = labels.move_label(KIND, move, view, loc)
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=choice_value(move)))
        return out[:MAX_CHOICES]

    async def _play(self, interaction: discord.Interaction, text: str, kinds: tuple[str, ...]) -> None:
        loc = locale_of(interaction)
        info = await self._game_here(interaction)

        async def typed() -> dict[str, Any]:
            _, _, moves, _ = await self.bot.service.choices(info.id, interaction.user.id)
            return self._parse(text, [m for m in moves if m.get("kind") in kinds], loc)

        async def said(outcome: MoveOutcome) -> None:
            key, params = outcome.summary
            await operations.reply(interaction, t(key, loc, **params))

        await play(self.bot, interaction, info.id, typed, update=False, answer=said)

    @staticmethod
    def _parse(text: str, legal: list[dict[str, Any]], locale: str = "en") -> dict[str, Any]:
        """A move from an autocomplete value (JSON) or typed words: an architect and a slot as the menus
        write it ("2 →3"; the stored code "2 L3" is understood too), a square ("B4"), "discard"."""

        def pick(words_text: str) -> Mapping[str, Any] | None:
            spaced = words_text.replace(",", " ")
            for arrow in ARROWS:
                spaced = spaced.replace(arrow, f" {arrow}")
            words = spaced.upper().split()
            for move in legal:
                if is_kind(move, QuadTake) and sorted(words) in (
                    sorted([str(move["architect"]), move["slot"]]),
                    sorted([str(move["architect"]), slot_text(move["slot"], locale).upper()]),
                ):
                    return move
                if is_kind(move, QuadBuild) and words and words[0] == move["square"]:
                    return move
                if is_kind(move, QuadDiscard) and words == ["DISCARD"]:
                    return move
            return None

        move = typed_move(text, pick)
        if move is None:
            raise errors.IllegalMove("quadropolis.ui.not_understood", text=text.strip())
        return move

    @group.command(name="take")
    @app_commands.describe(choice="Architect and slot, e.g. 2 →3 (pick from the list)")
    async def take(self, interaction: discord.Interaction, choice: str) -> None:
        """Place an architect and take the building it points at."""
        await self._play(interaction, choice, ("take",))

    @take.autocomplete("choice")
    async def _take_auto(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, ("take",), current)

    @group.command(name="place")
    @app_commands.describe(square="The city square, e.g. B3, or discard (pick from the list)")
    async def place(self, interaction: discord.Interaction, square: str) -> None:
        """Build the building you took, or discard it."""
        await self._play(interaction, square, ("build", "discard"))

    @place.autocomplete("square")
    async def _place_auto(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, ("build", "discard"), current)

    @group.command(name="city")
    @app_commands.describe(player="Whose city (yours if empty)")
    async def city(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Show one player's city as it is now."""
        info = await self._game_here(interaction)
        who = player or interaction.user
        seat = info.seat_of(who.id)
        if seat is None:
            raise errors.NotInGame("quadropolis.ui.not_a_player", player=shown_name(who.display_name))
        await self._picture(interaction, info, "render_city", seat.seat)

    @group.command(name="board")
    async def board(self, interaction: discord.Interaction) -> None:
        """Show the construction site and every city."""
        info = await self._game_here(interaction)
        await self._picture(interaction, info, "render_board", None)

    async def _picture(self, interaction: discord.Interaction, info: Any, what: str, seat: int | None) -> None:
        await operations.defer(interaction)
        snap = await self.bot.service.snapshot(info.id)
        view = snap.view(None)
        names = [s.name for s in info.seats]
        presenter = presenters.get(KIND)
        args = (view, seat, names) if seat is not None else (view, names)
        image = await asyncio.to_thread(presenter.draw, what, *args, locale=locale_of(interaction))
        if image is None:
            await operations.reply(interaction, t("quadropolis.ui.no_pictures", locale_of(interaction)))
            return
        await operations.reply(interaction, t("turn.board", locale_of(interaction), game=info.id), file_png=image)


async def setup(bot: CityBot) -> None:
    await bot.add_cog(QuadropolisCog(bot))
