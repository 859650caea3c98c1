"""The league page and the player page in a real Chromium, on a phone and on a desktop: every picture loads,
hostile names stay text and nothing runs, no console error, no horizontal scroll on the phone, and the language
switch works."""

from __future__ import annotations

import pytest

from bot.composition import compose
from bot.service import Service
from bot.web import links
from tests.community.conftest import ANA, GUILD
from tests.community.test_web_pages import HOSTILE, rated_league
from tests.conftest import FakeClock
from tests.web.browser import DESKTOP, PHONE, chromium, open_page
from tests.web.conftest import SECRET, Site
from tests.web.test_live_page import ISOLATED, RLO_NAME

pytestmark = pytest.mark.browser


async def test_league_and_player_pages_on_a_phone_and_a_desktop(site: Site, service: Service, clock: FakeClock) -> None:
    community = compose(service, boot="first")
    league_id = await rated_league(community, service, clock, ana=HOSTILE)
    league = site.base + links.path_league(SECRET, league_id)
    player = site.base + links.path_player(SECRET, GUILD, ANA)
    async with chromium() as browser:
        for url in (league, player):
            for viewport in (PHONE, DESKTOP):
                w = await open_page(browser, url, viewport)
                images = await w.page.evaluate(  # each lazy picture scrolled to, then decoded
                    """async () => { for (const i of document.images) { i.scrollIntoView();
                                      await i.decode().catch(() => {}); }
                                     window.scrollTo(0, 0);
                                     return Array.from(document.images).map(i => [i.complete, i.naturalWidth]); }"""
                )
                assert images and all(done and width > 0 for done, width in images), images
                assert await w.page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
                assert await w.page.evaluate("document.querySelectorAll('script').length") == 0
                text = await w.page.locator("body").inner_text()
                assert "<script>alert(2)</script>" in text  # the name, as text
                await w.no_horizontal_scroll()
                assert not w.dialogs and not w.errors, (w.dialogs, w.errors)
                await w.page.context.close()
        w = await open_page(browser, league, PHONE)
        await w.page.locator('a[hreflang="hu"]').click()
        await w.page.wait_for_url("**lang=hu**")
        assert await w.page.evaluate("document.documentElement.lang") == "hu"
        game = w.page.locator("ol.games a").first
        await game.click()
        await w.page.wait_for_load_state("load")
        assert "/g/" in w.page.url and await w.page.evaluate("document.documentElement.lang") == "hu"
        assert not w.errors, w.errors


async def test_an_unclosed_right_to_left_override_stays_in_the_name(
    site: Site, service: Service, clock: FakeClock
) -> None:
    """The league and player pages with a name whose right-to-left override is never closed: each place
    the name is shown isolates it (its own element, FSI … PDI in the title and alt texts) and the words
    after it keep their order."""
    community = compose(service, boot="first")
    league_id = await rated_league(community, service, clock, ana=RLO_NAME)
    league = site.base + links.path_league(SECRET, league_id)
    player = site.base + links.path_player(SECRET, GUILD, ANA)
    async with chromium() as browser:
        for url, places in ((league, {"scores", "games", "FIGCAPTION"}), (player, {"H1"})):
            w = await open_page(browser, url, DESKTOP)
            found = await w.page.evaluate(ISOLATED, RLO_NAME)
            assert places <= {p for p, _, _, _ in found}, found
            assert all(alone and ordered for _, alone, ordered, _ in found), found
            alts = await w.page.evaluate("Array.from(document.images).map(i => i.alt)")
            for text in [await w.page.title(), *alts]:
                if RLO_NAME in text:
                    assert "\u2068" + RLO_NAME + "\u2069" in text, text
            await w.page.context.close()
        w = await open_page(browser, player, DESKTOP)
        assert await w.page.title() == "\u2068" + RLO_NAME + "\u2069: games and leagues"
