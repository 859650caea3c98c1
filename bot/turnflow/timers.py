"""Timers (games against the clock, the server decides when time is up) and the take-over of work whose
process died (its leases ran out: AI seats, timers, moves committed but never told)."""

from __future__ import annotations

from bot.turnflow.base import FlowBase, log
from bot.turnflow.protocols import SWEEP_BATCH, SWEEP_MS, TIMER_GRACE_MS


class Timers(FlowBase):
    """The timers' part of :class:`bot.turnflow.TurnFlow`."""

    # -- timers (games against the clock): the server decides when time is up -------------------
    async def watch_timer(self, game_id: int) -> None:
        deadline = await self.service.deadline(game_id)
        if deadline is None:
            self.timers.pop(game_id, None)
            if self._timer_leases.pop(game_id, None) is not None:
                await self._release(f"timer:{game_id}")
        else:
            self.timers[game_id] = deadline
            # With leases: ours until the deadline and a grace; another process watching it fires it only then.
            if (
                self.leases is not None
                and self._timer_leases.get(game_id) != deadline
                and await self._take(f"timer:{game_id}", game_id, deadline + TIMER_GRACE_MS)
            ):
                self._timer_leases[game_id] = deadline

    async def run_timers(self) -> int:
        """Apply every due timer move; returns how many fired. With leases, a due timer fires in the
        process that takes its lease; and every few seconds work left behind is taken over."""
        if self.stopping:
            return 0
        self._passes += 1
        self._no_pass.clear()
        try:
            return await self._run_timers()
        finally:
            self._passes -= 1
            if not self._passes:
                self._no_pass.set()

    async def _run_timers(self) -> int:
        now = self.service.clock.now_ms()
        fired = 0
        for game_id, deadline in sorted(self.timers.items(), key=lambda kv: kv[1]):
            if deadline > now:
                continue
            if not await self._take(f"timer:{game_id}", game_id):
                self.timers.pop(game_id, None)  # another process fires it (it tells us through the store)
                continue
            self._timer_leases.pop(game_id, None)
            outcome = await self.service.system_tick(game_id)
            await self.watch_timer(game_id)
            if outcome is not None:
                fired += 1
                await self.after_move(outcome)
        if self.leases is not None and now >= self._next_sweep:
            self._next_sweep = now + SWEEP_MS
            await self.take_over(now)
        return fired

    async def take_over(self, now: int | None = None) -> int:
        """Take over the work whose lease ran out (its process died): AI seats (and what that process
        left untold), timers, and moves a process committed but never announced. Returns how many
        games were taken over."""
        if self.leases is None or self.stopping:
            return 0
        now = self.service.clock.now_ms() if now is None else now
        found = 0
        for _, game_id in await self.leases.expired("ai:", now, SWEEP_BATCH):
            if game_id is not None:
                log.info("taking over the AI of game %s (its process stopped)", game_id)
                self.schedule_ai(game_id)
                found += 1
        for _, game_id in await self.leases.expired("timer:", now, SWEEP_BATCH):
            if game_id is not None:
                self._timer_leases.pop(game_id, None)
                await self.watch_timer(game_id)
                found += 1
        # A move committed but never told, longer ago than a lease: the process that made it stopped
        # between its commit and its announcement (a live one settles within seconds). The game's AI
        # task tells it, under the game's ai: lease, so one process does.
        for game in await self.service.left_untold(now - self.lease_ms, SWEEP_BATCH):
            task = self._ai_tasks.get(game.id)
            if game.id in self._telling or (task is not None and not task.done()):
                continue
            log.info("telling game %s: the process that moved it stopped before announcing it", game.id)
            self.schedule_ai(game.id)
            found += 1
        return found
