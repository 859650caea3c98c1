"""The web bench's taps (issue 38): moves made on the board by two signed-in seats, with viewers' streams
open; see :mod:`bot.benches.web` for the figures (``web.tap_*``) and their goals."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from yarl import URL

from bot import store
from bot.benches.web.clients import SECRET, _pct, watched_kind
from bot.community.sessions import Sessions
from bot.service import MoveOutcome, Service
from bot.store import Committed
from bot.store.sessions import SessionStore
from bot.turnflow import TurnFlow
from bot.web.auth import COOKIE
from bot.web.links import Links, path_game
from bot.web.server import WebServer
from bot.web.watch import RateLimit
from render import pictures

TAPS, QUICK_TAPS = 60, 12
TAP_VIEWERS = 50


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

    async def timed_commit(*args: Any, **kwargs: Any) -> Committed:
        made = await commit_move(*args, **kwargs)
        committed.setdefault(made.version, time.perf_counter())
        return made

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
            kind=watched_kind(),
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
