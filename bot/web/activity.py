"""The board as a Discord Activity (issue 39): the same game page, moves, door and live stream as a signed-in
browser's, inside Discord's frame. Only with ``ACTIVITY=on`` (which needs ``DISCORD_CLIENT_ID``,
``DISCORD_CLIENT_SECRET`` and ``WEB_BASE_URL``); without it none of these routes exist.

Discord proxies the Activity through ``https://<application id>.discordsays.com``, whose URL mapping ``/``
points at the host of ``WEB_BASE_URL``, and starts it at ``/`` with the query it adds (``instance_id``,
``channel_id``, ``guild_id``, ``frame_id``, ``platform``). Its routes:

- ``GET /``: the Activity's page (:mod:`bot.web.activity_page`): the Embedded App SDK's build and
  ``activity.js``, which runs ``ready()``, ``authorize`` (scope ``identify``), posts the code to ``api/token``,
  runs ``authenticate`` with the token it gets back, shows the instance's participants, and opens the game in
  a frame of its own page (``activity/g/<game>/<token>``);
- ``POST /api/token`` ``{"code", "instance_id"}``: the code bought at Discord's token endpoint through
  :meth:`bot.web.oauth.OAuth.exchange` (the user read once), the instance asked of Discord with the bot's token
  (``GET /applications/{id}/activity-instances/{instance}``: where it runs, who is in it; the user must be),
  then a session for a user Discord says is in that instance (the instance's channel is the one its game is
  looked for in, never a channel the page names) and its cookie. The answer holds the access token (only
  because the SDK's ``authenticate`` needs it: it is never logged nor kept), the user's id and the game to
  open: the live game of the instance's channel or thread, else a short list of the user's games;
- ``POST /api/public`` ``{"instance_id"}``: for a user who refused consent, the public board of the instance's
  channel (no session);
- ``GET /activity/g/<game>/<token>``: the game page as :class:`bot.web.server.WebServer` makes it, framable by
  the Activity's own page and Discord's origins only (``frame-ancestors``; every other page keeps
  ``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``).

Every POST here must come from the Activity's own origin (``https://<application id>.discordsays.com``) or
the site's; any other is refused with one sentence, and a refusal changes nothing.

The session cookie: Discord's frame is a cross-site frame (the page is ``discordsays.com``, the top
``discord.com``), where a browser never sends a ``SameSite=Lax`` cookie. The Activity's cookie is therefore
``SameSite=None; Secure; Partitioned``: sent only to the Activity's own host (``<application id>.discordsays
.com``, never the site's own, whose cookie stays ``Lax``), kept apart per top-level site (CHIPS), and without an
age, so it ends with the Activity's browser session.

The session is bound to the instance (``how = 'activity'`` with its ``instance_id``, migration 013): it lasts
:data:`bot.community.sessions.ACTIVITY_HOURS` on the server at most; a new sign-in of the same user in the same
instance replaces it (another instance gets a session of its own); and it ends with the instance. Discord is
asked whether the instance still runs (:meth:`Activity.live`) when the session opens a game page here or
makes a move, at most once every :data:`CHECK_MS` per instance (never for a picture or the live stream), and on
``api/token`` for the user's sessions of other instances; when Discord no longer knows it, every session of
that instance ends and the request gets one sentence (``web.activity.ended``).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web

from bot import errors, games
from bot.i18n import t
from bot.service import GameInfo
from bot.web import activity_page
from bot.web.auth import COOKIE, Auth
from bot.web.links import path_game
from bot.web.oauth import OAuth
from bot.web.watch import RateLimit

log = logging.getLogger(__name__)

TOKEN = "/api/token"
PUBLIC = "/api/public"
FRAMED = "/activity"
"""The Activity's copy of a game page: ``/activity/g/<game>/<token>``."""
INSTANCE = re.compile(r"[A-Za-z0-9_:.-]{1,100}")
CODE = re.compile(r"[A-Za-z0-9_.~-]{1,512}")
SESSIONS_LINK = re.compile(rb'<p><a href="/sessions\?[^"<>]*">[^<>]*</a></p>')
"""The game page's link to the sessions page, which Discord's frame cannot show (it denies framing)."""
MAX_BODY = 2048
CHECK_MS = 60_000
"""How long Discord's word that an instance still runs is trusted before it is asked again."""
CHECKED_LIMIT = 1024
"""Instances remembered as running, at most (the oldest is forgotten first)."""
LIST_LIMIT = 8
"""A user's games listed when the channel has none, at most."""
PRIVATE = {"Cache-Control": "no-store", "Vary": "Cookie"}
DISCORD_ORIGINS = (
    "https://discord.com https://*.discord.com https://discordapp.com https://*.discordapp.com "
    "https://*.discordsays.com"
)
FRAME_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    f"frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self' {DISCORD_ORIGINS}"
)
"""An Activity page's policy: as every page's, but framed by the Activity and Discord only, and framing its own."""
STATIC = {
    "discord-sdk.js": "application/javascript",
    "activity.js": "application/javascript",
    "activity.css": "text/css",
}
"""The Activity's files (``bot/web/static/activity/``), by name: no path is ever built from a URL."""


