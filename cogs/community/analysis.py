"""The after-game analysis on Discord (issue 40): the passes that weigh queued games in the worker pool
(:mod:`bot.community.analyses`), every :data:`LOOP_SECONDS` and as soon as a game is queued.

A pass waits for its games on the pool's futures, so the event loop goes on serving clicks meanwhile; the
weighing itself never runs in this process.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from discord.ext import tasks

from cogs.community.common import GameSubcommands

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

LOOP_SECONDS = 30.0
"""Between two passes (a finished game starts one at once): finds the games another process queued or gave up."""


class AnalysisCog(GameSubcommands):
    """The passes of the analysis queue."""

    def __init__(self, bot: CityBot) -> None:
        super().__init__(bot)
        self.analyses = bot.app.analyses
        self._kick_task: asyncio.Task[list[int]] | None = None

    async def cog_load(self) -> None:
        self.attach_game_commands()
        self.analyses.kick = self.kick
        if self.analyses.workers > 0:
            self.analysis_loop.start()

    async def cog_unload(self) -> None:
        self.analysis_loop.cancel()
        self.analyses.kick = None
        if self._kick_task is not None:
            self._kick_task.cancel()
        self.detach_game_commands()
        self.analyses.close()

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
