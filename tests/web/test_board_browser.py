"""The board as a place to tap, in a real Chromium at 390 x 844 (issue 38): every move made by taps on the
seat's own picture (static/board.js over bot/web/board.py), sent through ``Service.move``.

The sign-in, sessions and the real move endpoint are another module's: here a small aiohttp server, in the
test only, serves each seat a page with board.js, its play.png and play.json (as the contract between the
two halves says: ``{"version", "seat", "csrf", "play"}``) and takes ``POST move`` through the service, with
the site's own Content-Security-Policy (no inline script or style)."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import pytest
from aiohttp import web
from playwright.async_api import Page

from bot import games
from bot.errors import GameError
from bot.i18n import error_text
from bot.service import Service
from bot.web import board
from bot.web.context import CSP
from tests.web.browser import PHONE, Watched, chromium, open_page
from tests.web.conftest import Site, new_game, play

pytestmark = pytest.mark.browser

STEP_LIMIT = 12
"""At most this many taps lead to one move (Urban Panic's Engineer: action, kind, plot, plot)."""


@dataclass
class Table:
    """One game and the test's stand-in for the seat's routes: ``/s/<seat>/`` the page, ``play.json``,
    ``play.png``, ``move`` (CSRF token ``token-<seat>``; idempotency keys remembered per seat)."""

    service: Service
    game_id: int
    users: dict[int, int]
    locale: str = "en"
    keys: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    posts: list[dict[str, Any]] = field(default_factory=list)
    refuse_next: str | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get(r"/s/{seat:\d+}/", self.page)
        app.router.add_get(r"/s/{seat:\d+}/play.json", self.play_json)
        app.router.add_get(r"/s/{seat:\d+}/play.png", self.play_png)
        app.router.add_post(r"/s/{seat:\d+}/move", self.move)
        app.router.add_get(r"/static/{name:[a-z]+\.(?:js|css)}", self.static)
        app.router.add_get("/favicon.ico", self.nothing)
        app.on_response_prepare.append(self.headers)
        return app

    async def headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Content-Security-Policy"] = CSP
        response.headers["Cache-Control"] = "no-store"

    async def nothing(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def page(self, request: web.Request) -> web.Response:
        seat = int(request.match_info["seat"])
        html = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>Play</title><link rel="stylesheet" href="/static/web.css">'
            '<script src="/static/board.js" defer></script></head><body>'
            f'<main id="live" data-seat="{seat}" data-play="/s/{seat}/play.json"></main></body></html>'
        )
        return web.Response(text=html, content_type="text/html")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = resources.files("bot.web").joinpath("static", name).read_bytes()
        return web.Response(body=body, content_type="text/css" if name.endswith(".css") else "application/javascript")

    async def play_json(self, request: web.Request) -> web.Response:
        seat = int(request.match_info["seat"])
        snap = await self.service.snapshot(self.game_id)
        body: dict[str, Any] = {"version": snap.version, "seat": seat, "csrf": f"token-{seat}"}
        if seat in snap.info.awaiting and games.rules(snap.info.game.kind).legal_moves(snap.state, seat):
            body["play"] = board.play_data(snap.info, seat, snap.state, self.locale)
        return web.json_response(body)

    async def play_png(self, request: web.Request) -> web.Response:
        snap = await self.service.snapshot(self.game_id)
        picture = board.play_picture(snap.info, int(request.match_info["seat"]), snap.state, self.locale)
        return web.Response(body=picture, content_type="image/png")

    async def move(self, request: web.Request) -> web.Response:
        seat = int(request.match_info["seat"])
        if request.headers.get("X-CSRF-Token") != f"token-{seat}":
            return web.json_response({"error": "forbidden"}, status=403)
        body = await request.json()
        self.posts.append(body)
        if self.refuse_next is not None:
            sentence, self.refuse_next = self.refuse_next, None
            return web.json_response({"error": sentence}, status=409)
        done = self.keys.get((seat, body["key"]))
        if done is not None:
            return web.json_response(done)
        try:
            outcome = await self.service.move(
                self.game_id, self.users[seat], body["move"], expected_version=int(body["version"])
            )
        except GameError as error:
            return web.json_response({"error": error_text(error, self.locale)}, status=422)
        answer = {"ok": True, "version": outcome.version}
        self.keys[(seat, body["key"])] = answer
        return web.json_response(answer)


@asynccontextmanager
async def served(table: Table) -> AsyncIterator[str]:
    runner = web.AppRunner(table.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def new_table(service: Service, kind: str, humans: int, options: dict[str, Any] | None = None) -> Table:
    info = await service.create_game(
        guild_xid=None,
        channel_xid=None,
        kind=kind,
        options=options or {},
        host_xid=1,
        host_name="Ann",
        ai_seats=0,
        ai_level=None,
        locale="en",
    )
    for user in range(2, humans + 1):
        await service.join(info.id, user, f"Player {user}")
    started = await service.start(info.id, 1)
    return Table(service, started.id, {s.seat: int(s.user_xid or 0) for s in started.seats})


async def targets_fit(page: Page) -> int:
    """Every target and button of the step: at least 44 x 44 CSS px and labelled; returns how many."""
    found = await page.evaluate("""() => Array.from(document.querySelectorAll('#play button')).map(b => {
        const r = b.getBoundingClientRect();
        return [r.width, r.height, b.getAttribute('aria-label') || b.textContent, b.className]; })""")
    for width, height, label, cls in found:
        assert width >= 44 and height >= 44, (width, height, label, cls)
        assert label.strip(), cls
    return len(found)


async def tell_version(watched: dict[int, Watched], version: int) -> None:
    """What web.js does on a live update: the ``cityversion`` event on #live."""
    for w in watched.values():
        await w.page.evaluate(
            "v => document.getElementById('live').dispatchEvent("
            "new CustomEvent('cityversion', {detail: {version: v}}))",
            version,
        )


async def tap_a_move(page: Page, rng: random.Random) -> dict[str, Any]:
    """Taps through the steps of one move, then checks the preview and confirms; returns what was shown."""
    await page.locator(".playtarget, .playchoice").first.wait_for()
    taps = on_board = 0
    while not await page.locator(".playconfirm").count():
        assert taps < STEP_LIMIT
        await targets_fit(page)
        options = page.locator(".playtarget, .playchoice")
        count = await options.count()
        assert count > 0
        choice = options.nth(rng.randrange(count))
        on_board += await choice.evaluate("b => b.classList.contains('playtarget')")
        if rng.random() < 0.5:
            await choice.focus()
            await page.keyboard.press("Enter" if rng.random() < 0.5 else " ")
        else:
            await choice.click()
        taps += 1
    await targets_fit(page)
    sentence = await page.locator(".playsaid").text_content() or ""
    assert sentence.startswith("You play: ")
    assert await page.locator(".playmark").count() >= min(on_board, 1)  # the chosen places are lit
    await page.locator(".playconfirm").click()
    return {"sentence": sentence, "taps": taps}


async def play_by_taps(table: Table, url: str, stop: Any, rng: random.Random, limit: int) -> list[dict[str, Any]]:
    """Every awaited seat moves by taps on its own page until ``stop(info)``; returns the moves shown."""
    shown: list[dict[str, Any]] = []
    async with chromium() as browser:
        pages = {seat: await open_page(browser, f"{url}/s/{seat}/", PHONE) for seat in table.users}
        for _ in range(limit):
            info = await table.service.info(table.game_id)
            if info.game.status != "active" or await stop():
                break
            seat = min(info.awaiting)
            before = info.game.version
            shown.append(await tap_a_move(pages[seat].page, rng))
            for _ in range(200):
                after = await table.service.info(table.game_id)
                if after.game.version != before:
                    break
                await pages[seat].page.wait_for_timeout(25)
            assert after.game.version == before + 1
            await tell_version(pages, after.game.version)
        for w in pages.values():
            await w.no_horizontal_scroll()
            assert not w.errors and not w.dialogs, (w.errors, w.dialogs)
    return shown


async def never() -> bool:
    return False


async def test_a_whole_two_player_quadropolis_classic_game_by_taps(service: Service) -> None:
    table = await new_table(service, "quadropolis", 2, {"mode": "classic"})
    async with served(table) as url:
        shown = await play_by_taps(table, url, never, random.Random(3), 200)
    final = await service.info(table.game_id)
    assert final.game.status == "finished", len(shown)
    assert len(table.posts) == len(shown) == final.game.version
    assert len({p["key"] for p in table.posts}) == len(table.posts)  # a fresh key per move


async def test_a_between_two_cities_round_by_taps(service: Service) -> None:
    table = await new_table(service, "btc", 3, {"mode": "standard"})
    first_round = 1

    async def next_round() -> bool:
        return (await service.snapshot(table.game_id)).view(None).get("round") != first_round

    async with served(table) as url:
        await play_by_taps(table, url, next_round, random.Random(5), 80)
    snap = await service.snapshot(table.game_id)
    assert snap.view(None).get("round") == first_round + 1
    log = [json.loads(json.dumps(m)) for _, m in await service.move_log(table.game_id)]
    assert {m["kind"] for m in log} >= {"choose", "place"}


async def test_an_urban_panic_turn_by_taps_with_back_and_a_refused_move(service: Service) -> None:
    table = await new_table(service, "urbanpanic", 2, {"variant": "basic"})
    async with served(table) as url, chromium() as browser:
        seat = min((await service.info(table.game_id)).awaiting)
        w = await open_page(browser, f"{url}/s/{seat}/", PHONE)
        page = w.page
        await page.locator(".playchoice").first.wait_for()
        # Back before sending: a step back, nothing sent
        await page.locator(".playchoice").first.click()
        await page.locator(".playback").wait_for()
        await page.locator(".playback").click()
        assert not table.posts
        # a refused move shows the server's sentence; Confirm again retries with the same key
        rng = random.Random(1)
        table.refuse_next = "This move is stale: the board changed."
        await tap_a_move(page, rng)
        await page.get_by_text("This move is stale: the board changed.").wait_for()
        await page.locator(".playconfirm").click()
        version = 0
        for _ in range(200):
            version = (await service.info(table.game_id)).game.version
            if version == 1:
                break
            await page.wait_for_timeout(25)
        assert version == 1 and len(table.posts) == 2 and table.posts[0]["key"] == table.posts[1]["key"]
        # the rest of the turn, to its end
        while seat in (await service.info(table.game_id)).awaiting:
            before = (await service.info(table.game_id)).game.version
            await page.wait_for_function("() => !document.querySelector('.playconfirm')")
            await tap_a_move(page, rng)
            for _ in range(200):
                if (await service.info(table.game_id)).game.version != before:
                    break
                await page.wait_for_timeout(25)
        log = [m for _, m in await service.move_log(table.game_id)]
        assert log[-1]["kind"] == "end_turn" and 1 - seat in (await service.info(table.game_id)).awaiting
        refused = "Failed to load resource: the server responded with a status of 409 (Conflict)"
        assert w.errors == [refused] and not w.dialogs, (w.errors, w.dialogs)  # the refusal, as the browser logs it


async def test_the_page_script_tells_board_js_of_each_new_version(site: Site, service: Service) -> None:
    """web.js's live updates reach board.js as a ``cityversion`` event on #live with the game's version."""
    gid = await new_game(service, "quadropolis", ai=1)
    async with chromium() as browser:
        w = await open_page(browser, site.game(gid), PHONE)
        await w.page.evaluate("""() => { window.heardVersions = [];
            document.getElementById('live').addEventListener('cityversion',
                e => window.heardVersions.push(e.detail.version)); }""")
        await play(service, gid, 2)
        version = (await service.info(gid)).game.version
        await w.page.wait_for_function("v => window.heardVersions.includes(v)", arg=version)
        assert not w.errors, w.errors


def round_changes(service: Service, table: Table) -> Any:
    async def changed() -> bool:
        view = (await service.snapshot(table.game_id)).view(None)
        return bool(view.get("round", 1) != 1)

    return changed


async def test_a_quadropolis_expert_round_by_taps(service: Service) -> None:
    table = await new_table(service, "quadropolis", 2, {"mode": "expert"})
    async with served(table) as url:
        await play_by_taps(table, url, round_changes(service, table), random.Random(8), 80)
    assert (await service.snapshot(table.game_id)).view(None).get("round") == 2


async def test_a_solo_between_two_cities_round_against_the_automa_by_taps(service: Service) -> None:
    table = await new_table(service, "btc", 1, {"mode": "solo_full"})
    async with served(table) as url:
        await play_by_taps(table, url, round_changes(service, table), random.Random(9), 60)
    assert (await service.snapshot(table.game_id)).view(None).get("round") == 2


async def test_urban_panic_party_moves_by_taps(service: Service) -> None:
    table = await new_table(service, "urbanpanic", 2, {"variant": "party"})
    async with served(table) as url:
        shown = await play_by_taps(table, url, never, random.Random(4), 8)
    kinds = {m["kind"] for _, m in await service.move_log(table.game_id)}
    assert len(shown) == 8 and "draw" in kinds and kinds & {"place", "drop"}
