"""What every answer of the web server shares at the HTTP level: the security headers on every response
(pages, pictures, streams, redirects, 404s, 405s and aiohttp's own 400s), no ``Server`` header, the
client's address behind the proxies the operator trusts (``TRUSTED_PROXIES``), and quiet logs.

Quiet logs: a client that goes away, or sends a request aiohttp cannot read (a request line or header
longer than the server reads, a method that is not a token, bytes that are not HTTP), is a normal event
on the internet: it is logged at DEBUG, without a traceback, and answered (when it still listens) with
a short text of a few bytes that never echoes the request.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable, Sequence
from http import HTTPStatus

from aiohttp import hdrs, web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from bot.web.context import SECURITY_HEADERS

log = logging.getLogger("bot.web.server")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
MAX_FORWARDED_HOPS = 16
"""At most this many addresses of ``X-Forwarded-For`` are read (from its right end)."""


def networks(entries: Iterable[str | Network]) -> tuple[Network, ...]:
    """The trusted proxies as networks: each entry an address (one host) or a CIDR range (ValueError if not)."""
    out: list[Network] = []
    for entry in entries:
        if isinstance(entry, ipaddress.IPv4Network | ipaddress.IPv6Network):
            out.append(entry)
        else:
            out.append(ipaddress.ip_network(entry.strip(), strict=False))
    return tuple(out)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        found = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def client_address(peer: str | None, forwarded: str, trusted: Sequence[Network]) -> str:
    """The address a request's limits are kept under: the peer, unless the peer is a trusted proxy; then the
    first address of ``X-Forwarded-For``, read from its right end, that is not a trusted proxy itself (the
    ones to its left are whatever the client wrote). An entry that is not an address ends the walk at the
    last trusted hop. Always an address in its normal spelling, never the header's text."""
    here = _ip(peer or "")
    if here is None:
        return peer or "?"
    address = here
    if trusted and forwarded and any(address in net for net in trusted):
        for entry in reversed(forwarded.split(",")[-MAX_FORWARDED_HOPS:]):
            hop = _ip(entry)
            if hop is None:
                break
            address = hop
            if not any(hop in net for net in trusted):
                break
    return str(address)


async def add_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: every answer of the application gets the security headers and no ``Server``.
    An answer that set its own ``frame-ancestors`` (the Activity's pages, :mod:`bot.web.activity`) is not
    given ``X-Frame-Options: DENY``, which would override it; every other answer is."""
    own = response.headers.get("Content-Security-Policy", "")
    framable = "frame-ancestors" in own and "frame-ancestors 'none'" not in own
    for name, value in SECURITY_HEADERS.items():
        if name == "X-Frame-Options" and framable:
            continue
        response.headers.setdefault(name, value)
    response.headers.popall(hdrs.SERVER, None)


class _Plain(web.Response):
    """A short text answer of the connection's own errors, with the security headers and no ``Server``."""

    async def _prepare_headers(self) -> None:
        await super()._prepare_headers()
        self.headers.popall(hdrs.SERVER, None)


def short_answer(status: int) -> web.Response:
    """``400 Bad Request``-like text: the status and its phrase only, nothing of the request."""
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
    response = _Plain(status=status, text=f"{status} {phrase}\n", headers=SECURITY_HEADERS)
    response.force_close()
    return response


class QuietHandler(RequestHandler):
    """aiohttp's connection handler whose own error answers (a request it cannot read, a handler that
    failed after its answer began) are logged at DEBUG without a traceback and answered shortly."""

    __slots__ = ()

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        log.debug("web: answered %s to %s (%s)", status, request.remote, type(exc).__name__ if exc else "-")
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun")  # aiohttp closes the connection, at DEBUG
        return short_answer(status)


class _QuietServer(web.Server):
    def __call__(self) -> RequestHandler:
        handler = super().__call__()
        handler.__class__ = QuietHandler  # the same slots: only the error answers differ
        return handler


class QuietRunner(web.AppRunner):
    """An :class:`aiohttp.web.AppRunner` whose connections are :class:`QuietHandler`'s."""

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.__class__ = _QuietServer
        return server
