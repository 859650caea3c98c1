"""The hidden-information probe extended to sessions (issue 38): in every game and phase, a signed-in seat's
page, stream, ``play.json`` and pictures are drawn from no view but the public one and its own seat's (never
another seat's hand or unrevealed choice), and a signed-out viewer's from the public view only, while a seat
is signed in beside them. The board's two functions are the tests' stand-ins (``tests/web/signedin.py``), which
draw from ``view(state, seat)`` as the real ones do."""

from __future__ import annotations

import html
import re
from typing import Any

import aiohttp
import pytest

from bot.service import Service
from tests.web.conftest import new_game, play
from tests.web.signedin import Board, board
from tests.web.test_hidden import PHASES, SEATS, seat_views

__all__ = ["board", "seat_views"]
HOST = 1
"""``new_game``'s host, seat 0; the other seats are the AI's."""


async def walk(board: Board, browser: aiohttp.ClientSession, gid: int, *, signed_in: bool) -> str:
    """The page, every picture it names (the turns', the story's, its own), ``play.json`` and one event."""
    async with browser.get(board.game(gid)) as r:
        assert r.status == 200
        page = await r.text()
    sources = [html.unescape(s) for s in re.findall(r'(?:src|data-src)="([^"]+)"', page)]
    for source in sources:
        if source.startswith("/static/"):
            continue
        async with browser.get(board.base + source.replace("{n}", "0")) as r:
            assert r.status == 200, source
            page += (await r.read()).decode("latin-1")
    async with browser.get(board.game(gid) + "/play.json") as r:
        assert r.status == (200 if signed_in else 404)
        page += await r.text()
    async with browser.get(board.game(gid) + "/events") as stream:
        page += (await stream.content.readuntil(b"\n\n")).decode()
    return page


@pytest.mark.parametrize("kind", sorted(SEATS))
async def test_a_signed_in_seat_sees_its_own_view_and_no_other(
    board: Board, service: Service, seat_views: list[tuple[str, Any]], kind: str
) -> None:
    gid = await new_game(service, kind, ai=SEATS[kind] - 1)
    seat_browser = await board.signed_in(HOST, gid)
    spectator = await board.browser()
    played = 0
    for phase in PHASES:
        played += await play(service, gid, None if phase is None else phase - played)
        asked = len(seat_views)
        page = await walk(board, seat_browser, gid, signed_in=True)
        mine = seat_views[asked:]
        assert {seat for _, seat in mine} <= {None, 0}, (kind, phase, sorted(set(mine), key=str))
        assert 'data-seat="0"' in page
        if phase is None or (await service.info(gid)).game.status != "active":
            continue
        assert (kind, 0) in mine, "the seat's own view is shown (the probe must see it asked)"
        asked = len(seat_views)
        public = await walk(board, spectator, gid, signed_in=False)
        assert all(seat is None for _, seat in seat_views[asked:]), (kind, phase)
        assert "data-seat" not in public and "play.png" not in public
