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
  post (the upload to Discord itself is not counted). ``TAPS`` moves of a 2-player game (the watched one), the two
  seats signed in, one move after the other's post; ``web.tap_answer_p95_ms`` the request's own answer.

Goals: page p95 at most 100 ms; event p95 at most 1 s; ``web.viewer_picture_bytes`` equal to
``web.viewer_distinct_bytes`` (each turn's picture downloaded once per name change, not once per move);
tap to commit p95 at most 150 ms, tap to the channel's post p95 at most 500 ms.
``--quick``: 100 games, 10 viewers, 20 streams, 12 taps (still 50 viewers).
"""

from __future__ import annotations

import asyncio
import html
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot import games, store
from bot.benches.web.clients import SECRET as SECRET
from bot.benches.web.clients import VIEWER_LOOK_BACK as VIEWER_LOOK_BACK
from bot.benches.web.clients import VIEWER_MOVES as VIEWER_MOVES
from bot.benches.web.clients import CachingViewer as CachingViewer
from bot.benches.web.clients import _events as _events
from bot.benches.web.clients import _pages as _pages
from bot.benches.web.clients import _pct as _pct
from bot.benches.web.clients import _viewer as _viewer
from bot.benches.web.clients import declared as declared
from bot.benches.web.clients import watched_kind as watched_kind
from bot.benches.web.taps import TAP_VIEWERS as TAP_VIEWERS
from bot.benches.web.taps import TAPS as TAPS
from bot.benches.web.taps import PlaySource as PlaySource
from bot.benches.web.taps import PostingAnnouncer as PostingAnnouncer
from bot.benches.web.taps import _taps as _taps
from bot.service import Service
from bot.web.context import LRU
from bot.web.game import Timelines
from bot.web.links import Links, path_game
from bot.web.server import PAGE_CACHE, WebServer

GAMES, QUICK_GAMES = 1_000, 100
VIEWERS, QUICK_VIEWERS = 50, 10
LOADS_PER_VIEWER, QUICK_LOADS = 20, 5
STREAMS, QUICK_STREAMS = 200, 20
MOVES, QUICK_MOVES = 10, 3
THINK_SECONDS = 1.0
"""A viewer's pause between two games' pages (about: exponentially spread)."""


@dataclass(frozen=True)
class Source:
    service: Service
    store: store.Store


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
