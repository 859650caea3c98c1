"""The fake Discord's OAuth2 (issue 38): the consent page's redirect (``GET /oauth2/authorize``), the token
exchange (``POST /api/v10/oauth2/token``, authorization code with PKCE) and ``GET /api/v10/users/@me`` with
a Bearer token (a bot token's ``/users/@me`` goes on to the REST router as before).

Checked against the vendored OpenAPI description where it says something: it describes ``GET /users/@me``
(security ``OAuth2`` scope ``identify``; the answer a ``UserPIIResponse``), and the answer given here is
validated against that schema. It describes neither ``/oauth2/authorize`` (a web page, not the API) nor
``/oauth2/token`` (a form-encoded body): those are checked against Discord's OAuth2 documentation by hand
(response_type ``code``, the client id, the registered redirect, scope ``identify``, S256 challenge; the
token request's grant type, client secret, redirect and verifier).

``consent``: the user name who consents at the next authorize (None: the user refuses, ``access_denied``).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlencode

from aiohttp import web

from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord import schema as S


class Users(Protocol):
    """What the OAuth2 routes read of the fake (:class:`bot.testing.fakediscord.server.FakeDiscord`)."""

    def user(self, ref: Any) -> P.FakeUser: ...


def me_problems(body: Any) -> list[str]:
    """What the OpenAPI description finds wrong in an answer to ``GET /users/@me``."""
    operation = S.spec()["paths"]["/users/@me"]["get"]
    schema = operation["responses"]["200"]["content"][S.JSON_CONTENT]["schema"]
    validator = S.DiscordValidator(S._compiler().node(schema), registry=S._registry())
    return [error.message for error in validator.iter_errors(S.normalise(body))]


@dataclass
class Grant:
    user_id: int
    redirect_uri: str | None
    """None: a code of the Embedded App SDK's ``authorize`` (an Activity, issue 39), which has no redirect."""
    challenge: str | None
    """None: no PKCE (an Activity's code)."""


@dataclass
class FakeOAuth:
    fake: Users
    client_id: str = "112233445566778899"
    client_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    redirect_uris: set[str] = field(default_factory=set)
    consent: str | None = "alice"
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    """Why each refused request was refused (a test reads it)."""

    def add_routes(
        self, app: web.Application, api_handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> None:
        self._api = api_handler
        app.router.add_route("GET", "/oauth2/authorize", self.authorize)
        app.router.add_route("POST", "/api/v{version}/oauth2/token", self.token)
        app.router.add_route("GET", "/api/v{version}/{tail:users/@me}", self.me)  # "tail": the router's too

    def _bad(self, why: str, status: int = 400, error: str = "invalid_request") -> web.Response:
        self.refused.append(why)
        return web.json_response({"error": error, "error_description": why}, status=status)

    async def authorize(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        if q.get("client_id") != self.client_id:
            return self._bad("unknown client_id")
        if q.get("redirect_uri") not in self.redirect_uris:
            return self._bad("redirect_uri not registered")
        if q.get("response_type") != "code" or "identify" not in q.get("scope", "").split():
            return self._bad("response_type code and scope identify expected")
        if q.get("code_challenge_method") != "S256" or len(q.get("code_challenge", "")) != 43:
            return self._bad("a PKCE S256 code_challenge expected")
        back = {"state": q["state"]} if "state" in q else {}
        if self.consent is None:
            back = {"error": "access_denied", "error_description": "The resource owner denied the request", **back}
        else:
            code = secrets.token_urlsafe(16)
            self.codes[code] = Grant(int(self.fake.user(self.consent).id), q["redirect_uri"], q["code_challenge"])
            back = {"code": code, **back}
        return web.Response(status=302, headers={"Location": f"{q['redirect_uri']}?{urlencode(back)}"})

    def activity_code(self, user: Any, client_id: str) -> str | None:
        """The code the Discord client gives an Activity's ``authorize`` (scope ``identify``) for a user who
        consents (None: an unknown client id, refused as Discord would). Bought without a redirect or a
        verifier, once."""
        if client_id != self.client_id:
            self.refused.append("unknown client_id")
            return None
        code = secrets.token_urlsafe(16)
        self.codes[code] = Grant(int(self.fake.user(user).id), None, None)
        return code

    async def token(self, request: web.Request) -> web.StreamResponse:
        if request.content_type != "application/x-www-form-urlencoded":
            return self._bad("a form body expected")
        form = await request.post()
        if form.get("client_id") != self.client_id or form.get("client_secret") != self.client_secret:
            return self._bad("invalid client", 401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return self._bad("grant_type authorization_code expected", error="unsupported_grant_type")
        grant = self.codes.pop(str(form.get("code", "")), None)
        if grant is None or form.get("redirect_uri") != grant.redirect_uri:
            return self._bad("invalid code or redirect_uri", error="invalid_grant")
        verifier = str(form.get("code_verifier", ""))
        made = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        if grant.challenge is not None and made != grant.challenge:
            return self._bad("code_verifier does not match", error="invalid_grant")
        if grant.challenge is None and "code_verifier" in form:
            return self._bad("a code_verifier for a code without a challenge", error="invalid_grant")
        access = secrets.token_urlsafe(24)
        self.tokens[access] = grant.user_id
        return web.json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    async def me(self, request: web.Request) -> web.StreamResponse:
        given = request.headers.get("Authorization", "")
        if not given.startswith("Bearer "):
            return await self._api(request)  # the bot's own /users/@me
        user_id = self.tokens.get(given.removeprefix("Bearer "))
        if user_id is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        body = {**P.user_payload(self.fake.user(user_id)), "mfa_enabled": False, "locale": "en-US"}
        problems = me_problems(body)
        assert not problems, problems  # the fake answers what Discord's description allows
        return web.json_response(body)
