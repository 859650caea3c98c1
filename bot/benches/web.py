"""The web pages (issue 28): how fast the game page answers with many stored games and many viewers, how
soon a move reaches the open live pages, and what an open page's stream costs.

Measured on a SQLite file in a temporary folder, the server on this machine's loopback, the viewers in
the same process (one event loop serves and reads: the figures include the viewers' own work):

- ``web.page_p50_ms`` / ``web.page_p95_ms``: the game page with ``GAMES`` stored games (each played by the
  AI for 0 to 12 moves, every game of the registry in turn), ``VIEWERS`` concurrent viewers each loading
  the page of a game picked at random among all of them about every ``THINK_SECONDS`` (so most loads are a
  game's first: its timeline is rebuilt from the log); ``web.page_warm_p95_ms`` the same page again at once;
  ``web.saturated_*``: the same viewers with no pause at all (each asks again as soon as it has its page: the
  figures then measure the queue, 50 requests deep, of one process on one core) and the pages per second;
- ``web.picture_cold_ms`` / ``web.picture_cached_ms``: one board picture drawn, then served from the cache;
- ``web.event_p50_ms`` / ``web.event_p95_ms`` / ``web.event_max_ms``: from a move's commit (the store's
  ``commit_move`` returning) to its event read by each of ``STREAMS`` open event streams of that game, over ``MOVES``
  moves made in this process (the server hears of them at once); ``web.event_polled_*`` the same for moves
  made through another service on the same file, as another process's: found by the poll of versions;
  ``web.postgres.event_other_*``: the same for moves of another process on PostgreSQL (a second store, its
  own pool, on one database of a throwaway server started here, fsync on): heard by the listener of this
  process (``NOTIFY`` in the move's transaction), the poll a 5-second safety net; ``web.postgres.polls`` the
  polls made meanwhile. Without PostgreSQL's server programs: ``web.postgres.skipped`` ("no PostgreSQL", one
  line on standard error);
- ``web.stream_bytes``: memory per open stream (tracemalloc, server and client sides together);
- ``web.viewer_*``: one viewer with a browser's HTTP cache (a picture answered ``immutable`` is never asked
  for again; a redirect is not kept) follows a ``VIEWER_MOVES``-move game: after every move it loads the page
  and its picture, then looks back at the ``VIEWER_LOOK_BACK`` turns before it (their pages and pictures);
  halfway through, a player is renamed (as forget-me does). ``web.viewer_picture_bytes`` the picture bytes it
  downloaded (``_fetches`` how many), ``web.viewer_distinct_bytes`` the bytes of the distinct pictures it
  was shown (each turn once per name: the least any cache can download), ``web.viewer_redirects`` the
  redirects it followed (a few hundred bytes each, no picture).

- ``web.tap_commit_p95_ms`` (and ``_p50``): a move made on the board (issue 38), from its request (``POST
  {base}/move`` sent by a signed-in seat, with the session's cookie, CSRF token and idempotency key, as the
  board's script sends it) to the store's ``commit_move`` returning; ``web.tap_post_p95_ms`` (and ``_p50``):
  from the same request to the channel's turn post, with ``TAP_VIEWERS`` viewers' event streams open on that
  game (each viewer loads the page again on every version event, as the page's script does). The channel is
  an announcer that draws the turn's picture as the Discord announcer does (in a thread) and timestamps its
  post (the upload to Discord itself is not counted). ``TAPS`` moves of a 2-player Quadropolis game, the two
  seats signed in, one move after the other's post; ``web.tap_answer_p95_ms`` the request's own answer.

Goals: page p95 at most 100 ms; event p95 at most 1 s; ``web.viewer_picture_bytes`` equal to
``web.viewer_distinct_bytes`` (each turn's picture downloaded once per name change, not once per move);
tap to commit p95 at most 150 ms, tap to the channel's post p95 at most 500 ms.
``--quick``: 100 games, 10 viewers, 20 streams, 12 taps (still 50 viewers).
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import random
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from yarl import URL

from bot import games, store
from bot.community.sessions import Sessions
from bot.service import MoveOutcome, Service
from bot.store.sessions import SessionStore
from bot.turnflow import TurnFlow
from bot.web.auth import COOKIE
from bot.web.context import LRU
from bot.web.game import Timelines
from bot.web.links import Links, path_game
from bot.web.server import PAGE_CACHE, WebServer
from bot.web.watch import RateLimit
from render import pictures

GAMES, QUICK_GAMES = 1_000, 100
VIEWERS, QUICK_VIEWERS = 50, 10
LOADS_PER_VIEWER, QUICK_LOADS = 20, 5
STREAMS, QUICK_STREAMS = 200, 20
MOVES, QUICK_MOVES = 10, 3
SECRET = b"bench-secret"
VIEWER_MOVES = 40
VIEWER_LOOK_BACK = 3
THINK_SECONDS = 1.0
"""A viewer's pause between two games' pages (about: exponentially spread)."""
TAPS, QUICK_TAPS = 60, 12
TAP_VIEWERS = 50
TAP_KIND = "quadropolis"


@dataclass(frozen=True)
class Source:
    service: Service
    store: store.Store


@dataclass(frozen=True)
class PlaySource:
    """What the pages read when seats play on them: the sessions and the turn flow too."""

    service: Service
    store: store.Store
    sessions: Sessions
    flow: TurnFlow


class PostingAnnouncer:
    """The channel for the tap bench: each turn's post draws the turn's picture as the Discord announcer does
    (in a thread) and is timestamped when done; a quiet step's status edit is timestamped too."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.posted: dict[int, float] = {}
        """Version -> when the channel's post (or status) about it was ready."""

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        return None

    async def next_step(self, origin: Any, game_id: int) -> None:
        return None

    async def announce(
        self, game_id: int, outcome: MoveOutcome | None, locale: str, *, repost: bool = False
    ) -> str | None:
        if outcome is None:
            return None
        snap = outcome.snapshot if outcome.snapshot is not None else await self.service.snapshot(game_id)
        presenter = pictures.get(outcome.info.game.kind)
        names = [s.name for s in outcome.info.seats]
        if presenter is not None:
            view = snap.view(None)
            if outcome.seat >= 0:
                await asyncio.to_thread(presenter.render_turn, view, outcome.seat, names, locale=locale)
            else:
                await asyncio.to_thread(presenter.render_board, view, names, locale=locale)
        self.posted.setdefault(outcome.version, time.perf_counter())
        return None

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        if outcome is not None:
            self.posted.setdefault(outcome.version, time.perf_counter())


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


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


