"""The after-game analysis on the game page (issue 40), in a real Chromium at phone and desktop sizes: once a
finished game's analysis is kept, each move of the list carries its loss as a sign and a number (never a colour
alone), the result gives each player's accuracy; a game in play, or one not yet analysed, shows none of it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from babel.numbers import format_decimal

from bot.composition import App, compose
from bot.i18n import t
from bot.service import Service
from bot.web.links import Links
from bot.web.server import WebServer
from tests.web.browser import DESKTOP, PHONE, chromium, open_page
from tests.web.conftest import SECRET, new_game, play

pytestmark = pytest.mark.browser

SIGNS = {"small": "?!", "medium": "?", "large": "??"}


@pytest.fixture
async def served(service: Service) -> AsyncIterator[tuple[App, WebServer, Links]]:
    app = compose(service, boot="web")
    app.analyses.samples = 1
    server = WebServer(app, Links("", SECRET), host="127.0.0.1", port=0)
    await server.start()
    try:
        yield app, server, Links(f"http://127.0.0.1:{server.port}", SECRET)
    finally:
        await server.stop()
        app.analyses.close()


def one(value: float, loc: str = "en") -> str:
    return format_decimal(value, format="#,##0.0", locale=loc)


async def test_each_move_carries_its_loss_and_each_player_their_accuracy(
    served: tuple[App, WebServer, Links], service: Service
) -> None:
    app, server, links = served
    live = await new_game(service, "quadropolis", options={"mode": "classic"})
    await play(service, live, 6)
    gid = await new_game(service, "quadropolis", host="Ana", options={"mode": "classic"})
    await play(service, gid, None)
    url, live_url = links.game(gid), links.game(live)
    assert url is not None and live_url is not None
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as r:
            before = await r.text()
        assert 'class="loss"' not in before and 'id="accuracy"' not in before  # not analysed yet

        assert await app.analyses.run_pass() == [gid]
        row = await app.analyses.get(gid)
        assert row is not None and row.result is not None
        result = row.result
        async with session.get(url) as r:
            assert 'class="loss"' in await r.text()  # the same page again, now with the analysis
        async with session.get(live_url) as r:
            assert 'class="loss"' not in await r.text()  # a game in play: nothing weighed, nothing shown

    info = await service.info(gid)
    timeline = await server.timeline(info)
    weighed = {int(m["number"]): m for m in result["moves"]}
    async with chromium() as browser:
        for viewport in (PHONE, DESKTOP):
            w = await open_page(browser, url, viewport)
            items = w.page.locator("#moves li")
            marked = 0
            for index in range(await items.count()):
                item = items.nth(index)
                turn = int(await item.get_attribute("data-turn") or 0)
                # A told move may cover several moves of the log (a take and its placement): its decisions.
                span = range(timeline.frames[turn - 1].moves + 1, timeline.frames[turn].moves + 1)
                moves = [weighed[n] for n in span if n in weighed]
                marks = item.locator(".loss")
                if not moves:
                    assert await marks.count() == 0, "a move nobody chose has no mark"
                    continue
                marked += len(moves)
                loss = round(sum(float(m["loss"]) for m in moves), 2)
                sizes = [m["miss"] for m in moves if m["miss"]]
                worst = max(sizes, key=list(SIGNS).index) if sizes else ""
                sign = SIGNS.get(worst, "✓" if loss == 0 else "≈")
                assert (await marks.locator(".sign").inner_text()).strip() == sign
                assert (await marks.locator("[aria-hidden]").inner_text()).split()[-1] == one(loss)
                size = worst or ("best" if loss == 0 else "close")
                words = t("web.analysis.mark", "en", size=t(f"web.analysis.{size}", "en"), loss=one(loss))
                assert await marks.locator(".vh").inner_text() == words  # said in words, not by colour alone
            assert marked == len(weighed) and marked > 0
            assert any(m["miss"] for m in result["moves"]), "the AI's moves miss now and then"

            accuracy = await w.page.locator("#accuracy li").all_text_contents()
            assert len(accuracy) == 2
            for p, line in zip(result["players"], accuracy, strict=True):
                assert line.startswith(f"{info.name(p['seat'])}: accuracy {one(p['accuracy'])} ")
            box = await w.page.locator("#moves .loss").first.bounding_box()
            assert box is not None and box["x"] + box["width"] <= viewport["width"]
            await w.no_horizontal_scroll()
            assert not w.dialogs and not w.errors, (w.dialogs, w.errors)
            await w.page.context.close()
