"""The web bench's clients of the pages: which game is watched, the viewers that load the pages (one with a
browser's cache of pictures) and the open event streams that time each move's event. Re-exported by
:mod:`bot.benches.web`."""

from __future__ import annotations

import asyncio
import hashlib
import html
import random
import re
import time
import tracemalloc
from typing import Any

import aiohttp

from bot import games
from bot.service import Service
from bot.store import Committed
from bot.web.links import path_game

SECRET = b"bench-secret"
VIEWER_MOVES = 40
VIEWER_LOOK_BACK = 3


def declared() -> list[str]:
    """The bot's own games (:data:`bot.games.GAMES`), without the test games other benches register in the
    same process."""
    return list(games.GAMES)


def watched_kind() -> str:
    """The game whose pages the bench watches live: the first declared one a host and one random AI seat
    can play."""
    return next(
        kind
        for kind in declared()
        if games.rules(kind).seat_range({})[0] <= 2 <= games.rules(kind).seat_range({})[1]
        and "random" in games.rules(kind).ai_levels
    )


async def _pages(
    base: str, ids: list[int], viewers: int, loads: int, think: float
) -> tuple[list[float], list[float], float]:
    """Each viewer loads the page of a game picked at random, then the same page again (``warm``), then waits
    about ``think`` seconds (0: at once, the server saturated). Returns (first loads, second loads, pages/s)."""
    rng = random.Random(7)
    cold: list[float] = []
    warm: list[float] = []

    async def viewer(session: aiohttp.ClientSession) -> None:
        await asyncio.sleep(rng.uniform(0, think))
        for _ in range(loads):
            gid = rng.choice(ids)
            for into in (cold, warm):
                t0 = time.perf_counter()
                async with session.get(base + path_game(SECRET, gid)) as r:
                    await r.read()
                    assert r.status == 200, r.status
                into.append((time.perf_counter() - t0) * 1000)
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))

    t0 = time.perf_counter()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await asyncio.gather(*(viewer(session) for _ in range(viewers)))
    return cold, warm, (len(cold) + len(warm)) / (time.perf_counter() - t0)


class CachingViewer:
    """A browser's HTTP cache, as far as pictures go: an answer whose ``Cache-Control`` says ``immutable``
    is kept by its address and never asked for again; redirects are followed and not kept."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base
        self.kept: dict[str, bytes] = {}
        self.downloaded = 0
        self.fetches = 0
        self.redirects = 0
        self.shown: dict[str, int] = {}
        """The distinct pictures shown: their bytes' hash -> size."""

    async def picture(self, url: str) -> None:
        for _ in range(5):
            data = self.kept.get(url)
            if data is not None:
                break
            async with self.session.get(self.base + url, allow_redirects=False) as r:
                body = await r.read()
                if r.status in (301, 302, 303, 307, 308):
                    self.redirects += 1
                    url = r.headers["Location"].removeprefix(self.base)
                    continue
                assert r.status == 200, (url, r.status)
                self.fetches += 1
                self.downloaded += len(body)
                if "immutable" in r.headers.get("Cache-Control", ""):
                    self.kept[url] = body
                data = body
                break
        assert data is not None
        self.shown[hashlib.sha256(data).hexdigest()] = len(data)

    async def page(self, url: str) -> int:
        """Load a page and its board picture; the page's last turn."""
        async with self.session.get(self.base + url) as r:
            text = await r.text()
        board = re.search(r'<img id="board" src="([^"]+)"', text)
        if board is not None:
            await self.picture(html.unescape(board[1]))
        return int(re.search(r'data-last="(\d+)"', text)[1])  # type: ignore[index]


async def _viewer(service: Service, base: str) -> dict[str, Any]:
    """One viewer over a ``VIEWER_MOVES``-move game (see the module)."""
    info = await service.create_game(
        guild_xid=None,
        channel_xid=None,
        kind=watched_kind(),
        options={},
        host_xid=1,
        host_name="Viewer Host",
        ai_seats=1,
        ai_level="random",
    )
    gid = (await service.start(info.id, 1)).id
    page = path_game(SECRET, gid)
    moves = 0
    async with aiohttp.ClientSession() as session:
        viewer = CachingViewer(session, base)
        await viewer.page(page)
        while moves < VIEWER_MOVES:
            now = await service.info(gid)
            if now.game.status != "active" or not now.awaiting:
                break
            await service.play_for(gid, min(now.awaiting), level="random")
            moves += 1
            if moves == VIEWER_MOVES // 2:
                await service._store.update_seat(gid, 0, name="Forgotten player")
            last = await viewer.page(page)
            for turn in range(max(0, last - VIEWER_LOOK_BACK), last):
                await viewer.page(f"{page}?turn={turn}")
    return {
        "web.viewer_moves": moves,
        "web.viewer_picture_bytes": viewer.downloaded,
        "web.viewer_picture_fetches": viewer.fetches,
        "web.viewer_distinct_bytes": sum(viewer.shown.values()),
        "web.viewer_distinct_pictures": len(viewer.shown),
        "web.viewer_redirects": viewer.redirects,
    }


async def _events(
    service: Service, mover: Service, base: str, gid: int, streams: int, moves: int
) -> tuple[list[float], float]:
    """Delays from each move's commit (made through ``mover``) to its event on every stream, and the
    memory per stream."""
    committed: dict[int, float] = {}
    delays: list[float] = []
    commit_move = mover._store.commit_move

    async def timed_commit(*args: Any, **kwargs: Any) -> Committed:
        made = await commit_move(*args, **kwargs)
        committed.setdefault(made.version, time.perf_counter())
        return made

    mover._store.commit_move = timed_commit  # type: ignore[method-assign]
    url = base + path_game(SECRET, gid) + "/events"
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        responses = [await session.get(url) for _ in range(streams)]
        for r in responses:
            assert r.status == 200, r.status
            await r.content.readuntil(b"\n\n")  # the version now
        per_stream = (tracemalloc.get_traced_memory()[0] - before) / streams
        tracemalloc.stop()

        async def read(r: aiohttp.ClientResponse, want: int) -> None:
            while True:
                chunk = await r.content.readuntil(b"\n\n")
                if b"event: version" in chunk and f'"version": {want}'.encode() in chunk:
                    now = time.perf_counter()  # an event read before the commit's return is timed at 0
                    delays.append((now - committed.setdefault(want, now)) * 1000)
                    return

        for _ in range(moves):
            info = await service.info(gid)
            if info.game.status != "active":
                break
            want = info.game.version + 1
            readers = [asyncio.create_task(read(r, want)) for r in responses]
            await mover.play_for(gid, min(info.awaiting), level="random")
            await asyncio.wait_for(asyncio.gather(*readers), 30)
        for r in responses:
            r.close()
    mover._store.commit_move = commit_move  # type: ignore[method-assign]
    return delays, per_stream


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)
