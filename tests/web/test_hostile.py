"""Hostile and broken requests (issue 35): an 8 KB URL, 8 KB of headers, bad methods, a viewer gone in the
middle of a stream, a forged X-Forwarded-For. Each gets a short answer with the security headers and no
``Server`` version, and the log holds no traceback, nor anything above DEBUG about them; the per-address
limits count the real client, not what it writes in a header."""

from __future__ import annotations

import asyncio
import html
import logging
import re
import socket
import struct

import pytest

from bot.service import Service
from bot.settings import SettingsError, read_trusted_proxies
from bot.web.context import SECURITY_HEADERS
from bot.web.guard import client_address, networks
from tests.web.conftest import SECRET, Site, make_server, new_game, play

MAX_ANSWER = 4096
"""A bounded answer: the head and a short body (the not-found page is about 1 KB)."""


async def raw(port: int, request: bytes, *, limit: int = 64 * 1024) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as bytes; the answer's status, headers (lower-case names) and body, read to its end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        data = b""
        while len(data) < limit:
            chunk = await asyncio.wait_for(reader.read(65536), 10)
            if not chunk:
                break
            data += chunk
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def guarded(headers: dict[str, str]) -> None:
    """Every security header, no ``Server``."""
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name.lower()) == value, (name, headers)
    assert "server" not in headers, headers["server"]
    policy = headers["permissions-policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy


def no_traceback(records: list[logging.LogRecord]) -> None:
    loud = [r for r in records if r.levelno > logging.DEBUG]
    assert not loud, [(r.name, r.levelname, r.getMessage()[:200]) for r in loud]
    for r in records:
        assert r.exc_info is None and "Traceback" not in r.getMessage(), (r.name, r.getMessage()[:300])


def debug(caplog: pytest.LogCaptureFixture) -> None:
    """Capture every logger at DEBUG (the database driver's own chatter aside)."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.INFO, logger="aiosqlite")


def close_with_reset(sock: socket.socket) -> None:
    """Close at once with a TCP reset (as a killed browser does), not a polite end of stream."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


async def test_hostile_requests_get_short_guarded_answers_and_no_traceback(
    site: Site, service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    debug(caplog)
    gid = await new_game(service, "quadropolis")
    await play(service, gid, 2)
    path = site.game(gid).removeprefix(site.base)
    port = site.server.port
    long_url = b"GET " + path.encode() + b"?x=" + b"a" * 8192 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    long_header = (
        b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 8192 + b"\r\nConnection: close\r\n\r\n"
    )
    many_headers = (
        b"GET "
        + path.encode()
        + b" HTTP/1.1\r\nHost: x\r\n"
        + b"".join(b"X-H%d: %s\r\n" % (i, b"c" * 1000) for i in range(8))
        + b"Connection: close\r\n\r\n"
    )
    bad_method = b"BR@W " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    not_http = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64 + b"\r\n\r\n"  # a TLS hello
    status, headers, _ = await raw(port, many_headers)  # 8 KB of headers, each of a size the server reads
    assert status == 200
    guarded(headers)
    for request in (long_url, long_header, bad_method, not_http):
        status, headers, body = await raw(port, request)
        assert 400 <= status < 500, (request[:40], status)
        guarded(headers)
        assert len(body) < MAX_ANSWER and b"aaaa" not in body and b"bbbb" not in body and b"cccc" not in body
        assert b"Traceback" not in body and b"BR@W" not in body
    for method in (b"DELETE", b"PUT", b"OPTIONS", b"PATCH", b"TRACE"):
        status, headers, body = await raw(
            port,
            method + b" " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        )
        assert status in (404, 405), (method, status)
        guarded(headers)
        assert len(body) < MAX_ANSWER
    no_traceback(caplog.records)


async def test_every_answer_carries_the_security_headers(site: Site, service: Service) -> None:
    """Pages, pictures, redirects, not-found pages, the stream, the static files, HEAD, and aiohttp's own
    answers all carry them; none names the server's software."""
    gid = await new_game(service, "quadropolis")
    await play(service, gid, 3)
    game = site.game(gid)
    _, body = await site.get(game)
    src = html.unescape(re.search(r'<img id="board" src="([^"]+)"', body.decode())[1])  # type: ignore[index]
    answers = []
    for url in (
        game,
        src,
        src.replace("&m=", "&m=old"),
        game + "/t1.png",
        game + "/nothing",
        "/nothing",
        "/static/web.js",
        "/static/web.css",
        "/favicon.ico",
        game + "?turn=1&lang=ru",
    ):
        r, _ = await site.get(url, allow_redirects=False)
        answers.append((url, r.status, {k.lower(): v for k, v in r.headers.items()}))
    async with site.session.head(game) as r:
        answers.append(("HEAD", r.status, {k.lower(): v for k, v in r.headers.items()}))
    async with site.session.get(game + "/events") as r:
        answers.append(("events", r.status, {k.lower(): v for k, v in r.headers.items()}))
    statuses = [status for _, status, _ in answers]
    assert 307 in statuses and 404 in statuses and 200 in statuses and 204 in statuses, answers
    for url, _, headers in answers:
        try:
            guarded(headers)
        except AssertionError as exc:
            raise AssertionError(url) from exc


async def test_a_viewer_gone_mid_stream_is_quiet(
    site: Site, service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    """A closed tab (a reset, or a polite close) in the middle of a live stream: the stream ends, its place
    is freed, and nothing above DEBUG is logged, no traceback at all."""
    debug(caplog)
    gid = await new_game(service, "quadropolis")
    path = site.game(gid).removeprefix(site.base) + "/events"
    for reset in (True, False):
        reader, writer = await asyncio.open_connection("127.0.0.1", site.server.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        first = await asyncio.wait_for(reader.readuntil(b"event: version"), 5)
        assert b"200" in first.split(b"\r\n", 1)[0]
        assert site.server.open_streams == 1
        sock = writer.get_extra_info("socket")
        if reset:
            close_with_reset(sock.dup())
            writer.transport.abort()
        else:
            writer.close()
        for _ in range(3):  # the stream writes: the first write or the next finds the viewer gone
            await play(service, gid, 1)
            await asyncio.sleep(0.05)
        for _ in range(200):
            if site.server.open_streams == 0:
                break
            await asyncio.sleep(0.02)
        assert site.server.open_streams == 0 and not site.server.streams
    no_traceback(caplog.records)


async def test_a_forged_forwarded_for_does_not_change_the_limits_key(service: Service) -> None:
    """X-Forwarded-For from a peer that is not a trusted proxy (this machine is not, by default) is ignored:
    a client cannot escape its rate limit by writing another address in it."""
    gid = await new_game(service, "quadropolis")
    server = make_server(service, rate=0.001, burst=2)
    await server.start()
    try:
        from bot.web.links import path_game

        url = f"http://127.0.0.1:{server.port}{path_game(SECRET, gid)}"
        import aiohttp

        async with aiohttp.ClientSession() as s:
            statuses = []
            for forged in ("", "", "203.0.113.9", "198.51.100.7, 203.0.113.10", "::1", "garbage" * 50):
                headers = {"X-Forwarded-For": forged} if forged else {}
                async with s.get(url, headers=headers) as r:
                    statuses.append(r.status)
                    guarded({k.lower(): v for k, v in r.headers.items()})
            assert statuses == [200, 200, 429, 429, 429, 429]
    finally:
        await server.stop()


def test_the_client_address_behind_trusted_proxies() -> None:
    proxies = networks(["10.0.0.0/8", "127.0.0.1"])
    assert client_address("127.0.0.1", "203.0.113.9", ()) == "127.0.0.1"  # no one trusted: the peer
    assert client_address("192.0.2.1", "203.0.113.9", proxies) == "192.0.2.1"  # not a trusted peer
    assert client_address("127.0.0.1", "203.0.113.9", proxies) == "203.0.113.9"
    # The client wrote a first address itself; the trusted proxies appended the real one and their own.
    assert client_address("10.1.1.1", "1.2.3.4, 203.0.113.9, 10.2.2.2", proxies) == "203.0.113.9"
    assert client_address("10.1.1.1", "10.3.3.3, 10.2.2.2", proxies) == "10.3.3.3"  # every hop trusted
    assert client_address("10.1.1.1", "<script>, 203.0.113.9", proxies) == "203.0.113.9"
    assert client_address("10.1.1.1", "203.0.113.9, not-an-address", proxies) == "10.1.1.1"
    assert client_address("::ffff:127.0.0.1", "2001:db8::1", proxies) == "2001:db8::1"
    assert client_address("10.1.1.1", "  ", proxies) == "10.1.1.1"


def test_the_trusted_proxies_setting() -> None:
    assert read_trusted_proxies("") == ()
    assert read_trusted_proxies(" 10.0.0.2, 172.16.0.0/12  ::1 ") == ("10.0.0.2/32", "172.16.0.0/12", "::1/128")
    assert read_trusted_proxies("172.16.5.4/12") == ("172.16.0.0/12",)
    for bad in ("localhost", "10.0.0.0/33", "*", "10.0.0.1;rm -rf /"):
        with pytest.raises(SettingsError) as caught:
            read_trusted_proxies(bad)
        assert "TRUSTED_PROXIES" in str(caught.value)
    with pytest.raises(SettingsError):
        read_trusted_proxies(",".join(f"10.0.{i}.0/24" for i in range(65)))


async def test_a_region_in_the_language_picks_the_language(site: Site, service: Service) -> None:
    """``?lang=ru_RU``, ``ru-RU``, ``RU``: Russian; ``pt-BR`` (not a language of the bot): the game's."""
    gid = await new_game(service, "quadropolis", locale="hu")
    for asked in ("ru_RU", "ru-RU", "RU", "ru"):
        _, body = await site.get(site.game(gid) + f"?lang={asked}")
        assert 'lang="ru"' in body.decode() and "Ходы" in body.decode(), asked
    _, body = await site.get(site.game(gid) + "?lang=pt-BR")
    assert 'lang="hu"' in body.decode()
    _, body = await site.get(site.game(gid) + "?lang=es_ES")
    assert 'lang="es"' in body.decode()


def test_compose_trusts_its_own_network() -> None:
    """compose.yaml's TRUSTED_PROXIES is the subnet it declares for its network, and a valid setting."""
    from pathlib import Path

    import yaml

    spec = yaml.safe_load((Path(__file__).parents[2] / "compose.yaml").read_text(encoding="utf-8"))
    trusted = spec["services"]["bot"]["environment"]["TRUSTED_PROXIES"]
    subnets = [c["subnet"] for c in spec["networks"]["default"]["ipam"]["config"]]
    assert read_trusted_proxies(trusted) == tuple(subnets)
