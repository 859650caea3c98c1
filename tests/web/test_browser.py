"""The game page in a real Chromium: hostile names stay text, nothing runs, nothing breaks, on a phone and
on a desktop, with and without JavaScript."""

from __future__ import annotations

import pytest

from bot.service import Service
from tests.web.browser import DESKTOP, PHONE, chromium, open_page
from tests.web.conftest import Site, new_game, play

pytestmark = pytest.mark.browser

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "**bold** __u__ `code` @everyone <@123>",
    "\u202eevil\u202c \u200fשלום\u200f",
    "x" * 90,
]


async def test_hostile_names_are_shown_as_text(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", host=HOSTILE[0], ai=1)
    await service._store.update_seat(gid, 1, name=" ".join(HOSTILE[1:]))
    await play(service, gid, 5)
    names = [s.name for s in (await service.info(gid)).seats]
    async with chromium() as browser:
        for viewport in (PHONE, DESKTOP):
            w = await open_page(browser, site.game(gid), viewport)
            shown = await w.page.locator(".scores bdi").all_text_contents()
            assert shown == names
            assert await w.page.evaluate("document.querySelectorAll('script').length") == 1
            assert await w.page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
            assert await w.page.evaluate("document.querySelector('#board').naturalWidth") > 0
            await w.no_horizontal_scroll()
            assert not w.dialogs and not w.errors, (w.dialogs, w.errors)
            await w.page.context.close()


async def test_the_page_without_javascript(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", ai=1)
    await play(service, gid, 4)
    async with chromium() as browser:
        w = await open_page(browser, site.game(gid), PHONE, java_script_enabled=False)
        await w.no_horizontal_scroll()
        assert await w.page.locator("button.nojs").is_visible()
        await w.page.locator("#turn").fill("1")
        await w.page.locator("button.nojs").click()
        await w.page.wait_for_url("**turn=1**")
        assert "/t1.png" in (await w.page.locator("#board").get_attribute("src") or "")
        await w.page.get_by_role("link", name="First").click()
        await w.page.wait_for_url("**turn=0**")
        assert await w.page.locator("#caption").text_content() == "The game before the first move."
        assert not w.errors


async def test_every_page_fits_a_phone_and_a_desktop(site: Site, service: Service) -> None:
    """A game at its start, in play and finished (result and story chart), a turn of its replay and the
    not-found page: no console error and no horizontal scroll, in every language."""
    start = await new_game(service, "btc", ai=2)
    playing = await new_game(service, "urbanpanic", ai=1)
    await play(service, playing, 6)
    over = await new_game(service, "quadropolis", ai=1)
    await play(service, over, None)
    urls = [site.game(start), site.game(playing, "ru"), site.game(over, "hu"), site.game(over) + "?turn=3"]
    async with chromium() as browser:
        for viewport in (PHONE, DESKTOP):
            for url in urls:
                w = await open_page(browser, url, viewport)
                await w.no_horizontal_scroll()
                for img in await w.page.locator("img").all():
                    assert await img.evaluate("i => i.complete && i.naturalWidth > 0"), url
                assert not w.errors and not w.dialogs, (url, w.errors)
                await w.page.context.close()
            ctx = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
            page = await ctx.new_page()
            response = await page.goto(site.base + "/g/1/not-a-token?lang=es")
            assert response is not None and response.status == 404
            assert "Página no encontrada" in (await page.locator("h1").text_content() or "")
            assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            await ctx.close()
        over_page = await open_page(browser, site.game(over), PHONE)
        assert await over_page.page.locator("img.story").evaluate("i => i.naturalWidth > 0")
