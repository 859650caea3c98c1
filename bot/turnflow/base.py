"""The turn flow's state and how it tells a move: a whole turn announced, a step inside one shown in the
status only, the move then settled; the moves a dead run left untold told again; the leases taken and
dropped. Its AI seats (:mod:`~bot.turnflow.ai`) and timers (:mod:`~bot.turnflow.timers`) build on it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from bot import games
from bot.results import ranking_lines
from bot.service import GameInfo, MoveOutcome, Service
from bot.turnflow.protocols import Announcer, WorkLeases

log = logging.getLogger("bot.turnflow")


class FlowBase(ABC):
    """The state of :class:`bot.turnflow.TurnFlow` and its telling of moves."""

    def __init__(
        self,
        service: Service,
        announcer: Announcer,
        *,
        ai_pause: float = 0.0,
        auto_ai: bool = True,
        leases: WorkLeases | None = None,
        owner: str = "",
    ) -> None:
        self.service = service
        self.announcer = announcer
        self.ai_pause = ai_pause
        self.auto_ai = auto_ai
        self.leases = leases
        """The store's leases when several processes may share the database (None: only this one)."""
        self.owner = owner
        """This process run, as the leases name it."""
        self.lease_ms: int = service.lease_ms
        """How long this process's leases last unless renewed (``LEASE_SECONDS``)."""
        self.mine: Callable[[int | None], bool] = lambda guild_xid: True
        """guild id -> whether this process resumes that server's games after its restart (its shards)."""
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self._telling: dict[int, int] = {}
        """game id -> moves of it this process is telling right now."""
        self._timer_leases: dict[int, int] = {}
        """game id -> the deadline this process holds the game's timer lease for."""
        self._next_sweep = 0
        self.stopping = False
        """A graceful stop began: no new AI move, timer or take-over (:meth:`stop_new_work`)."""
        self._stopped = asyncio.Event()
        self._handover: set[int] = set()
        """Games whose AI seats (or untold moves) this process leaves to another because it stops."""
        self._passes = 0
        self._no_pass = asyncio.Event()
        """Set while no timer pass runs (:meth:`run_timers`)."""
        self._no_pass.set()
        self.timers: dict[int, int] = {}
        """game id -> epoch ms when its timer runs out (rebuilt from the store by :meth:`resume`)."""

    # -- after a move -----------------------------------------------------------------------------
    async def after_move(self, outcome: MoveOutcome, origin: Any = None) -> str | None:
        """Tell everyone what a move did: the next private step, the status, or a new turn message.
        Once told, the move is settled, so a restart announces only what was not."""
        game_id = outcome.info.id
        self._telling[game_id] = self._telling.get(game_id, 0) + 1
        try:
            problem, quiet = await self._tell(outcome, origin)
            settled = await self.service.settle(game_id, outcome.version)
            if quiet and settled is not None and self._status_outdated(outcome, settled):
                await self.announcer.show_status(game_id, outcome.locale)  # told again, from a reading
        finally:
            left = self._telling[game_id] - 1
            if left:
                self._telling[game_id] = left
            else:
                del self._telling[game_id]
        return problem

    def _status_outdated(self, outcome: MoveOutcome, settled: Any) -> bool:
        """Whether a step's status, which the announcer may have told from the move's own row (it reads none while
        this process knows of no later version, and the row names a status message), is outdated by the row the
        settling returned: a later version this process does not know (another process's move: this process tells
        its own), or the same version ended, paused or with its status message posted again."""
        told = outcome.info.game
        if told.status_message_xid is None:
            return False  # no status message known to the move: the announcer read the row itself
        if settled.version != told.version:
            return not self.service.knows_version(told.id, settled.version)
        return (told.status, told.paused_at, told.status_message_xid) != (
            settled.status,
            settled.paused_at,
            settled.status_message_xid,
        )

    async def _tell(self, outcome: MoveOutcome, origin: Any) -> tuple[str | None, bool]:
        """Tell the move: (what went wrong or None, whether it was a step told in the status only)."""
        info = outcome.info
        game = games.get(info.game.kind)
        locale = outcome.locale
        if games.rules(info.game.kind).uses_time:
            await self.watch_timer(info.id)
        else:
            self.timers.pop(info.id, None)  # a game without timers: nothing to read
        if origin is not None:
            await self.announcer.acknowledge(origin, outcome)
        view = await self._public_view(outcome)
        quiet = not outcome.finished and game.turns.quiet_after(
            outcome.summary[0], outcome.seat, info.awaiting, outcome.newly_awaited, view
        )
        if quiet:
            # A step inside a turn, or a secret choice: no channel post; the status shows who is left.
            if origin is not None and outcome.seat in info.awaiting:
                await self.announcer.next_step(origin, info.id)
            await self.announcer.show_status(info.id, locale, outcome)
            self._maybe_ai(info)
            return None, True
        problem = await self.publish(info.id, outcome, locale)
        if (
            problem is None
            and origin is not None
            and not outcome.finished
            and outcome.seat in info.awaiting
            and not game.turns.public_choices(view)
        ):
            # A secret game announced a turn and the player acts again: their next private menu comes
            # at once, as it does inside a turn.
            await self.announcer.next_step(origin, info.id)
        return problem, False

    async def _public_view(self, outcome: MoveOutcome) -> games.View:
        snap = outcome.snapshot
        if snap is None or snap.version != outcome.info.game.version:
            snap = await self.service.snapshot(outcome.info.id)
        return snap.view(None)

    async def publish(
        self, game_id: int, outcome: MoveOutcome | None, locale: str | None = None, *, repost: bool = False
    ) -> str | None:
        """Announce the game as it is now (after ``outcome``, if given), one publish at a time per game so
        the newest post always carries the newest controls; then let an awaited AI play."""
        lock = self._publish_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            if locale is None:
                locale = (await self.service.game(game_id)).locale
            problem = await self.announcer.announce(game_id, outcome, locale, repost=repost)
        if outcome is None or any(s.is_ai for s in outcome.info.seats):
            # Without AI seats in the move's game none can be awaited (a seat given to the AI since,
            # by resignation or forget-me, is scheduled by that path): nothing to read.
            self._maybe_ai(await self.service.info(game_id))
        return problem

    def result_lines(self, info: GameInfo, locale: str, who: Any = None) -> list[str]:
        """The end-of-game ranking (``who(seat)`` names a seat; default: its name)."""
        name = who or info.name
        return ranking_lines(info.id, info.game.result, locale, name, [name(s.seat) for s in info.seats])

    def _maybe_ai(self, info: GameInfo) -> None:
        if self.auto_ai and info.game.status == "active" and info.awaited_ai():
            self.schedule_ai(info.id)

    @abstractmethod
    def schedule_ai(self, game_id: int) -> None:
        """Let the awaited AI seats of a game play, in the background (:mod:`bot.turnflow.ai`)."""

    @abstractmethod
    async def watch_timer(self, game_id: int) -> None:
        """Read the game's timer again (:mod:`bot.turnflow.timers`)."""

    # -- leases -----------------------------------------------------------------------------------
    async def _take(self, name: str, game_id: int, until: int | None = None) -> bool:
        if self.leases is None:
            return True
        now = self.service.clock.now_ms()
        return await self.leases.take(name, self.owner, now, now + self.lease_ms if until is None else until, game_id)

    async def _release(self, name: str) -> None:
        if self.leases is not None:
            with contextlib.suppress(Exception):  # the store may be closing; the lease then runs out
                await self.leases.release(name, self.owner)

    # -- moves told again after a restart --------------------------------------------------------
    async def tell_untold(self, game_id: int) -> None:
        """Tell a game's moves a dead run committed but never announced (under the game's lease)."""
        for game, outcome, newest in await self.service.unsettled_game(game_id):
            await self._resume_one(game, outcome, newest)

    async def resume_announcements(self) -> None:
        """Announce moves committed before a crash whose turn message was never posted."""
        for game, outcome, newest in await self.service.unsettled():
            await self._resume_one(game, outcome, newest)

    async def _resume_one(self, game: Any, outcome: MoveOutcome | None, newest: bool) -> None:
        if outcome is None or not newest:
            # Nothing to tell, or the newest change was an undo: show the board as it is, no pings.
            if outcome is not None:
                await self.publish(game.id, None, game.locale, repost=True)
            await self.service.settle(game.id, game.version)
            return
        log.info("announcing game %s again after a restart (version %s)", game.id, game.version)
        try:
            await self.after_move(outcome)
        except Exception:
            log.exception("could not announce game %s after a restart", game.id)
