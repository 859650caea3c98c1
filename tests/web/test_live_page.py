"""The game page's live part in a real Chromium (issue 35): the viewer keeps their place while moves arrive,
the address, links, alt text and scores follow the slider, ten tabs of one browser load and follow the game,
names with an unclosed right-to-left override stay in their place, whose turn and the scores are on the
first screen, and the page says when it is live."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page

from bot.service import Service
from bot.web import game as pages
from render import common as drawing
from tests.web.browser import PHONE, chromium, open_page
from tests.web.conftest import Site, new_game, play

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
RLO_NAME = "Ann\u202eXY"
"""A name with a right-to-left override that is never closed."""


async def state(page: Page) -> dict[str, Any]:
    return await page.evaluate("""() => ({
        value: document.getElementById('turn').value, max: document.getElementById('turn').max,
        focus: document.activeElement && document.activeElement.id, list: document.getElementById('moves').scrollTop,
        src: document.getElementById('board').getAttribute('src'), url: location.href,
        alt: document.getElementById('board').alt, news: document.getElementById('news')?.textContent ?? null,
        out: document.getElementById('turn-out').textContent,
        scores: Array.from(document.querySelectorAll('table.scores td')).map(td => td.textContent),
        nav: Array.from(document.querySelectorAll('.turnnav > *')).map(a => [a.tagName, a.getAttribute('href')]),
    })""")


async def last_turn(site: Site, service: Service, gid: int) -> int:
    return len((await site.server.timeline(await service.info(gid))).frames) - 1


async def test_a_live_update_keeps_the_viewer_place(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", ai=1)
    await play(service, gid, 12)
    async with chromium() as browser:
        w = await open_page(browser, site.game(gid), DESKTOP)
        page = w.page
        first = await last_turn(site, service, gid)
        await page.locator("#turn").fill("3")
        await page.locator("#turn").focus()
        await page.evaluate("document.getElementById('moves').scrollTop = 20")
        before = await state(page)
        assert before["value"] == "3" and before["focus"] == "turn" and "turn=3" in before["url"]
        await play(service, gid, 3)
        now = await last_turn(site, service, gid)
        assert now > first
        await page.wait_for_function(f"() => document.getElementById('turn').max === '{now}'", timeout=10_000)
        after = await state(page)
        for key in ("value", "focus", "list", "src", "url", "out"):
            assert after[key] == before[key], key
        count = now - first
        assert after["news"] == f"{count} new move{'s' if count != 1 else ''}: Now"
        # The news is a link to Now; there the viewer follows the game.
        await page.get_by_role("link", name=after["news"]).click()
        at_now = await state(page)
        assert at_now["value"] == str(now) and "turn=" not in at_now["url"] and at_now["news"] == ""
        await play(service, gid, 1)
        newest = await last_turn(site, service, gid)
        await page.wait_for_function(f"() => document.getElementById('turn').value === '{newest}'", timeout=10_000)
        assert f"/t{newest}.png" in (await state(page))["src"]
        assert not w.errors, w.errors


async def test_the_address_links_alt_text_and_scores_follow_the_slider(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", ai=1)
    await play(service, gid, 10)
    last = await last_turn(site, service, gid)
    info = await service.info(gid)
    timeline = await site.server.timeline(info)
    async with chromium() as browser:
        w = await open_page(browser, site.game(gid), DESKTOP)
        page = w.page
        await page.locator("h1").click()
        await page.keyboard.press("ArrowLeft")
        s = await state(page)
        n = last - 1
        assert s["value"] == str(n) and f"turn={n}" in s["url"]
        assert all(tag == "A" and href for tag, href in s["nav"]), s["nav"]
        assert f"turn={n - 1}" in s["nav"][1][1] and "turn=" not in s["nav"][2][1] and "turn=" not in s["nav"][3][1]
        assert f"{n} of {last}" in s["alt"]
        assert s["scores"] == [str(v) for _, v in pages.scores(info, timeline.frames[n].state, "en")]
        await page.keyboard.press("Home")
        s = await state(page)
        assert s["value"] == "0" and "turn=0" in s["url"] and "/t0.png" in s["src"]
        assert f"turn={1}" in s["nav"][2][1]
        await page.keyboard.press("ArrowRight")
        assert (await state(page))["value"] == "1"
        # Back through the history: turn 0, then turn n, then Now.
        await page.go_back()
        await page.wait_for_function("() => document.getElementById('turn').value === '0'")
        await page.go_back()
        await page.wait_for_function(f"() => document.getElementById('turn').value === '{n}'")
        await page.go_back()
        await page.wait_for_function(f"() => document.getElementById('turn').value === '{last}'")
        assert "turn=" not in page.url
        # Typing in a text field steps nothing.
        await page.evaluate(
            "() => { const i = document.createElement('input'); i.id = 'typing'; document.body.prepend(i); }"
        )
        await page.locator("#typing").focus()
        await page.keyboard.press("ArrowLeft")
        assert (await state(page))["value"] == str(last)
        await page.keyboard.press("End")
        assert (await state(page))["value"] == str(last)
        assert not w.errors, w.errors


@pytest.mark.parametrize("kind", ["quadropolis", "btc", "urbanpanic"])
async def test_the_slider_counts_turns_as_the_picture_does(site: Site, service: Service, kind: str) -> None:
    """The slider's counter is the one the picture draws in its title, at every turn shown."""
    gid = await new_game(service, kind, ai=2 if kind == "btc" else 1)
    await play(service, gid, 9)
    info = await service.info(gid)
    timeline = await site.server.timeline(info)
    last = len(timeline.frames) - 1
    async with chromium() as browser:
        w = await open_page(browser, site.game(gid), DESKTOP)
        for n in sorted({1, last // 2, last}):
            await w.page.locator("#turn").fill(str(n))
            shown = (await state(w.page))["out"]
            with drawing.record_text() as drawn:
                pages.picture(info, timeline, n, "en")
            titles = [d.full for d in drawn.texts]
            assert any(title.endswith(shown) for title in titles), (shown, titles[:3])
            assert shown in (await state(w.page))["alt"]


@pytest.mark.parametrize("kind", ["quadropolis", "btc", "urbanpanic"])
async def test_the_slider_names_the_end_picture_as_it_does(site: Site, service: Service, kind: str) -> None:
    """At a finished game's last turn the picture is the end picture: the slider says what its title says."""
    gid = await new_game(service, kind, ai=2 if kind == "btc" else 1)
    await play(service, gid, None)
    info = await service.info(gid)
    assert info.game.status == "finished"
    timeline = await site.server.timeline(info)
    async with chromium() as browser:
        w = await open_page(browser, site.game(gid), DESKTOP)
        shown = (await state(w.page))["out"]
        with drawing.record_text() as drawn:
            pages.picture(info, timeline, len(timeline.frames) - 1, "en")
        titles = [d.full for d in drawn.texts]
        assert shown and any(title.endswith(shown) for title in titles), (shown, titles[:3])


async def test_ten_tabs_of_one_browser_load_and_follow_the_game(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", ai=1)
    await play(service, gid, 2)
    async with chromium() as browser:
        ctx = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
        tabs = []
        for _ in range(10):
            tab = await ctx.new_page()
            response = await tab.goto(site.game(gid), wait_until="load", timeout=15_000)
            assert response is not None and response.status == 200
            tabs.append(tab)
        for tab in tabs:
            await tab.wait_for_function("() => document.getElementById('dot')?.dataset.state === 'on'", timeout=10_000)
        await play(service, gid, 1)
        last = await last_turn(site, service, gid)
        for tab in tabs:
            await tab.wait_for_function(f"() => document.getElementById('turn').value === '{last}'", timeout=10_000)
        # The tab that opened the stream goes; the others still follow.
        await tabs[0].close()
        await play(service, gid, 1)
        last = await last_turn(site, service, gid)
        for tab in tabs[1:]:
            await tab.wait_for_function(f"() => document.getElementById('turn').value === '{last}'", timeout=10_000)
        assert site.server.open_streams <= 1
        await ctx.close()


ISOLATED = """(name) => {
    // Every element whose text holds the name: the name is an isolating element of its own, and the words
    // after it are drawn left to right.
    const found = [];
    // <bdi>, dir, or a block (a heading, a table cell: a paragraph of its own for the bidi algorithm).
    const isolating = e => e.tagName === 'BDI' || e.hasAttribute('dir') || getComputedStyle(e).display !== 'inline';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.data.includes(name)) continue;
        const box = node.parentElement;
        const alone = isolating(box) && box.textContent === name;
        let ordered = true;
        const next = box.nextSibling && box.nextSibling.nodeType === 3 ? box.nextSibling : null;
        if (next) {
            const words = [...next.data.matchAll(/[^\\s,.:—]+/g)].slice(0, 4);
            const rects = words.map(m => { const r = document.createRange(); r.setStart(next, m.index);
                                           r.setEnd(next, m.index + m[0].length); return r.getClientRects()[0]; });
            for (let i = 1; i < rects.length; i++) {
                if (Math.abs(rects[i].top - rects[i - 1].top) < 2 && rects[i].left < rects[i - 1].left) ordered = false;
            }
        }
        const place = box.closest('#moves, .ranking, #waiting, .scores, #caption, h1, ol.games, figcaption, '
                                  + 'ul.leagues') || box;
        found.push([place.id || place.className.split(' ')[0] || place.tagName, alone, ordered,
                    next ? next.data.slice(0, 20) : '']);
    }
    return found;
}"""


async def test_an_unclosed_right_to_left_override_stays_in_the_name(site: Site, service: Service) -> None:
    over = await new_game(service, "quadropolis", host=RLO_NAME, ai=1)
    await play(service, over, None)
    playing = await new_game(service, "btc", host=RLO_NAME, ai=2)
    async with chromium() as browser:
        for gid, places in ((over, {"moves", "ranking", "scores"}), (playing, {"waiting", "scores"})):
            w = await open_page(browser, site.game(gid), DESKTOP)
            found = await w.page.evaluate(ISOLATED, RLO_NAME)
            assert places <= {p for p, _, _, _ in found}, found
            assert all(alone and ordered for _, alone, ordered, _ in found), found
            assert any(after.strip() for _, _, _, after in found), found  # some words after a name were checked
            await w.page.context.close()


async def test_the_page_at_a_glance_on_a_phone_and_a_desktop(site: Site, service: Service) -> None:
    """Whose turn and the scores come before the picture or beside it, on the first screen; the newest move
    is in sight in the move list; the slider is on a desktop's first screen."""
    gids = {}
    for kind in ("quadropolis", "btc", "urbanpanic"):
        gids[kind] = await new_game(service, kind, ai=2 if kind == "btc" else 1)
        await play(service, gids[kind], 9)
    async with chromium() as browser:
        for kind, gid in gids.items():
            for viewport in (PHONE, DESKTOP):
                w = await open_page(browser, site.game(gid), viewport)
                box = await w.page.evaluate("""() => {
                    const r = s => { const e = document.querySelector(s); const b = e.getBoundingClientRect();
                                     return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
                    const items = document.querySelectorAll('#moves li');
                    const last = items[items.length - 1].getBoundingClientRect();
                    return {waiting: r('#waiting'), scores: r('table.scores'), board: r('#board'), slider: r('#turn'),
                            list: r('#moves'), newest: {top: last.top, bottom: last.bottom},
                            caption: r('#caption'), height: innerHeight};
                }""")
                height = box["height"]
                where = (kind, viewport["width"])
                for part in ("waiting", "scores", "slider", "caption"):
                    assert box[part]["bottom"] <= height, (where, part, box[part])
                for part in ("waiting", "scores"):
                    before = box[part]["bottom"] <= box["board"]["top"]
                    beside = box[part]["left"] >= box["board"]["right"]
                    assert before or beside, (where, part, box[part], box["board"])
                newest, shown = box["newest"], box["list"]
                assert shown["top"] - 1 <= newest["top"] and newest["bottom"] <= shown["bottom"] + 1, (where, box)
                if viewport is DESKTOP:
                    assert newest["bottom"] <= height, (where, newest)
                await w.page.context.close()


HIDDEN = """(hidden) => { Object.defineProperty(document, 'hidden', {get: () => hidden, configurable: true});
                         document.dispatchEvent(new Event('visibilitychange')); }"""
"""The tab hidden or shown again, as the browser tells the page."""


async def test_the_page_tells_whether_it_is_live(site: Site, service: Service) -> None:
    """A dot and its words say the page is live; when the server goes away the page says so and stops; a
    hidden tab counts the moves that arrived in its title; the result is numbered once; dark follows the
    system."""
    over = await new_game(service, "quadropolis", ai=1)
    await play(service, over, None)
    gid = await new_game(service, "quadropolis", ai=1)
    await play(service, gid, 2)
    async with chromium() as browser:
        w = await open_page(browser, site.game(over), DESKTOP, color_scheme="dark")
        marks = await w.page.evaluate("""() => Array.from(document.querySelectorAll('.result li')).map(li =>
            [li.textContent, getComputedStyle(li).display === 'list-item'
                             && getComputedStyle(li).listStyleType !== 'none'])""")
        assert marks and all(not (re.match(r"\d+\.", text) and numbered) for text, numbered in marks), marks
        background = await w.page.evaluate("getComputedStyle(document.body).backgroundColor")
        channels = [int(c) for c in re.findall(r"\d+", background)[:3]]
        assert sum(channels) < 3 * 80, background
        await w.page.context.close()
        w = await open_page(browser, site.game(gid), DESKTOP)
        page = w.page
        await page.wait_for_function("() => document.getElementById('dot')?.dataset.state === 'on'", timeout=10_000)
        assert await page.locator("#livetext").text_content() == "Live"
        title = await page.title()
        await page.evaluate(HIDDEN, True)
        first = await last_turn(site, service, gid)
        await play(service, gid, 2)
        count = await last_turn(site, service, gid) - first
        await page.wait_for_function(f"() => document.title === {('(' + str(count) + ') ' + title)!r}", timeout=10_000)
        await page.evaluate(HIDDEN, False)
        assert await page.title() == title
        await site.server.stop()
        await page.wait_for_function(
            "() => document.getElementById('livetext').textContent === 'Not live — reload to retry'", timeout=20_000
        )
        assert await page.locator("#livetext").is_visible()
        assert await page.evaluate("document.getElementById('dot')?.dataset.state") == "off"


async def test_a_browser_without_shared_workers_holds_its_own_stream(site: Site, service: Service) -> None:
    gid = await new_game(service, "quadropolis", ai=1)
    await play(service, gid, 2)
    async with chromium() as browser:
        ctx = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
        await ctx.add_init_script("delete window.SharedWorker;")
        page = await ctx.new_page()
        await page.goto(site.game(gid))
        assert await page.evaluate("typeof SharedWorker") == "undefined"
        await page.wait_for_function("() => document.getElementById('dot')?.dataset.state === 'on'", timeout=10_000)
        assert site.server.open_streams == 1
        await play(service, gid, 1)
        last = await last_turn(site, service, gid)
        await page.wait_for_function(f"() => document.getElementById('turn').value === '{last}'", timeout=10_000)
        await ctx.close()
