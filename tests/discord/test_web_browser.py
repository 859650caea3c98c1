"""The game page in a real Chromium next to the Discord harness: opened from the bot's link, it follows a
move made by a Discord click without a reload; its replay slider, its language switch, a phone and a
desktop, no console error and no horizontal scroll."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import play_turn, start
from tests.web.browser import DESKTOP, PHONE, chromium, open_page

pytestmark = pytest.mark.browser  # the secret-bid test needs no browser, but it lives with the others


def posted_link(h: Harness, gid: int) -> str:
    """The game page's address from a link button the bot posted; until the buttons exist (branch weblinks),
    the same signed address from the bot's own links."""
    for message in h.channel_messages():
        for row in message.components or []:
            for comp in row.get("components", []):
                url = comp.get("url") if isinstance(comp, dict) else None
                if url and f"/g/{gid}/" in url:
                    return str(url)
    assert h.bot.web is not None
    url = h.bot.web.ctx.links.game(gid)
    assert url is not None
    return url


async def until(page: Any, expression: str, seconds: float = 30.0) -> None:
    """Wait for a condition on the page (Playwright's wait_for_function evaluates a string, which the
    page's Content-Security-Policy forbids, as it should); 30 s is a wait on a loaded machine (the suite's
    workers and their browsers share two cores), not a measure of time."""
    for _ in range(int(seconds / 0.05)):
        if await page.evaluate(expression):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never true: {expression}")


async def test_the_page_follows_a_discord_click(web_harness: Harness) -> None:
    h = web_harness
    gid = await start(h, "classic", ["alice"], ai=1)
    names = {h.fake.user("alice").id: "alice"}
    url = posted_link(h, gid)
    async with chromium() as browser:
        w = await open_page(browser, url, DESKTOP)
        page = w.page
        await page.evaluate("window.__stayed = true")  # gone if the page reloads
        before = int(await page.locator("#live").get_attribute("data-version") or 0)
        moves_before = await page.locator("#moves li").count()
        await play_turn(h, gid, names)  # a Discord click (and the AI's answer)
        await until(page, f"Number(document.getElementById('live').dataset.version) > {before}")
        assert await page.evaluate("window.__stayed === true")
        assert await page.locator("#moves li").count() > moves_before
        version = (await h.service.info(gid)).game.version
        await until(page, f"Number(document.getElementById('live').dataset.version) == {version}")
        assert await page.evaluate("document.querySelector('#board').complete")

        # The replay slider: dragged to the start, one step to turn 1, then back to the end.
        slider = page.locator("#turn")
        last = int(await slider.get_attribute("max") or 0)
        assert last >= 2
        box: Any = await slider.bounding_box()
        await page.mouse.move(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
        await page.mouse.down()
        await page.mouse.move(box["x"] - 20, box["y"] + box["height"] / 2, steps=8)
        await page.mouse.up()
        await page.keyboard.press("ArrowRight")
        assert await slider.input_value() == "1"
        src = await page.locator("#board").get_attribute("src") or ""
        assert "/t1.png" in src
        await until(
            page, "document.querySelector('#board').complete && document.querySelector('#board').naturalWidth > 0"
        )
        first = await page.locator('#moves li[data-turn="1"]').text_content()
        assert await page.locator("#caption").text_content() == first
        await page.keyboard.press("End")
        assert await slider.input_value() == str(last)
        assert f"/t{last}.png" in (await page.locator("#board").get_attribute("src") or "")

        # Another language, by its link.
        await page.locator('a[hreflang="hu"]').click()
        await page.wait_for_url("**lang=hu**")
        assert await page.locator("html").get_attribute("lang") == "hu"
        assert "Lépések" in (await page.locator(".moves h2").text_content() or "")
        assert not w.errors and not w.dialogs, (w.errors, w.dialogs)

        phone = await open_page(browser, url, PHONE)
        await phone.no_horizontal_scroll()
        assert await phone.page.evaluate("document.querySelector('#board').naturalWidth") > 0
        assert not phone.errors, phone.errors


async def test_a_secret_bid_stays_off_the_page_until_revealed(web_harness: Harness) -> None:
    """The toy game's bids are secret: made by Discord clicks, the first is nowhere on the page, its
    picture-less board or its event stream until both are revealed, as in the channel."""
    import html
    import re

    import aiohttp

    from tests.discord.test_play_toy import bid, start_toy

    h = web_harness
    gid = await start_toy(h)
    url = posted_link(h, gid)
    async with aiohttp.ClientSession() as session:

        async def page() -> str:
            async with session.get(url) as r:
                assert r.status == 200
                return await r.text()

        await bid(h, gid, "alice", 3)
        text = await page()
        assert "3 against" not in text and "Bids revealed" not in text
        bob = (await h.service.info(gid)).seats[1].name
        shown = re.sub(r"<[^>]+>", "", text)  # the words as read (each name isolated in its <bdi>)
        assert html.escape(f"Waiting for: {bob}") in shown  # the page follows the secret move, as the status does
        async with session.get(url + "/events") as stream:
            chunk = await stream.content.readuntil(b"\n\n")
            assert b"card" not in chunk and b"3 against" not in chunk
        await bid(h, gid, "bob", 1)
        assert "Bids revealed: 3 against 1." in await page()


async def test_the_page_catches_up_when_its_reads_are_refused_for_a_while(web_harness: Harness) -> None:
    """Under a burst of requests from one address the server answers 429 with Retry-After. The news of a
    move comes once on the stream, so the page must try its read (and the picture) again, not stay behind."""
    from bot.web.watch import RateLimit

    h = web_harness
    gid = await start(h, "classic", ["alice"], ai=1)
    names = {h.fake.user("alice").id: "alice"}
    assert h.bot.web is not None
    async with chromium() as browser:
        w = await open_page(browser, posted_link(h, gid), DESKTOP)
        page = w.page
        await until(page, "document.getElementById('dot').dataset.state === 'on'")
        h.bot.web.limit = RateLimit(rate=0.7, burst=1.0)
        h.bot.web.limit._buckets["127.0.0.1"] = (0.0, time.monotonic())  # the bucket is empty
        await play_turn(h, gid, names)
        version = (await h.service.info(gid)).game.version
        await until(page, f"Number(document.getElementById('live').dataset.version) == {version}", 20)
        await until(
            page, "document.querySelector('#board').complete && document.querySelector('#board').naturalWidth > 0", 20
        )
        assert await page.evaluate("window.performance.getEntriesByType('navigation').length") == 1
