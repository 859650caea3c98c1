"""Signing in on a phone, in Chromium (issue 38): a sign-in link's button opens the game as the seat's own page
(its picture shown, its seat named for the board's script), a second browser beside it stays signed out and
sees the public page, and the sessions page signs the first out again."""

from __future__ import annotations

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
        assert await spectator.page.locator("#mine-picture").count() == 0
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
