"""The signed-in seat's own board and the one web door into a move (issue 38): ``{base}/play.png`` (the seat's
picture), ``{base}/play.json`` (the version, the seat, the session's CSRF token and, when the seat may move now,
the regions and choices of :func:`bot.web.board.play_data`) and ``POST {base}/move``.

A move from the page goes where a Discord click goes: :meth:`bot.service.Service.move` with the version the page
saw (a stale one: 409), then the composition root's turn flow (:meth:`bot.turnflow.TurnFlow.after_move`, with
the front-end's announcer: the channel gets the same post as after a click, and the old controls go stale).
Before it: the Origin check and the session's CSRF token (a Discord Activity's session: its instance still
running, :meth:`bot.web.auth.Auth.still_bound`), the per-user and per-address limits, the game and the
seat of the session's user, and the move among the seat's legal moves now (else 422). An idempotency key per
session makes a retried request count once: the same key and the same request answer the first outcome again;
the same key for another request is refused. A refusal is one sentence in the page's language and changes
nothing. Every answer here is ``no-store`` and ``Vary: Cookie``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot import errors
from bot.community.sessions import MoveRecord, SessionRow
from bot.i18n import t
from bot.service import GameInfo
from bot.web import board
from bot.web.auth import Auth
from bot.web.watch import RateLimit

log = logging.getLogger(__name__)

MOVES_PER_SECOND = 2.0
MOVES_BURST = 10.0
"""A player's moves (per user, and per address) at most: a steady 2 a second, 10 at once."""
MAX_BODY = 8192
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
PRIVATE = {"Cache-Control": "no-store", "Vary": "Cookie"}

Board = Callable[[GameInfo, int, Any, str], Any]


def canonical(value: Any) -> Any:
    """A move as JSON would carry it (tuples become lists), to compare with the legal moves."""
    return json.loads(json.dumps(value, sort_keys=True))


