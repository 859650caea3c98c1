"""Signing in on a phone, in Chromium (issue 38): a sign-in link's button opens the game as the seat's own page
(its picture shown, its seat named for the board's script), a second browser beside it stays signed out and
sees the public page, and the sessions page signs the first out again."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

from bot.service import GameInfo, Service
from tests.web.browser import PHONE, chromium, open_page
from tests.web.signedin import ALICE, Board, board, two_player_game

__all__ = ["board"]
pytestmark = pytest.mark.browser


def small_picture(info: GameInfo, seat: int, state: Any, locale: str) -> bytes:
    """A stand-in of ``play_picture`` a browser can show."""
    out = io.BytesIO()
    Image.new("RGB", (390, 200), (40, 90, 160)).save(out, "PNG")
    return out.getvalue()


def real_errors(errors: list[str]) -> list[str]:
    """Console errors but the board script's own 404 (``/static/board.js`` comes with the board's branch)."""
    return [e for e in errors if "404 (Not Found)" not in e and "/static/board.js" not in e]


async def test_a_sign_in_link_opens_the_seats_own_page(board: Board, service: Service) -> None:
    board.server.door.picture = small_picture
    gid = await two_player_game(service)
    raw = await board.app.sessions.link_token(ALICE, gid)
    async with chromium() as browser:
        w = await open_page(browser, f"{board.base}/signin/{raw}", PHONE)
        await w.page.get_by_role("button", name="Sign in and open the game").click()
        await w.page.wait_for_url(board.game(gid))
        assert await w.page.get_attribute("#live", "data-seat") == "0"
        await w.page.wait_for_function("document.querySelector('#mine-picture').complete")
        assert await w.page.evaluate("document.querySelector('#mine-picture').naturalWidth") == 390
        await w.no_horizontal_scroll()
        assert not w.dialogs and real_errors(w.errors) == [], (w.dialogs, w.errors)
        spectator = await open_page(browser, board.game(gid), PHONE)
        assert await spectator.page.get_attribute("#live", "data-seat") is None
        assert await spectator.page.locator("#mine, #play").count() == 0
        # The sessions page: one session, this browser's; "Sign out" ends it.
        await w.page.goto(f"{board.base}/sessions")
        assert await w.page.locator("ul.sessions li").count() == 1
        await w.page.get_by_role("button", name="Sign out", exact=True).click()
        await w.page.wait_for_load_state()
        assert "You are not signed in on this browser." in await w.page.content()
        await w.page.goto(board.game(gid))
        assert await w.page.get_attribute("#live", "data-seat") is None


async def test_the_tab_title_says_when_it_is_the_signed_in_seats_turn(board: Board, service: Service) -> None:
    """Signed in, the tab's title begins "Your turn" while the game waits for this seat, and follows the game
    live: gone once the seat has moved, back when the other seat has; a spectator's title never says it."""
    board.server.door.picture = small_picture
    gid = await two_player_game(service)
    raw = await board.app.sessions.link_token(ALICE, gid)
    async with chromium() as browser:
        w = await open_page(browser, f"{board.base}/signin/{raw}", PHONE)
        await w.page.get_by_role("button", name="Sign in and open the game").click()
        await w.page.wait_for_url(board.game(gid))
        spectator = await open_page(browser, board.game(gid), PHONE)
        seen = set()
        for _ in range(4):
            info = await service.info(gid)
            mine = 0 in info.awaiting
            seen.add(mine)
            check = (
                "() => document.title.startsWith('Your turn — ')"
                if mine
                else "() => !document.title.includes('Your turn')"
            )
            await w.page.wait_for_function(check, timeout=10_000)
            assert "Your turn" not in await spectator.page.title()
            await service.play_for(gid, min(info.awaiting))
            await w.page.wait_for_function(
                f"() => Number(document.querySelector('#live').dataset.version) > {info.game.version}", timeout=10_000
            )
        assert seen == {True, False}


async def test_the_seats_own_picture_stays_hidden_while_its_board_is_shown(board: Board, service: Service) -> None:
    """The seat's own picture is the board it taps: shown once, not twice. A new version merges the page's
    "Your view" section in again; when that merge comes after the board has read its new choices, the
    picture must stay hidden all the same."""
    from bot.web.board import play_data

    board.server.door.picture, board.server.door.data = small_picture, play_data
    gid = await two_player_game(service)
    info = await service.info(gid)
    seat = info.seat_of(ALICE)
    assert seat is not None
    while seat.seat not in (await service.info(gid)).awaiting:  # Bob's first turn, if his is first
        await service.play_for(gid, 1 - seat.seat)
    raw = await board.app.sessions.link_token(ALICE, gid)
    async with chromium() as browser:
        w = await open_page(browser, f"{board.base}/signin/{raw}", PHONE)
        page = w.page
        await page.get_by_role("button", name="Sign in and open the game").click()
        await page.wait_for_url(board.game(gid))
        shown = "() => !document.getElementById('play').hidden && document.querySelector('.playtarget, .playchoice')"
        await page.wait_for_function(shown)
        assert not await page.locator("#mine-picture").is_visible()
        assert not await page.locator("#mine h2").is_visible()
        merged = []

        async def late(route: Any) -> None:  # the page's own read of its new version comes after the board's
            if route.request.resource_type == "fetch" and "/play." not in route.request.url:
                await asyncio.sleep(1.0)
                merged.append(route.request.url)
            await route.continue_()

        await page.route(board.game(gid) + "*", late)
        version = (await service.info(gid)).game.version
        await service.play_for(gid, seat.seat)  # Alice's take: her build comes next, on the board
        assert seat.seat in (await service.info(gid)).awaiting
        await page.wait_for_function(f"() => Number(document.getElementById('live').dataset.version) > {version}")
        await page.wait_for_function(shown)
        assert merged
        assert not await page.locator("#mine-picture").is_visible()
        assert not await page.locator("#mine h2").is_visible()
        assert not w.errors, w.errors
