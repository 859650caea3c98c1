"""The game page over HTTP: what it shows, its headers, a bad link, its pictures and its live events."""

from __future__ import annotations

import asyncio
import html
import json
import re

import aiohttp
import pytest

from bot import store
from bot.service import Service
from bot.testing.postgres import PostgresServer
from bot.web.context import CSP
from bot.web.links import Links
from bot.web.server import Watcher
from render import pictures
from tests.conftest import FakeClock, fresh_postgres_database
from tests.web.conftest import SECRET, Site, make_server, new_game, play

HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script> **bold** @everyone \u202eevil\u202c'


async def test_page_shows_the_game_and_escapes_names(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", host=HOSTILE)
    await play(service, gid, 6)
    r, body = await site.get(site.game(gid))
    page = body.decode()
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/html")
    assert r.headers["Content-Security-Policy"] == CSP and "unsafe-inline" not in CSP
    assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["Referrer-Policy"] == "no-referrer"
    assert "<script>alert" not in page and "<img src=x" not in page
    assert html.escape(HOSTILE) in page  # the name is there, as text
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/web.js" defer>']
    assert "Quadropolis" in page and "Waiting for:" in page and "Scores" in page
    moves = re.findall(r'<li value="(\d+)" data-turn', page)
    assert moves and moves == [str(i) for i in range(1, len(moves) + 1)]


async def test_page_speaks_the_asked_language(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", locale="hu")
    _, body = await site.get(site.game(gid))
    assert 'lang="hu"' in body.decode() and "Lépések" in body.decode()
    _, body = await site.get(site.game(gid, "pl"))
    assert 'lang="pl"' in body.decode() and "Ruchy" in body.decode()
    _, body = await site.get(site.game(gid, "xx"))  # not a language: the game's
    assert 'lang="hu"' in body.decode()


async def test_bad_links_get_a_friendly_404(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    good = site.game(gid)
    for url in (
        good[:-1] + ("A" if good[-1] != "A" else "B"),
        good.replace(f"/g/{gid}/", f"/g/{gid + 1}/"),
        "/g/999/abc",
        "/g/1",
        "/nothing",
        "/static/../../etc/passwd",
        "/static/%2e%2e%2fsettings.py",
        "/g/" + "9" * 30 + "/x",
        f"{good}/v0/t99.png",
    ):
        r, body = await site.get(url, allow_redirects=False)
        assert r.status == 404, url
        assert b"Page not found" in body and b"Traceback" not in body, url
    r, body = await site.get(good.replace(good.rsplit("/", 1)[1], "bad") + "?lang=ru")
    assert r.status == 404 and "Страница не найдена".encode() in body
    async with site.session.post(good) as posted:
        assert posted.status == 404


async def test_a_lobby_has_no_page(site: Site, service: Service) -> None:
    info = await service.create_game(
        guild_xid=None,
        channel_xid=None,
        kind="quadropolis",
        options={},
        host_xid=1,
        host_name="Host",
        ai_seats=1,
        ai_level=None,
        locale="en",
    )
    r, _ = await site.get(site.game(info.id))
    assert r.status == 404


async def test_pictures_are_the_public_ones_and_immutable(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    await play(service, gid, 4)
    _, body = await site.get(site.game(gid))
    src = html.unescape(re.search(r'<img id="board" src="([^"]+)"', body.decode())[1])  # type: ignore[index]
    r, png = await site.get(src)
    assert r.status == 200 and r.headers["Content-Type"] == "image/png" and "immutable" in r.headers["Cache-Control"]
    snap = await service.snapshot(gid)
    info = snap.info
    last = (await service._store.moves(gid))[-1]
    renderer = pictures.get("quadropolis")
    assert renderer is not None
    assert png == renderer.render_turn(snap.view(None), last.seat, [s.name for s in info.seats], locale="en")
    await play(service, gid, 1)  # a new move: the turn shown did not change, nor do its address and bytes
    r, again = await site.get(src, allow_redirects=False)
    assert r.status == 200 and again == png
    r, _ = await site.get(src.replace("&m=", "&m=X"), allow_redirects=False)  # another mark: never other bytes
    assert r.status == 307 and r.headers["Location"].endswith(src) and r.headers["Cache-Control"] == "no-store"


async def test_turns_without_javascript(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    await play(service, gid, 4)
    _, body = await site.get(site.game(gid) + "?turn=0")
    page = body.decode()
    assert "The game before the first move." in page and 'value="0"' in page and "/t0.png" in page
    nxt = html.unescape(re.search(r'<a href="([^"]+)">Next</a>', page)[1])  # type: ignore[index]
    _, body = await site.get(nxt)
    assert '<li value="1" data-turn="1" aria-current="step">' in body.decode()


async def test_the_end_shows_the_result_and_the_story(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    await play(service, gid, None)
    info = await service.info(gid)
    assert info.game.status == "finished"
    _, body = await site.get(site.game(gid))
    page = body.decode()
    assert "Result" in page and "The game is over." in page
    story = html.unescape(re.search(r'<img class="story" src="([^"]+)"', page)[1])  # type: ignore[index]
    r, png = await site.get(story)
    assert r.status == 200 and png.startswith(b"\x89PNG")


async def read_event(stream: aiohttp.ClientResponse) -> dict[str, int]:
    data = b""
    while b"\n\n" not in data:
        data += await stream.content.readany()
    block = data.split(b"\n\n", 1)[0].decode()
    assert "event: version" in block, block
    return json.loads(block.split("data: ", 1)[1])  # type: ignore[no-any-return]


async def test_events_follow_the_game_with_one_poller(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    other = await new_game(service, "quadropolis")
    url = site.game(gid) + "/events"
    async with (
        site.session.get(url) as one,
        site.session.get(url) as two,
        site.session.get(site.game(other) + "/events") as three,
    ):
        assert one.headers["Content-Type"] == "text/event-stream" and one.headers["X-Accel-Buffering"] == "no"
        assert (await read_event(one))["version"] == 0 and (await read_event(two))["version"] == 0
        assert (await read_event(three))["version"] == 0
        watcher = site.server.watcher
        assert sorted(watcher.games) == sorted([gid, other]) and len(watcher.games[gid].streams) == 2
        poller = watcher.task
        await play(service, gid, 1)
        got = await asyncio.wait_for(asyncio.gather(read_event(one), read_event(two)), 5)
        assert [g["version"] for g in got] == [1, 1]
        assert watcher.task is poller  # one poller for every watched game and every viewer
    for _ in range(100):
        if not site.server.watcher.games:
            break
        await asyncio.sleep(0.05)


async def test_a_move_made_elsewhere_reaches_the_streams_by_the_poll(site: Site, service: Service) -> None:
    """A move through another service on the same database (another process's) is found by the poll."""
    gid = await new_game(service, "quadropolis")
    elsewhere = Service(service._store)
    async with site.session.get(site.game(gid) + "/events") as stream:
        assert (await read_event(stream))["version"] == 0
        await play(elsewhere, gid, 1)
        assert (await asyncio.wait_for(read_event(stream), 5))["version"] == 1


async def test_the_keep_alive_says_the_version_so_a_missed_news_is_caught_up(
    site: Site, service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream whose news of a version was lost on the way (here: the watcher knows version 1, the stream's
    queue was never told) hears it with the next keep-alive, which says the version as the watcher knows it."""
    monkeypatch.setattr("bot.web.server.KEEPALIVE_SECONDS", 0.2)
    gid = await new_game(service, "quadropolis")
    async with site.session.get(site.game(gid) + "/events") as stream:
        assert (await read_event(stream))["version"] == 0
        site.server.watcher.games[gid].version = 1  # known, but no stream was woken
        assert (await asyncio.wait_for(read_event(stream), 5))["version"] == 1


async def test_another_process_move_reaches_the_streams_without_the_poll(postgres_server: PostgresServer) -> None:
    """Two processes' stores on one PostgreSQL database: a move committed by the other process reaches this
    process's open stream by the database's notification, with the poll so slow it never runs again."""
    url = await fresh_postgres_database(postgres_server)
    here, there = await store.Store.open(url), await store.Store.open(url)
    service, elsewhere = Service(here, FakeClock()), Service(there, FakeClock())
    server = make_server(service, poll=3600, slow_poll=3600)
    await server.start()
    try:
        assert server.listener is not None and server.listener.live and server.watcher.live
        gid = await new_game(elsewhere, "quadropolis")
        links = Links(f"http://127.0.0.1:{server.port}", SECRET)
        async with aiohttp.ClientSession() as session, session.get(links.game(gid) + "/events") as stream:
            assert (await read_event(stream))["version"] == 0
            for _ in range(100):  # the read the listener's start asked for, at once, then none for an hour
                if server.watcher.reads:
                    break
                await asyncio.sleep(0.02)
            reads = server.watcher.reads
            await play(elsewhere, gid, 1)
            assert (await asyncio.wait_for(read_event(stream), 5))["version"] == 1
            await play(elsewhere, gid, 1)
            assert (await asyncio.wait_for(read_event(stream), 5))["version"] == 2
            assert server.watcher.reads == reads and server.listener.heard == 2
    finally:
        await server.stop()
        await here.close()
        await there.close()


async def test_the_poll_slows_while_moves_are_heard_and_returns_when_not() -> None:
    """While the listener is up the poll waits ``slow_poll``; each change of the listener's state asks for
    one read at once (a move may have committed unheard), and while it is down the poll is fast again."""
    asked: list[list[int]] = []

    async def read(ids: list[int]) -> dict[int, int]:
        asked.append(ids)
        return {7: 3}

    watcher = Watcher(read, poll=0.01, slow_poll=3600)
    watcher.set_live(True)
    queue = watcher.subscribe(7, 2)
    try:
        assert await asyncio.wait_for(queue.get(), 5) == 3  # the read the new state asked for
        for _ in range(10):
            await asyncio.sleep(0.01)
        assert asked == [[7]]  # no other read for an hour
        watcher.set_live(False)  # the listener is down: the poll takes over
        for _ in range(500):
            if len(asked) >= 4:
                break
            await asyncio.sleep(0.01)
        assert len(asked) >= 4
    finally:
        watcher.unsubscribe(7, queue)
        await watcher.close()


async def test_streams_are_limited_per_address(service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    server = make_server(service, max_streams_per_address=2)
    await server.start()
    try:
        from bot.web.links import path_game
        from tests.web.conftest import SECRET

        url = f"http://127.0.0.1:{server.port}{path_game(SECRET, gid)}/events"
        async with aiohttp.ClientSession() as s, s.get(url) as a, s.get(url) as b:
            assert a.status == b.status == 200
            async with s.get(url) as c:
                assert c.status == 429 and "Retry-After" in c.headers
    finally:
        await server.stop()


async def test_requests_are_rate_limited_per_address(service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    server = make_server(service, rate=0.001, burst=3, trusted_proxies=["127.0.0.1"])  # a proxy on this machine
    await server.start()
    try:
        from bot.web.links import path_game
        from tests.web.conftest import SECRET

        url = f"http://127.0.0.1:{server.port}{path_game(SECRET, gid)}"
        async with aiohttp.ClientSession() as s:
            statuses = []
            for _ in range(5):
                async with s.get(url) as r:
                    statuses.append(r.status)
            assert statuses == [200, 200, 200, 429, 429]
            async with s.get(url, headers={"X-Forwarded-For": "203.0.113.9"}) as r:
                assert r.status == 200  # another address behind the trusted proxy
    finally:
        await server.stop()


async def test_long_queries_and_static_files(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis")
    r, _ = await site.get(site.game(gid) + "?lang=" + "x" * 2000)
    assert r.status == 404
    r, js = await site.get("/static/web.js")
    assert r.status == 200 and r.headers["Content-Type"].startswith("application/javascript") and b"EventSource" in js
    r, _ = await site.get("/static/server.py")
    assert r.status == 404


async def test_a_renamed_seat_shows_at_once(site: Site, service: Service) -> None:
    """Forget-me renames a seat without a new version: the page (cached per version) and its pictures
    name the player as they are named now, in the move list too."""
    gid = await new_game(service, "quadropolis", host="Zebulon Quartz")
    await play(service, gid, 4)
    _, before = await site.get(site.game(gid))
    assert before.count(b"Zebulon Quartz") >= 3
    src = html.unescape(re.search(r'<img id="board" src="([^"]+)"', before.decode())[1])  # type: ignore[index]
    _, old_png = await site.get(src)
    await service._store.update_seat(gid, 0, name="Forgotten player")
    _, after = await site.get(site.game(gid))
    assert b"Zebulon Quartz" not in after and b"Forgotten player" in after
    _, new_png = await site.get(src)
    assert new_png != old_png


async def test_viewers_asking_at_once_for_a_new_page_share_one_build(
    site: Site, service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move wakes every viewer, and they all ask for the new page at once: one of them builds it and the
    others are served that build (50 builds at once were what kept a tap's turn post waiting)."""
    from bot.web import page

    gid = await new_game(service, "quadropolis")
    await play(service, gid, 3)
    built: list[int] = []
    body = page.body

    def counted(*args: object, **kwargs: object) -> str:
        built.append(1)
        return body(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(page, "body", counted)
    answers = await asyncio.gather(*(site.get(site.game(gid)) for _ in range(20)))
    assert {r.status for r, _ in answers} == {200}
    assert len({text for _, text in answers}) == 1
    assert len(built) == 1
