"""What happens after a move, for every front-end: announcements, AI seats, timers, settling, resuming.

No Discord here. A front-end implements :class:`Announcer` (Discord: the game cog; the terminal:
``bot.local``) and hands moves to :meth:`TurnFlow.after_move`. The flow decides whether a move is a
whole turn (announce it) or a step inside one (only the status changes), lets awaited AI seats play,
applies timers when they run out, and after a restart tells every move that was committed but never
announced before any AI moves past it. Channel posts use the game's own language (``games.locale``).

Several processes on one database (shards): with ``leases`` each game's background work is leased in
the store, so exactly one process acts on it. ``ai:<game>`` is held while a process tells what a dead
run left untold and plays the game's awaited AI seats (renewed before every move); ``timer:<game>``
while a process watches a game's timer (until the deadline and a grace: a timer nobody fired by then
belongs to a dead process). :meth:`TurnFlow.take_over` (every few seconds, from the timer loop) finds
the leases whose time ran out and takes that work over. ``mine`` says which games a process resumes
after its own restart (those of its shards' servers). Without leases (SQLite: one process per file)
all of this stays in memory, as it always was.

A graceful stop (:mod:`bot.drain`): :meth:`TurnFlow.stop_new_work` lets the AI moves under way finish and
starts no other (nor any timer); :meth:`TurnFlow.hand_over` then ends this process's leases at once, so
another process takes the games over at its next look instead of a lease's length later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot import games
from bot.results import ranking_lines
from bot.service import GameInfo, MoveOutcome, Service

log = logging.getLogger(__name__)

LEASE_MS = 60_000
"""How long a process holds a game's AI work without renewing it (it renews before every move), unless the
store says otherwise (``LEASE_SECONDS``: ``Store.lease_ms``)."""
TIMER_GRACE_MS = 15_000
"""A timer not fired this long after its deadline belongs to a dead process: another one fires it."""
SWEEP_MS = 5_000
"""How often :meth:`TurnFlow.take_over` looks for work left behind."""
SWEEP_BATCH = 100


class WorkLeases(Protocol):
    """The store's leases on a game's background work (:class:`bot.store.leases.LeaseStore`)."""

    async def take(self, name: str, owner: str, now: int, until: int, game_id: int | None = None) -> bool:
        """Take or renew ``name`` for ``owner`` until ``until``; False if another owner holds it."""

    async def release(self, name: str, owner: str) -> bool:
        """Drop ``owner``'s lease ``name``."""

    async def expired(self, prefix: str, now: int, limit: int) -> list[tuple[str, int | None]]:
        """(name, game id) of the leases starting with ``prefix`` whose time ran out."""

    async def hand_over(self, owner: str) -> int:
        """End every lease of ``owner`` now (its work is left for another process); how many."""


class Announcer(Protocol):
    """How a front-end tells people what happened. ``origin`` is the front-end's own handle on the
    player who acted (a Discord interaction), or None for moves nobody clicked (AI, timers, restarts)."""

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        """Tell the player who acted that their move counted."""

    async def next_step(self, origin: Any, game_id: int) -> None:
        """Give the player who acted their next private choices."""

    async def announce(self, game_id: int, outcome: MoveOutcome | None, locale: str, *,
                       repost: bool = False) -> str | None:
        """Post the turn (or the end of the game): returns None, or the catalogue id of what went wrong."""

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        """Bring the game's status up to date (who is awaited, the scores so far); ``outcome``: the move
        just told, whose snapshot may be reused."""


class SilentAnnouncer:
    """Tells nobody: the flow's announcer until a front-end takes over (the Discord game cog sets itself)."""

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        return None

    async def next_step(self, origin: Any, game_id: int) -> None:
        return None

    async def announce(self, game_id: int, outcome: MoveOutcome | None, locale: str, *,
                       repost: bool = False) -> str | None:
        return None

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        return None


class TurnFlow:
    """The turn flow over a :class:`Service`, told through one :class:`Announcer`.

    ``auto_ai``: AI seats play by themselves in the background, ``ai_pause`` seconds apart (the bot).
    Without it the front-end asks for each AI move with :meth:`ai_step` (the terminal, which lets
    people and AI take turns when they act at the same time).
    """

    def __init__(self, service: Service, announcer: Announcer, *, ai_pause: float = 0.0,
                 auto_ai: bool = True, leases: WorkLeases | None = None, owner: str = "") -> None:
        self.service = service
        self.announcer = announcer
        self.ai_pause = ai_pause
        self.auto_ai = auto_ai
        self.leases = leases
        """The store's leases when several processes may share the database (None: only this one)."""
        self.owner = owner
        """This process run, as the leases name it."""
        self.lease_ms: int = service.store.lease_ms
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
            problem = await self._tell(outcome, origin)
            await self.service.settle(game_id, outcome.version)
        finally:
            left = self._telling[game_id] - 1
            if left:
                self._telling[game_id] = left
            else:
                del self._telling[game_id]
        return problem

    async def _tell(self, outcome: MoveOutcome, origin: Any) -> str | None:
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
            outcome.summary[0], outcome.seat, info.awaiting, outcome.newly_awaited, view)
        if quiet:
            # A step inside a turn, or a secret choice: no channel post; the status shows who is left.
            if origin is not None and outcome.seat in info.awaiting:
                await self.announcer.next_step(origin, info.id)
            await self.announcer.show_status(info.id, locale, outcome)
            self._maybe_ai(info)
            return None
        problem = await self.publish(info.id, outcome, locale)
        if (problem is None and origin is not None and not outcome.finished and outcome.seat in info.awaiting
                and not game.turns.public_choices(view)):
            # A secret game announced a turn and the player acts again: their next private menu comes
            # at once, as it does inside a turn.
            await self.announcer.next_step(origin, info.id)
        return problem

    async def _public_view(self, outcome: MoveOutcome) -> games.View:
        snap = outcome.snapshot
        if snap is None or snap.version != outcome.info.game.version:
            snap = await self.service.snapshot(outcome.info.id)
        return snap.view(None)

    async def publish(self, game_id: int, outcome: MoveOutcome | None, locale: str | None = None, *,
                      repost: bool = False) -> str | None:
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

    # -- AI seats -------------------------------------------------------------------------------
    def _maybe_ai(self, info: GameInfo) -> None:
        if self.auto_ai and info.game.status == "active" and info.awaited_ai():
            self.schedule_ai(info.id)

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

    async def _take(self, name: str, game_id: int, until: int | None = None) -> bool:
        if self.leases is None:
            return True
        now = self.service.clock.now_ms()
        return await self.leases.take(name, self.owner, now, now + self.lease_ms if until is None else until,
                                      game_id)

    async def _release(self, name: str) -> None:
        if self.leases is not None:
            with contextlib.suppress(Exception):  # the store may be closing; the lease then runs out
                await self.leases.release(name, self.owner)

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
            if (self.leases is not None and self._timer_leases.get(game_id) != deadline
                    and await self._take(f"timer:{game_id}", game_id, deadline + TIMER_GRACE_MS)):
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
