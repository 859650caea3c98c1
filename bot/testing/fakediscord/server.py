"""A fake Discord on 127.0.0.1: REST (``/api/v10``), gateway websocket (``/gateway``) and a control
surface for tests.

Usage (see README.md)::

    async with FakeDiscord() as fake:
        ...                                   # point a bot at fake.api_url / fake.gateway_url
        await fake.gateway.wait_ready()       # whole-process: the bot identified
        h = await fake.slash("ping", user="alice")
        sent = await h.response()             # the interaction callback, decoded
        assert sent.pngs

Every REST request is recorded (:class:`RecordedRequest`); unknown routes answer a recorded JSON
404. What the bot *sent* (callbacks, follow-ups, edits, channel messages) is also kept as
:class:`Sent` entries, linked to the interaction they answer.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import re
import secrets
import socket
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from aiohttp import WSMsgType, web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from bot.testing.fakediscord import limits as L
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord import schema as S
from bot.testing.fakediscord.activity import CB_LAUNCH_ACTIVITY, FakeActivities
from bot.testing.fakediscord.oauth import FakeOAuth
from bot.testing.fakediscord.payloads import (
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    PayloadError,
    World,
)

log = logging.getLogger("fakediscord")

HOST = "127.0.0.1"
DEFAULT_TIMEOUT = 5.0
READY_TIMEOUT = 20.0
HEARTBEAT_INTERVAL_MS = 30_000
MAX_REQUEST_BYTES = 300 * 1024 * 1024  # above Discord's own, so the fake can refuse as Discord does
STRICT_ENV = "FAKE_DISCORD_STRICT"
REFUSALS_LOG_ENV = "FAKE_DISCORD_REFUSALS_LOG"  # a file: every 400 refusal of a body, one JSON line each
MAX_SESSION_EVENTS = 1000
JSON_TYPE = "application/json"

UserRef = FakeUser | str | int
ChannelRef = FakeChannel | str | int
Match = str | Callable[["RecordedRequest"], bool]
T = TypeVar("T")


class FakeDiscordTimeout(AssertionError):
    """A wait on the fake ran out of time (an assertion failure in the test)."""


def invalid_form(problems: Mapping[str, str] | Sequence[S.Problem]) -> ApiError:
    """400 Invalid Form Body (50035) with Discord's nested ``errors`` for ``problems`` (a list of
    :class:`~bot.testing.fakediscord.schema.Problem`, or dotted field -> message)."""
    if isinstance(problems, Mapping):
        problems = [
            S.Problem(tuple(int(k) if k.isdigit() else k for k in key.split(".") if k != "_"), "INVALID", message)
            for key, message in problems.items()
        ]
    return ApiError(400, 50035, "Invalid Form Body", {"errors": S.form_errors(problems)}, problems=problems)


class ApiError(Exception):
    """A Discord-style error response raised inside a route handler."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        extra: Mapping[str, Any] | None = None,
        problems: Sequence[S.Problem] = (),
    ):
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message, **(extra or {})}
        self.problems = list(problems)


# --------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------


@dataclass
class RecordedPart:
    """One part of a multipart body (``payload_json`` or ``files[N]``)."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode()


@dataclass
class RecordedRequest:
    """One REST request as the fake received it, and what it answered."""

    index: int
    at: float  # time.monotonic() when received
    method: str
    path: str  # without the /api/v10 prefix and without the query
    query: dict[str, str]
    headers: dict[str, str]
    content_type: str
    json: Any = None  # JSON body, or the decoded payload_json part of a multipart body
    parts: list[RecordedPart] = field(default_factory=list)
    raw: bytes = b""
    route: str | None = None  # e.g. "POST /channels/{channel_id}/messages"; None for unknown routes
    status: int | None = None
    response: Any = None
    switch: str | None = None  # the failure switch that answered, if any
    problems: list[S.Problem] = field(default_factory=list)  # why a body was refused (400 50035)
    body_error: str | None = None  # the body could not be decoded (400 50109)

    @property
    def files(self) -> list[RecordedPart]:
        """The uploaded files (``files[N]`` parts), in order."""
        return [p for p in self.parts if p.name.startswith("files[")]

    @property
    def multipart(self) -> bool:
        return self.content_type.startswith("multipart/")

    def __str__(self) -> str:
        query = ("?" + "&".join(f"{k}={v}" for k, v in self.query.items())) if self.query else ""
        return f"#{self.index} {self.method} {self.path}{query} -> {self.status}"


def compile_match(match: Match) -> Callable[[RecordedRequest], bool]:
    """A predicate from a request pattern.

    A string is ``"[METHOD ]PATH"``; PATH segments match literally, ``*`` matches one segment and
    ``**`` any number (``"POST /interactions/*/*/callback"``, ``"/channels/**"``). A route template
    (``"POST /channels/{channel_id}/messages"``) matches requests routed to it. A callable is used
    as is.
    """
    if callable(match):
        return match
    text = match.strip()
    method: str | None = None
    if " " in text:
        method, text = text.split(None, 1)
        method = method.upper()
    if "{" in text:
        template = f"{method} {text}" if method else None

        def by_route(rec: RecordedRequest) -> bool:
            if template is not None:
                return rec.route == template
            return rec.route is not None and rec.route.split(" ", 1)[1] == text

        return by_route
    pattern = [s for s in text.split("/") if s]

    def by_path(rec: RecordedRequest) -> bool:
        if method is not None and rec.method != method:
            return False
        return _segments_match(pattern, [s for s in rec.path.split("/") if s])

    return by_path


def _segments_match(pattern: list[str], segments: list[str]) -> bool:
    if not pattern:
        return not segments
    head = pattern[0]
    if head == "**":
        return any(_segments_match(pattern[1:], segments[i:]) for i in range(len(segments) + 1))
    if not segments:
        return False
    if head not in ("*", segments[0]):
        return False
    return _segments_match(pattern[1:], segments[1:])


@dataclass
class Switch:
    """A failure switch: the next ``times`` requests matching answer with an error or a delay."""

    name: str
    matches: Callable[[RecordedRequest], bool]
    times: int
    status: int = 0
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hits: list[RecordedRequest] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.times - len(self.hits)


@dataclass
class Sent:
    """Something the bot sent that created, changed or deleted a message (or answered an
    interaction): decoded payload and uploaded files. Only accepted (2xx) requests become Sent."""

    kind: str  # callback | followup | edit | delete | message | message_edit | message_delete
    request: RecordedRequest
    data: dict[str, Any]
    files: list[RecordedPart] = field(default_factory=list)
    callback_type: int | None = None
    interaction_id: int | None = None
    channel_id: int | None = None
    message: FakeMessage | None = None

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the resulting message is ephemeral (for edits: the edited message)."""
        if self.message is not None:
            return self.message.ephemeral
        return bool(self.flags & P.FLAG_EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in P.walk_components(self.components) if "custom_id" in c]

    @property
    def filenames(self) -> list[str]:
        return [p.filename or "" for p in self.files]

    @property
    def pngs(self) -> list[bytes]:
        """The uploaded files that are PNG images."""
        return [p.data for p in self.files if P.png_size(p.data) is not None]

    def file(self, filename: str) -> bytes:
        for part in self.files:
            if part.filename == filename:
                return part.data
        raise KeyError(f"no file {filename!r}; sent {self.filenames}")

    def __str__(self) -> str:
        extra = f" type={self.callback_type}" if self.callback_type is not None else ""
        return f"<Sent {self.kind}{extra} content={self.content!r} files={self.filenames} ids={self.custom_ids}>"


# --------------------------------------------------------------------------------------------------
# Interaction handles
# --------------------------------------------------------------------------------------------------


