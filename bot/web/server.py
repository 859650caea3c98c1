"""The web server in the bot's process (issue 28): the game page, its pictures (:mod:`bot.web.pictures`) and
its live event stream, plus the league and player pages of :mod:`bot.web.community`; every answer's headers,
the client's address and aiohttp's own errors are :mod:`bot.web.guard`'s, the poller :mod:`bot.web.watch`'s.

Pure aiohttp: it reads the database through the service (public views only) and never imports discord or
the cogs. Live updates wake every open stream of a game that moved (Server-Sent Events): this process's own
moves at once (the service's move listeners); on PostgreSQL, another process's moves at once too, by the
store's notification of every committed move (:meth:`bot.store.Store.listen_moves`, one connection per
process); and one poller reads the versions of every watched game from the database in one query, every
:data:`POLL_SECONDS` on SQLite or while PostgreSQL's listening connection is down, every
:data:`SAFETY_POLL_SECONDS` while it listens (a safety net). The page's script then fetches the page again.

Abuse: every route's parameters are digits or a token (no filesystem path comes from the URL: the static
files are a fixed table), requests carry no body but the signed-in forms' and the move's POSTs (:mod:`bot.web.auth`,
:mod:`bot.web.moves`: an Origin check and a CSRF token), a per-address token bucket limits requests, and open
streams are limited per address and in total (the address behind ``TRUSTED_PROXIES`` only). Any error
becomes a page in the language, never a traceback in the page nor in the log above DEBUG; a viewer who goes
away mid-stream is a normal event, logged at DEBUG.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from importlib import resources
from typing import Any

from aiohttp import web

from bot import games
from bot.community.sessions import SessionRow
from bot.errors import GameError
from bot.i18n import t
from bot.service import GameInfo, MoveOutcome
from bot.store import MoveListener
from bot.web import community, page, weighed
from bot.web import game as pages
from bot.web.auth import Auth
from bot.web.context import LRU, SECURITY_HEADERS, WebContext
from bot.web.guard import Network, QuietRunner, add_headers, client_address, networks
from bot.web.links import Links, path_game
from bot.web.moves import MoveDoor
from bot.web.pictures import Pictures
from bot.web.watch import POLL_SECONDS, SAFETY_POLL_SECONDS, RateLimit, Watcher

__all__ = ["POLL_SECONDS", "SAFETY_POLL_SECONDS", "RateLimit", "Watcher", "WebServer"]

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 5.0
"""A keep-alive this often keeps proxies from closing a quiet stream and finds a closed one; it says the version
the watcher knows, so a page that missed a version's news catches up (the same version changes nothing there)."""
MAX_STREAMS = 2000
MAX_STREAMS_PER_ADDRESS = 16
RATE_PER_SECOND = 20.0
RATE_BURST = 120.0
MAX_QUERY = 512
"""A request's query string at most (characters); a longer one is refused with the not-found page."""
PAGE_CACHE = 512
"""Game pages kept as made (by game, version, names, language and turn shown)."""
STATIC = {
    "web.js": ("application/javascript", "web.js"),
    "web.css": ("text/css", "web.css"),
    "board.js": ("application/javascript", "board.js"),
    "board.css": ("text/css", "board.css"),
}
"""The static files, by name in the URL -> (type, file in the package): no path is ever built from a URL."""


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


