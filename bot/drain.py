"""A graceful stop: take no new work, let the work in flight finish within a bound, hand the rest over.

No Discord here. A front-end keeps one :class:`Drain`: it refuses new requests once the drain is closed
(:attr:`Drain.accepting`) and hands every request it accepted to :meth:`Drain.track`, so a stop can wait
for them. :func:`stop` is the whole stop of an :class:`bot.composition.App` behind such a front-end:

1. the drain closes (the front-end refuses new requests with a sentence), the turn flow plays no new AI
   move and fires no timer, the reminder loop claims nothing new;
2. the requests, AI moves and loop passes in flight commit and are announced, for at most ``seconds``;
3. what is left is handed over (the requests still running are cancelled; a move they committed is
   told by whoever takes the game): with several processes (PostgreSQL) this process's leases (a game's AI
   seats, its timer, the moves it could not announce) and its claimed reminders end now, so another
   process takes them at its next look (every few seconds) instead of a lease's length later; on SQLite
   the next start of the bot resumes them, as after any restart;
4. the log says what was finished and what was handed over.

The caller then closes the gateway and the database.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.composition import App

log = logging.getLogger(__name__)


class Drain:
    """The requests a front-end accepted and has not finished, and whether it accepts new ones."""

    def __init__(self) -> None:
        self.accepting = True
        self._tasks: set[asyncio.Future[Any]] = set()
        self.accepted = 0
        """Requests accepted since the start."""
        self.refused = 0
        """Requests refused because the drain was closed."""
        self._hurry = asyncio.Event()

    def track(self, task: asyncio.Future[Any]) -> asyncio.Future[Any]:
        """Count ``task`` as work in flight until it is done."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @property
    def in_flight(self) -> int:
        return sum(not t.done() for t in self._tasks)

    def close(self) -> None:
        """Take no new request from now on (the work in flight goes on)."""
        self.accepting = False

    def hurry(self) -> None:
        """Stop waiting for the work in flight (a second signal)."""
        self._hurry.set()

    async def cancel_left(self, grace: float = 2.0) -> int:
        """Cancel the requests still running (past ``STOP_SECONDS``), before the gateway and the database
        close under them; how many."""
        left = [t for t in self._tasks if not t.done()]
        for task in left:
            task.cancel()
        if left:
            await asyncio.wait(left, timeout=grace)
        return len(left)

    async def wait(self, deadline: float, extra: Iterable[asyncio.Future[Any]] = ()) -> bool:
        """Wait until the tracked requests (and the tasks ``extra``) are done, the monotonic ``deadline``
        passes or :meth:`hurry` is called; True if everything finished. Nothing is cancelled here."""
        others = list(extra)
        while True:
            pending = {t for t in self._tasks if not t.done()} | {t for t in others if not t.done()}
            if not pending:
                return True
            left = deadline - time.monotonic()
            if left <= 0 or self._hurry.is_set():
                return False
            hurry = asyncio.ensure_future(self._hurry.wait())
            try:
                await asyncio.wait(pending | {hurry}, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            finally:
                hurry.cancel()


@dataclass
class StopReport:
    """What a stop finished and what it handed over (the log's last words)."""

    finished_requests: int = 0
    cut_requests: int = 0
    finished_work: int = 0
    """AI tasks and timer passes under way that finished."""
    handed_games: list[int] = field(default_factory=list)
    """Games whose AI seats, untold moves or timers another process (or the next start) takes over."""
    handed_claims: int = 0
    """Claimed reminders and notices given back unsent."""
    handed_analyses: int = 0
    """Games being analysed, given back to the queue (another process, or the next start, weighs them)."""
    seconds: float = 0.0
    in_time: bool = True

    def lines(self, leases: bool) -> list[str]:
        whom = "another process" if leases else "the next start"
        done = (
            f"stop: finished {self.finished_requests} request(s) in flight and {self.finished_work} AI"
            f" task(s) or timer pass(es) under way, in {self.seconds:.1f} s"
        )
        if not self.in_time:
            done += f"; {self.cut_requests} request(s) still running were cut off (STOP_SECONDS)"
        games = ", ".join(str(g) for g in sorted(self.handed_games)) or "none"
        return [
            done,
            f"stop: handed over to {whom}: the AI seats, timers or untold moves of games {games};"
            f" {self.handed_claims} claimed reminder(s) or notice(s); {self.handed_analyses} analysis(es) under way",
        ]


async def stop(app: App, drain: Drain, seconds: float) -> StopReport:
    """The stop described in the module docstring."""
    started = time.monotonic()
    deadline = started + seconds
    report = StopReport()
    drain.close()
    app.reminders.stopping = True
    flow = app.flow
    work = flow.stop_new_work()
    before = drain.in_flight
    report.in_time = await drain.wait(deadline, work)
    left = drain.in_flight
    report.finished_requests = before - left
    report.cut_requests = left
    report.finished_work = sum(t.done() for t in work)
    try:
        # First the games (a request cut off below may be telling one), then the requests, then the claims.
        report.handed_games = await flow.hand_over()
        await drain.cancel_left()
        report.handed_claims = await app.reminders.hand_over()
        report.handed_analyses = await app.analyses.hand_over()
    except Exception:
        log.exception("stop: could not hand the leases over (they run out by themselves)")
    report.seconds = time.monotonic() - started
    for line in report.lines(flow.leases is not None):
        log.info("%s", line)
    return report
