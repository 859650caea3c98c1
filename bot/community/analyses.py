"""The after-game analysis in the running bot (issue 40): queued in the database, weighed in worker processes.

- **Queued** when a game finishes (an end listener, after the leagues counted it), as the server's
  ``analysis`` setting says: ``all`` games, only ``league`` games (counted in one of the server's
  leagues), or ``asked`` (none by itself); and whenever someone asks for a finished game's analysis
  (:meth:`Analyses.request`).
  A game that has not finished is never queued, weighed or shown: its hidden information is still in play.
- **Claimed** with a lease (:mod:`bot.store.claims`), renewed while the workers weigh it, so a restart
  resumes it and two processes on one database never weigh the same game: a dead process's claim is taken
  over when its lease runs out (on SQLite, whose file has one process, at once).
- **Weighed** in a bounded pool of worker processes (``ANALYSIS_WORKERS``, default one; none: this process
  leaves the queue to others), never on the event loop: a pass takes at most as many games as there are
  workers, and :func:`compute` (pure: :func:`bot.analysis.analyse`) runs in the pool through
  ``run_in_executor``.
- **Kept by seat**: the result is :meth:`bot.analysis.GameAnalysis.to_json`, seats by number; a player's id
  or name is never in it, so forget-me has nothing to change (the seats' names come from the game when
  it is shown).

The Discord layer (``cogs/community/analysis.py``) drives the passes; its ``on_done`` hook hears a game whose
analysis was just kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import analysis, errors
from bot.community.base import CommunityError
from bot.community.settings import Preferences
from bot.service import GameInfo, Service
from bot.store.community.analyses import AnalysisRow, AnalysisStore
from bot.store.community.outbox import NewOutbox

log = logging.getLogger(__name__)

READY = "analysis_ready"
"""The community outbox's action of a kept analysis: the channel hears it is ready."""
MAX_ATTEMPTS = 3
"""A game whose weighing failed this many times (a crash of its worker, each time) is given up."""
RENEW_PARTS = 3
"""While a game is weighed its lease is renewed this many times per lease."""


def compute(
    kind: str, options: dict[str, Any], seats: int, seed: int, moves: Sequence[tuple[int, Any]], samples: int
) -> dict[str, Any]:
    """A worker process's job: the game weighed (:func:`bot.analysis.analyse`) as JSON."""
    budget = analysis.Budget(samples=samples, rollouts=analysis.DEFAULT_BUDGET.rollouts)
    return analysis.analyse(kind, options, seats, seed, list(moves), budget).to_json()


def ready_notice(info: GameInfo) -> NewOutbox | None:
    """The channel's notice of a kept analysis (none for a game without a channel, or whose channel is gone);
    its nonce is the game's, so it is posted once. It names no player: the words are made when it is posted."""
    g = info.game
    if g.channel_xid is None or g.paused_at is not None:
        return None
    return NewOutbox(READY, f"analysis{g.id}", g.id, None, None, g.guild_xid, g.channel_xid, {})