class InteractionHandle:
    """An interaction the fake built (and maybe delivered): its payload and what the bot answered."""

    def __init__(self, fake: FakeDiscord, record: FakeInteraction) -> None:
        self.fake = fake
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload (feed it to ``parse_interaction_create`` in-process)."""
        return self.record.payload

    @property
    def sent(self) -> list[Sent]:
        return [s for s in self.fake.sent if s.interaction_id == self.id]

    @property
    def callback(self) -> Sent | None:
        return next((s for s in self.sent if s.kind == "callback"), None)

    @property
    def followups(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "followup"]

    @property
    def edits(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "edit"]

    @property
    def original(self) -> FakeMessage | None:
        """The current state of @original (the response message), if there is one."""
        mid = self.record.original_message_id
        return None if mid is None else self.fake.world.messages.get(mid)

    @property
    def source_message(self) -> FakeMessage | None:
        """For components (and modals opened from one): the message the component is on."""
        mid = self.record.message_id
        return None if mid is None else self.fake.world.messages.get(mid)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """The autocomplete answer (callback type 8)."""
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9)."""
        return self.record.modal

    def expire(self) -> None:
        """Age the interaction past every deadline: callbacks and follow-ups now get 10062/10015."""
        self.record.created -= P.INTERACTION_TOKEN_TTL_S + 1

    async def response(self, timeout: float = DEFAULT_TIMEOUT) -> Sent:  # noqa: ASYNC109
        """Wait for the (accepted) interaction callback."""
        return await self.fake.wait_until(lambda: self.callback, timeout, f"the callback of {self}")

    async def followup(self, index: int = 0, timeout: float = DEFAULT_TIMEOUT) -> Sent:  # noqa: ASYNC109
        """Wait for the ``index``-th follow-up (0 = first)."""
        return await self.fake.wait_until(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            f"follow-up #{index} of {self}",
        )

    async def wait_sent(self, count: int, timeout: float = DEFAULT_TIMEOUT) -> list[Sent]:  # noqa: ASYNC109
        """Wait until the bot sent ``count`` things (callback, follow-ups, edits...) for this."""
        return await self.fake.wait_until(
            lambda: self.sent if len(self.sent) >= count else None, timeout, f"{count} sends for {self}"
        )

    def __repr__(self) -> str:
        return f"<Interaction {self.id} type={self.record.type} {self.record.command_name or ''}>"


# --------------------------------------------------------------------------------------------------
# Gateway
# --------------------------------------------------------------------------------------------------


@dataclass
class GatewaySession:
    session_id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    events: collections.deque[tuple[int, str, Any]] = field(
        default_factory=lambda: collections.deque(maxlen=MAX_SESSION_EVENTS)
    )
    connection: GatewayConnection | None = None


@dataclass
class GatewayConnection:
    number: int
    ws: web.WebSocketResponse
    session: GatewaySession | None = None
    heartbeats: int = 0
    closed: bool = False
    received: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: Mapping[str, Any]) -> None:
        async with self.lock:
            if not self.ws.closed:
                try:
                    await self.ws.send_str(json.dumps(payload))
                except ConnectionResetError:
                    self.closed = True  # the client died (kill -9): the event is lost, as on Discord


