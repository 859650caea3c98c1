"""The AI seats: each game's awaited AI seats play in one background task, ``ai_pause`` seconds apart; with
leases the task holds the game's ``ai:`` lease (renewed before every move) and first tells what a dead run
left untold."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bot.service import MoveOutcome
from bot.turnflow.base import FlowBase, log


class AiSeats(FlowBase):
    """The AI seats' part of :class:`bot.turnflow.TurnFlow`."""

    def schedule_ai(self, game_id: int) -> None:
        """Let the awaited AI seats of a game play, in the background (one task per game). With
        leases, the task first takes the game's ``ai:`` lease (another process holding it plays them)
        and tells what a dead run left untold."""
        if self.stopping:
            self._handover.add(game_id)
            return
        task = self._ai_tasks.get(game_id)
        if task is not None and not task.done():
            return
        self._ai_tasks[game_id] = asyncio.create_task(self._run_ai(game_id), name=f"ai-{game_id}")

    async def _run_ai(self, game_id: int) -> None:
        name = f"ai:{game_id}"
        handed = False
        try:
            if not await self._take(name, game_id):
                return  # another process plays this game's AI seats
            try:
                if self.leases is not None and game_id not in self._telling:
                    await self.tell_untold(game_id)
                while True:
                    await self._pause()
                    if self.stopping:
                        handed = True  # the lease stays, to be handed over (hand_over)
                        self._handover.add(game_id)
                        return
                    if not await self._take(name, game_id):
                        return  # our lease ran out and another process took the game over
                    if await self.ai_step(game_id) is None:
                        break
            finally:
                if not handed:
                    await self._release(name)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI of game %s failed", game_id)

    async def _pause(self) -> None:
        """The pause between two AI moves, cut short by a stop."""
        if self.ai_pause <= 0 or self.stopping:
            await asyncio.sleep(0)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopped.wait(), self.ai_pause)

    async def ai_step(self, game_id: int, origin: Any = None) -> MoveOutcome | None:
        """One AI move where an AI seat is awaited, told like any move; None if none is awaited.
        ``origin``: the front-end's handle to acknowledge it to (the terminal shows every move)."""
        outcome = await self.service.play_ai(game_id)
        if outcome is not None:
            await self.after_move(outcome, origin)
        return outcome

    async def idle(self) -> None:
        """Wait until no AI task is running (tests and the terminal)."""
        while any(not t.done() for t in self._ai_tasks.values()):
            await asyncio.gather(*(t for t in self._ai_tasks.values() if not t.done()), return_exceptions=True)
