"""The web server in the bot's process (issue 28): the game page, its pictures and its live event stream,
plus the league and player pages of :mod:`bot.web.community`.

Pure aiohttp: it reads the database through the service (public views only) and never imports discord or
the cogs. Live updates wake every open stream of a game that moved (Server-Sent Events): this process's own
moves at once (the service's move listeners); on PostgreSQL, another process's moves at once too, by the
store's notification of every committed move (:meth:`bot.store.Store.listen_moves`, one connection per
process); and one poller reads the versions of every watched game from the database in one query, every
:data:`POLL_SECONDS` on SQLite or while PostgreSQL's listening connection is down, every
:data:`SAFETY_POLL_SECONDS` while it listens (a safety net). The page's script then fetches the page again.

Abuse: every route's parameters are digits or a token (no filesystem path comes from the URL: the static
files are a fixed table), requests carry no body, a per-address token bucket limits requests, and open
streams are limited per address and in total. Any error becomes a page in the language, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import ipaddress
import json
import logging
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import web

from bot import games
from bot import story as stories
from bot.errors import GameError
from bot.i18n import t
from bot.service import GameInfo, MoveOutcome
from bot.store import MoveListener
from bot.web import community, page
from bot.web import game as pages
from bot.web.context import LRU, SECURITY_HEADERS, WebContext
from bot.web.links import Links, path_game

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
"""How often a watched game's version is read from the database (one read for every watched game, not per
viewer or per game) when no notification of moves is heard (SQLite, or PostgreSQL's listener down)."""
SAFETY_POLL_SECONDS = 5.0
"""The same read while PostgreSQL's notifications are heard: only a safety net."""
KEEPALIVE_SECONDS = 5.0
"""A comment line this often keeps proxies from closing a quiet stream and finds a closed one."""
MAX_STREAMS = 2000
MAX_STREAMS_PER_ADDRESS = 16
RATE_PER_SECOND = 20.0
RATE_BURST = 120.0
MAX_QUERY = 512
"""A request's query string at most (characters); a longer one is refused with the not-found page."""
PAGE_CACHE = 512
"""Game pages kept as made (by game, version, names, language and turn shown)."""
IMMUTABLE = "public, max-age=31536000, immutable"
STATIC = {
    "web.js": ("application/javascript", "web.js"),
    "web.css": ("text/css", "web.css"),
}
"""The static files, by name in the URL -> (type, file in the package): no path is ever built from a URL."""


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


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

    def __init__(self, read_versions: Callable[[list[int]], Awaitable[dict[int, int]]],
                 poll: float = POLL_SECONDS, slow_poll: float = SAFETY_POLL_SECONDS) -> None:
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


class WebServer:
    """The pages, served by aiohttp in the bot's process (``start`` / ``stop``; ``port`` once started)."""

    def __init__(self, app: Any, links: Links, *, host: str = "127.0.0.1", port: int = 8080,
                 rate: float = RATE_PER_SECOND, burst: float = RATE_BURST, max_streams: int = MAX_STREAMS,
                 max_streams_per_address: int = MAX_STREAMS_PER_ADDRESS, poll: float = POLL_SECONDS,
                 slow_poll: float = SAFETY_POLL_SECONDS, trust_forwarded: bool = True) -> None:
        self.ctx = WebContext(app, links)
        self.host = host
        self.port = port
        self.limit = RateLimit(rate, burst)
        self.max_streams = max_streams
        self.max_streams_per_address = max_streams_per_address
        self.trust_forwarded = trust_forwarded
        """Behind a reverse proxy on this machine (a loopback peer), the address is X-Forwarded-For's last."""
        self.watcher = Watcher(self._versions, poll, slow_poll)
        self.listener: MoveListener | None = None
        """PostgreSQL: the store's listener of every process's moves (None on SQLite)."""
        self.timelines = pages.Timelines()
        self.pages: LRU[tuple[Any, ...], bytes] = LRU(PAGE_CACHE)
        self.streams: dict[str, int] = {}
        self.open_streams = 0
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._static = {name: (kind, _static(file)) for name, (kind, file) in STATIC.items()}
        self.web = self.make_app()

    # -- the application ---------------------------------------------------------------------------
    def make_app(self) -> web.Application:
        application = web.Application(middlewares=[self._guard], client_max_size=1024,
                                      handler_args={"max_line_size": 4096, "max_field_size": 4096})
        game = r"/g/{game_id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}"
        routes = [
            web.get(game, self.game_page),
            web.get(game + r"/v{version:\d{1,18}}/t{turn:\d{1,6}}.png", self.game_picture),
            web.get(game + r"/v{version:\d{1,18}}/story.png", self.story_picture),
            web.get(game + "/events", self.events),
            web.get(r"/static/{name:[a-z]{1,16}\.(?:js|css)}", self.static),
            web.get("/favicon.ico", self.no_icon),
        ]
        routes.extend(community.routes(self.ctx))  # the league and player pages
        application.add_routes(routes)
        return application

    async def start(self) -> None:
        self._runner = web.AppRunner(self.web, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        listeners = getattr(self.ctx.service, "move_listeners", None)
        if isinstance(listeners, list):
            listeners.append(self._on_move)  # this process's moves at once
        # Another process's moves: at once on PostgreSQL (its notifications), else by the poll.
        self.listener = await self.ctx.service.store.listen_moves(self.watcher.wake, self.watcher.set_live)
        log.info("web pages on http://%s:%s", self.host, self.port)

    async def _on_move(self, outcome: MoveOutcome) -> None:
        self.watcher.wake(outcome.info.id, outcome.version)

    async def stop(self) -> None:
        listeners = getattr(self.ctx.service, "move_listeners", None)
        if isinstance(listeners, list) and self._on_move in listeners:
            listeners.remove(self._on_move)
        self._closing.set()
        listener, self.listener = self.listener, None
        if listener is not None:
            await listener.close()
        await self.watcher.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- guards ------------------------------------------------------------------------------------
    def address(self, request: web.Request) -> str:
        peer = request.remote or "?"
        forwarded = request.headers.get("X-Forwarded-For", "")
        if self.trust_forwarded and forwarded:
            with contextlib.suppress(ValueError):
                if ipaddress.ip_address(peer).is_loopback:
                    return forwarded.rsplit(",", 1)[-1].strip()[:64] or peer
        return peer

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        if not self.limit.allow(self.address(request)):
            response: web.StreamResponse = self.ctx.page(t("web.busy.title", locale),
                                                         f"<main><h1>{html.escape(t('web.busy.title', locale))}</h1>"
                                                         f"<p>{html.escape(t('web.busy.text', locale))}</p></main>",
                                                         locale, status=429)
            response.headers["Retry-After"] = "1"
        elif request.method not in ("GET", "HEAD") or len(request.query_string) > MAX_QUERY:
            response = self.ctx.not_found(locale)
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                if exc.status in (301, 302, 303, 307, 308):
                    raise
                response = self.ctx.not_found(locale)
            except (asyncio.CancelledError, ConnectionResetError):
                raise
            except Exception:
                log.exception("web: %s failed", request.path[:200])
                response = self.ctx.page(t("web.error.title", locale),
                                         f"<main><h1>{html.escape(t('web.error.title', locale))}</h1>"
                                         f"<p>{html.escape(t('web.error.text', locale))}</p></main>",
                                         locale, status=500)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    # -- reading a game ----------------------------------------------------------------------------
    async def _versions(self, game_ids: list[int]) -> dict[int, int]:
        return await self.ctx.service.store.game_versions(game_ids)

    def _signed(self, request: web.Request) -> bool:
        """Whether the link's token is the game's (constant time)."""
        expected = path_game(self.ctx.secret, int(request.match_info["game_id"])).rsplit("/", 1)[1]
        return hmac.compare_digest(expected.encode(), request.match_info["token"].encode())

    async def _game(self, request: web.Request) -> GameInfo | None:
        """The game of a signed link, once it is started (None: a bad link, an unknown game or a lobby)."""
        game_id = int(request.match_info["game_id"])
        if not self._signed(request):
            return None
        try:
            info = await self.ctx.service.info(game_id)
        except GameError:
            return None
        if info.game.status == "lobby":
            return None
        return info

    async def timeline(self, info: GameInfo) -> pages.Timeline:
        kept = self.timelines.get(info.id, info.game.version)
        if kept is not None:
            return kept
        rows = await self.ctx.service.store.moves(info.id)
        built = await asyncio.to_thread(pages.build_timeline, info, rows, self.timelines.previous(info.id))
        self.timelines.put(built)
        return built

    def _base(self, info: GameInfo) -> str:
        return path_game(self.ctx.secret, info.id)

    # -- the routes --------------------------------------------------------------------------------
    async def game_page(self, request: web.Request) -> web.StreamResponse:
        """The game page; the same page again (same game version, names, language and turn) from a cache."""
        game_id = int(request.match_info["game_id"])
        game = await self.ctx.service.store.get_game(game_id) if self._signed(request) else None
        if game is None or game.status == "lobby":
            return self.ctx.not_found(self.ctx.locale(request))
        locale = self.ctx.locale(request, game.locale)
        names = tuple(s.name for s in await self.ctx.service.store.seats(game_id))
        raw = request.query.get("turn", "")
        key = (game_id, game.version, game.status, names, locale, raw[:8] if raw.isdigit() else None,
               "turn" in request.query)
        text = self.pages.get(key)
        if text is None:
            info = await self._game(request)
            if info is None:
                return self.ctx.not_found(locale)
            timeline = await self.timeline(info)
            last = len(timeline.frames) - 1
            shown = int(raw) if raw.isdigit() and len(raw) <= 6 else last
            base = self._base(info)
            extra = {"turn": str(shown)} if "turn" in request.query else None
            body = page.body(info, timeline, base, locale, shown,
                              languages_html=self.ctx.language_links(locale, base, extra),
                              story=games.get(info.game.kind).story is not None)
            title = t("web.game.title", locale, game=t(games.get(info.game.kind).title_key, locale), id=info.id)
            text = self.ctx.html(title, body, locale, head_extra='<script src="/static/web.js" defer></script>')
            if info.game.version == game.version:
                self.pages.put(key, text)
        return self.ctx.respond(text)

    async def _cached_png(self, key: tuple[Any, ...], draw: Callable[[], bytes | None]) -> web.StreamResponse:
        data = self.ctx.pictures.get(key)
        if data is None:
            made = await asyncio.to_thread(draw)
            if made is None:
                raise web.HTTPNotFound()
            data = made
            self.ctx.pictures.put(key, data)
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": IMMUTABLE})

    async def _versioned(self, request: web.Request) -> tuple[GameInfo, str] | web.StreamResponse:
        info = await self._game(request)
        if info is None:
            raise web.HTTPNotFound()
        if int(request.match_info["version"]) != info.game.version:
            # A page older than the game: the same picture at the game's version (never cached itself).
            path = request.path.replace(f"/v{request.match_info['version']}/", f"/v{info.game.version}/", 1)
            query = f"?{request.query_string}" if request.query_string else ""
            raise web.HTTPTemporaryRedirect(path + query, headers={"Cache-Control": "no-store"})
        return info, self.ctx.locale(request, info.game.locale)

    async def game_picture(self, request: web.Request) -> web.StreamResponse:
        found = await self._versioned(request)
        assert isinstance(found, tuple)
        info, locale = found
        timeline = await self.timeline(info)
        turn = int(request.match_info["turn"])
        if turn >= len(timeline.frames):
            raise web.HTTPNotFound()
        names = tuple(s.name for s in info.seats)  # a forgotten player's new name is a new picture
        return await self._cached_png(("turn", info.id, info.game.version, turn, locale, names),
                                      lambda: pages.picture(info, timeline, turn, locale))

    async def story_picture(self, request: web.Request) -> web.StreamResponse:
        found = await self._versioned(request)
        assert isinstance(found, tuple)
        info, locale = found
        g = info.game
        if g.status != "finished" or games.get(g.kind).story is None:
            raise web.HTTPNotFound()
        moves = await self.ctx.service.move_log(g.id)
        names = [s.name for s in info.seats]

        def draw() -> bytes:
            from render.story import chart_png
            told = stories.build(g.kind, g.options, len(info.seats), g.seed, moves)
            return chart_png(told, names, locale=locale)

        return await self._cached_png(("story", g.id, g.version, locale, tuple(names)), draw)

    async def no_icon(self, request: web.Request) -> web.StreamResponse:
        """No icon (a browser asks for one on every page; a 404 would be a console error)."""
        return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})

    async def static(self, request: web.Request) -> web.StreamResponse:
        found = self._static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        kind, data = found
        return web.Response(body=data, content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "public, max-age=300"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-Sent Events: ``version`` now and after every change of the game's version."""
        info = await self._game(request)
        if info is None:
            raise web.HTTPNotFound()
        address = self.address(request)
        locale = self.ctx.locale(request, info.game.locale)
        if self.open_streams >= self.max_streams or self.streams.get(address, 0) >= self.max_streams_per_address:
            busy = self.ctx.page(t("web.busy.title", locale), f"<p>{html.escape(t('web.busy.text', locale))}</p>",
                                 locale, status=429)
            busy.headers["Retry-After"] = "5"
            return busy
        self.open_streams += 1
        self.streams[address] = self.streams.get(address, 0) + 1
        queue = self.watcher.subscribe(info.id, info.game.version)
        try:
            response = web.StreamResponse(headers={
                "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-store",
                "X-Accel-Buffering": "no", **SECURITY_HEADERS})
            await response.prepare(request)
            await response.write(self._event(info.game.version))
            closing = asyncio.ensure_future(self._closing.wait())
            try:
                while not self._closing.is_set():
                    getting = asyncio.ensure_future(queue.get())
                    done, _ = await asyncio.wait({getting, closing}, timeout=KEEPALIVE_SECONDS,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    if getting in done:
                        await response.write(self._event(getting.result()))
                    else:
                        getting.cancel()
                        if closing in done:
                            break
                        await response.write(b": keep-alive\n\n")
            finally:
                closing.cancel()
            return response
        except (ConnectionResetError, asyncio.CancelledError):
            raise
        finally:
            self.watcher.unsubscribe(info.id, queue)
            self.open_streams -= 1
            left = self.streams.get(address, 1) - 1
            if left:
                self.streams[address] = left
            else:
                self.streams.pop(address, None)

    @staticmethod
    def _event(version: int) -> bytes:
        return f"retry: 2000\nevent: version\ndata: {json.dumps({'version': version})}\n\n".encode()
