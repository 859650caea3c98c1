"""The turn flow (:class:`TurnFlow`): its parts, what it resumes after a restart, and a graceful stop."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.turnflow.ai import AiSeats
from bot.turnflow.timers import Timers


class TurnFlow(AiSeats, Timers):
    """The turn flow over a :class:`Service`, told through one :class:`Announcer`.

    ``auto_ai``: AI seats play by themselves in the background, ``ai_pause`` seconds apart (the bot).
    Without it the front-end asks for each AI move with :meth:`ai_step` (the terminal, which lets
    people and AI take turns when they act at the same time).
    """

    # -- after a restart --------------------------------------------------------------------------
    async def resume(self) -> None:
        """Announce what was committed but never told, then let every awaited AI play on (in that
        order, so an AI never moves past an untold move), and watch every timer again.

        With leases, only this process's games (``mine``), each in its AI task under the game's lease,
        so a game another process is playing is left to it."""
        if self.leases is not None:
            untold = {game.id for game, _, _ in await self.service.unsettled() if self.mine(game.guild_xid)}
            for game in await self.service.active_games():
                if self.mine(game.guild_xid):
                    await self.watch_timer(game.id)
                    if game.id in untold or (await self.service.info(game.id)).awaited_ai():
                        self.schedule_ai(game.id)
                    untold.discard(game.id)
            for game_id in untold:
                self.schedule_ai(game_id)  # a finished game's last move: told there, no AI plays
            return
        await self.resume_announcements()
        for game in await self.service.active_games():
            await self.watch_timer(game.id)
            info = await self.service.info(game.id)
            self._maybe_ai(info)

    # -- a graceful stop (bot.drain) -----------------------------------------------------------
    def stop_new_work(self) -> list[asyncio.Future[Any]]:
        """From now on no AI move starts and no timer fires; returns the work under way to wait for: the
        AI tasks, which end after the move they are making (it commits and is announced), and the timer
        pass running, if one is."""
        self.stopping = True
        self._stopped.set()
        work: list[asyncio.Future[Any]] = [t for t in self._ai_tasks.values() if not t.done()]
        if self._passes:
            work.append(asyncio.ensure_future(self._no_pass.wait()))
        return work

    async def hand_over(self) -> list[int]:
        """After :meth:`stop_new_work` and the wait: the AI tasks still running are cut off, and the games
        this process leaves (AI seats to play, moves in flight or untold, timers) are returned. With
        leases, each such game's ``ai:`` lease and every other lease of this process end now, so another
        process takes them over at its next look (:meth:`take_over`); without, the next start resumes."""
        games = set(self._handover) | set(self._telling)
        running = [(gid, t) for gid, t in self._ai_tasks.items() if not t.done()]
        for gid, task in running:
            task.cancel()
            games.add(gid)
        if running:
            await asyncio.gather(*(t for _, t in running), return_exceptions=True)
        games |= set(self.timers)
        if self.leases is None:
            return sorted(games)
        now = self.service.clock.now_ms()
        for gid in sorted(set(self._handover) | set(self._telling) | {g for g, _ in running}):
            await self.leases.take(f"ai:{gid}", self.owner, now, 0, gid)  # ours, and over
        games |= set(self._timer_leases)
        await self.leases.hand_over(self.owner)
        self._timer_leases.clear()
        self.timers.clear()
        return sorted(games)

    def close(self) -> None:
        for task in self._ai_tasks.values():
            task.cancel()