class Analyses:
    """The queue's calls and the worker pool; what the channel is told is the Discord layer's."""

    def __init__(
        self,
        service: Service,
        preferences: Preferences,
        db: AnalysisStore,
        *,
        boot: str,
        workers: int = 1,
        samples: int = analysis.DEFAULT_BUDGET.samples,
    ) -> None:
        self.service = service
        self.preferences = preferences
        self.db = db
        self.boot = boot
        self.workers = workers
        self.samples = samples
        self.stopping = False
        self.kick: Callable[[], None] | None = None
        """Set by the driving layer: start a pass soon (a game was queued)."""
        self.announce = False
        """Set by the Discord layer: a kept analysis queues the channel's :data:`READY` notice in the same
        transaction (the community outbox: posted once, by whichever process passes first)."""
        self.on_done: list[Callable[[int], Awaitable[None]]] = []
        """Told each game whose analysis this process just kept."""
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()

    @property
    def now(self) -> int:
        return self.service.clock.now_ms()

    # -- queueing ----------------------------------------------------------------------------------
    async def on_end(self, info: GameInfo) -> None:
        """Service end listener: a finished game is queued if its server weighs such games."""
        if info.game.status != "finished":
            return  # abandoned: never finished, nothing to weigh
        scope = (await self.preferences.server_settings(info.game.guild_xid or 0)).analysis
        if scope == "asked" or (scope == "league" and not await self.db.in_league(info.id)):
            return
        if await self.db.queue(info.id, self.samples, self.now) and self.kick is not None:
            self.kick()

    async def request(self, game_id: int) -> AnalysisRow:
        """Someone asks for a game's analysis: queued if it is not yet (or failed before). Refused with a
        sentence for a game that has not finished."""
        info = await self.service.info(game_id)
        if info.game.status != "finished":
            raise CommunityError("analysis.error.not_finished", game=game_id)
        if await self.db.queue(game_id, self.samples, self.now, again=True) and self.kick is not None:
            self.kick()
        row = await self.db.get(game_id)
        assert row is not None
        return row

    async def get(self, game_id: int) -> AnalysisRow | None:
        """A game's analysis row (its result once ``done``); None if it was never queued."""
        return await self.db.get(game_id)

    # -- the passes ----------------------------------------------------------------------------------
    async def run_pass(self) -> list[int]:
        """Take as many queued games as there are workers, weigh them in the pool at once, keep each
        result. Returns the games kept."""
        if self.workers <= 0 or self.stopping:
            return []
        async with self._lock:
            rows = await self.db.take_due(
                self.boot, self.now, self.workers, max_attempts=MAX_ATTEMPTS, lease_ms=self.service.lease_ms
            )
            kept = await asyncio.gather(*(self._weigh(row) for row in rows))
            return [row.game_id for row, ok in zip(rows, kept, strict=True) if ok]

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: the bot's threads (the SQLite driver's) and locks stay out of the workers.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def _weigh(self, row: AnalysisRow) -> bool:
        try:
            info = await self.service.info(row.game_id)
            if info.game.status != "finished":
                await self.db.fail(row.id, self.boot, self.now)
                return False
            moves = [(m.seat, m.move) for m in await self.service.move_rows(row.game_id)]
        except errors.GameError:
            await self.db.fail(row.id, self.boot, self.now)  # the game is gone
            return False
        g = info.game
        loop = asyncio.get_running_loop()
        try:
            job = loop.run_in_executor(
                self.pool(), compute, g.kind, g.options, len(info.seats), g.seed, moves, row.samples
            )
            result = await self._renewing(row, job)
        except errors.GameError:
            log.warning("analysis of game %s: its move log does not replay", row.game_id)
            await self.db.fail(row.id, self.boot, self.now)
            return False
        except BrokenProcessPool:
            log.warning("analysis of game %s: its worker died; offered again", row.game_id)
            self._drop_pool()
            await self.db.give_back(row.id, self.boot)
            return False
        except Exception:
            log.exception("analysis of game %s failed; offered again", row.game_id)
            await self.db.give_back(row.id, self.boot)
            return False
        if result is None:
            return False  # taken over meanwhile: the other process keeps its own
        notice = ready_notice(info) if self.announce else None
        if not await self.db.finish(row.id, self.boot, result, self.now, notice):
            return False
        for listener in list(self.on_done):
            try:
                await listener(row.game_id)
            except Exception:
                log.exception("a listener of game %s's analysis failed", row.game_id)
        return True

    async def _renewing(self, row: AnalysisRow, job: asyncio.Future[dict[str, Any]]) -> dict[str, Any] | None:
        """The job's result, the claim renewed meanwhile; None if another process took it over."""
        every = max(0.05, self.service.lease_ms / 1000 / RENEW_PARTS)
        while True:
            done, _ = await asyncio.wait({job}, timeout=every)
            if done:
                return job.result()
            if not await self.db.renew(row.id, self.boot, self.now + self.service.lease_ms):
                job.cancel()
                return None

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def hand_over(self) -> int:
        """A graceful stop: nothing new is taken, this process's claims end now."""
        self.stopping = True
        return await self.db.hand_over(self.boot)

    def close(self) -> None:
        """Stop the workers (a game being weighed is left claimed; its lease runs out or was handed over)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a weighing under way would hold the exit for up to a minute
            with contextlib.suppress(Exception):
                process.terminate()


# -- what a kept analysis says about a seat (the front-ends word it) --------------------------------------
MISSES_SHOWN = 3
"""A player's own biggest misses shown by ``/game analysis``."""


def player_figures(result: Mapping[str, Any], seat: int) -> dict[str, Any] | None:
    """A seat's accuracy, average loss and misses (None: the seat had no decision)."""
    return next((p for p in result.get("players", ()) if p.get("seat") == seat), None)


def own_misses(result: Mapping[str, Any], seat: int, count: int = MISSES_SHOWN) -> list[dict[str, Any]]:
    """A seat's ``count`` weighed moves that lost most (a loss above 0), biggest first, earlier first on a tie."""
    lost = [m for m in result.get("moves", ()) if m.get("seat") == seat and float(m.get("loss", 0)) > 0]
    return sorted(lost, key=lambda m: (-float(m["loss"]), int(m["number"])))[:count]


def biggest_turn(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The turning point where the expected margin swung most (None: none)."""
    points = list(result.get("turning_points", ()))
    return max(points, key=lambda p: (abs(float(p["swing"])), -int(p["number"]))) if points else None
