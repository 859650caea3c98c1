"""The one web door into a move (issue 38): a signed-in seat's ``play.json`` and ``POST {base}/move``, and every
refusal, each one sentence that changes no table."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.service import Service
from tests.conftest import FakeClock
from tests.web.signedin import ALICE, BOB, CAROL, Board, board, everything, two_player_game

__all__ = ["board"]


async def mover(board: Board, service: Service, gid: int) -> tuple[int, Any, int, Any]:
    """(user, browser, seat, play.json) of the seat awaited now, and the same of the other seat."""
    info = await service.info(gid)
    seat = min(info.awaiting)
    user = info.seats[seat].user_xid
    assert user is not None
    browser = await board.signed_in(user, gid)
    return user, browser, seat, await board.play_json(browser, gid)


async def test_a_seat_plays_through_the_page_and_the_channel_is_told(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    _, browser, seat, data = await mover(board, service, gid)
    assert data["seat"] == seat and data["version"] == (await service.info(gid)).game.version
    move = data["play"]["regions"][0]["move"]
    status, answer = await board.post_move(
        browser, gid, {"version": data["version"], "move": move, "key": "k" * 12}, csrf=data["csrf"]
    )
    assert (status, answer) == (200, {"ok": True, "version": data["version"] + 1})
    assert [v for _, _, v in board.recorder.told] == [data["version"] + 1]  # the turn flow told it
    logged = await service.move_log(gid)
    assert logged[-1] == (seat, move)
    assert (await service.info(gid)).game.settled_version == data["version"] + 1


async def test_private_answers_are_no_store_and_vary_by_cookie(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    _, browser, _, _ = await mover(board, service, gid)
    for tail in ("", "/play.json", "/play.png"):
        async with browser.get(board.game(gid) + tail) as r:
            assert r.status == 200
            assert r.headers["Cache-Control"] == "no-store" and r.headers["Vary"] == "Cookie", tail
    stranger = await board.browser()
    for tail in ("/play.json", "/play.png"):
        async with stranger.get(board.game(gid) + tail) as r:
            assert r.status == 404


async def test_the_page_cache_keeps_private_and_public_pages_apart(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    alice = await board.signed_in(ALICE, gid)
    spectator = await board.browser()
    bob = await board.signed_in(BOB, gid)
    pages = []
    for browser in (alice, spectator, bob, spectator, alice):
        async with browser.get(board.game(gid)) as r:
            pages.append(await r.text())
    seats = [re.search(r'data-seat="(\d+)"', p) for p in pages]
    assert [m[1] if m else None for m in seats] == ["0", None, "1", None, "0"]
    assert 'src="/static/board.js"' in pages[0] and 'src="/static/board.js"' not in pages[1]
    assert f'data-play="{board.links.game(gid)[len(board.base) :]}/play.json?lang=en"' in pages[0]
    assert "play.png" not in pages[1] and "play.png" not in pages[3]


async def refused(board: Board, service: Service, call: Any, status: int, sentence: str) -> None:
    before = await everything(service._store)
    got_status, answer = await call
    assert (got_status, answer) == (status, {"error": sentence})
    assert await everything(service._store) == before


async def test_refusals_change_nothing(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    _, browser, seat, data = await mover(board, service, gid)
    version, csrf = data["version"], data["csrf"]
    good = data["play"]["regions"][0]["move"]
    body = {"version": version, "move": good, "key": "first-key-1"}
    post = board.post_move
    # A forged move (not among the seat's legal moves), and a body that is not a move at all.
    await refused(
        board,
        service,
        post(browser, gid, {**body, "move": {"kind": "forged"}}, csrf=csrf),
        422,
        "That move is not one of your choices now: nothing was played.",
    )
    await refused(
        board,
        service,
        post(browser, gid, {**body, "version": "x"}, csrf=csrf),
        422,
        "That request could not be read: nothing was changed.",
    )
    # A stale version.
    await refused(
        board,
        service,
        post(browser, gid, {**body, "version": version - 1}, csrf=csrf),
        409,
        "The game has moved on since this page was drawn: nothing was played; look at the board again and choose anew.",
    )
    # A missing or wrong CSRF token; a cross-site POST; a POST with no Origin.
    await refused(
        board,
        service,
        post(browser, gid, body, csrf=None),
        403,
        "This page's security token is missing or out of date: reload the page and try again.",
    )
    await refused(
        board,
        service,
        post(browser, gid, body, csrf=csrf[::-1]),
        403,
        "This page's security token is missing or out of date: reload the page and try again.",
    )
    for origin in ("https://evil.example", None):
        await refused(
            board,
            service,
            post(browser, gid, body, csrf=csrf, origin=origin),
            403,
            "This request did not come from this site's own page: nothing was changed.",
        )
    # The other seat, out of turn, even with a move that is legal for the awaited seat.
    other_user = (BOB, ALICE)[seat]
    other = await board.signed_in(other_user, gid)
    other_csrf = (await board.play_json(other, gid))["csrf"]
    await refused(
        board, service, post(other, gid, body, csrf=other_csrf), 409, "It is not your turn: nothing was played."
    )
    # Someone with no seat in the game.
    carol = await board.signed_in(CAROL, gid)
    async with carol.get(board.game(gid) + "/play.json") as r:
        assert r.status == 404
    # A session's CSRF token is its own: Alice's token does not work for the other seat's session.
    await refused(
        board,
        service,
        post(other, gid, body, csrf=csrf),
        403,
        "This page's security token is missing or out of date: reload the page and try again.",
    )


async def test_an_idempotency_key_counts_once(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    _, browser, _, data = await mover(board, service, gid)
    body = {"version": data["version"], "move": data["play"]["regions"][0]["move"], "key": "tap-0001"}
    first = await board.post_move(browser, gid, body, csrf=data["csrf"])
    assert first == (200, {"ok": True, "version": data["version"] + 1})
    moves = len(await service.move_log(gid))
    before = await everything(service._store)
    # A retried request (the same key, the same move): the first outcome again, nothing played twice.
    assert await board.post_move(browser, gid, body, csrf=data["csrf"]) == first
    assert await everything(service._store) == before and len(await service.move_log(gid)) == moves
    # The same key for another request: refused.
    await refused(
        board,
        service,
        board.post_move(browser, gid, {**body, "version": data["version"] + 1}, csrf=data["csrf"]),
        422,
        "This request's key was already used for another move: nothing was played.",
    )


async def test_a_double_tap_counts_once(board: Board, service: Service) -> None:
    import asyncio

    gid = await two_player_game(service)
    _, browser, _, data = await mover(board, service, gid)
    body = {"version": data["version"], "move": data["play"]["regions"][0]["move"], "key": "double-tap"}
    answers = await asyncio.gather(*(board.post_move(browser, gid, body, csrf=data["csrf"]) for _ in range(3)))
    assert answers == [(200, {"ok": True, "version": data["version"] + 1})] * 3
    assert len(await service.move_log(gid)) == 1


async def test_sign_in_links_are_single_use_and_expire(board: Board, service: Service, clock: FakeClock) -> None:
    gid = await two_player_game(service)
    browser = await board.browser()
    raw = await board.app.sessions.link_token(ALICE, gid)
    async with browser.get(f"{board.base}/signin/{raw}") as r:  # a preview: shows the button, spends nothing
        assert r.status == 200 and "<form" in await r.text()
    async with browser.post(f"{board.base}/signin/{raw}", headers={"Origin": board.base}, allow_redirects=False) as r:
        assert r.status == 303 and r.headers["Location"] == board.links.game(gid)[len(board.base) :]
        cookie = r.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=2592000" in cookie
        assert "Secure" not in cookie  # http here; https's WEB_BASE_URL makes it Secure
    before = await everything(service._store)
    again = await board.browser()
    async with again.post(f"{board.base}/signin/{raw}", headers={"Origin": board.base}) as r:
        assert r.status == 410 and "expired or was already used" in await r.text()
    late = await board.app.sessions.link_token(BOB, gid)
    before = await everything(service._store)
    clock.advance(10 * 60 + 1)
    async with again.post(f"{board.base}/signin/{late}", headers={"Origin": board.base}) as r:
        assert r.status == 410
    assert await everything(service._store) == before
    async with again.post(f"{board.base}/signin/{late}", headers={"Origin": "https://evil.example"}) as r:
        assert r.status == 403


async def test_forget_me_ends_every_session(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    _, browser, _, data = await mover(board, service, gid)
    user = (await service.info(gid)).seats[data["seat"]].user_xid
    assert user is not None
    await board.app.forget(user)
    body = {"version": data["version"], "move": data["play"]["regions"][0]["move"], "key": "after-forget"}
    await refused(
        board,
        service,
        board.post_move(browser, gid, body, csrf=data["csrf"]),
        403,
        "You are not signed in, or your session has ended: ask Discord for a new link with /game link.",
    )
    rows = await service._store.fetch_all("SELECT * FROM web_sessions WHERE user_xid = ?", (user,))
    assert rows == []


@pytest.mark.parametrize("action", ["out", "all"])
async def test_sign_out_and_sign_out_everywhere(board: Board, service: Service, action: str) -> None:
    gid = await two_player_game(service)
    phone, laptop = await board.signed_in(ALICE, gid), await board.signed_in(ALICE, gid)
    async with phone.get(f"{board.base}/sessions") as r:
        page = await r.text()
    assert page.count("<li>") == 2 and "(this browser)" in page
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]  # type: ignore[index]
    async with phone.post(
        f"{board.base}/sessions", data={"csrf": csrf, "do": "nope"}, headers={"Origin": board.base}
    ) as r:
        assert r.status == 422
    async with phone.post(
        f"{board.base}/sessions", data={"csrf": csrf, "do": action}, headers={"Origin": "https://evil.example"}
    ) as r:
        assert r.status == 403
    async with phone.post(
        f"{board.base}/sessions", data={"csrf": csrf, "do": action}, headers={"Origin": board.base}
    ) as r:
        assert r.status == 200 and "You are not signed in on this browser." in await r.text()
    async with laptop.get(board.game(gid) + "/play.json") as r:
        assert r.status == (404 if action == "all" else 200)


async def test_moves_are_limited_per_user(board: Board, service: Service) -> None:
    gid = await two_player_game(service)
    _, browser, _, data = await mover(board, service, gid)
    body = {"version": data["version"] - 1, "move": data["play"]["regions"][0]["move"]}
    answers = [
        await board.post_move(browser, gid, {**body, "key": f"limit-{n:04d}"}, csrf=data["csrf"]) for n in range(12)
    ]
    assert [status for status, _ in answers][:10] == [409] * 10  # stale, each refused on its own
    assert answers[-1] == (429, {"error": "Please wait a moment and try again."})


def test_the_cookie_is_secure_behind_https(service: Service) -> None:
    from aiohttp import web

    from bot.web.auth import Auth
    from bot.web.context import WebContext
    from bot.web.links import Links

    for base, secure in (("https://games.example.org", True), ("http://127.0.0.1:8080", False), ("", False)):
        auth = Auth(WebContext(None, Links(base, b"k" * 32)), None)
        response = web.Response()
        auth.set_cookie(response, "x" * 43)
        cookie = response.cookies["cb_session"]
        assert bool(cookie["secure"]) is secure and cookie["httponly"] and cookie["samesite"] == "Lax"


async def test_a_browsers_null_origin_counts_only_with_its_same_origin_fetch_mark(
    board: Board, service: Service
) -> None:
    """Behind ``Referrer-Policy: no-referrer`` a browser's same-origin POST says ``Origin: null``; its
    ``Sec-Fetch-Site`` (set by the browser alone) then decides."""
    gid = await two_player_game(service)
    _, browser, _, data = await mover(board, service, gid)
    body = {"version": data["version"], "move": data["play"]["regions"][0]["move"], "key": "null-origin"}
    headers = {"Origin": "null", "X-CSRF-Token": data["csrf"], "Content-Type": "application/json"}
    for site in ("cross-site", "same-site", None):
        sent = {**headers, **({"Sec-Fetch-Site": site} if site else {})}
        async with browser.post(board.game(gid) + "/move", json=body, headers=sent) as r:
            assert r.status == 403, site
    async with browser.post(
        board.game(gid) + "/move", json=body, headers={**headers, "Sec-Fetch-Site": "same-origin"}
    ) as r:
        assert r.status == 200