class WebServer:
    """The pages, served by aiohttp in the bot's process (``start`` / ``stop``; ``port`` once started)."""

    def __init__(
        self,
        app: Any,
        links: Links,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        rate: float = RATE_PER_SECOND,
        burst: float = RATE_BURST,
        max_streams: int = MAX_STREAMS,
        max_streams_per_address: int = MAX_STREAMS_PER_ADDRESS,
        poll: float = POLL_SECONDS,
        slow_poll: float = SAFETY_POLL_SECONDS,
        trusted_proxies: Iterable[str | Network] = (),
        extra_routes: Callable[[WebContext, Auth], list[web.RouteDef]] | None = None,
        activity: Any = None,
    ) -> None:
        self.ctx = WebContext(app, links)
        self.auth = Auth(self.ctx, getattr(app, "sessions", None))
        """Who is signed in (issue 38); nobody where the source has no sessions."""
        self.door = MoveDoor(self.auth, self._game, lambda: getattr(app, "flow", None), self.address)
        """The signed-in seat's board and its moves (the composition root's turn flow tells them)."""
        self.extra_routes = extra_routes
        self.activity = activity
        """The board as a Discord Activity (:class:`bot.web.activity.Activity`, issue 39), or None."""
        self.host = host
        self.port = port
        self.limit = RateLimit(rate, burst)
        self.max_streams = max_streams
        self.max_streams_per_address = max_streams_per_address
        self.trusted_proxies = networks(trusted_proxies)
        """``TRUSTED_PROXIES``: a request from one of these is from the address its X-Forwarded-For names
        (:func:`bot.web.guard.client_address`); no one is trusted by default, not even this machine."""
        self.watcher = Watcher(self._versions, poll, slow_poll)
        self.listener: MoveListener | None = None
        """PostgreSQL: the store's listener of every process's moves (None on SQLite)."""
        self.timelines = pages.Timelines()
        self.pages: LRU[tuple[Any, ...], bytes] = LRU(PAGE_CACHE)
        self._building: dict[tuple[Any, ...], asyncio.Future[bytes | None]] = {}
        """The pages being built now, by key: a request for one of them waits for that build."""
        self.streams: dict[str, int] = {}
        self.open_streams = 0
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._static = {name: (kind, _static(file)) for name, (kind, file) in STATIC.items()}
        self.pictures = Pictures(
            self.ctx, self._game, self.timeline, self._base, lambda *args: pages.picture(*args)
        )  # read at each call (tests wrap it)
        self.web = self.make_app()

    # -- the application ---------------------------------------------------------------------------
    def make_app(self) -> web.Application:
        application = web.Application(
            middlewares=[self._guard],
            client_max_size=8192,
            handler_args={"max_line_size": 4096, "max_field_size": 4096},
        )
        application.on_response_prepare.append(add_headers)  # every answer, redirects and errors too
        game = r"/g/{game_id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}"
        routes = [
            web.get(game, self.game_page),
            *self.pictures.routes(game),
            web.get(game + "/events", self.events),
            *self.door.routes(game),
            *self.auth.routes(),
            web.get(r"/static/{name:[a-z]{1,16}\.(?:js|css)}", self.static),
            web.get("/favicon.ico", self.no_icon),
        ]
        routes.extend(community.routes(self.ctx))  # the league and player pages
        if self.extra_routes is not None:
            routes.extend(self.extra_routes(self.ctx, self.auth))  # "Sign in with Discord" (bot.web.oauth)
        if self.activity is not None:
            routes.extend(self.activity.routes(self))  # the Activity's page, its API and framed game pages
        application.add_routes(routes)
        return application

    async def start(self) -> None:
        self._runner = QuietRunner(self.web, access_log=None, handle_signals=False, shutdown_timeout=1.0)
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
        self.listener = await self.ctx.service.listen_moves(self.watcher.wake, self.watcher.set_live)
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
        """The address the per-address limits count: the peer's, or behind a trusted proxy the client's."""
        return client_address(request.remote, request.headers.get("X-Forwarded-For", ""), self.trusted_proxies)

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        locale = self.ctx.locale(request)
        if not self.limit.allow(self.address(request)):
            response: web.StreamResponse = self.ctx.page(
                t("web.busy.title", locale),
                f"<main><h1>{html.escape(t('web.busy.title', locale))}</h1>"
                f"<p>{html.escape(t('web.busy.text', locale))}</p></main>",
                locale,
                status=429,
            )
            response.headers["Retry-After"] = "1"
        elif (request.method not in ("GET", "HEAD") and request.match_info.route.method != "POST") or len(
            request.query_string
        ) > MAX_QUERY:
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
            except Exception as exc:  # one line above DEBUG; the traceback at DEBUG only
                log.error("web: %s failed: %s: %s", request.path[:200], type(exc).__name__, str(exc)[:200])
                log.debug("web: %s failed", request.path[:200], exc_info=True)
                response = self.ctx.page(
                    t("web.error.title", locale),
                    f"<main><h1>{html.escape(t('web.error.title', locale))}</h1>"
                    f"<p>{html.escape(t('web.error.text', locale))}</p></main>",
                    locale,
                    status=500,
                )
        return response

    # -- reading a game ----------------------------------------------------------------------------
    async def _versions(self, game_ids: list[int]) -> dict[int, int]:
        return await self.ctx.service.game_versions(game_ids)

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
        rows = await self.ctx.service.move_rows(info.id)
        built = await asyncio.to_thread(pages.build_timeline, info, rows, self.timelines.previous(info.id))
        self.timelines.put(built)
        return built

    def _base(self, info: GameInfo) -> str:
        return path_game(self.ctx.secret, info.id)

    # -- the routes --------------------------------------------------------------------------------
    async def game_page(self, request: web.Request) -> web.StreamResponse:
        """The game page; the same page again (same version, names, language, turn, `page.banks_mark`) from a cache."""
        game_id = int(request.match_info["game_id"])
        game = await self.ctx.service.find_game(game_id) if self._signed(request) else None
        if game is None or game.status == "lobby":
            return self.ctx.not_found(self.ctx.locale(request))
        locale = self.ctx.locale(request, game.locale)
        seats = await self.ctx.service.seats(game_id)
        names = tuple(s.name for s in seats)
        session = await self.auth.session(request)
        seat = next((s.seat for s in seats if session is not None and s.user_xid == session.user_xid), None)
        raw = request.query.get("turn", "")
        analysed = game.status == "finished" and await weighed.kept(self.ctx.app, game_id) is not None
        # A private page (a signed-in seat's) is keyed by its session too: never served to another session.
        key: tuple[Any, ...] = (game_id, game.version, analysed, game.status, names, locale)
        key += (raw[:8] if raw.isdigit() else None, "turn" in request.query)
        key += (None if session is None else (seat, session.id_hash), await page.banks_mark(self.ctx.app, game, seats))
        text = self.pages.get(key)
        if text is None:
            # The viewers of a game all ask for its new page as one move is heard: one of them builds it, the
            # others wait for that build (shielded: a viewer who leaves does not cancel it for the rest).
            running = self._building.get(key)
            if running is None:
                running = asyncio.ensure_future(self._build_page(request, key, game.version, locale, seat, session))
                self._building[key] = running
                running.add_done_callback(lambda _: self._building.pop(key, None))
            text = await asyncio.shield(running)
            if text is None:
                return self.ctx.not_found(locale)
        response = self.ctx.respond(text)
        response.headers["Vary"] = "Cookie"
        return response

    async def _build_page(
        self,
        request: web.Request,
        key: tuple[Any, ...],
        version: int,
        locale: str,
        seat: int | None,
        session: SessionRow | None,
    ) -> bytes | None:
        """The game page of ``key`` (None: the game is gone), kept in the cache when still current."""
        raw = request.query.get("turn", "")
        info = await self._game(request)
        if info is None:
            return None
        timeline = await self.timeline(info)
        last = len(timeline.frames) - 1
        shown = int(raw) if raw.isdigit() and len(raw) <= 6 else last
        base = self._base(info)
        extra = {"turn": str(shown)} if "turn" in request.query else None
        body = page.body(
            info,
            timeline,
            base,
            locale,
            shown,
            languages_html=self.ctx.language_links(locale, base, extra),
            story=games.get(info.game.kind).story is not None,
            seat=seat,
            analysis=await weighed.kept(self.ctx.app, info.id) if info.game.status == "finished" else None,
            banks=await page.banks_of(self.ctx.app, info),
        )
        title = t("web.game.title", locale, game=t(games.get(info.game.kind).title_key, locale), id=info.id)
        scripts = '<script src="/static/web.js" defer></script>'
        if session is not None:
            scripts += '<script src="/static/board.js" defer></script>'
        text = self.ctx.html(title, body, locale, head_extra=scripts)
        if info.game.version == version:
            self.pages.put(key, text)
        return text

    async def no_icon(self, request: web.Request) -> web.StreamResponse:
        """No icon (a browser asks for one on every page; a 404 would be a console error)."""
        return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})

    async def static(self, request: web.Request) -> web.StreamResponse:
        found = self._static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        kind, data = found
        return web.Response(
            body=data, content_type=kind, charset="utf-8", headers={"Cache-Control": "public, max-age=300"}
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-Sent Events: ``version`` now and after every change of the game's version."""
        info = await self._game(request)
        if info is None:
            raise web.HTTPNotFound()
        address = self.address(request)
        locale = self.ctx.locale(request, info.game.locale)
        if self.open_streams >= self.max_streams or self.streams.get(address, 0) >= self.max_streams_per_address:
            busy = self.ctx.page(
                t("web.busy.title", locale), f"<p>{html.escape(t('web.busy.text', locale))}</p>", locale, status=429
            )
            busy.headers["Retry-After"] = "5"
            return busy
        self.open_streams += 1
        self.streams[address] = self.streams.get(address, 0) + 1
        queue = self.watcher.subscribe(info.id, info.game.version)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache, no-store",
                "X-Accel-Buffering": "no",
                **SECURITY_HEADERS,
            }
        )
        try:
            await response.prepare(request)
            await response.write(self._event(info.game.version))
            closing = asyncio.ensure_future(self._closing.wait())
            try:
                while not self._closing.is_set():
                    getting = asyncio.ensure_future(queue.get())
                    done, _ = await asyncio.wait(
                        {getting, closing}, timeout=KEEPALIVE_SECONDS, return_when=asyncio.FIRST_COMPLETED
                    )
                    if getting in done:
                        await response.write(self._event(getting.result()))
                    else:
                        getting.cancel()
                        if closing in done:
                            break
                        await response.write(self._event(self.watcher.version_of(info.id, info.game.version)))
            finally:
                closing.cancel()
            return response
        except ConnectionError as exc:  # the viewer went away (a closed tab, a reset): a normal event
            log.debug("web: a stream of game %s ended: %s", info.id, type(exc).__name__)
            return response
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
