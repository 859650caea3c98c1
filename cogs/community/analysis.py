"""The after-game analysis on Discord (issue 40).

- **The passes** that weigh queued games in the worker pool (:mod:`bot.community.analyses`), every
  :data:`LOOP_SECONDS` and as soon as a game is queued. A pass waits for its games on the pool's futures, so
  the event loop goes on serving clicks meanwhile; the weighing itself never runs in this process.
- **"The analysis is ready"**: a kept analysis queues an ``analysis_ready`` action of the community outbox in
  the same transaction as the result, which the reminder loop
  posts once (its nonce) in the game's channel after the recap: each player's accuracy, the biggest turning
  point, the game page's link when the pages are on. Its id is kept as a ``line`` of the game, so a
  forget-me edits it.
- **``/game analysis game:``**, privately: the asker's own figures and three biggest misses, each told in the
  game's own move labels as ``python -m bot analyse`` tells them, with the board as it was when they chose;
  a finished game without an analysis is queued (the channel hears when it is ready).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.ext import tasks

from bot import games, labels
from bot.community.analyses import READY, biggest_turn, own_misses, player_figures
from bot.community.base import Action
from bot.i18n import t
from bot.service import GameInfo
from cogs import limits, operations, presenters, weblinks
from cogs.common import shown_name
from cogs.community.common import GameSubcommands, locale_of

if TYPE_CHECKING:
    from cogs.app import CityBot
    from cogs.community.reminders import RemindersCog

log = logging.getLogger(__name__)

LOOP_SECONDS = 30.0
"""Between two passes (a finished game starts one at once): finds the games another process queued or gave up."""
LABEL_LIMIT = 200
"""A move's label in a message (three misses and their best moves stay far under Discord's 2,000 characters)."""
NAME_LIMIT = 40


def decimal(value: float, loc: str, signed: bool = False) -> str:
    """One decimal, in the language's own way (``+4.2``; Hungarian ``+4,2``)."""
    return format_decimal(value, format="+#,##0.0;-#,##0.0" if signed else "#,##0.0", locale=loc)


def seat_name(info: GameInfo, seat: int) -> str:
    return limits.cut(shown_name(info.name(seat)), NAME_LIMIT)


def ready_text(info: GameInfo, result: Mapping[str, Any], loc: str) -> str:
    """The channel's one-line summary: each player's accuracy, the biggest turning point."""
    players = ", ".join(
        t("analysis.ready_player", loc, name=seat_name(info, p["seat"]), accuracy=decimal(p["accuracy"], loc))
        for p in result.get("players", ())
        if p.get("decisions")
    )
    lines = [t("analysis.ready", loc, game=info.id, players=players)]
    turn = biggest_turn(result)
    if turn is not None:
        lines.append(
            t(
                "analysis.ready_turn",
                loc,
                number=turn["number"],
                name=seat_name(info, turn["seat"]),
                before=decimal(turn["before"], loc, signed=True),
                after=decimal(turn["after"], loc, signed=True),
            )
        )
    lines.append(t("analysis.ready_more", loc))
    return limits.cut("\n".join(lines), limits.CONTENT)


