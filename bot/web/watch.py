"""What the web server watches (:class:`Watcher`: the watched games' versions, one poller for all of them,
the streams to wake) and how often a client may ask (:class:`RateLimit`, a token bucket per address)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.web.server")

POLL_SECONDS = 0.2
"""How often a watched game's version is read from the database (one read for every watched game, not per
viewer or per game) when no notification of moves is heard (SQLite, or PostgreSQL's listener down)."""
SAFETY_POLL_SECONDS = 5.0
"""The same read while PostgreSQL's notifications are heard: only a safety net."""


class RateLimit:
    """A token bucket per address (``rate`` requests a second, ``burst`` at once); forgets idle addresses."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, address: str) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self._buckets) > 10_000:
            self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < 60}
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True


class Watch:
    """One watched game: its last version and the streams waiting for the next."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.streams: set[asyncio.Queue[int]] = set()


class Watcher:
    """The watched games and their open streams. One poller for all of them reads every watched game's version
    in one query every ``poll`` seconds (not one per game, nor one per viewer), every ``slow_poll`` seconds
    while :attr:`live` (moves are heard as they commit), and runs only while some stream is open;
    :meth:`wake` tells a game's streams of a move at once."""

    def __init__(
        self,
        read_versions: Callable[[list[int]], Awaitable[dict[int, int]]],
        poll: float = POLL_SECONDS,
        slow_poll: float = SAFETY_POLL_SECONDS,
    ) -> None:
        self.read_versions = read_versions
        self.poll = poll
        self.slow_poll = max(poll, slow_poll)
        self.live = False
        """Every committed move is heard (PostgreSQL's listener connected): the poll slows down."""
        self.games: dict[int, Watch] = {}
        self.task: asyncio.Task[None] | None = None
        self._nudge = asyncio.Event()
        self.reads = 0
        """Polls made (each one query for every watched game)."""

    def set_live(self, live: bool) -> None:
        """The listener connected or lost: either way the versions are read at once (a move may have
        committed unheard meanwhile), then at the pace that fits."""
        self.live = live
        self._nudge.set()

    def subscribe(self, game_id: int, version: int) -> asyncio.Queue[int]:
        watch = self.games.get(game_id)
        if watch is None:
            watch = self.games[game_id] = Watch(version)
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        watch.streams.add(queue)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._poll(), name="web-watch")
        return queue

    def version_of(self, game_id: int, default: int) -> int:
        """The newest version of a watched game this watcher knows (``default`` for a game it does not watch)."""
        watch = self.games.get(game_id)
        return default if watch is None else watch.version

    def unsubscribe(self, game_id: int, queue: asyncio.Queue[int]) -> None:
        watch = self.games.get(game_id)
        if watch is None:
            return
        watch.streams.discard(queue)
        if not watch.streams:
            del self.games[game_id]

    async def _poll(self) -> None:
        while self.games:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudge.wait(), self.slow_poll if self.live else self.poll)
            self._nudge.clear()
            if not self.games:
                break
            try:
                versions = await self.read_versions(list(self.games))
            except Exception:
                log.exception("web: the versions of the watched games could not be read")
                continue
            self.reads += 1
            for game_id, version in versions.items():
                self.wake(game_id, version)

    def wake(self, game_id: int, version: int) -> None:
        """A newer version of a watched game: each of its streams hears of it (the newest only)."""
        watch = self.games.get(game_id)
        if watch is None or version <= watch.version:
            return
        watch.version = version
        for queue in list(watch.streams):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

    async def close(self) -> None:
        self.games.clear()
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
