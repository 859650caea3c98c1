"""``/game history``, ``/game replay`` and ``/game export``: finished games, the board after any
move, and a whole game as JSON."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import games
from bot.i18n import t
from bot.service import GameInfo
from cogs import limits, operations, presenters
from cogs.announcer import announcer
from cogs.common import EMBED_COLOUR, game_title, shown_name, shown_names, shown_params
from cogs.community.common import GameSubcommands, locale_of, stamp

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from cogs.app import CityBot

HISTORY_LIMIT = 100
"""Finished games /game history reads at most (it shows as many as fit, then "and N more")."""
EXPORT_NAME = "game-{game}.json"


class HistoryCog(GameSubcommands):
    """History, replay and export."""

    game_subcommands = ("history", "replay", "export")

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)
        self.history = bot.app.history

    @app_commands.describe(player="Whose finished games (default: this channel's games)")
    async def game_history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Finished games of this channel, or of a player on this server."""
        loc = locale_of(interaction)
        guild = interaction.guild_id or 0
        await operations.defer(interaction)
        if player is not None:
            games = await self.history.history(guild, user_xid=player.id, limit=HISTORY_LIMIT)
            title = t("community.history.title.player", loc, player=shown_name(player.display_name))
        else:
            games = await self.history.history(guild, channel_xid=interaction.channel_id, limit=HISTORY_LIMIT)
            title = t("community.history.title.channel", loc)
        if not games:
            await operations.reply(interaction, t("community.history.none", loc))
            return
        lines = [self.history_line(info, loc) for info in games]
        embed = discord.Embed(title=title, description=limits.lines_text(lines, loc), colour=EMBED_COLOUR)
        embed.set_footer(text=t("community.history.hint", loc))
        await operations.reply(interaction, embed=embed)

    def history_line(self, info: GameInfo, loc: str) -> str:
        g = info.game
        if g.status == "abandoned" or not g.result:
            outcome = t("community.history.abandoned", loc)
        else:
            winners = [shown_name(info.name(s["seat"])) for s in g.result.get("seats", []) if s.get("rank") == 1]
            outcome = t("community.history.winner", loc, players=", ".join(winners) or "-")
        return t(
            "community.history.line",
            loc,
            game=g.id,
            title=game_title(g.kind, loc),
            when=stamp(g.finished_at, "d"),
            result=outcome,
            players=", ".join(shown_name(s.name) for s in info.seats),
        )

    @app_commands.describe(game="The game's number (#)", turn="After how many moves (default: the last)")
    async def game_replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, None],
        turn: app_commands.Range[int, 0, None] | None = None,
    ) -> None:
        """Show a game's board as it was after any move, rebuilt from its move log."""
        loc = locale_of(interaction)
        await operations.defer(interaction)
        frame = await self.history.replay(interaction.guild_id, game, turn)
        presenter = presenters.get(frame.info.game.kind)
        names = [s.name for s in frame.info.seats]
        image = await asyncio.to_thread(presenter.render_turn, frame.view, frame.seat, names, loc)
        lines = [
            t("community.replay.caption", loc, game=game, turn=frame.turn, turns=frame.turns)
            if frame.turn
            else t("community.replay.start", loc, game=game, turns=frame.turns)
        ]
        if frame.summary is not None:
            key, params = frame.summary  # told as the channel told it (a whole turn in one line)
            lines += games.get(frame.info.game.kind).tell(
                key, shown_params(params, names), frame.view, loc, shown_names(names)
            )
        if image is None:
            lines += presenter.status_lines(frame.view, loc, shown_names(names)) or [
                t("community.replay.no_picture", loc)
            ]
        chart = await self.story_chart(frame.info, frame.turn, loc)
        await operations.reply(
            interaction,
            "\n".join(lines),
            file_png=image,
            extra_files=[("story.png", chart)] if chart is not None else None,
        )

    async def story_chart(self, info: GameInfo, turn: int, loc: str) -> bytes | None:
        """The score chart of a game up to the replayed move (None where the game has no story)."""
        files = await announcer(self.bot).recap_files(info, loc, turn=turn, gif=False)
        return files[0][1] if files else None

    @app_commands.describe(game="The game's number (#)")
    async def game_export(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None]) -> None:
        """Download a finished game as JSON (options, seed, seats, moves, result)."""
        loc = locale_of(interaction)
        data = await self.history.export(interaction.guild_id, game)
        payload = json.dumps(data, indent=1, sort_keys=True).encode("utf-8")
        await operations.reply_file(
            interaction, t("community.export.done", loc, game=game), payload, EXPORT_NAME.format(game=game)
        )
