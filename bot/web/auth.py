"""Who is signed in on the web pages (issue 38): the session cookie, the CSRF guard, the sign-in link's door
and the page that lists a user's sessions (revoke one, sign out, sign out everywhere).

The cookie (:data:`COOKIE`) holds a random id (the store keeps its hash, :mod:`bot.community.sessions`):
HttpOnly, ``SameSite=Lax``, ``Secure`` when ``WEB_BASE_URL`` is https, 30 days. A state-changing request
(a POST) must come from the site itself: its ``Origin`` equals ``WEB_BASE_URL``'s origin (the page's own host
when it is unset, as under ``local --web``), and, once signed in, it carries the session's CSRF token (an
HMAC of the session's hash under the links' key: nothing more is stored). A sign-in link (``/signin/<token>``)
shows a button first and is used by its POST, so a link preview that fetches it does not spend it.
"""

from __future__ import annotations

import hmac
import html
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from babel.dates import format_datetime

from bot.community.sessions import SESSION_DAYS, SessionRow, Sessions
from bot.i18n import t
from bot.web.context import WebContext
from bot.web.links import path_game, token

COOKIE = "cb_session"
"""The session cookie's name."""
CSRF_KIND = "csrf"
SESSION_SECONDS = SESSION_DAYS * 24 * 3600
SIGNIN = r"/signin/{token:[A-Za-z0-9_-]{20,64}}"
SESSIONS = "/sessions"
SESSION_KEY: web.RequestKey[SessionRow | None] = web.RequestKey("session", SessionRow)
"""The request's session, looked up once per request."""


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of an address (lower case), or '' when it has none."""
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""


def see_other(location: str) -> web.Response:
    """A redirect after a POST (303), never kept by a cache."""
    return web.Response(status=303, headers={"Location": location, "Cache-Control": "no-store"})


class Auth:
    """The session of a request, and the routes of signing in and out."""

    def __init__(self, ctx: WebContext, sessions: Sessions | None) -> None:
        self.ctx = ctx
        self.sessions = sessions
        """None where the pages have no sessions (then everyone is signed out)."""
        self.signin_button: Callable[[str], str] | None = None
        """"Sign in with Discord" on the sessions page (set by :mod:`bot.web.oauth` when it is configured)."""
        self.origins: set[str] = set()
        """Other origins whose POSTs are the site's own: the Activity's, behind Discord's proxy (issue 39)."""
        self.instance_live: Callable[[str], Awaitable[bool]] | None = None
        """Whether an Activity's instance still runs (set by :mod:`bot.web.activity`; it ends the instance's
        sessions when Discord no longer knows it)."""

    # -- the cookie --------------------------------------------------------------------------------
    @property
    def secure(self) -> bool:
        return self.ctx.links.base_url.lower().startswith("https://")

    def set_cookie(self, response: web.StreamResponse, raw_id: str) -> None:
        response.set_cookie(
            COOKIE, raw_id, max_age=SESSION_SECONDS, path="/", httponly=True, secure=self.secure, samesite="Lax"
        )

    def clear_cookie(self, response: web.StreamResponse) -> None:
        response.del_cookie(COOKIE, path="/")

    async def session(self, request: web.Request) -> SessionRow | None:
        """The request's live session, or None (no cookie, an unknown, ended or expired one)."""
        if self.sessions is None:
            return None
        if SESSION_KEY in request:
            return request[SESSION_KEY]
        raw = request.cookies.get(COOKIE, "")
        found = await self.sessions.find(raw) if raw.isascii() else None
        request[SESSION_KEY] = found
        return found

    async def still_bound(self, session: SessionRow) -> bool:
        """Whether a session may still be used: always, unless it is bound to an Activity's instance that
        Discord no longer knows (then every session of that instance has just ended)."""
        if session.instance_id is None or self.instance_live is None:
            return True
        return await self.instance_live(session.instance_id)

    # -- CSRF --------------------------------------------------------------------------------------
    def csrf(self, session: SessionRow) -> str:
        """The session's CSRF token (an HMAC of its hash; the same for the session's life)."""
        return token(self.ctx.secret, CSRF_KIND, session.id_hash)

    def same_origin(self, request: web.Request) -> bool:
        """Whether a POST comes from the site: its Origin is ``WEB_BASE_URL``'s (or, without it, this host's).
        The pages' ``Referrer-Policy: no-referrer`` makes a browser send ``Origin: null`` on a same-origin POST;
        then the browser's own ``Sec-Fetch-Site: same-origin`` (which no script can set) must say so."""
        given = request.headers.get("Origin", "").strip().lower()
        expected = origin_of(self.ctx.links.base_url) or f"{request.scheme}://{request.host}".lower()
        if given == "null":
            return request.headers.get("Sec-Fetch-Site", "") == "same-origin"
        if given in self.origins:
            return True
        return bool(given) and hmac.compare_digest(given.encode(), expected.encode())

    def csrf_ok(self, session: SessionRow, given: str) -> bool:
        return bool(given) and given.isascii() and hmac.compare_digest(self.csrf(session).encode(), given.encode())

    # -- routes ------------------------------------------------------------------------------------
    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(SIGNIN, self.signin_page),
            web.post(SIGNIN, self.signin),
            web.get(SESSIONS, self.sessions_page),
            web.post(SESSIONS, self.sessions_post),
        ]

    def _page(self, locale: str, title: str, inner: str, status: int = 200) -> web.Response:
        response = self.ctx.page(title, f"<main><h1>{html.escape(title)}</h1>{inner}</main>", locale, status=status)
        response.headers["Vary"] = "Cookie"
        return response

    def refused(self, locale: str, key: str, status: int = 403) -> web.Response:
        return self._page(locale, t("web.signin.title", locale), f"<p>{html.escape(t(key, locale))}</p>", status)

    async def signin_page(self, request: web.Request) -> web.StreamResponse:
        """A sign-in link: a button that uses it (nothing is spent by a GET)."""
        locale = self.ctx.locale(request)
        if self.sessions is None:
            return self.ctx.not_found(locale)
        action = request.path + (f"?lang={locale}" if "lang" in request.query else "")
        form = (
            f'<form method="post" action="{html.escape(action)}">'
            f"<p>{html.escape(t('web.signin.link_text', locale))}</p>"
            f'<button type="submit">{html.escape(t("web.signin.continue", locale))}</button></form>'
        )
        return self._page(locale, t("web.signin.title", locale), form)

    async def signin(self, request: web.Request) -> web.StreamResponse:
        """The link used once: a session, the cookie, and the game it opens (else the sessions page)."""
        locale = self.ctx.locale(request)
        if self.sessions is None:
            return self.ctx.not_found(locale)
        if not self.same_origin(request):
            return self.refused(locale, "web.play.cross_site")
        # Pages without a public address hand out links only to the terminal (``local --web``).
        made = await self.sessions.use_link(request.match_info["token"], "link" if self.ctx.links.base_url else "local")
        if made is None:
            return self.refused(locale, "web.signin.bad_link", 410)
        raw, _, game_id = made
        target = path_game(self.ctx.secret, game_id) if game_id is not None else SESSIONS
        response = see_other(target + (f"?lang={locale}" if "lang" in request.query else ""))
        self.set_cookie(response, raw)
        return response

    async def sessions_page(self, request: web.Request) -> web.StreamResponse:
        """The user's sessions, each with its end button; sign out and sign out everywhere."""
        locale = self.ctx.locale(request)
        session = await self.session(request)
        if session is None or self.sessions is None:
            button = self.signin_button(locale) if self.signin_button is not None else ""
            return self._page(
                locale,
                t("web.sessions.title", locale),
                f"<p>{html.escape(t('web.sessions.signed_out', locale))}</p>{button}",
            )
        rows = await self.sessions.listed(session.user_xid)
        csrf = html.escape(self.csrf(session))
        items = []
        for row in rows:
            when = format_datetime(row.created_at / 1000, "medium", locale=locale)
            text = t("web.sessions.row", locale, when=when, how=t(f"web.sessions.how.{row.how}", locale))
            if row.id_hash == session.id_hash:
                text += " " + t("web.sessions.this", locale)
            end = self._button(csrf, "end:" + row.id_hash, "web.sessions.end", locale)
            items.append(f"<li>{html.escape(text)} {end}</li>")
        inner = (
            f'<p>{html.escape(t("web.sessions.intro", locale))}</p><ul class="sessions">{"".join(items)}</ul>'
            f"{self._button(csrf, 'out', 'web.sessions.sign_out', locale)}"
            f"{self._button(csrf, 'all', 'web.sessions.sign_out_all', locale)}"
        )
        return self._page(locale, t("web.sessions.title", locale), inner)

    @staticmethod
    def _button(csrf: str, action: str, key: str, locale: str) -> str:
        return (
            f'<form method="post" action="{SESSIONS}" class="inline"><input type="hidden" name="csrf" '
            f'value="{csrf}"><input type="hidden" name="do" value="{html.escape(action)}">'
            f'<button type="submit">{html.escape(t(key, locale))}</button></form>'
        )

    async def sessions_post(self, request: web.Request) -> web.StreamResponse:
        """End one session of the user, this one (sign out) or all of them (sign out everywhere)."""
        locale = self.ctx.locale(request)
        session = await self.session(request)
        if session is None or self.sessions is None:
            return self.refused(locale, "web.play.signed_out")
        if not self.same_origin(request):
            return self.refused(locale, "web.play.cross_site")
        form: Any = await request.post()
        if not self.csrf_ok(session, str(form.get("csrf", ""))[:64]):
            return self.refused(locale, "web.play.csrf")
        action = str(form.get("do", ""))[:80]
        if action == "out":
            await self.sessions.end(session.user_xid, session.id_hash)
        elif action == "all":
            await self.sessions.end_all(session.user_xid)
        elif action.startswith("end:") and len(action) == 68:
            await self.sessions.end(session.user_xid, action[4:])
        else:
            return self.refused(locale, "web.play.bad_request", 422)
        response = see_other(SESSIONS)
        if await self.sessions.find(request.cookies.get(COOKIE, "")) is None:
            self.clear_cookie(response)
        return response