class FakeGateway:
    """The gateway websocket: HELLO, heartbeat ACKs, IDENTIFY -> READY + GUILD_CREATE, RESUME ->
    RESUMED, REQUEST_GUILD_MEMBERS -> chunk. Only the newest connection receives injected events.

    Shards: an IDENTIFY with ``shard: [id, count]`` gets the guilds ``(guild_id >> 22) % count == id``
    (Discord's rule); an event of a guild goes to the newest connection of its shard, DMs to shard 0."""

    def __init__(self, fake: FakeDiscord, heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.connections: list[GatewayConnection] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewayConnection | None = None
        self.ready_count = 0
        self.resumed_count = 0
        self.identifies: list[dict[str, Any]] = []
        self.member_requests: list[dict[str, Any]] = []
        self.presence_updates: list[dict[str, Any]] = []
        self.close_codes: list[int] = []

    @property
    def connected(self) -> bool:
        conn = self.current
        return conn is not None and not conn.closed and conn.session is not None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=MAX_REQUEST_BYTES)
        await ws.prepare(request)
        conn = GatewayConnection(number=len(self.connections) + 1, ws=ws)
        self.connections.append(conn)
        self.current = conn
        self.fake.notify()
        try:
            await conn.send({"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_message(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        except ConnectionResetError:
            pass
        except Exception as exc:  # a bug in the fake: keep it visible
            self.fake.internal_errors.append(f"gateway: {exc!r}\n{traceback.format_exc()}")
            raise
        finally:
            conn.closed = True
            if ws.close_code is not None:
                self.close_codes.append(ws.close_code)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            self.fake.notify()
        return ws

    async def _on_message(self, conn: GatewayConnection, msg: dict[str, Any]) -> None:
        conn.received.append(msg)
        op = msg.get("op")
        data = msg.get("d")
        if op == 1:
            conn.heartbeats += 1
            await conn.send({"op": 11, "s": None, "t": None, "d": None})
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 8:
            await self._request_members(conn, data or {})
        elif op == 3:
            self.presence_updates.append(data or {})
        else:
            log.warning("fake gateway: unhandled op %s", op)
        self.fake.notify()

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        world = self.fake.world
        self.identifies.append(data)
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents") or 0)
        for name, bit in P.PRIVILEGED_INTENTS.items():
            if intents & bit and name not in world.allowed_intents:
                await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
                return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(type(n) is int for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = GatewaySession(session_id=secrets.token_hex(16), intents=intents, shard=shard)
        self.sessions[session.session_id] = session
        session.connection = conn
        conn.session = session
        ready = P.ready_payload(world, session.session_id, self.fake.gateway_url, session.shard)
        await self._send_event(session, "READY", ready)
        self.ready_count += 1
        self.fake.notify()
        for guild_id in P.shard_guilds(world, session.shard):
            guild = P.guild_payload(world, with_members=bool(intents & P.INTENT_GUILD_MEMBERS), guild_id=guild_id)
            await self._send_event(session, "GUILD_CREATE", guild)

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.fake.world.token:
            await conn.send({"op": 9, "s": None, "t": None, "d": False})
            return
        old = session.connection
        if old is not None and old is not conn and not old.ws.closed:
            await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
        session.connection = conn
        conn.session = session
        last = int(data.get("seq") or 0)
        for seq, name, payload in list(session.events):
            if seq > last:
                await conn.send({"op": 0, "s": seq, "t": name, "d": payload})
        await self._send_event(session, "RESUMED", {})
        self.resumed_count += 1

    async def _request_members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        self.member_requests.append(data)
        world = self.fake.world
        members = world.members()
        if data.get("user_ids"):
            wanted = (
                {int(u) for u in data["user_ids"]} if isinstance(data["user_ids"], list) else {int(data["user_ids"])}
            )
            members = [m for m in members if m.id in wanted]
        else:
            query = str(data.get("query") or "").lower()
            members = [m for m in members if m.username.lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(data.get("guild_id") or world.guild_id),
            "members": [P.member_payload(world, m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("presences"):
            chunk["presences"] = []
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if conn.session is not None:
            await self._send_event(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send_event(self, session: GatewaySession, name: str, payload: Any) -> int:
        session.seq += 1
        session.events.append((session.seq, name, payload))
        conn = session.connection
        if conn is not None:
            await conn.send({"op": 0, "s": session.seq, "t": name, "d": payload})
        return session.seq

    # ---- control -------------------------------------------------------------------------------

    def _live(self, guild_id: int | None = None) -> GatewayConnection:
        """The newest identified connection (of the shard that ``guild_id``'s events go to)."""
        conn = self.current
        if any(c.session is not None and c.session.shard is not None for c in self.connections):
            conn = next(
                (
                    c
                    for c in reversed(self.connections)
                    if not c.closed and c.session is not None and self._covers(c.session, guild_id)
                ),
                None,
            )
        if conn is None or conn.closed or conn.session is None:
            raise RuntimeError(
                "no identified gateway connection (is the bot process connected?)"
                + (f" for guild {guild_id}" if guild_id is not None else "")
            )
        return conn

    @staticmethod
    def _covers(session: GatewaySession, guild_id: int | None) -> bool:
        if session.shard is None:
            return True
        shard_id, count = session.shard
        return P.shard_of(guild_id or 0, count) == shard_id

    def shard_connected(self, shard_id: int) -> bool:
        """Whether a live, identified connection runs this shard."""
        return any(
            not c.closed and c.session is not None and c.session.shard is not None and c.session.shard[0] == shard_id
            for c in self.connections
        )

    async def dispatch(self, name: str, payload: Any, *, guild_id: int | None = None) -> int:
        """Send a DISPATCH event to the newest connection (of ``guild_id``'s shard, when the client
        shards); returns its sequence number."""
        conn = self._live(guild_id)
        assert conn.session is not None
        return await self._send_event(conn.session, name, payload)

    async def disconnect(self, code: int = 4000) -> None:
        """Close the current socket (4000: the client reconnects and RESUMEs)."""
        conn = self._live()
        await conn.ws.close(code=code, message=b"fake disconnect")

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT (the client closes and resumes)."""
        await self._live().send({"op": 7, "s": None, "t": None, "d": None})

    async def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (``False``: the client must IDENTIFY again)."""
        conn = self._live()
        if not resumable and conn.session is not None:
            self.sessions.pop(conn.session.session_id, None)
        await conn.send({"op": 9, "s": None, "t": None, "d": resumable})

    async def wait_ready(self, count: int = 1, timeout: float = READY_TIMEOUT) -> None:  # noqa: ASYNC109
        """Wait until READY has been sent ``count`` times in total."""
        await self.fake.wait_until(
            lambda: self.ready_count >= count and self.connected, timeout, f"READY sent {count} time(s)"
        )

    async def wait_resumed(self, count: int = 1, timeout: float = READY_TIMEOUT) -> None:  # noqa: ASYNC109
        await self.fake.wait_until(lambda: self.resumed_count >= count, timeout, f"RESUMED sent {count} time(s)")

    async def close_all(self) -> None:
        for conn in self.connections:
            if not conn.ws.closed:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"fake shutting down")


# --------------------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------------------

Handler = Callable[..., Any]


class FakeDiscord:
    """The fake Discord server and its control surface. See the module docstring and README.md."""

    def __init__(
        self,
        world: World | None = None,
        *,
        interaction_deadline: float | None = L.INTERACTION_RESPONSE_DEADLINE_S,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
        strict: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.world = world or P.default_world()
        self.interaction_deadline = interaction_deadline
        if strict is None:  # FAKE_DISCORD_STRICT=0 turns it off for a whole run (to compare, or debug)
            strict = os.environ.get(STRICT_ENV, "1") != "0"
        self.strict = strict  # validate every body against Discord's OpenAPI description
        self.clock = clock  # seconds; the interaction windows are measured on it (tests may fake it)
        self.refusals: list[RecordedRequest] = []  # requests refused with 400 for their body
        if strict:
            S.warm()
        self.gateway = FakeGateway(self, heartbeat_interval_ms)
        self.oauth = FakeOAuth(self)
        """OAuth2: the consent redirect, the token exchange and a Bearer token's /users/@me (issue 38)."""
        self.activities = FakeActivities(self.world)
        """Activities: the LAUNCH_ACTIVITY callback's instances and their route (issue 39)."""
        self.requests: list[RecordedRequest] = []
        self.sent: list[Sent] = []
        self.switches: list[Switch] = []
        self.internal_errors: list[str] = []
        self.command_syncs = 0
        self.nonce_hits: list[RecordedRequest] = []
        """Posts answered with the message their ``enforce_nonce`` nonce made earlier (not posted again)."""
        self._nonces: dict[tuple[int, str], int] = {}
        self.shard_count = 1
        """The shard count ``GET /gateway/bot`` recommends (a client may IDENTIFY with any count)."""
        self.port = 0
        self._event = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._client_state: Any = None
        self._by_token: dict[str, FakeInteraction] = {}
        self.refused_tokens: set[str] = set()
        """Tokens of interactions refused by :meth:`unknown_interaction`: every later use is refused too."""
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._install_routes()

    # ---- lifecycle -----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def api_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"{self.url}/api/v{P.API_VERSION}"

    @property
    def gateway_url(self) -> str:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return f"ws://{HOST}:{self.port}/gateway"

    @property
    def token(self) -> str:
        return self.world.token

    async def start(self) -> Self:
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("GET", "/gateway", self.gateway.handle)
        app.router.add_route("GET", "/attachments/{channel}/{attachment}/{filename}", self._serve_attachment)
        self.oauth.add_routes(app, self._handle_api)  # before the REST router's catch-all
        app.router.add_route("*", "/api/v{version}/{tail:.*}", self._handle_api)
        app.router.add_route("*", "/{tail:.*}", self._handle_unknown)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, 0))
        self.port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()
        self.world.base_url = self.url
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- waiting -------------------------------------------------------------------------------

    def notify(self) -> None:
        """Wake every waiter (called on each request, send and gateway event)."""
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:  # noqa: ASYNC109
        """Wait until ``predicate()`` is truthy and return it; FakeDiscordTimeout after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordTimeout(f"timed out after {timeout}s waiting for {what}\n{self.describe()}")
            event = self._event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def wait_for_request(
        self,
        match: Match,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
        since: int = 0,
    ) -> RecordedRequest:
        """The first request (index >= ``since``) matching ``match`` that has been answered."""
        test = compile_match(match)
        return await self.wait_until(
            lambda: next((r for r in self.requests[since:] if r.status is not None and test(r)), None),
            timeout,
            f"a request matching {match!r} (since #{since})",
        )

    async def wait_for_commands(self, timeout: float = READY_TIMEOUT) -> list[dict[str, Any]]:  # noqa: ASYNC109
        """Wait until the bot registered commands (any scope); returns them."""
        return await self.wait_until(
            lambda: [c for cmds in self.world.commands.values() for c in cmds], timeout, "a command sync"
        )

    def mark(self) -> int:
        """The index the next request will get (use as ``since=``)."""
        return len(self.requests)

    def requests_matching(self, match: Match, since: int = 0) -> list[RecordedRequest]:
        test = compile_match(match)
        return [r for r in self.requests[since:] if test(r)]

    def describe(self, last: int = 15) -> str:
        """A short text of recent activity (shown in timeouts and on test failure)."""
        lines = [
            f"fake discord at {self.url}: {len(self.requests)} request(s), gateway READY x{self.gateway.ready_count}"
        ]
        lines += [f"  {r}" for r in self.requests[-last:]]
        if self.refusals:
            lines.append("bodies refused as Discord would (400):")
            lines += [f"  {r}: {S.describe(r.problems) or r.response}" for r in self.refusals[-last:]]
        if self.internal_errors:
            lines.append("internal errors of the fake:")
            lines += [f"  {e.splitlines()[0]}" for e in self.internal_errors]
        return "\n".join(lines)

    # ---- world shortcuts -----------------------------------------------------------------------

    def user(self, ref: UserRef) -> FakeUser:
        return self.world.user(ref)

    def channel(self, ref: ChannelRef) -> FakeChannel:
        return self.world.channel(ref)

    def commands(self, scope: int | str | None = "guild") -> list[dict[str, Any]]:
        """Registered commands: ``"guild"`` (the fake guild's), ``None`` (global) or a guild id."""
        key = self.world.guild_id if scope == "guild" else scope
        return list(self.world.commands.get(key if not isinstance(key, str) else None, []))

    def messages(self, channel: ChannelRef | None = None, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Stored messages, oldest first (optionally of one channel)."""
        channel_id = None if channel is None else self.channel(channel).id
        return [
            m
            for m in self.world.messages.values()
            if (channel_id is None or m.channel_id == channel_id) and (include_deleted or not m.deleted)
        ]

    def dms(self, user: UserRef) -> list[FakeMessage]:
        """Messages the bot sent to a user's DM channel."""
        channel_id = self.world.dm_channels.get(self.user(user).id)
        return [] if channel_id is None else [m for m in self.world.messages.values() if m.channel_id == channel_id]

    # ---- failure switches ----------------------------------------------------------------------

    def archive_thread(self, thread: ChannelRef, *, locked: bool = False) -> FakeChannel:
        """Archive a thread (as Discord does after its inactivity period, or a moderator). Its
        messages then cannot be edited (400 50083) until a new message is posted in it, which
        unarchives it, unless ``locked`` (then only a member with Manage Threads can)."""
        channel = self.channel(thread)
        if not channel.is_thread:
            raise PayloadError(f"{channel.name!r} is not a thread")
        channel.archived = True
        channel.locked = locked
        return channel

    def fail(
        self,
        match: Match,
        *,
        status: int,
        code: int = 0,
        message: str = "",
        times: int = 1,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
        name: str = "fail",
    ) -> Switch:
        """Answer the next ``times`` requests matching ``match`` with this error."""
        switch = Switch(
            name=name,
            matches=compile_match(match),
            times=times,
            status=status,
            body={"message": message or f"{status}", "code": code, **(extra or {})},
            headers=dict(headers or {}),
        )
        self.switches.append(switch)
        return switch

    def rate_limit(self, match: Match, *, times: int = 1, retry_after: float = 0.05, is_global: bool = False) -> Switch:
        """429 with ``retry_after`` and a ``Via`` header (discord.py then sleeps and retries)."""
        return self.fail(
            match,
            status=429,
            times=times,
            message="You are being rate limited.",
            extra={"retry_after": retry_after, "global": is_global},
            headers={"Via": "1.1 google", "Retry-After": str(max(1, round(retry_after)))},
            name="rate_limit",
        )

    def server_error(self, match: Match, *, status: int = 500, times: int = 1) -> Switch:
        """5xx (500/502/504 make discord.py retry after 1 s, 3 s, ...; others raise at once)."""
        return self.fail(match, status=status, times=times, message=f"{status}: Server Error", name="server_error")

    def delay(self, match: Match, seconds: float, *, times: int = 1) -> Switch:
        """Hold the next matching requests ``seconds`` before answering them normally."""
        switch = Switch(name="delay", matches=compile_match(match), times=times, delay=seconds)
        self.switches.append(switch)
        return switch

    def unknown_interaction(self, match: Match = "POST /interactions/**", *, times: int = 1) -> Switch:
        """404 Unknown interaction (10062), as when the 3-second window was missed."""
        return self.fail(
            match, status=404, code=10062, message="Unknown interaction", times=times, name="unknown_interaction"
        )

    def already_acknowledged(self, match: Match = "POST /interactions/**", *, times: int = 1) -> Switch:
        """400 Interaction has already been acknowledged (40060)."""
        return self.fail(
            match,
            status=400,
            code=40060,
            message="Interaction has already been acknowledged.",
            times=times,
            name="already_acknowledged",
        )

    def missing_permissions(self, match: Match, *, times: int = 1) -> Switch:
        """403 Missing Permissions (50013)."""
        return self.fail(
            match, status=403, code=50013, message="Missing Permissions", times=times, name="missing_permissions"
        )

    # ---- building and delivering interactions --------------------------------------------------

    def _new_interaction(
        self,
        itype: int,
        data: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        *,
        message: FakeMessage | None = None,
        command_name: str | None = None,
    ) -> InteractionHandle:
        world = self.world
        interaction_id = world.new_id()
        token = "fake-" + secrets.token_urlsafe(24)
        payload = P.interaction_payload(
            world,
            interaction_id=interaction_id,
            token=token,
            itype=itype,
            data=data,
            user=user,
            channel=channel,
            message=None if message is None else P.message_payload(world, message),
        )
        record = FakeInteraction(
            id=interaction_id,
            token=token,
            type=itype,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            payload=payload,
            created=self.clock(),
            message_id=None if message is None else message.id,
            command_name=command_name,
        )
        world.interactions[interaction_id] = record
        self._by_token[token] = record
        return InteractionHandle(self, record)

    def _place(self, user: UserRef, channel: ChannelRef | None) -> tuple[FakeUser, FakeChannel]:
        who = self.user(user)
        if channel == "dm":
            return who, self.world.dm_channel(who)
        return who, self.channel(channel if channel is not None else self.world.default_channel)

    def _new_attachment(self, filename: str, data: bytes, channel_id: int = 0) -> FakeAttachment:
        att_id = self.world.new_id()
        attachment = FakeAttachment(
            id=att_id,
            filename=filename,
            data=data,
            content_type=P.guess_content_type(filename, data),
            url=f"{self.url}/attachments/{channel_id}/{att_id}/{filename}",
        )
        self.world.attachments[att_id] = attachment
        return attachment

    def make_slash(
        self,
        *path: str,
        user: UserRef = "alice",
        channel: ChannelRef | None = None,
        force: bool = False,
        **options: Any,
    ) -> InteractionHandle:
        """Build (not deliver) a slash command interaction from what the bot registered.

        ``path`` is the command then subcommand group / subcommand names; ``options`` are the leaf
        options (users/channels/roles by name, attachments as bytes or (filename, bytes)).
        ``channel="dm"`` sends it from the user's DM channel. Raises PayloadError for anything the
        Discord client would refuse (unknown option, missing required one, invalid choice, a
        command hidden by default_member_permissions unless ``force``).
        """
        who, where = self._place(user, channel)
        data, command = P.command_data(
            self.world,
            path,
            options,
            user=who,
            channel=where,
            new_attachment=lambda name, raw: self._new_attachment(name, raw, where.id),
        )
        if not force:
            P.check_command_visible(self.world, command, who, where)
        return self._new_interaction(P.IT_COMMAND, data, who, where, command_name=" ".join(path))

    def make_autocomplete(
        self,
        *path: str,
        user: UserRef = "alice",
        channel: ChannelRef | None = None,
        focused: str | None = None,
        **options: Any,
    ) -> InteractionHandle:
        """Build an autocomplete interaction; ``focused`` defaults to the last option given (its
        value is sent as the typed text)."""
        if not options:
            raise PayloadError("autocomplete needs at least the focused option's text")
        who, where = self._place(user, channel)
        focus = focused or list(options)[-1]
        data, _ = P.command_data(
            self.world,
            path,
            options,
            user=who,
            channel=where,
            focused=focus,
            new_attachment=lambda name, raw: self._new_attachment(name, raw, where.id),
        )
        return self._new_interaction(P.IT_AUTOCOMPLETE, data, who, where, command_name=" ".join(path))

    def _message_ref(self, message: FakeMessage | InteractionHandle | Sent | int) -> FakeMessage:
        if isinstance(message, InteractionHandle):
            found = message.original
            if found is None:
                raise PayloadError(f"{message} has no response message (yet)")
            return found
        if isinstance(message, Sent):
            if message.message is None:
                raise PayloadError(f"{message} created no message")
            return self.world.messages[message.message.id]
        if isinstance(message, int):
            return self.world.messages[message]
        return message

    def make_click(
        self, message: FakeMessage | InteractionHandle | Sent | int, custom_id: str, *, user: UserRef = "alice"
    ) -> InteractionHandle:
        """Build a button click on a stored message (a message, its id, a Sent, or an interaction
        handle meaning its @original)."""
        msg = self._message_ref(message)
        comp = P.find_component(msg.components, custom_id)
        if int(comp["type"]) != P.C_BUTTON:
            raise PayloadError(f"{custom_id!r} is not a button (type {comp['type']})")
        if comp.get("disabled"):
            raise PayloadError(f"button {custom_id!r} is disabled")
        who = self.user(user)
        data = {"custom_id": custom_id, "component_type": P.C_BUTTON, "id": comp.get("id", 0)}
        return self._new_interaction(P.IT_COMPONENT, data, who, self.world.channels[msg.channel_id], message=msg)

    def make_select(
        self,
        message: FakeMessage | InteractionHandle | Sent | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        user: UserRef = "alice",
    ) -> InteractionHandle:
        """Build a select-menu choice (string values, or users/roles/channels for entity selects)."""
        msg = self._message_ref(message)
        comp = P.find_component(msg.components, custom_id)
        if int(comp["type"]) not in P.SELECT_TYPES:
            raise PayloadError(f"{custom_id!r} is not a select (type {comp['type']})")
        if comp.get("disabled"):
            raise PayloadError(f"select {custom_id!r} is disabled")
        who = self.user(user)
        channel = self.world.channels[msg.channel_id]
        chosen, resolved = P.select_values(self.world, comp, values, who, channel)
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": int(comp["type"]),
            "values": chosen,
            "id": comp.get("id", 0),
        }
        if resolved:
            data["resolved"] = resolved
        return self._new_interaction(P.IT_COMPONENT, data, who, channel, message=msg)

    def make_modal(
        self, source: InteractionHandle, values: Mapping[str, Any] | None = None, *, user: UserRef | None = None
    ) -> InteractionHandle:
        """Build the submission of the modal the bot opened in answer to ``source``.

        ``values`` maps the inputs' custom_ids to text (or lists for selects); the user defaults to
        the one who triggered ``source``.
        """
        modal = source.modal
        if modal is None:
            raise PayloadError(f"the bot opened no modal for {source}")
        who = self.user(user if user is not None else source.record.user_id)
        channel = self.world.channels[source.record.channel_id]
        data = {"custom_id": modal["custom_id"], "components": P.modal_submit_components(modal, values or {})}
        msg = source.source_message
        return self._new_interaction(P.IT_MODAL_SUBMIT, data, who, channel, message=msg)

    def use_client(self, client: Any, *, add_guild: bool = True) -> None:
        """In-process mode: deliver interactions to ``client._connection`` (call after login).

        With ``add_guild`` the fake guild is put in the client's cache, as GUILD_CREATE would.
        """
        state = client._connection
        self._client_state = state
        for guild_id in self.world.guild_ids if add_guild else ():
            if state._get_guild(guild_id) is None:
                members = bool(getattr(client.intents, "members", False))
                state._add_guild_from_data(P.guild_payload(self.world, with_members=members, guild_id=guild_id))

    async def deliver(self, handle: InteractionHandle) -> InteractionHandle:
        """Send an interaction to the bot: in-process if :meth:`use_client` was called, else as a
        gateway INTERACTION_CREATE to the newest connection."""
        handle.record.created = self.clock()
        await self.dispatch("INTERACTION_CREATE", handle.payload, guild_id=handle.record.guild_id)
        return handle

    async def dispatch(self, name: str, payload: Any, *, guild_id: int | None = None) -> None:
        """Deliver any gateway event (in-process: through the client's parser). With shards, an
        event of a guild goes to that guild's shard only (DMs: shard 0)."""
        if self._client_state is not None:
            self._client_state.parsers[name](payload)
        else:
            await self.gateway.dispatch(name, payload, guild_id=guild_id)

    async def slash(self, *path: str, **kwargs: Any) -> InteractionHandle:
        """Build and deliver a slash command (see :meth:`make_slash`)."""
        return await self.deliver(self.make_slash(*path, **kwargs))

    async def autocomplete(self, *path: str, **kwargs: Any) -> InteractionHandle:
        return await self.deliver(self.make_autocomplete(*path, **kwargs))

    async def click(self, message: Any, custom_id: str, **kwargs: Any) -> InteractionHandle:
        return await self.deliver(self.make_click(message, custom_id, **kwargs))

    async def select(self, message: Any, custom_id: str, values: Sequence[Any], **kwargs: Any) -> InteractionHandle:
        return await self.deliver(self.make_select(message, custom_id, values, **kwargs))

    async def modal(
        self, source: InteractionHandle, values: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> InteractionHandle:
        return await self.deliver(self.make_modal(source, values, **kwargs))

    # ---- HTTP plumbing -------------------------------------------------------------------------

    def _install_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/users/{user_id}", self._get_user)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands/permissions", self._get_command_permissions)
            r("GET", prefix + "/commands", self._get_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback)
        r("GET", "/applications/{app_id}/activity-instances/{instance_id}", self._get_activity_instance)
        r("POST", "/webhooks/{app_id}/{token}", self._followup)
        r("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._get_webhook_message)
        r("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._edit_webhook_message)
        r("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._delete_webhook_message)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("GET", "/channels/{channel_id}/messages", self._get_messages)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._no_content_in_channel)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._no_content_in_channel)
        r("POST", "/channels/{channel_id}/typing", self._no_content_in_channel)
        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._reaction)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._reaction)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_roles)
        r("GET", "/guilds/{guild_id}/members", self._list_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)

    def _route(self, method: str, template: str, handler: Handler) -> None:
        regex = re.compile("^" + re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")
        self._routes.append((method, template, regex, handler))

    def _resolve(self, method: str, path: str) -> tuple[str | None, Handler | None, dict[str, str], bool]:
        path_known = False
        for route_method, template, regex, handler in self._routes:
            m = regex.match(path)
            if m is None:
                continue
            path_known = True
            if route_method == method:
                return f"{method} {template}", handler, m.groupdict(), True
        return None, None, {}, path_known

    async def _record(self, request: web.Request, path: str) -> RecordedRequest:
        content_type = request.headers.get("Content-Type", "")
        rec = RecordedRequest(
            index=len(self.requests),
            at=time.monotonic(),
            method=request.method,
            path=path,
            query=dict(request.query),
            headers=dict(request.headers),
            content_type=content_type,
        )
        self.requests.append(rec)
        if content_type.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not hasattr(part, "read"):
                    continue
                data = await part.read(decode=False)  # type: ignore[union-attr]
                name, filename = _disposition(part.headers.get("Content-Disposition"))
                rec.parts.append(
                    RecordedPart(
                        name=name or "",
                        filename=filename,
                        content_type=part.headers.get("Content-Type"),
                        data=bytes(data),
                    )
                )
            for p in rec.parts:
                if p.name == "payload_json":
                    rec.json = self._decode(rec, p.data)
        elif request.can_read_body:
            rec.raw = await request.read()
            if rec.raw and content_type.split(";")[0].strip() == JSON_TYPE:
                rec.json = self._decode(rec, rec.raw)
        return rec

    @staticmethod
    def _decode(rec: RecordedRequest, data: bytes) -> Any:
        try:
            return json.loads(data)
        except ValueError as exc:  # UnicodeDecodeError is a ValueError too
            rec.body_error = f"{exc}"
            return None

    @staticmethod
    def _json(status: int, body: Any, headers: Mapping[str, str] | None = None) -> web.Response:
        if status == 204:
            return web.Response(status=204, headers=dict(headers or {}))
        return web.Response(
            status=status, body=json.dumps(body).encode(), headers={"Content-Type": JSON_TYPE, **(headers or {})}
        )

    def _finish(
        self, rec: RecordedRequest, status: int, body: Any, headers: Mapping[str, str] | None = None
    ) -> web.Response:
        rec.status = status
        rec.response = body
        self.notify()
        return self._json(status, body, headers)

    async def _handle_api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        rec = await self._record(request, path)
        route, handler, params, path_known = self._resolve(request.method, path)
        rec.route = route
        self.notify()
        for switch in self.switches:
            if switch.remaining > 0 and switch.matches(rec):
                switch.hits.append(rec)
                if switch.delay:
                    await asyncio.sleep(switch.delay)
                    break
                rec.switch = switch.name
                if (switch.body or {}).get("code") == 10062 and "token" in params:
                    # Discord refuses every later use of an interaction it refused (callback: 10062;
                    # follow-ups and edits: 10015), not only the first
                    self.refused_tokens.add(params["token"])
                return self._finish(rec, switch.status, switch.body, switch.headers)
        if request.match_info.get("version") != str(P.API_VERSION):
            return self._finish(rec, 404, {"message": "404: Not Found (wrong API version)", "code": 0})
        if handler is None:
            if path_known:
                return self._finish(rec, 405, {"message": "405: Method Not Allowed", "code": 0})
            log.warning("fake discord: unknown route %s %s", request.method, path)
            return self._finish(rec, 404, {"message": "404: Not Found", "code": 0})
        needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.world.token}":
            return self._finish(rec, 401, {"message": "401: Unauthorized", "code": 0})
        try:
            if rec.body_error is not None:
                raise ApiError(400, 50109, "The request body contains invalid JSON.")
            if self.strict and rec.json is not None:
                problems = S.validate(request.method, path, rec.json)
                if problems:
                    raise invalid_form(problems)
            result = await handler(rec, **params)
        except ApiError as exc:
            if exc.status == 400 and exc.body.get("code") in (50035, 50006, 50109):
                self._refused(rec, exc)
            return self._finish(rec, exc.status, exc.body)
        except PayloadError as exc:
            return self._finish(rec, 400, {"message": str(exc), "code": 50035})
        except Exception as exc:
            self.internal_errors.append(f"{rec}: {exc!r}\n{traceback.format_exc()}")
            # 400, not 5xx: discord.py would retry a 5xx for many seconds
            return self._finish(rec, 400, {"message": f"fake discord internal error: {exc!r}", "code": 0})
        status, body = result if isinstance(result, tuple) else (200, result)
        return self._finish(rec, status, body)

    def _refused(self, rec: RecordedRequest, exc: ApiError) -> None:
        """Record a body Discord would refuse (and log it to $FAKE_DISCORD_REFUSALS_LOG if set)."""
        rec.problems = exc.problems
        self.refusals.append(rec)
        target = os.environ.get(REFUSALS_LOG_ENV)
        if target:
            line = {
                "test": os.environ.get("PYTEST_CURRENT_TEST", ""),
                "request": rec.route or f"{rec.method} {rec.path}",
                "code": exc.body.get("code"),
                "problems": [f"{p.dotted}: {p.message}" for p in exc.problems] or [str(exc.body.get("message"))],
                "body": json.dumps(rec.json)[:600],
            }
            with contextlib.suppress(OSError), open(target, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(line) + "\n")

    async def _handle_unknown(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request, request.path)
        log.warning("fake discord: request outside the API %s %s", request.method, request.path)
        return self._finish(rec, 404, {"message": "404: Not Found", "code": 0})

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        attachment = self.world.attachments.get(int(request.match_info["attachment"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})

    # ---- helpers for handlers ------------------------------------------------------------------

    def _check_app(self, app_id: str) -> None:
        if app_id != str(self.world.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    def _check_guild(self, guild_id: str) -> int:
        if not guild_id.isdigit() or int(guild_id) not in self.world.guild_ids:
            raise ApiError(404, 10004, "Unknown Guild")
        return int(guild_id)

    def _channel_or_404(self, channel_id: str) -> FakeChannel:
        channel = self.world.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _body(self, rec: RecordedRequest) -> dict[str, Any]:
        if rec.json is None:
            return {}
        if not isinstance(rec.json, dict):
            raise invalid_form({"_": "expected an object"})
        return rec.json

    def _attachments_from(
        self, rec: RecordedRequest, body: Mapping[str, Any], channel_id: int, ephemeral: bool
    ) -> list[FakeAttachment]:
        meta: dict[int, Mapping[str, Any]] = {}
        for entry in body.get("attachments") or []:
            with contextlib.suppress(TypeError, ValueError):
                meta[int(entry["id"])] = entry
        out = []
        for part in rec.files:
            if len(part.data) > L.MAX_UPLOAD_BYTES:
                raise ApiError(413, 40005, "Request entity too large")
            index_text = part.name[len("files[") : -1]
            info = meta.get(int(index_text)) if index_text.isdigit() else None
            filename = part.filename or (info or {}).get("filename") or "file"
            attachment = self._new_attachment(filename, part.data, channel_id)
            attachment.description = (info or {}).get("description")
            attachment.ephemeral = ephemeral
            out.append(attachment)
        return out

    def _validate(self, body: Mapping[str, Any], rec: RecordedRequest, *, creating: bool, kept_files: int = 0) -> None:
        """Discord's message rules beyond the schema (bot/testing/fakediscord/limits.py); ``kept_files``:
        attachments an edit keeps besides the uploaded ones."""
        for part in rec.files:
            if len(part.data) > L.MAX_UPLOAD_BYTES:
                raise ApiError(413, 40005, "Request entity too large")
        prefix = ("data",) if rec.path.startswith("/interactions/") else ()
        problems, empty = L.message_problems(body, len(rec.files) + kept_files, creating=creating, prefix=prefix)
        if problems:
            raise invalid_form(problems)
        if empty:
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _create_message(
        self,
        rec: RecordedRequest,
        body: Mapping[str, Any],
        channel: FakeChannel,
        *,
        interaction: FakeInteraction | None = None,
        flags: int | None = None,
        validate: bool = True,
    ) -> FakeMessage:
        if validate:
            self._validate(body, rec, creating=True)
        world = self.world
        msg_flags = int(body.get("flags") or 0) if flags is None else flags
        if interaction is None:
            msg_flags &= ~P.FLAG_EPHEMERAL  # only interaction responses can be ephemeral
        message = FakeMessage(
            id=world.new_id(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=world.bot_id,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=json.loads(json.dumps(body.get("components") or [])),
            flags=msg_flags,
            message_reference=body.get("message_reference"),
        )
        message.attachments = self._attachments_from(rec, body, channel.id, message.ephemeral)
        P.number_components(message.components)
        if interaction is not None:
            message.webhook_id = world.application_id
            message.application_id = world.application_id
            message.interaction_id = interaction.id
            message.interaction_user_id = interaction.user_id
            message.interaction_type = interaction.type
            message.interaction_name = interaction.command_name
            message.type = 20 if interaction.type == P.IT_COMMAND else 0
        world.messages[message.id] = message
        if not message.ephemeral:
            channel.last_message_id = message.id
        return message

    def _edit(self, rec: RecordedRequest, body: Mapping[str, Any], message: FakeMessage) -> FakeMessage:
        channel = self.world.channels.get(message.channel_id)
        if channel is not None and channel.archived:
            raise ApiError(400, 50083, "Thread is archived")
        kept = len(message.attachments)
        if "attachments" in body:
            known = {a.id for a in message.attachments}
            kept = sum(1 for e in body["attachments"] or [] if isinstance(e, dict) and _as_int(e.get("id")) in known)
        self._validate(body, rec, creating=False, kept_files=kept)
        message.edits.append(P.message_payload(self.world, message))
        if "content" in body:
            message.content = str(body["content"] or "")
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = json.loads(json.dumps(body["components"] or []))
            P.number_components(message.components)
        if body.get("flags") is not None:
            keep = message.flags & (P.FLAG_EPHEMERAL | P.FLAG_LOADING)
            message.flags = keep | (int(body["flags"]) & (P.FLAG_SUPPRESS_EMBEDS | P.FLAG_COMPONENTS_V2))
        new = self._attachments_from(rec, body, message.channel_id, message.ephemeral)
        if "attachments" in body:
            keep_ids = set()
            for entry in body["attachments"] or []:
                with contextlib.suppress(TypeError, ValueError, KeyError):
                    keep_ids.add(int(entry["id"]))
            message.attachments = [a for a in message.attachments if a.id in keep_ids]
        message.attachments.extend(new)
        message.flags &= ~P.FLAG_LOADING
        message.edited_ms = int(time.time() * 1000)
        return message

    def _add_sent(self, kind: str, rec: RecordedRequest, data: Mapping[str, Any], **kw: Any) -> Sent:
        sent = Sent(kind=kind, request=rec, data=dict(data), files=rec.files, **kw)
        self.sent.append(sent)
        return sent

    def _interaction_for_token(self, app_id: str, token: str) -> FakeInteraction:
        inter = None
        if app_id == str(self.world.application_id):
            inter = self._by_token.get(token)
            if inter is None or self.world.interactions.get(inter.id) is not inter:
                # not made by _new_interaction (or replaced since): look through them all
                inter = next((i for i in self.world.interactions.values() if i.token == token), None)
        if inter is None or self.clock() - inter.created > L.INTERACTION_TOKEN_TTL_S or token in self.refused_tokens:
            raise ApiError(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_message(self, inter: FakeInteraction, message_id: str) -> FakeMessage:
        mid = (
            inter.original_message_id
            if message_id == "@original"
            else (int(message_id) if message_id.isdigit() else None)
        )
        allowed = {inter.original_message_id, *inter.followup_ids}
        message = self.world.messages.get(mid) if mid is not None and mid in allowed else None
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    # ---- REST handlers: users, application, gateway --------------------------------------------

    async def _get_me(self, rec: RecordedRequest) -> Any:
        return P.client_user_payload(self.world.bot)

    async def _get_user(self, rec: RecordedRequest, user_id: str) -> Any:
        user = self.world.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return P.user_payload(user)

    async def _create_dm(self, rec: RecordedRequest) -> Any:
        body = self._body(rec)
        recipient = str(body.get("recipient_id", ""))
        user = self.world.users.get(int(recipient)) if recipient.isdigit() else None
        if user is None:
            raise invalid_form({"recipient_id": "Unknown user"})
        return P.channel_payload(self.world, self.world.dm_channel(user))

    async def _get_application(self, rec: RecordedRequest) -> Any:
        return P.application_payload(self.world)

    async def _get_gateway(self, rec: RecordedRequest) -> Any:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, rec: RecordedRequest) -> Any:
        return {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    # ---- REST handlers: commands ---------------------------------------------------------------

    def _scope(self, app_id: str, guild_id: str | None) -> int | None:
        self._check_app(app_id)
        if guild_id is None:
            return None
        self._check_guild(guild_id)
        return int(guild_id)

    async def _get_commands(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        return self.world.commands.get(self._scope(app_id, guild_id), [])

    async def _put_commands(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        scope = self._scope(app_id, guild_id)
        body = rec.json
        if not isinstance(body, list):
            raise invalid_form({"_": "expected a list"})
        problems = validate_commands(body)
        if problems:
            raise invalid_form(problems)
        self.world.commands[scope] = [P.registered_command(self.world, scope, c) for c in body]
        self.command_syncs += 1
        return self.world.commands[scope]

    async def _post_command(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        scope = self._scope(app_id, guild_id)
        body = self._body(rec)
        problems = validate_commands([body])
        if problems:
            raise invalid_form(problems)
        current = self.world.commands.setdefault(scope, [])
        new = P.registered_command(self.world, scope, body)
        for i, command in enumerate(current):
            if command["name"] == new["name"] and command["type"] == new["type"]:
                current[i] = new
                return 200, new
        current.append(new)
        return 201, new

    def _command_or_404(self, scope: int | None, command_id: str) -> tuple[int, dict[str, Any]]:
        for i, command in enumerate(self.world.commands.get(scope, [])):
            if command["id"] == command_id:
                return i, command
        raise ApiError(404, 10063, "Unknown application command")

    async def _get_command(
        self, rec: RecordedRequest, app_id: str, command_id: str, guild_id: str | None = None
    ) -> Any:
        return self._command_or_404(self._scope(app_id, guild_id), command_id)[1]

    async def _patch_command(
        self, rec: RecordedRequest, app_id: str, command_id: str, guild_id: str | None = None
    ) -> Any:
        scope = self._scope(app_id, guild_id)
        i, command = self._command_or_404(scope, command_id)
        merged = {**command, **self._body(rec)}
        self.world.commands[scope][i] = P.registered_command(self.world, scope, merged)
        return self.world.commands[scope][i]

    async def _delete_command(
        self, rec: RecordedRequest, app_id: str, command_id: str, guild_id: str | None = None
    ) -> Any:
        scope = self._scope(app_id, guild_id)
        i, _ = self._command_or_404(scope, command_id)
        del self.world.commands[scope][i]
        return 204, None

    async def _get_command_permissions(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        self._scope(app_id, guild_id)
        return []

    # ---- REST handlers: interactions -----------------------------------------------------------

    async def _interaction_callback(self, rec: RecordedRequest, interaction_id: str, token: str) -> Any:
        world = self.world
        inter = world.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        if inter is None or inter.token != token or token in self.refused_tokens:
            raise ApiError(404, 10062, "Unknown interaction")
        if self.interaction_deadline is not None and self.clock() - inter.created > self.interaction_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        if inter.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = self._body(rec)
        ctype = int(body.get("type") or 0)
        data: dict[str, Any] = dict(body.get("data") or {})
        if ctype not in P.CALLBACKS_ALLOWED.get(inter.type, frozenset()):
            raise invalid_form({"type": f"callback type {ctype} is invalid for interaction type {inter.type}"})
        if ctype in (P.CB_DEFERRED_UPDATE, P.CB_UPDATE) and inter.message_id is None:
            raise invalid_form({"type": "this interaction has no message to update"})
        channel = self._channel_or_404(str(inter.channel_id))  # deleted since: 10003, as Discord answers
        message: FakeMessage | None = None
        loading = False
        launched = None
        if ctype == CB_LAUNCH_ACTIVITY:
            launched = self.activities.launch(inter)
            if launched is None:
                assert self.activities.refusal is not None
                raise ApiError(*self.activities.refusal)
        elif ctype == P.CB_MESSAGE:
            message = self._create_message(rec, data, channel, interaction=inter)
        elif ctype == P.CB_DEFERRED_MESSAGE:
            flags = P.FLAG_LOADING | (int(data.get("flags") or 0) & P.FLAG_EPHEMERAL)
            message = self._create_message(rec, {}, channel, interaction=inter, flags=flags, validate=False)
            loading = True
        elif ctype == P.CB_DEFERRED_UPDATE:
            message = world.messages[inter.message_id]  # type: ignore[index]
        elif ctype == P.CB_UPDATE:
            message = self._edit(rec, data, world.messages[inter.message_id])  # type: ignore[index]
        elif ctype == P.CB_AUTOCOMPLETE:
            choices = list(data.get("choices") or [])
            problems = L.choice_problems(choices)
            if problems:
                raise invalid_form(problems)
            inter.choices = choices
        elif ctype == P.CB_MODAL:
            missing = {k: v for k, v in (("custom_id", "required"), ("title", "required")) if not data.get(k)}
            if missing:
                raise invalid_form(missing)
            inter.modal = data
        inter.acknowledged = True
        inter.callback_type = ctype
        if message is not None:
            inter.original_message_id = message.id
        self._add_sent(
            "callback", rec, data, callback_type=ctype, interaction_id=inter.id, channel_id=channel.id, message=message
        )
        if rec.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        answer: dict[str, Any] = {"interaction": {"id": str(inter.id), "type": inter.type}}
        if launched is not None:
            return self.activities.answer(answer["interaction"], launched)
        if message is not None:
            answer["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=loading,
                response_message_ephemeral=message.ephemeral,
            )
            answer["resource"] = {"type": ctype, "message": P.message_payload(world, message)}
        return answer

    async def _get_activity_instance(self, rec: RecordedRequest, app_id: str, instance_id: str) -> Any:
        if app_id != str(self.world.application_id):
            raise ApiError(404, 10002, "Unknown Application")
        body = self.activities.instance_payload(instance_id)
        if body is None:
            raise ApiError(404, 10070, "Unknown Activity Instance")
        return body

    async def _followup(self, rec: RecordedRequest, app_id: str, token: str) -> Any:
        inter = self._interaction_for_token(app_id, token)
        if not inter.acknowledged:
            raise ApiError(404, 10015, "Unknown Webhook")
        body = self._body(rec)
        channel = self._channel_or_404(str(inter.channel_id))
        original = self.world.messages.get(inter.original_message_id) if inter.original_message_id else None
        if (
            inter.callback_type == P.CB_DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):  # deleted "thinking...": the follow-up is a message of its own
            self._validate(body, rec, creating=True)
            message = self._edit(rec, body, original)  # the first follow-up replaces "thinking..."
        else:
            message = self._create_message(rec, body, channel, interaction=inter)
        inter.followup_ids.append(message.id)
        self._add_sent("followup", rec, body, interaction_id=inter.id, channel_id=channel.id, message=message)
        if rec.query.get("wait") in ("1", "true", "True"):
            return P.message_payload(self.world, message)
        return 204, None

    async def _get_webhook_message(self, rec: RecordedRequest, app_id: str, token: str, message_id: str) -> Any:
        inter = self._interaction_for_token(app_id, token)
        return P.message_payload(self.world, self._webhook_message(inter, message_id))

    async def _edit_webhook_message(self, rec: RecordedRequest, app_id: str, token: str, message_id: str) -> Any:
        inter = self._interaction_for_token(app_id, token)
        message = self._webhook_message(inter, message_id)
        body = self._body(rec)
        self._edit(rec, body, message)
        self._add_sent("edit", rec, body, interaction_id=inter.id, channel_id=message.channel_id, message=message)
        return P.message_payload(self.world, message)

    async def _delete_webhook_message(self, rec: RecordedRequest, app_id: str, token: str, message_id: str) -> Any:
        inter = self._interaction_for_token(app_id, token)
        message = self._webhook_message(inter, message_id)
        message.deleted = True
        self._add_sent("delete", rec, {}, interaction_id=inter.id, channel_id=message.channel_id, message=message)
        return 204, None

    # ---- REST handlers: channels and messages --------------------------------------------------

    def _require(self, channel: FakeChannel, *bits: int) -> None:
        perms = self.world.channel_permissions(self.world.bot, channel)
        if not perms & P.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        for bit in bits:
            if not perms & bit:
                raise ApiError(403, 50013, "Missing Permissions")

    async def _get_channel(self, rec: RecordedRequest, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        if channel.guild_id is not None:
            self._require(channel)
        return P.channel_payload(self.world, channel)

    def _channel_message(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        message = self.world.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.deleted or message.ephemeral or message.channel_id != channel.id:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _post_message(self, rec: RecordedRequest, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        body = self._body(rec)
        if channel.type == P.CH_DM:
            recipient = self.world.users[channel.recipient_id or 0]
            if not recipient.accepts_dms:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        elif channel.type == P.CH_CATEGORY:
            raise ApiError(400, 50008, "Cannot send messages in a non-text channel")
        else:
            needed = [P.SEND_MESSAGES_IN_THREADS if channel.is_thread else P.SEND_MESSAGES]
            if rec.files:
                needed.append(P.ATTACH_FILES)
            self._require(channel, *needed)
            if channel.archived and channel.locked:
                # only Manage Threads may unarchive a locked thread (by posting in it)
                perms = self.world.channel_permissions(self.world.bot, channel)
                if not perms & (P.MANAGE_THREADS | P.ADMINISTRATOR):
                    raise ApiError(400, 50083, "Thread is archived")
        nonce = body.get("nonce")
        if body.get("enforce_nonce") and nonce is not None:
            # Discord: the same author and nonce within a few minutes -> the message already made.
            earlier = self.world.messages.get(self._nonces.get((channel.id, str(nonce)), 0))
            if earlier is not None and not earlier.deleted:
                self.nonce_hits.append(rec)
                return P.message_payload(self.world, earlier)
        message = self._create_message(rec, body, channel)
        if nonce is not None:
            message.nonce = str(nonce)
            self._nonces[(channel.id, message.nonce)] = message.id
        if channel.archived:
            channel.archived = False  # a new message unarchives the thread, as on Discord
        self._add_sent("message", rec, body, channel_id=channel.id, message=message)
        return P.message_payload(self.world, message)

    async def _get_messages(self, rec: RecordedRequest, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        if channel.guild_id is not None:
            self._require(channel, P.READ_MESSAGE_HISTORY)
        limit = max(1, min(100, int(rec.query.get("limit", "50"))))
        found = [
            m for m in self.world.messages.values() if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        if "before" in rec.query:
            found = [m for m in found if m.id < int(rec.query["before"])]
        if "after" in rec.query:
            found = [m for m in found if m.id > int(rec.query["after"])]
            found = found[:limit]
        found.sort(key=lambda m: m.id, reverse=True)
        return [P.message_payload(self.world, m) for m in found[:limit]]

    async def _get_message(self, rec: RecordedRequest, channel_id: str, message_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        if channel.guild_id is not None:
            self._require(channel, P.READ_MESSAGE_HISTORY)
        return P.message_payload(self.world, self._channel_message(channel, message_id))

    async def _edit_message(self, rec: RecordedRequest, channel_id: str, message_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        message = self._channel_message(channel, message_id)
        if message.author_id != self.world.bot_id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body = self._body(rec)
        if rec.files and channel.guild_id is not None:
            self._require(channel, P.ATTACH_FILES)
        self._edit(rec, body, message)
        self._add_sent("message_edit", rec, body, channel_id=channel.id, message=message)
        return P.message_payload(self.world, message)

    async def _delete_message(self, rec: RecordedRequest, channel_id: str, message_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        message = self._channel_message(channel, message_id)
        if message.author_id != self.world.bot_id:
            self._require(channel, P.MANAGE_MESSAGES)
        message.deleted = True
        self._add_sent("message_delete", rec, {}, channel_id=channel.id, message=message)
        return 204, None

    async def _create_thread(self, rec: RecordedRequest, channel_id: str, message_id: str | None = None) -> Any:
        parent = self._channel_or_404(channel_id)
        if parent.type != P.CH_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(parent, P.CREATE_PUBLIC_THREADS)
        body = self._body(rec)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form({"name": "Must be between 1 and 100 in length."})
        thread_type = int(body.get("type") or P.CH_PUBLIC_THREAD)
        thread_id = None
        if message_id is not None:
            source = self._channel_message(parent, message_id)
            thread_id = source.id  # Discord reuses the message id for a thread started from it
            thread_type = P.CH_PUBLIC_THREAD
        thread = FakeChannel(
            id=thread_id or self.world.new_id(),
            name=name,
            type=thread_type,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.world.bot_id,
        )
        if thread.id in self.world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        self.world.channels[thread.id] = thread
        return 201, P.channel_payload(self.world, thread)

    async def _no_content_in_channel(self, rec: RecordedRequest, channel_id: str, user_id: str | None = None) -> Any:
        self._channel_or_404(channel_id)
        return 204, None

    async def _reaction(self, rec: RecordedRequest, channel_id: str, message_id: str, emoji: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._channel_message(channel, message_id)
        return 204, None

    # ---- REST handlers: guild ------------------------------------------------------------------

    async def _get_guild(self, rec: RecordedRequest, guild_id: str) -> Any:
        data = P.guild_payload(self.world, guild_id=self._check_guild(guild_id))
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
        ):
            data.pop(key, None)
        if rec.query.get("with_counts") in ("1", "true", "True"):
            data["approximate_member_count"] = len(self.world.members())
            data["approximate_presence_count"] = 0
        return data

    async def _get_guild_channels(self, rec: RecordedRequest, guild_id: str) -> Any:
        gid = self._check_guild(guild_id)
        return [P.channel_payload(self.world, c) for c in self.world.guild_channels(gid)]

    async def _get_roles(self, rec: RecordedRequest, guild_id: str) -> Any:
        gid = self._check_guild(guild_id)
        return [P.role_payload(r) for r in self.world.guild_roles(gid)]

    async def _list_members(self, rec: RecordedRequest, guild_id: str) -> Any:
        self._check_guild(guild_id)
        after = int(rec.query.get("after", "0"))
        limit = max(1, min(1000, int(rec.query.get("limit", "1"))))
        members = sorted((m for m in self.world.members() if m.id > after), key=lambda m: m.id)
        return [P.member_payload(self.world, m) for m in members[:limit]]

    async def _get_member(self, rec: RecordedRequest, guild_id: str, user_id: str) -> Any:
        self._check_guild(guild_id)
        user = self.world.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None or not user.is_member:
            raise ApiError(404, 10007, "Unknown Member")
        return P.member_payload(self.world, user)


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


_SIMPLE_DISPOSITION = re.compile(r'form-data; name="([^"\\]*)"(?:; filename="([^"\\]*)")?')


def _disposition(header: str | None) -> tuple[str | None, str | None]:
    """A multipart part's name and file name from its Content-Disposition header. What clients send
    (``form-data; name="files[0]"; filename="board.png"``) is read by a pattern, as aiohttp's own
    parser would read it; anything else (escapes, RFC 2231 names) goes to that parser (the load bench
    spent a tenth of the fake's time in it, once per part for the name and again for the file name)."""
    simple = _SIMPLE_DISPOSITION.fullmatch(header or "")
    if simple is not None:
        return simple[1], simple[2]
    _, params = parse_content_disposition(header)
    return params.get("name"), content_disposition_filename(params, "filename")


_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def validate_commands(commands: Sequence[Any]) -> dict[str, str]:
    """What Discord would refuse in a command registration (field -> message)."""
    problems: dict[str, str] = {}
    if len(commands) > 100:
        problems["_"] = "Maximum number of application commands reached (100)."
    seen: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            problems[str(i)] = "expected an object"
            continue
        ctype = int(command.get("type", 1))
        name = str(command.get("name", ""))
        if (name, ctype) in seen:
            problems[f"{i}.name"] = "Application command names must be unique"
        seen.add((name, ctype))
        if ctype == 1:
            _check_named(problems, str(i), command)
            _check_options(problems, str(i), command.get("options") or [], depth=0)
        elif not 1 <= len(name) <= 32:
            problems[f"{i}.name"] = "Must be between 1 and 32 in length."
    return problems


DISCORD_LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)
"""The locales Discord accepts as keys of ``name_localizations`` and ``description_localizations``."""


def _check_named(problems: dict[str, str], where: str, obj: Mapping[str, Any]) -> None:
    name = str(obj.get("name", ""))
    if not _NAME_RE.match(name) or name != name.lower():
        problems[f"{where}.name"] = f"Invalid name {name!r} (1-32 lower-case letters, digits, - or _)."
    if not 1 <= len(str(obj.get("description", ""))) <= 100:
        problems[f"{where}.description"] = "Must be between 1 and 100 in length."
    for locale, text in (obj.get("name_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            problems[f"{where}.name_localizations.{locale}"] = "Invalid locale."
        elif not _NAME_RE.match(str(text)) or str(text) != str(text).lower():
            problems[f"{where}.name_localizations.{locale}"] = f"Invalid name {text!r}."
    for locale, text in (obj.get("description_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            problems[f"{where}.description_localizations.{locale}"] = "Invalid locale."
        elif not 1 <= len(str(text)) <= 100:
            problems[f"{where}.description_localizations.{locale}"] = "Must be between 1 and 100 in length."


def _check_options(problems: dict[str, str], where: str, options: Sequence[Mapping[str, Any]], depth: int) -> None:
    if len(options) > 25:
        problems[f"{where}.options"] = "Must be 25 or fewer in length."
    optional_seen = False
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems[f"{where}.options"] = "Option names must be unique."
    for j, option in enumerate(options):
        here = f"{where}.options.{j}"
        _check_named(problems, here, option)
        otype = int(option.get("type", 0))
        if otype in (P.OPT_SUB_COMMAND, P.OPT_SUB_COMMAND_GROUP):
            if depth >= (1 if otype == P.OPT_SUB_COMMAND_GROUP else 2):
                problems[f"{here}.type"] = "Subcommands nested too deeply."
            _check_options(problems, here, option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                problems[f"{here}.required"] = "Required options must be placed before non-required options."
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems[f"{here}.choices"] = "Must be 25 or fewer in length."
        if choices and option.get("autocomplete"):
            problems[f"{here}.autocomplete"] = "Autocomplete cannot be set with choices."