class AnalysisCog(GameSubcommands):
    """The passes of the analysis queue, its notice, ``/game analysis``."""

    game_subcommands = ("analysis",)

    def __init__(self, bot: CityBot, loop: RemindersCog) -> None:
        super().__init__(bot)
        self.analyses = bot.app.analyses
        self.loop = loop
        self._kick_task: asyncio.Task[list[int]] | None = None
        loop.handlers[READY] = self._do_analysis_ready

    async def cog_load(self) -> None:
        self.attach_game_commands()
        self.analyses.kick = self.kick
        self.analyses.announce = True
        self.analyses.on_done.append(self._kept)
        if self.analyses.workers > 0:
            self.analysis_loop.start()

    async def cog_unload(self) -> None:
        self.analysis_loop.cancel()
        self.analyses.kick = None
        self.analyses.announce = False
        if self._kept in self.analyses.on_done:
            self.analyses.on_done.remove(self._kept)
        if self._kick_task is not None:
            self._kick_task.cancel()
        self.detach_game_commands()
        self.analyses.close()

    # -- the passes ----------------------------------------------------------------------------------
    @tasks.loop(seconds=LOOP_SECONDS)
    async def analysis_loop(self) -> None:
        await self.tick()

    @analysis_loop.before_loop
    async def _before_loop(self) -> None:
        await self.bot.wait_until_ready()

    def kick(self) -> None:
        """A game was queued: a pass now rather than at the next tick."""
        if self.analyses.workers > 0 and (self._kick_task is None or self._kick_task.done()):
            self._kick_task = asyncio.create_task(self.tick(), name="analysis-kick")

    async def tick(self) -> list[int]:
        """One pass; the games whose analysis was kept."""
        try:
            return await self.analyses.run_pass()
        except Exception:
            log.exception("analysis pass failed")
            return []

    # -- "the analysis is ready" ---------------------------------------------------------------------
    async def _kept(self, game_id: int) -> None:
        """A pass of the reminder loop posts the notice now rather than within the minute."""
        del game_id
        await self.loop.tick()

    async def _do_analysis_ready(self, action: Action) -> None:
        assert action.game_id is not None
        info = await self.service.info(action.game_id)
        row = await self.analyses.get(action.game_id)
        if row is None or row.result is None:
            await self.loop.reminders.mark_skipped(action.id)
            return
        loc = info.game.locale
        sent = await operations.send_once(
            self.bot,
            action.channel_xid,
            ready_text(info, row.result, loc),
            nonce=action.nonce,
            view=weblinks.board_view(self.bot, info.id, loc),
        )
        await self.loop.finish(action, sent)
        await self.bot.app.erasure.record_post(info.id, "line", sent[0])  # it names the players

    # -- /game analysis --------------------------------------------------------------------------------
    @app_commands.describe(game="The game's number (#)")
    async def game_analysis(self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None]) -> None:
        """Your own biggest misses in a finished game, privately."""
        if not await operations.defer(interaction):
            return
        loc = locale_of(interaction)
        info = await self.bot.app.history.guild_game(interaction.guild_id, game)
        mine = info.seat_of(interaction.user.id)
        if info.game.status != "finished":
            await self.analyses.request(game)  # refused with the game's sentence
        if mine is None:
            await operations.reply(interaction, t("analysis.not_player", loc, game=game))
            return
        row = await self.analyses.get(game)
        if row is None or row.result is None:
            await self.analyses.request(game)
            await operations.reply(interaction, t("analysis.queued", loc, game=game))
            return
        text, pictures = await self.own_analysis(info, mine.seat, row.result, loc)
        await operations.reply(interaction, text, extra_files=pictures)

    async def own_analysis(
        self, info: GameInfo, seat: int, result: Mapping[str, Any], loc: str
    ) -> tuple[str, list[tuple[str, bytes]]]:
        """The asker's figures and biggest misses (the game's move labels, as the asker saw the game), and
        the board as it was at each of them."""
        kind = info.game.kind
        rules = games.rules(kind)
        figures = player_figures(result, seat) or {}
        misses = dict(figures.get("misses") or {})
        lines = [
            t(
                "analysis.yours",
                loc,
                game=info.id,
                accuracy=decimal(float(figures.get("accuracy", 100.0)), loc),
                loss=decimal(float(figures.get("average_loss", 0.0)), loc),
                small=int(misses.get("small", 0)),
                medium=int(misses.get("medium", 0)),
                large=int(misses.get("large", 0)),
            )
        ]
        worst = own_misses(result, seat)
        if not worst:
            lines.append(t("analysis.no_misses", loc))
        else:
            lines.append(t("analysis.misses_title", loc))
        presenter = presenters.get(kind)
        names = [s.name for s in info.seats]
        pictures: list[tuple[str, bytes]] = []
        for index, miss in enumerate(worst, start=1):
            before = await self.service.snapshot(info.id, int(miss["number"]) - 1)
            view = rules.view(before.state, seat)
            lines.append(
                t(
                    "analysis.miss",
                    loc,
                    number=miss["number"],
                    move=labels.move_label(kind, miss["move"], view, loc, LABEL_LIMIT),
                    loss=decimal(float(miss["loss"]), loc),
                    best=labels.move_label(kind, miss["best_move"], view, loc, LABEL_LIMIT),
                    expected=decimal(float(miss["best"]), loc, signed=True),
                )
            )
            image = await asyncio.to_thread(presenter.render_turn, before.view(None), None, names, loc)
            if image is not None:
                pictures.append((f"miss-{index}-move-{miss['number']}.png", image))
        return limits.cut("\n".join(lines), limits.CONTENT), pictures