async def _fill(service: Service, count: int) -> list[int]:
    rng = random.Random(28)
    kinds = declared()
    ids = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        seats = games.rules(kind).seat_range({})[0]
        info = await service.create_game(
            guild_xid=None,
            channel_xid=None,
            kind=kind,
            options={},
            host_xid=1,
            host_name=f"Player {i}",
            ai_seats=max(1, seats - 1),
            ai_level="random",
            locale="en",
        )
        gid = (await service.start(info.id, 1)).id
        for _ in range(rng.randint(0, 12)):
            now = await service.info(gid)
            if now.game.status != "active" or not now.awaiting:
                break
            await service.play_for(gid, min(now.awaiting), level="random")
        ids.append(gid)
    return ids


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

    async def timed_commit(*args: Any, **kwargs: Any) -> int:
        version = await commit_move(*args, **kwargs)
        committed.setdefault(version, time.perf_counter())
        return version

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


async def _measure(folder: Path, quick: bool) -> dict[str, Any]:
    db = await store.Store.open(folder / "web.sqlite3")
    service = Service(db)
    try:
        count = QUICK_GAMES if quick else GAMES
        ids = await _fill(service, count)
        server = WebServer(
            Source(service, db), Links("", SECRET), port=0, rate=1e9, burst=1e9, max_streams_per_address=10_000
        )
        await server.start()
        base = f"http://127.0.0.1:{server.port}"
        try:
            viewers, loads = (QUICK_VIEWERS, QUICK_LOADS) if quick else (VIEWERS, LOADS_PER_VIEWER)
            cold, warm, _ = await _pages(base, ids, viewers, loads, THINK_SECONDS)
            server.pages = LRU(PAGE_CACHE)  # the saturated run starts cold too
            server.timelines = Timelines()
            sat_cold, sat_warm, per_second = await _pages(base, ids, viewers, loads, 0.0)
            # One picture drawn, then served from the cache.
            gid = ids[declared().index(watched_kind())]  # the games are made in the registry's order
            async with aiohttp.ClientSession() as session:
                async with session.get(base + path_game(SECRET, gid) + "?turn=0") as r:
                    shown = re.search(r'<img id="board" src="([^"]+)"', await r.text())
                assert shown is not None
                picture = html.unescape(shown[1])  # turn 0's own address (no redirect)
                times = []
                for _ in range(2):
                    t0 = time.perf_counter()
                    async with session.get(f"{base}{picture}") as r:
                        await r.read()
                    times.append((time.perf_counter() - t0) * 1000)
            streams, moves = (QUICK_STREAMS, QUICK_MOVES) if quick else (STREAMS, MOVES)
            watched = []
            for _ in range(2):
                fresh = await service.create_game(
                    guild_xid=None,
                    channel_xid=None,
                    kind=watched_kind(),
                    options={},
                    host_xid=1,
                    host_name="Watched",
                    ai_seats=1,
                    ai_level="random",
                )
                watched.append((await service.start(fresh.id, 1)).id)
            # Moves of this process (the service's move listener wakes the streams), then moves through
            # another service on the same file, as another process's would be: found by the poll.
            delays, per_stream = await _events(service, service, base, watched[0], streams, moves)
            polled, _ = await _events(service, Service(db), base, watched[1], streams, moves)
            viewed = await _viewer(service, base)
        finally:
            await server.stop()
    finally:
        await db.close()
    return {
        "web.games_stored": count,
        "web.viewers": viewers,
        "web.page_loads": len(cold) + len(warm),
        "web.page_p50_ms": _pct(cold, 0.5),
        "web.page_p95_ms": _pct(cold, 0.95),
        "web.page_warm_p50_ms": _pct(warm, 0.5),
        "web.page_warm_p95_ms": _pct(warm, 0.95),
        "web.page_mean_ms": round(statistics.fmean(cold), 2),
        "web.page_think_s": THINK_SECONDS,
        "web.saturated_p50_ms": _pct(sat_cold, 0.5),
        "web.saturated_p95_ms": _pct(sat_cold, 0.95),
        "web.saturated_warm_p95_ms": _pct(sat_warm, 0.95),
        "web.saturated_pages_per_s": round(per_second, 1),
        "web.picture_cold_ms": round(times[0], 1),
        "web.picture_cached_ms": round(times[1], 2),
        "web.streams": QUICK_STREAMS if quick else STREAMS,
        "web.event_deliveries": len(delays),
        "web.event_p50_ms": _pct(delays, 0.5),
        "web.event_p95_ms": _pct(delays, 0.95),
        "web.event_max_ms": round(max(delays), 1),
        "web.event_polled_p50_ms": _pct(polled, 0.5),
        "web.event_polled_p95_ms": _pct(polled, 0.95),
        "web.event_polled_max_ms": round(max(polled), 1),
        "web.stream_bytes": int(per_stream),
        "web.goal_page_p95_ms": 100,
        "web.goal_event_p95_ms": 1000,
        **viewed,
    }


