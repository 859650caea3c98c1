"""The best move's picture beside the played one (issue 40): once a finished game's analysis is kept, choosing a
move shows the renderer's picture of the position the best move would have made, from the spectator's view, at
an immutable address with a mark, captioned with the best move and its expected margin; a move played as well
as the best says so and has no picture; a game in play, or not yet analysed, has none. In Chromium at phone
size (stacked) and desktop size (side by side)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from babel.numbers import format_decimal

from bot import games, labels
from bot.composition import App, compose
from bot.i18n import t
from bot.service import Service
from bot.web.links import Links
from bot.web.server import WebServer
from render import pictures as render_pictures
from tests.web.browser import DESKTOP, PHONE, chromium, open_page
from tests.web.conftest import SECRET, new_game, play


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


def live_data(page: str, name: str) -> str:
    found = re.search(rf'data-{name}="([^"]*)"', page)
    assert found is not None, name
    return html.unescape(found.group(1))


async def analysed_game(app: App, service: Service) -> tuple[int, dict[str, Any]]:
    gid = await new_game(service, "quadropolis", host="Ana", options={"mode": "classic"})
    await play(service, gid, None)
    assert await app.analyses.run_pass() == [gid]
    row = await app.analyses.get(gid)
    assert row is not None and row.result is not None
    return gid, dict(row.result)


def frame_decisions(turns: list[Any], result: dict[str, Any], moves_at: list[int]) -> dict[int, dict[str, Any]]:
    """Each told move's decision that lost most (Quadropolis: a move is one seat's take and placement)."""
    out = {}
    for turn in range(1, len(turns)):
        weighed = [m for m in result["moves"] if moves_at[turn - 1] < m["number"] <= moves_at[turn]]
        if weighed:
            out[turn] = max(weighed, key=lambda m: (m["loss"], -m["number"]))
    return out


async def test_the_best_move_is_drawn_by_the_renderer_at_an_immutable_address(
    served: tuple[App, WebServer, Links], service: Service
) -> None:
    app, server, links = served
    live = await new_game(service, "quadropolis", options={"mode": "classic"})
    await play(service, live, 6)
    gid, result = await analysed_game(app, service)
    info = await service.info(gid)
    timeline = await server.timeline(info)
    moves_at = [f.moves for f in timeline.frames]
    url, live_url = links.game(gid), links.game(live)
    assert url is not None and live_url is not None
    base = url.split("?")[0]
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as r:
            page = await r.text()
        turns = json.loads(live_data(page, "turns"))
        template = live_data(page, "best-src")
        decisions = frame_decisions(turns, result, moves_at)
        missed = [n for n, m in decisions.items() if m["loss"] > 0]
        played = [n for n, m in decisions.items() if m["loss"] <= 0]
        assert missed and played, "an AI game has moves as good as the best and moves that are not"

        rows = await service.move_rows(gid)
        rules = games.rules("quadropolis")
        renderer = render_pictures.get("quadropolis")
        assert renderer is not None
        names = [s.name for s in info.seats]
        for turn in missed[:3]:
            m = decisions[turn]
            best_mark, caption = turns[turn][3]
            assert best_mark
            expected = format_decimal(m["best"], format="+#,##0.0;-#,##0.0", locale="en")
            assert caption.startswith(f"Best for \u2068{info.name(m['seat'])}\u2069: ")
            assert caption.endswith(f", {expected} expected")
            # The renderer's picture of the state before the decision with the best move applied, public view.
            state = rules.setup(info.game.options, len(names), info.game.seed)
            for row in rows[: m["number"] - 1]:
                state = rules.apply(state, row.seat, dict(row.move))
            after = rules.apply(state, m["seat"], m["best_move"])
            want = bytes(renderer.render_turn(rules.view(after, None), m["seat"], names, locale="en"))
            address = f"http://127.0.0.1:{server.port}" + template.replace("{n}", str(turn)).replace("{m}", best_mark)
            async with session.get(address) as r:
                assert r.status == 200 and r.content_type == "image/png"
                assert "immutable" in r.headers["Cache-Control"]
                drawn = await r.read()
            assert drawn == want
            async with session.get(f"{base}/t{turn}.png?lang=en&m={turns[turn][2]}") as r:
                assert r.status == 200 and await r.read() != drawn, "the best move's picture is not the played one"
            async with session.get(f"{base}/b{turn}.png?lang=en&m=old", allow_redirects=False) as r:
                assert r.status == 307 and r.headers["Location"].endswith(f"m={best_mark}")  # an old mark moves on
                assert r.headers["Cache-Control"] == "no-store"

        for turn in played[:2]:
            who = f"\u2068{info.name(decisions[turn]['seat'])}\u2069"
            assert turns[turn][3] == ["", t("web.analysis.best_played", "en", name=who)]
            async with session.get(f"{base}/b{turn}.png?lang=en", allow_redirects=False) as r:
                assert r.status == 404  # nothing to draw: the best move was played
        unweighed = [n for n in range(1, len(turns)) if n not in decisions]
        for turn in unweighed[:1]:
            assert len(turns[turn]) == 3

        # Other languages caption it in their own words.
        async with session.get(links.game(gid, "hu") or "") as r:
            hu = json.loads(live_data(await r.text(), "turns"))
        assert "legjobb lépése" in hu[missed[0]][3][1] and "várhatóan" in hu[missed[0]][3][1]

        # A game in play has no best move, nor its picture.
        async with session.get(live_url) as r:
            live_page = await r.text()
        assert 'id="bestfig"' not in live_page
        assert all(len(row) == 3 for row in json.loads(live_data(live_page, "turns")))
        live_base = live_url.split("?")[0]
        async with session.get(f"{live_base}/b1.png?lang=en", allow_redirects=False) as r:
            assert r.status == 404


@pytest.mark.browser
async def test_choosing_a_move_shows_the_best_move_beside_it_on_phone_and_desktop(
    served: tuple[App, WebServer, Links], service: Service
) -> None:
    app, server, links = served
    gid, result = await analysed_game(app, service)
    info = await service.info(gid)
    timeline = await server.timeline(info)
    moves_at = [f.moves for f in timeline.frames]
    decisions = frame_decisions([None] * len(timeline.frames), result, moves_at)
    missed = next(n for n, m in decisions.items() if m["loss"] > 0)
    played = next(n for n, m in decisions.items() if m["loss"] <= 0)
    url = links.game(gid)
    assert url is not None
    async with chromium() as browser:
        for viewport in (PHONE, DESKTOP):
            w = await open_page(browser, url, viewport)
            page = w.page
            await page.locator(f'#moves li[data-turn="{missed}"] a').click()
            await page.wait_for_function(
                "() => document.getElementById('best').complete && document.getElementById('best').naturalWidth > 0"
            )
            assert await page.locator("#best").is_visible()
            caption = await page.locator("#best-caption").inner_text()
            assert caption.startswith("Best for") and caption.endswith("expected")
            assert await page.locator("#best").get_attribute("alt") == caption
            board = await page.locator("#board").bounding_box()
            best = await page.locator("#best").bounding_box()
            assert board is not None and best is not None
            if viewport is PHONE:  # stacked: the best move under the played one, each the screen's width
                assert best["y"] >= board["y"] + board["height"] - 1
                assert best["width"] > viewport["width"] * 0.8
            else:  # side by side
                assert best["x"] >= board["x"] + board["width"] - 1
                assert abs(best["y"] - board["y"]) < 80
            assert best["x"] + best["width"] <= viewport["width"]
            await w.no_horizontal_scroll()

            await page.locator(f'#moves li[data-turn="{played}"] a').click()
            await page.wait_for_function("() => document.getElementById('best').hidden")
            assert not await page.locator("#best").is_visible()
            assert (await page.locator("#best-caption").inner_text()).endswith("played the best move here.")
            await page.keyboard.press("Home")  # the set-up weighs nothing: no best move at all
            await page.wait_for_function("() => document.getElementById('bestfig').hidden")
            assert not w.dialogs and not w.errors, (w.dialogs, w.errors)
            await page.context.close()


@pytest.mark.parametrize(
    ("kind", "options", "ai"),
    [("quadropolis", {"mode": "classic"}, 1), ("btc", {}, 2), ("urbanpanic", {"variant": "advanced"}, 1)],
)
async def test_every_game_draws_its_best_moves_and_words_them_for_the_spectator(
    service: Service, kind: str, options: dict[str, Any], ai: int
) -> None:
    """Each game's best moves (here the strong AI's choices, as an analysis could find them) replay in their
    told move, are drawn, and are worded with no more than the spectator sees: Between Two Cities' kept tiles,
    chosen from a hidden hand, are never named (the public sentence of the choice), where the seat's own label
    would name them."""
    from bot.web import bestmove
    from bot.web.game import build_timeline

    gid = await new_game(service, kind, ai=ai, options=options)
    await play(service, gid, None)
    info = await service.info(gid)
    rows = await service.move_rows(gid)
    timeline = build_timeline(info, rows, None)
    rules = games.rules(kind)
    state = rules.setup(info.game.options, len(info.seats), info.game.seed)
    weighed = []
    for number, row in enumerate(rows, start=1):
        if row.seat >= 0 and len(rules.legal_moves(state, row.seat)) > 1:
            best = {k: v for k, v in rules.ai_move(state, row.seat, "strong", number).items() if k != "at"}
            own = labels.move_label(kind, best, rules.view(state, row.seat), "en", 120)
            weighed.append(
                {"number": number, "seat": row.seat, "loss": 1.5, "best": 3.25, "best_move": best, "own": own}
            )
        state = rules.apply(state, row.seat, dict(row.move))
    drawn = hidden = 0
    for frame in timeline.frames[1:]:
        best = bestmove.decision(timeline, {"moves": weighed}, frame.turn)
        if best is None:
            continue
        png = bestmove.picture(info, timeline, best, "en")
        assert png is not None and png.startswith(b"\x89PNG")
        caption = bestmove.caption(info, timeline, best, "en")
        assert caption.startswith(f"Best for {info.name(best.seat)}: ") and caption.endswith(", +3.2 expected")
        assert "#" not in caption, caption  # no tile the spectator cannot name
        if kind == "btc" and best.move.get("kind") == "choose":
            own = next(m["own"] for m in weighed if m["number"] == best.number)
            assert own not in caption
            hidden += 1
        drawn += 1
    assert drawn > 5
    assert kind != "btc" or hidden, "a draft's choice was weighed"


async def test_the_story_chart_gains_the_expected_margin_curve_once_analysed(
    served: tuple[App, WebServer, Links], service: Service
) -> None:
    from bot import story as stories
    from bot.web import weighed
    from render.story import chart_png

    app, _, links = served
    gid = await new_game(service, "quadropolis", host="Ana", options={"mode": "classic"})
    await play(service, gid, None)
    url = links.game(gid)
    assert url is not None
    origin = url.split("/g/")[0]

    async def story() -> tuple[str, bytes]:
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as r:
                found = re.search(r'<img class="story" src="([^"]+)"', await r.text())
            assert found is not None
            src = html.unescape(found.group(1))
            async with session.get(origin + src, allow_redirects=False) as r:
                assert r.status == 200 and "immutable" in r.headers["Cache-Control"]
                return src, await r.read()

    plain_src, plain = await story()
    assert await app.analyses.run_pass() == [gid]
    row = await app.analyses.get(gid)
    assert row is not None and row.result is not None
    src, analysed = await story()
    assert src != plain_src and analysed != plain  # a new address for the new chart: the old one never changes
    info = await service.info(gid)
    told = stories.build("quadropolis", info.game.options, 2, info.game.seed, await service.move_log(gid))
    names = [s.name for s in info.seats]
    assert plain == chart_png(told, names, locale="en")
    assert analysed == chart_png(told, names, locale="en", margins=weighed.margins(row.result))


async def test_a_kept_best_move_that_no_longer_replays_shows_no_picture_and_breaks_nothing(
    served: tuple[App, WebServer, Links], service: Service
) -> None:
    """An analysis kept under older rules whose best move is not legal now: the page still shows, without that
    best move, and its picture's address is the not-found page, never an error."""
    app, server, links = served
    gid = await new_game(service, "quadropolis", host="Ana", options={"mode": "classic"})
    await play(service, gid, None)
    info = await service.info(gid)
    timeline = await server.timeline(info)
    turn = next(f.turn for f in timeline.frames[1:] if f.sentence is not None)
    number, seat = timeline.frames[turn].moves, timeline.log[timeline.frames[turn].moves - 1][0]
    db = app.analyses.db
    await db.queue(gid, 1, 0)  # queued already when it finished, as every game is by default
    [row] = await db.take_due("forced", 0, 1, max_attempts=3, lease_ms=60_000)
    move = {"number": number, "seat": seat, "loss": 4.0, "best": 2.0, "played": -2.0, "miss": "medium"}
    made = {
        "players": [{"seat": seat, "decisions": 1, "accuracy": 37.0, "average_loss": 4.0, "misses": {"medium": 1}}],
        "moves": [{**move, "move": {"kind": "take"}, "best_move": {"kind": "take", "architect": 99, "slot": "?"}}],
        "turning_points": [],
    }
    assert await db.finish(row.id, "forced", made, 0, None)
    url = links.game(gid)
    assert url is not None
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as r:
            page = await r.text()
        assert r.status == 200 and 'class="loss"' in page
        turns = json.loads(live_data(page, "turns"))
        assert len(turns[turn]) == 3, "no best move where it does not replay"
        async with session.get(f"{url.split('?')[0]}/b{turn}.png?lang=en", allow_redirects=True) as r:
            assert r.status == 404