@dataclass(frozen=True)
class Instance:
    """What Discord says of an Activity's instance: where it runs and who is in it."""

    channel_xid: int
    guild_xid: int | None
    users: frozenset[int]


InstanceLookup = Callable[[str], Awaitable[Instance | None]]
"""An instance id -> Discord's answer (None: Discord knows no such instance). It raises :class:`InstanceUnknown`
when Discord could not be asked (down, slow, another error): no session ends for that."""


class InstanceUnknown(Exception):
    """Discord could not say whether an instance runs (a network error, a timeout, an error other than 404)."""


def framed(response: web.StreamResponse) -> web.StreamResponse:
    """An Activity page's framing: Discord's origins and the Activity's own page may frame it."""
    response.headers["Content-Security-Policy"] = FRAME_CSP
    return response


class Activity:
    """The Activity's routes over the pages' server (:meth:`routes`)."""

    def __init__(self, oauth: OAuth, instance: InstanceLookup) -> None:
        self.oauth = oauth
        self.instance = instance
        self.origin = f"https://{oauth.client_id}.discordsays.com"
        """The Activity's own origin, behind Discord's proxy."""
        self.per_address = RateLimit(5.0, 30.0)
        """Sign-ins per address (behind Discord's proxy, many users may share one)."""
        self.server: Any = None
        self._running: dict[str, int] = {}
        """Instance id -> when (the sessions' clock, ms) Discord last said it runs."""
        self._files = {
            name: resources.files("bot.web").joinpath("static", "activity", name).read_bytes() for name in STATIC
        }

    def __repr__(self) -> str:
        return f"Activity(client_id={self.oauth.client_id!r})"

    @property
    def auth(self) -> Auth:
        auth: Auth = self.server.auth
        return auth

    def routes(self, server: Any) -> list[web.RouteDef]:
        """The routes, on the pages' server (:class:`bot.web.server.WebServer`), whose moves accept the
        Activity's origin too."""
        self.server = server
        server.auth.origins.add(self.origin)
        server.auth.instance_live = self.live
        game = FRAMED + r"/g/{game_id:\d{1,18}}/{token:[A-Za-z0-9_-]{1,64}}"
        return [
            web.get("/", self.page),
            web.post(TOKEN, self.token),
            web.post(PUBLIC, self.public),
            web.get(game, self.game_page),
            web.get(r"/static/activity/{name:[a-z-]{1,16}\.(?:js|css)}", self.static),
        ]

    # -- pages -------------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        locale = self.auth.ctx.locale(request)
        return framed(activity_page.shell(self.auth.ctx, self.oauth.client_id, locale))

    async def game_page(self, request: web.Request) -> web.StreamResponse:
        """The game page, as the server makes it, with its own links kept inside the Activity."""
        session = await self.auth.session(request)
        if session is not None and not await self.auth.still_bound(session):
            return framed(self.auth.refused(self.auth.ctx.locale(request), "web.activity.ended"))
        response = await self.server.game_page(request)
        if isinstance(response, web.Response) and response.status == 200 and isinstance(response.body, bytes):
            base = request.path.removeprefix(FRAMED)
            body = response.body.replace(f'href="{base}'.encode(), f'href="{FRAMED}{base}'.encode())
            response.body = SESSIONS_LINK.sub(b"", body)  # the sessions page is the site's: never framed
        return framed(response)

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in self._files:
            raise web.HTTPNotFound()
        return web.Response(
            body=self._files[name],
            content_type=STATIC[name],
            charset="utf-8",
            headers={"Cache-Control": "public, max-age=300"},
        )

    # -- the API -----------------------------------------------------------------------------------
    def refuse(self, status: int, key: str, locale: str) -> web.Response:
        return web.json_response({"error": t(key, locale)}, status=status, headers=PRIVATE)

    def from_activity(self, request: web.Request) -> bool:
        """Whether a POST comes from the Activity's own page (or the site's): its Origin is one of theirs."""
        given = request.headers.get("Origin", "").strip().lower()
        if given and hmac.compare_digest(given.encode(), self.origin.encode()):
            return True
        return self.auth.same_origin(request)

    async def _asked(self, request: web.Request, locale: str) -> dict[str, Any] | web.Response:
        """The request's JSON object, once its origin and this address's pace are checked (else the refusal)."""
        if not self.from_activity(request):
            return self.refuse(403, "web.play.cross_site", locale)
        if not self.per_address.allow(self.server.address(request)):
            response = self.refuse(429, "web.busy.text", locale)
            response.headers["Retry-After"] = "1"
            return response
        body: Any = None
        if request.content_length is None or request.content_length <= MAX_BODY:
            try:
                body = json.loads(await request.read())
            except (ValueError, UnicodeDecodeError):
                body = None
        instance = body.get("instance_id") if isinstance(body, dict) else None
        if not isinstance(instance, str) or not INSTANCE.fullmatch(instance):
            return self.refuse(422, "web.play.bad_request", locale)
        assert isinstance(body, dict)
        return body

    async def token(self, request: web.Request) -> web.StreamResponse:
        """The code of the SDK's ``authorize``: a session bound to the instance, and the game to open."""
        locale = self.auth.ctx.locale(request)
        sessions = self.auth.sessions
        asked = await self._asked(request, locale)
        if isinstance(asked, web.Response):
            return asked
        code = asked.get("code")
        if sessions is None or not isinstance(code, str) or not CODE.fullmatch(code):
            return self.refuse(422, "web.play.bad_request", locale)
        found = await self.oauth.exchange(code, verifier=None, redirect_uri=None)
        if found is None:
            return self.refuse(403, "web.activity.code_refused", locale)
        user_xid, access_token = found
        try:
            instance = await self.instance(asked["instance_id"])
        except InstanceUnknown:
            return self.refuse(503, "web.activity.failed", locale)
        if instance is None or user_xid not in instance.users:
            log.info("activity: user not in the instance it named (or Discord knows no such instance)")
            return self.refuse(403, "web.activity.not_here", locale)
        self._seen(asked["instance_id"], sessions.now)
        before = await self.auth.session(request)
        if before is not None and before.user_xid == user_xid and before.instance_id is None:
            await sessions.end(user_xid, before.id_hash)  # this frame's session from before sessions were bound
        for other in {row.instance_id for row in await sessions.listed(user_xid)} - {None, asked["instance_id"]}:
            assert other is not None
            await self.live(other)  # the user's sessions of instances that have ended end now
        # The user's earlier session of this instance (the same frame signing in again) is replaced.
        raw = await sessions.start_activity(user_xid, asked["instance_id"])
        answer: dict[str, Any] = {"access_token": access_token, "user": {"id": str(user_xid)}}
        answer.update(await self._where(instance, user_xid, locale))
        response = web.json_response(answer, headers=PRIVATE)
        # Written out: Python's cookie morsels (before 3.14) know no ``Partitioned``; the id is base64url.
        response.headers.add("Set-Cookie", f"{COOKIE}={raw}; Path=/; HttpOnly; Secure; SameSite=None; Partitioned")
        return response

    # -- the instance's life -------------------------------------------------------------------------
    def _seen(self, instance_id: str, now: int) -> None:
        self._running.pop(instance_id, None)
        self._running[instance_id] = now
        while len(self._running) > CHECKED_LIMIT:
            del self._running[next(iter(self._running))]

    async def live(self, instance_id: str) -> bool:
        """Whether Discord still knows an instance (asked at most once every :data:`CHECK_MS`); when it does
        not, every session bound to it ends."""
        sessions = self.auth.sessions
        if sessions is None:
            return False
        now = sessions.now
        seen = self._running.get(instance_id)
        if seen is not None and 0 <= now - seen < CHECK_MS:
            return True
        try:
            found = await self.instance(instance_id)
        except InstanceUnknown:
            return True  # Discord could not be asked: the session stays (its 12 hours still bound it)
        if found is not None:
            self._seen(instance_id, now)
            return True
        self._running.pop(instance_id, None)
        ended = await sessions.end_instance(instance_id)
        log.info("activity: an instance has ended; %d session(s) of it ended", ended)
        return False

    async def public(self, request: web.Request) -> web.StreamResponse:
        """Consent refused: the public board of the instance's channel, and no session."""
        locale = self.auth.ctx.locale(request)
        asked = await self._asked(request, locale)
        if isinstance(asked, web.Response):
            return asked
        try:
            instance = await self.instance(asked["instance_id"])
        except InstanceUnknown:
            return self.refuse(503, "web.activity.failed", locale)
        if instance is None:
            return self.refuse(403, "web.activity.not_here", locale)
        where = await self._where(instance, None, locale)
        return web.json_response({"game": where.get("game")}, headers=PRIVATE)

    async def _where(self, instance: Instance, user_xid: int | None, locale: str) -> dict[str, Any]:
        """``{"game": url}``: the live game of the instance's channel; else ``{"games": [...]}``, the user's."""
        service = self.auth.ctx.service
        try:
            info: GameInfo | None = await service.game_in_channel(instance.channel_xid)
        except errors.GameError:
            info = None
        if info is not None and info.game.status != "lobby":
            return {"game": self.url(info.id, locale)}
        if user_xid is None:
            return {}
        listed = []
        for row in await service.games_of(user_xid, limit=LIST_LIMIT):
            title = t("web.game.title", locale, game=t(games.get(row.kind).title_key, locale), id=row.id)
            listed.append({"title": title, "url": self.url(row.id, locale)})
        return {"games": listed}

    def url(self, game_id: int, locale: str) -> str:
        """A game's page in the Activity, relative to the Activity's root."""
        return f"{FRAMED}{path_game(self.auth.ctx.secret, game_id)}?lang={locale}".lstrip("/")