def _tapped(play: dict[str, Any], rng: random.Random) -> Any:
    """The move a player reaches by tapping through the board's choices (``play.json``'s tree) at random."""
    step = play["root"]
    while True:
        option = rng.choice(step["options"])
        if option.get("next"):
            step = option["next"]
        else:
            return option["move"]


async def _taps(folder: Path, quick: bool) -> dict[str, Any]:
    """Moves made on the board by two signed-in seats, ``TAP_VIEWERS`` streams open (see the module)."""
    db = await store.Store.open(folder / "taps.sqlite3")
    service = Service(db)
    announcer = PostingAnnouncer(service)
    flow = TurnFlow(service, announcer, auto_ai=False)
    sessions = Sessions(service, SessionStore(db))
    server = WebServer(
        PlaySource(service, db, sessions, flow),
        Links("", SECRET),
        port=0,
        rate=1e9,
        burst=1e9,
        max_streams_per_address=10_000,
    )
    server.door.per_user = server.door.per_address = RateLimit(1e9, 1e9)  # one client sends every tap
    committed: dict[int, float] = {}
    commit_move = db.commit_move

    async def timed_commit(*args: Any, **kwargs: Any) -> int:
        version = await commit_move(*args, **kwargs)
        committed.setdefault(version, time.perf_counter())
        return version

    db.commit_move = timed_commit  # type: ignore[method-assign]
    to_commit: list[float] = []
    to_post: list[float] = []
    answered: list[float] = []
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        info = await service.create_game(
            guild_xid=None,
            channel_xid=None,
            kind=TAP_KIND,
            options={},
            host_xid=1,
            host_name="Tapper 1",
            ai_seats=0,
            locale="en",
        )
        await service.join(info.id, 2, "Tapper 2")
        gid = (await service.start(info.id, 1)).id
        page = base + path_game(SECRET, gid)
        seats: dict[int, aiohttp.ClientSession] = {}
        for user in (1, 2):
            raw = await sessions.start(user, "link")
            jar = aiohttp.CookieJar(unsafe=True)
            jar.update_cookies({COOKIE: raw}, URL(base))
            seats[user] = aiohttp.ClientSession(cookie_jar=jar)
        stop = asyncio.Event()

        async def viewer(session: aiohttp.ClientSession) -> None:
            async with session.get(page + "/events") as r:
                assert r.status == 200, r.status
                while not stop.is_set():
                    chunk = await r.content.readuntil(b"\n\n")
                    if b"event: version" in chunk:
                        async with session.get(page) as again:
                            await again.read()

        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as crowd:
            watching = [asyncio.create_task(viewer(crowd)) for _ in range(TAP_VIEWERS)]
            await asyncio.sleep(0.5)  # the streams are open
            for n in range(QUICK_TAPS if quick else TAPS):
                now = await service.info(gid)
                if now.game.status != "active":
                    break
                seat = min(now.awaiting)
                mover = now.seats[seat].user_xid
                assert mover is not None
                browser = seats[mover]
                async with browser.get(page + "/play.json") as r:
                    data = await r.json()
                move = _tapped(data["play"], random.Random(n))
                body = {"version": data["version"], "move": move, "key": f"bench-tap-{n:06d}"}
                headers = {"Origin": base, "X-CSRF-Token": data["csrf"], "Content-Type": "application/json"}
                t0 = time.perf_counter()
                async with browser.post(page + "/move", json=body, headers=headers) as r:
                    answer = await r.json()
                answered.append((time.perf_counter() - t0) * 1000)
                assert r.status == 200 and answer.get("ok"), answer
                version = int(answer["version"])
                for _ in range(2000):
                    if version in announcer.posted:
                        break
                    await asyncio.sleep(0.005)
                to_commit.append((committed[version] - t0) * 1000)
                to_post.append((announcer.posted[version] - t0) * 1000)
            stop.set()
            for task in watching:
                task.cancel()
            await asyncio.gather(*watching, return_exceptions=True)
        for session in seats.values():
            await session.close()
    finally:
        db.commit_move = commit_move  # type: ignore[method-assign]
        await server.stop()
        await db.close()
    return {
        "web.tap_viewers": TAP_VIEWERS,
        "web.taps": len(to_commit),
        "web.tap_commit_p50_ms": _pct(to_commit, 0.5),
        "web.tap_commit_p95_ms": _pct(to_commit, 0.95),
        "web.tap_answer_p95_ms": _pct(answered, 0.95),
        "web.tap_post_p50_ms": _pct(to_post, 0.5),
        "web.tap_post_p95_ms": _pct(to_post, 0.95),
        "web.goal_tap_commit_p95_ms": 150,
        "web.goal_tap_post_p95_ms": 500,
    }


