"""What happens after a move, for every front-end: announcements, AI seats, timers, settling, resuming.

No Discord here. A front-end implements :class:`Announcer` (Discord: the game cog; the terminal:
``bot.local``) and hands moves to :meth:`TurnFlow.after_move`. The flow decides whether a move is a
whole turn (announce it) or a step inside one (only the status changes), lets awaited AI seats play,
applies timers when they run out, and after a restart tells every move that was committed but never
announced before any AI moves past it. Channel posts use the game's own language (``games.locale``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from bot import games
from bot.results import ranking_lines
from bot.service import GameInfo, MoveOutcome, Service

log = logging.getLogger(__name__)


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
                 auto_ai: bool = True) -> None:
        self.service = service
        self.announcer = announcer
        self.ai_pause = ai_pause
        self.auto_ai = auto_ai
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self.timers: dict[int, int] = {}
        """game id -> epoch ms when its timer runs out (rebuilt from the store by :meth:`resume`)."""

    # -- after a move -----------------------------------------------------------------------------
    async def after_move(self, outcome: MoveOutcome, origin: Any = None) -> str | None:
        """Tell everyone what a move did: the next private step, the status, or a new turn message.
        Once told, the move is settled, so a restart announces only what was not."""
        problem = await self._tell(outcome, origin)
        await self.service.settle(outcome.info.id, outcome.version)
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
        """Let the awaited AI seats of a game play, in the background (one task per game)."""
        task = self._ai_tasks.get(game_id)
        if task is not None and not task.done():
            return
        self._ai_tasks[game_id] = asyncio.create_task(self._run_ai(game_id), name=f"ai-{game_id}")

    async def _run_ai(self, game_id: int) -> None:
        try:
            while True:
                await asyncio.sleep(self.ai_pause)
                if await self.ai_step(game_id) is None:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI of game %s failed", game_id)

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
        else:
            self.timers[game_id] = deadline

    async def run_timers(self) -> int:
        """Apply every due timer move; returns how many fired."""
        now = self.service.clock.now_ms()
        fired = 0
        for game_id, deadline in sorted(self.timers.items(), key=lambda kv: kv[1]):
            if deadline > now:
                continue
            outcome = await self.service.system_tick(game_id)
            await self.watch_timer(game_id)
            if outcome is not None:
                fired += 1
                await self.after_move(outcome)
        return fired

    # -- after a restart --------------------------------------------------------------------------
    async def resume(self) -> None:
        """Announce what was committed but never told, then let every awaited AI play on (in that
        order, so an AI never moves past an untold move), and watch every timer again."""
        await self.resume_announcements()
        for game in await self.service.active_games():
            await self.watch_timer(game.id)
            info = await self.service.info(game.id)
            self._maybe_ai(info)

    async def resume_announcements(self) -> None:
        """Announce moves committed before a crash whose turn message was never posted."""
        for game, outcome, newest in await self.service.unsettled():
            if outcome is None or not newest:
                # Nothing to tell, or the newest change was an undo: show the board as it is, no pings.
                if outcome is not None:
                    await self.publish(game.id, None, game.locale, repost=True)
                await self.service.settle(game.id, game.version)
                continue
            log.info("announcing game %s again after a restart (version %s)", game.id, game.version)
            try:
                await self.after_move(outcome)
            except Exception:
                log.exception("could not announce game %s after a restart", game.id)

    def close(self) -> None:
        for task in self._ai_tasks.values():
            task.cancel()
