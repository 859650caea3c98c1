""" "Sign in with Discord" (issue 38): OAuth2's authorization code with PKCE and ``state``, scope ``identify``, for a
browser that comes to the site on its own. Only with ``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET`` and
``WEB_BASE_URL`` (the redirect address to register in the Developer Portal is ``WEB_BASE_URL`` +
:data:`DONE`); without them no button is shown and its routes do not exist.

``GET /signin/discord`` keeps a new state and its PKCE verifier (hashed state, :mod:`bot.store.sessions`), puts
the state in a short cookie of this browser, and sends the browser to Discord's consent. Discord sends it back
to :data:`DONE` with a code (or an error when the user said no): the state must be this browser's cookie and
one the bot keeps (used up), then the code and the verifier buy an access token, which reads the user once
(``/users/@me``) and is dropped; the session is the bot's own. The client secret and the token are never
logged; a failure logs its HTTP status only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import logging
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.i18n import t
from bot.web.auth import Auth, see_other
from bot.web.context import WebContext

log = logging.getLogger(__name__)

AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
API_URL = "https://discord.com/api/v10"
START = "/signin/discord"
DONE = "/signin/discord/done"
STATE_COOKIE = "cb_oauth"
TIMEOUT_SECONDS = 10.0


def challenge(verifier: str) -> str:
    """PKCE's S256 code challenge of a verifier."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


class OAuth:
    """The two routes of "Sign in with Discord" and its button."""

    def __init__(
        self, client_id: str, client_secret: str, *, authorize_url: str = AUTHORIZE_URL, api_url: str = API_URL
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self.authorize_url = authorize_url
        self.api_url = api_url.rstrip("/")
        self.auth: Auth | None = None

    def __repr__(self) -> str:  # the secret never shows, not even in a traceback's locals
        return f"OAuth(client_id={self.client_id!r})"

    def routes(self, ctx: WebContext, auth: Auth) -> list[web.RouteDef]:
        """Its routes (none without ``WEB_BASE_URL`` or sessions); the sessions page then shows the button."""
        if not ctx.links.base_url or auth.sessions is None:
            return []
        self.auth = auth
        auth.signin_button = self.button
        return [web.get(START, self.start), web.get(DONE, self.done)]

    def button(self, locale: str) -> str:
        return (
            f'<p><a class="button" href="{START}?lang={html.escape(locale)}">'
            f"{html.escape(t('web.signin.discord', locale))}</a></p>"
        )

    @property
    def redirect_uri(self) -> str:
        assert self.auth is not None
        return self.auth.ctx.links.base_url + DONE

    async def start(self, request: web.Request) -> web.StreamResponse:
        assert self.auth is not None and self.auth.sessions is not None
        state, verifier = await self.auth.sessions.new_state()
        query = urlencode(
            {
                "response_type": "code",
                "client_id": self.client_id,
                "scope": "identify",
                "state": state,
                "redirect_uri": self.redirect_uri,
                "prompt": "consent",
                "code_challenge": challenge(verifier),
                "code_challenge_method": "S256",
            }
        )
        response = web.Response(
            status=302, headers={"Location": f"{self.authorize_url}?{query}", "Cache-Control": "no-store"}
        )
        response.set_cookie(
            STATE_COOKIE, state, max_age=600, path=START, httponly=True, secure=self.auth.secure, samesite="Lax"
        )
        return response

    async def done(self, request: web.Request) -> web.StreamResponse:
        """Back from Discord: a session for the user it names, or one sentence (and no session)."""
        assert self.auth is not None and self.auth.sessions is not None
        locale = self.auth.ctx.locale(request)
        state = request.query.get("state", "")[:64]
        kept = request.cookies.get(STATE_COOKIE, "")
        if "error" in request.query or "code" not in request.query:
            return self._refused(locale, "web.signin.denied")  # the user said no: nothing is written
        if not state or not kept or not hmac.compare_digest(state.encode(), kept.encode()):
            return self._refused(locale, "web.signin.failed")
        verifier = await self.auth.sessions.take_state(state)
        if verifier is None:
            return self._refused(locale, "web.signin.failed")
        user_xid = await self._user(request.query["code"][:512], verifier)
        if user_xid is None:
            return self._refused(locale, "web.signin.failed")
        raw = await self.auth.sessions.start(user_xid, "discord")
        response = see_other(f"/sessions?lang={locale}")
        response.del_cookie(STATE_COOKIE, path=START)
        self.auth.set_cookie(response, raw)
        return response

    def _refused(self, locale: str, key: str) -> web.Response:
        assert self.auth is not None
        response = self.auth.refused(locale, key)
        response.del_cookie(STATE_COOKIE, path=START)
        return response

    async def _user(self, code: str, verifier: str) -> int | None:
        """The Discord user of a code: its access token read ``/users/@me`` once, then it is dropped."""
        found = await self.exchange(code, verifier=verifier, redirect_uri=self.redirect_uri)
        return None if found is None else found[0]

    async def exchange(self, code: str, *, verifier: str | None, redirect_uri: str | None) -> tuple[int, str] | None:
        """A code bought at Discord's token endpoint, then ``/users/@me`` read once with its access token:
        (the user's id, the access token), or None. "Sign in with Discord" drops the token at once; the
        Activity (:mod:`bot.web.activity`, whose code comes from the SDK's ``authorize``, without a redirect
        or PKCE) hands it back to its page alone, for the SDK's ``authenticate``. Neither is logged."""
        form = {"grant_type": "authorization_code", "code": code}
        if redirect_uri is not None:
            form["redirect_uri"] = redirect_uri
        if verifier is not None:
            form["code_verifier"] = verifier
        form.update({"client_id": self.client_id, "client_secret": self._secret})
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
        try:
            async with aiohttp.ClientSession(timeout=timeout) as client:
                async with client.post(f"{self.api_url}/oauth2/token", data=form) as r:
                    if r.status != 200:
                        log.info("sign in with Discord: the token request answered %s", r.status)
                        return None
                    token: Any = (await r.json()).get("access_token")
                if not isinstance(token, str) or not token:
                    return None
                async with client.get(f"{self.api_url}/users/@me", headers={"Authorization": f"Bearer {token}"}) as r:
                    if r.status != 200:
                        log.info("sign in with Discord: /users/@me answered %s", r.status)
                        return None
                    user: Any = await r.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.info("sign in with Discord: Discord could not be asked (%s)", type(exc).__name__)
            return None
        ident = user.get("id") if isinstance(user, dict) else None
        if not (isinstance(ident, str) and ident.isdigit() and len(ident) <= 20):
            return None
        return int(ident), token