async def _measure_postgres(quick: bool) -> dict[str, Any]:
    """Moves of another process on PostgreSQL: two stores on one database, the pages served over the first,
    the moves made through the second."""
    from bot.testing.postgres import PostgresServer

    server = await asyncio.to_thread(PostgresServer.start, fsync=True)
    try:
        url = await asyncio.to_thread(server.create_database)
        here, there = await store.Store.open(url), await store.Store.open(url)
        try:
            service, elsewhere = Service(here), Service(there)
            web = WebServer(
                Source(service, here), Links("", SECRET), port=0, rate=1e9, burst=1e9, max_streams_per_address=10_000
            )
            await web.start()
            try:
                listening = web.listener is not None and web.listener.live
                fresh = await elsewhere.create_game(
                    guild_xid=None,
                    channel_xid=None,
                    kind=watched_kind(),
                    options={},
                    host_xid=1,
                    host_name="Watched",
                    ai_seats=1,
                    ai_level="random",
                )
                gid = (await elsewhere.start(fresh.id, 1)).id
                streams, moves = (QUICK_STREAMS, QUICK_MOVES) if quick else (STREAMS, MOVES)
                before = web.watcher.reads
                delays, _ = await _events(service, elsewhere, f"http://127.0.0.1:{web.port}", gid, streams, moves)
                polls = web.watcher.reads - before
            finally:
                await web.stop()
        finally:
            await here.close()
            await there.close()
    finally:
        await asyncio.to_thread(server.stop)
    return {
        "web.postgres.listening": int(listening),
        "web.postgres.event_other_deliveries": len(delays),
        "web.postgres.event_other_p50_ms": _pct(delays, 0.5),
        "web.postgres.event_other_p95_ms": _pct(delays, 0.95),
        "web.postgres.event_other_max_ms": round(max(delays), 1),
        "web.postgres.polls": polls,
    }


async def _postgres_or_skip(quick: bool) -> dict[str, Any]:
    from bot.benches.load import NO_POSTGRES
    from bot.cli import say
    from bot.testing.postgres import PostgresUnavailable

    try:
        return await _measure_postgres(quick)
    except PostgresUnavailable:
        print(f"bench: web.postgres {say('cli.bench.skipped_postgres')}", file=sys.stderr, flush=True)
        return {"web.postgres.skipped": NO_POSTGRES}


def figures(quick: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(_measure(Path(tmp), quick))
        out.update(asyncio.run(_taps(Path(tmp), quick)))
    out.update(asyncio.run(_postgres_or_skip(quick)))
    return out