class MoveDoor:
    """The routes under a game's path for its signed-in seat."""

    def __init__(
        self,
        auth: Auth,
        game: Callable[[web.Request], Awaitable[GameInfo | None]],
        flow: Callable[[], Any],
        address: Callable[[web.Request], str],
    ) -> None:
        self.auth = auth
        self.address = address
        """The client's address (behind ``TRUSTED_PROXIES``: the one the proxy names), for the per-address limit."""
        self.ctx = auth.ctx
        self._game = game
        self._flow = flow
        self.per_user = RateLimit(MOVES_PER_SECOND, MOVES_BURST)
        self.per_address = RateLimit(MOVES_PER_SECOND * 4, MOVES_BURST * 4)
        self.picture: Board | None = board.play_picture
        self.data: Board | None = board.play_data
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    def routes(self, game: str) -> list[web.RouteDef]:
        return [
            web.get(game + "/play.png", self.play_png),
            web.get(game + "/play.json", self.play_json),
            web.post(game + "/move", self.move),
        ]

    async def seat_of(self, request: web.Request) -> tuple[GameInfo, SessionRow, int] | None:
        """(game, session, seat) when the request's signed-in user holds a seat in the linked game."""
        info = await self._game(request)
        session = await self.auth.session(request)
        if info is None or session is None:
            return None
        seat = info.seat_of(session.user_xid)
        return None if seat is None else (info, session, seat.seat)

    # -- the seat's own board ----------------------------------------------------------------------
    async def play_png(self, request: web.Request) -> web.StreamResponse:
        found = await self.seat_of(request)
        if found is None or self.picture is None:
            raise web.HTTPNotFound()
        info, session, seat = found
        _, _, _, snap = await self.ctx.service.private_choices(info.id, session.user_xid)
        locale = self.ctx.locale(request, info.game.locale)
        png = await asyncio.to_thread(self.picture, snap.info, seat, snap.state, locale)
        return web.Response(body=png, content_type="image/png", headers=PRIVATE)

    async def play_json(self, request: web.Request) -> web.StreamResponse:
        found = await self.seat_of(request)
        if found is None:
            raise web.HTTPNotFound()
        info, session, seat = found
        _, moves, _, snap = await self.ctx.service.private_choices(info.id, session.user_xid)
        answer: dict[str, Any] = {"version": snap.version, "seat": seat, "csrf": self.auth.csrf(session)}
        if moves and self.data is not None:
            locale = self.ctx.locale(request, info.game.locale)
            answer["play"] = await asyncio.to_thread(self.data, snap.info, seat, snap.state, locale)
        return web.json_response(answer, headers=PRIVATE)

    # -- the move ----------------------------------------------------------------------------------
    def refuse(self, status: int, key: str, locale: str, **params: Any) -> web.Response:
        return web.json_response({"error": t(key, locale, **params)}, status=status, headers=PRIVATE)

    async def move(self, request: web.Request) -> web.StreamResponse:
        """``POST {base}/move`` ``{"version", "move", "key"}`` with ``X-CSRF-Token``."""
        info = await self._game(request)
        locale = self.ctx.locale(request, info.game.locale if info is not None else "en")
        if info is None:
            return self.refuse(404, "web.not_found.text", locale)
        if not self.auth.same_origin(request):
            return self.refuse(403, "web.play.cross_site", locale)
        session = await self.auth.session(request)
        if session is None:
            return self.refuse(403, "web.play.signed_out", locale)
        if not self.auth.csrf_ok(session, request.headers.get("X-CSRF-Token", "")[:64]):
            return self.refuse(403, "web.play.csrf", locale)
        if not await self.auth.still_bound(session):  # an Activity's session whose instance has ended
            return self.refuse(403, "web.activity.ended", locale)
        if not self.per_user.allow(str(session.user_xid)) or not self.per_address.allow(self.address(request)):
            response = self.refuse(429, "web.busy.text", locale)
            response.headers["Retry-After"] = "1"
            return response
        asked = await self._body(request)
        if asked is None:
            return self.refuse(422, "web.play.bad_request", locale)
        version, move, key = asked
        seat = info.seat_of(session.user_xid)
        if seat is None:
            return self.refuse(403, "web.play.not_seat", locale)
        digest = hashlib.sha256(json.dumps([info.id, version, move], sort_keys=True).encode()).hexdigest()
        lock = self._locks.setdefault((session.id_hash, key), asyncio.Lock())
        try:
            async with lock:  # a double tap: the second waits for the first, then answers its outcome
                return await self._play(info, session, seat.seat, version, move, key, digest, locale)
        finally:
            if not lock.locked() and self._locks.get((session.id_hash, key)) is lock:
                del self._locks[(session.id_hash, key)]

    async def _body(self, request: web.Request) -> tuple[int, dict[str, Any], str] | None:
        """(version, move, key) of a well-formed request, else None."""
        if request.content_length is not None and request.content_length > MAX_BODY:
            return None
        try:
            body = json.loads((await request.read())[: MAX_BODY + 1])
        except (ValueError, UnicodeDecodeError):
            return None
        if not isinstance(body, dict):
            return None
        version, move, key = body.get("version"), body.get("move"), body.get("key")
        if (
            not isinstance(version, int)
            or isinstance(version, bool)
            or not isinstance(move, dict)
            or not isinstance(key, str)
            or not KEY.fullmatch(key)
        ):
            return None
        return version, move, key

    async def _play(
        self,
        info: GameInfo,
        session: SessionRow,
        seat: int,
        version: int,
        move: dict[str, Any],
        key: str,
        digest: str,
        locale: str,
    ) -> web.Response:
        sessions = self.auth.sessions
        assert sessions is not None  # a session was found
        done = await sessions.move_record(session, key)
        if done is not None:
            if done.digest != digest:
                return self.refuse(422, "web.play.key_reused", locale)
            return web.json_response({"ok": True, "version": done.version}, headers=PRIVATE)
        try:
            _, _, legal = await self.ctx.service.legal_moves(info.id, session.user_xid)
            if version != (await self.ctx.service.info(info.id)).game.version:
                raise errors.StaleAction()
            if not legal:
                raise errors.NotYourTurn()
            if canonical(move) not in [canonical(m) for m in legal]:
                raise errors.IllegalMove()
            outcome = await self.ctx.service.move(info.id, session.user_xid, move, expected_version=version)
        except errors.StaleAction:
            return self.refuse(409, "web.play.stale", locale)
        except errors.NotYourTurn:
            return self.refuse(409, "web.play.not_your_turn", locale)
        except errors.IllegalMove:
            return self.refuse(422, "web.play.illegal", locale)
        except errors.GameError as exc:
            return self.refuse(422, exc.key, locale, **exc.params)
        await sessions.record_move(session, key, MoveRecord(digest, outcome.version))
        flow = self._flow()
        if flow is not None:
            problem = await flow.after_move(outcome, None)
            if problem is not None:
                log.info("web: game %s move %s told with a problem: %s", info.id, outcome.version, problem)
        return web.json_response({"ok": True, "version": outcome.version}, headers=PRIVATE)
