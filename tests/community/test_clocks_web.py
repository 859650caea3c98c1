"""The time banks on the game page (issue 41): each player's bank, the running one as a moment the page's
script counts down to; in the page's language; nothing without a bank."""

from __future__ import annotations

import re

import aiohttp
import pytest
from playwright.async_api import expect

from bot.composition import App
from bot.service import Service
from bot.web.links import Links
from bot.web.server import WebServer
from tests.community.conftest import ANA, BEA, GUILD, bid, run, toy_game
from tests.conftest import FakeClock
from tests.web.browser import PHONE, chromium

SECRET = b"clock-pages-secret"
H = 3_600_000


async def page(community: App, game_id: int, lang: str = "en") -> str:
    server = WebServer(community, Links("", SECRET), host="127.0.0.1", port=0)
    await server.start()
    try:
        links = Links(f"http://127.0.0.1:{server.port}", SECRET)
        url = links.game(game_id, lang)
        assert url is not None
        async with aiohttp.ClientSession() as session, session.get(url) as r:
            assert r.status == 200
            return (await r.read()).decode()
    finally:
        await server.stop()


async def test_the_page_shows_the_banks_and_the_running_one_ticks(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Ana bid at once (24 + 12 hours, resting); Bea's 24 hours run, 3 hours spent: the page says 21:00:00
    and gives the moment her bank runs out for the script."""
    await community.preferences.update_settings(GUILD, {"clock": "1d+12h"})
    start = clock.now_ms()
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    clock.advance(3 * 3600)
    text = await page(community, gid)
    assert "Time banks" in text
    assert re.search(r"<li><bdi>Ana</bdi>: <time class=\"bank\">36:00:00</time> in the bank</li>", text)
    running = re.search(
        r'<li class="running"><bdi>Bea</bdi>: <time class="bank" data-runs-out="(\d+)">21:00:00</time>', text
    )
    assert running and int(running.group(1)) == start + 24 * H
    polish = await page(community, gid, "pl")
    assert "Pule czasu" in polish and "zostało" in polish and "czas płynie" in polish


async def test_a_gift_a_correction_and_a_vacation_show_on_a_cached_page_without_a_move(
    service: Service, community: App, clock: FakeClock
) -> None:
    """One server, its page cache warm: Ana gives Bea 10 hours, a moderator takes 2 from Ana, Bea goes on a
    vacation that pauses deadlines; no move is made, and each time the page shows the banks as they are."""
    await community.preferences.update_settings(GUILD, {"clock": "1d+12h", "away_pauses_deadlines": True})
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    server = WebServer(community, Links("", SECRET), host="127.0.0.1", port=0)
    await server.start()
    try:
        url = Links(f"http://127.0.0.1:{server.port}", SECRET).game(gid, "en")
        assert url is not None

        async def fetch() -> str:
            async with aiohttp.ClientSession() as session, session.get(url) as r:
                assert r.status == 200
                return (await r.read()).decode()

        def bea_running(text: str) -> str | None:
            found = re.search(
                r'<li class="running"><bdi>Bea</bdi>: <time class="bank" data-runs-out="\d+">([\d:]+)<', text
            )
            return found.group(1) if found else None

        first = await fetch()
        assert bea_running(first) == "24:00:00" and await fetch() == first  # the same page, from the cache
        version = (await service.info(gid)).game.version
        await community.clocks.give_time(gid, ANA, BEA, 10)
        assert bea_running(await fetch()) == "34:00:00"
        await community.clocks.correct(gid, ANA, -2, allowed=True)
        assert '<bdi>Ana</bdi>: <time class="bank">34:00:00</time> in the bank' in await fetch()
        await community.reminders.set_away(GUILD, BEA, 2)
        paused = await fetch()
        assert bea_running(paused) is None and '<bdi>Bea</bdi>: <time class="bank">34:00:00</time>' in paused
        assert (await service.info(gid)).game.version == version
    finally:
        await server.stop()


async def test_no_bank_no_list(service: Service, community: App, clock: FakeClock) -> None:
    gid = await toy_game(service)
    await run(community, clock)
    text = await page(community, gid)
    assert "Time banks" not in text and "data-runs-out" not in text


@pytest.mark.browser
async def test_the_running_bank_ticks_in_a_browser(service: Service, community: App, clock: FakeClock) -> None:
    """In Chromium the script counts Bea's bank down from the browser's clock: 5 hours and 1 second before
    it runs out the page says 5:00:01, a second later 5:00:00, and Ana's resting bank does not move."""
    await community.preferences.update_settings(GUILD, {"clock": "1d+12h"})
    start = clock.now_ms()
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    server = WebServer(community, Links("", SECRET), host="127.0.0.1", port=0)
    await server.start()
    try:
        url = Links(f"http://127.0.0.1:{server.port}", SECRET).game(gid, "en")
        assert url is not None
        async with chromium() as browser:
            ctx = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
            await ctx.add_init_script(
                f"window.__now = {start + 24 * H - 5 * H - 1000}; Date.now = function () {{ return window.__now; }};"
            )
            tab = await ctx.new_page()
            errors: list[str] = []
            tab.on("pageerror", lambda e: errors.append(str(e)))
            await tab.goto(url, wait_until="load")
            bea = tab.locator("li.running time")
            await expect(bea).to_have_text("5:00:01")
            await tab.evaluate("window.__now += 1000")
            await expect(bea).to_have_text("5:00:00")
            assert await bea.count() == 1
            assert await tab.locator("#banks li:not(.running) time").all_text_contents() == ["36:00:00"]
            assert not errors
            await ctx.close()
    finally:
        await server.stop()
