"""The hidden-information probe with the real board (issue 38): the composition root's server with
``bot.web.board``'s own ``play_picture`` and ``play_data`` (not the stand-ins of test_hidden_sessions.py). In
every game and phase, a signed-in seat's HTML, stream, ``play.json`` and ``play.png`` (its drawn text read
through ``render.common.record_text()``, the recorder the board opens) come from no view but the public one and
the seat's own, and in Between Two Cities never name a tile of another seat's hand, choice or handed-on tiles
(``secret_tiles``); a
signed-out viewer's come from the public view only; at the end both pages tell the same moves as the
channel. Between Two Cities' board is also checked for non-interference: other seats' secret tiles changed
(the public view and the seat's own unchanged), the seat's picture, drawn text and choices stay the same."""

from __future__ import annotations

import contextlib
import dataclasses
import html
import json
import re
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from bot import games
from bot.rules.btc import tiles as btc_tiles
from bot.rules.btc.audit import ids_in, secret_tiles
from bot.service import GameInfo, Service
from bot.web import board as real_board
from render import pictures
from tests.web.conftest import new_game, play
from tests.web.hiddenprobe import twin
from tests.web.signedin import Board, board
from tests.web.test_hidden import PHASES, SEATS, seat_views

__all__ = ["board", "seat_views"]
HOST = 1
"""``new_game``'s host, seat 0; the other seats are the AI's."""


class Drawn:
    """``play_picture`` as the server calls it, with every string its pen draws kept (the board records its
    own regions with ``record_text()``: the recorder it opens is read when it closes)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        self.drawing = False
        original = real_board.record_text

        @contextlib.contextmanager
        def kept() -> Iterator[Any]:
            with original() as recorder:
                yield recorder
            if self.drawing:
                self.texts.extend(recorder.texts)

        monkeypatch.setattr(real_board, "record_text", kept)

    def __call__(self, info: GameInfo, seat: int, state: Any, locale: str) -> bytes:
        self.drawing = True
        try:
            return real_board.play_picture(info, seat, state, locale)
        finally:
            self.drawing = False


def moves_told(page: str) -> list[str]:
    """The move list's items as words."""
    found = re.search(r'<ol id="moves"[^>]*>(.*?)</ol>', page, re.S)
    assert found is not None
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", found[1], re.S)]


async def walk(board: Board, browser: aiohttp.ClientSession, gid: int, *, signed_in: bool) -> tuple[str, str]:
    """(the page with every picture it names and one event, ``play.json``)."""
    async with browser.get(board.game(gid)) as r:
        assert r.status == 200
        page = await r.text()
    whole = page
    for source in [html.unescape(s) for s in re.findall(r'(?:src|data-src)="([^"]+)"', page)]:
        if source.startswith("/static/"):
            continue
        async with browser.get(board.base + source.replace("{n}", "0")) as r:
            assert r.status == 200, source
            await r.read()
    async with browser.get(board.game(gid) + "/play.json") as r:
        assert r.status == (200 if signed_in else 404)
        data = await r.text()
    async with browser.get(board.game(gid) + "/events") as stream:
        whole += (await stream.content.readuntil(b"\n\n")).decode()
    return whole, data


def btc_named(text: str, data: Any) -> set[int]:
    """The tile numbers a text or a JSON answer names (``tile:N`` choices, tile keys, moves' ``tiles``)."""
    named = {int(n) for n in re.findall(r"tile:(\d+)", text)}
    named |= ids_in(data)

    def moves(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "tiles" and isinstance(item, list):
                    named.update(t for t in item if isinstance(t, int))
                moves(item)
        elif isinstance(value, list):
            for item in value:
                moves(item)

    moves(data)
    return named


@pytest.mark.parametrize("kind", sorted(SEATS))
async def test_the_real_board_shows_a_seat_its_own_view_and_no_other(
    board: Board, service: Service, seat_views: list[tuple[str, Any]], kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = Drawn(monkeypatch)
    board.server.door.picture = drawn
    board.server.door.data = real_board.play_data
    gid = await new_game(service, kind, ai=SEATS[kind] - 1)
    seat_browser = await board.signed_in(HOST, gid)
    spectator = await board.browser()
    played = looked = 0
    for phase in PHASES:
        played += await play(service, gid, None if phase is None else phase - played)
        snap = await service.snapshot(gid)
        asked = len(seat_views)
        del drawn.texts[:]
        page, data = await walk(board, seat_browser, gid, signed_in=True)
        assert {seat for _, seat in seat_views[asked:]} <= {None, 0}, (kind, phase)
        assert 'data-seat="0"' in page
        answer = json.loads(data)
        if kind == "btc":
            secret = secret_tiles(snap.state, 0)
            named = btc_named(data + page, answer)
            assert not named & secret, (phase, sorted(named & secret))
            looked += bool(secret)
        if snap.info.game.status == "active" and 0 in snap.info.awaiting:
            assert "play" in answer and drawn.texts, (kind, phase)  # the real board answered and drew
        asked = len(seat_views)
        public, _ = await walk(board, spectator, gid, signed_in=False)
        assert all(seat is None for _, seat in seat_views[asked:]), (kind, phase)
        assert "data-seat" not in public and "play.png" not in public and "play.json" not in public
        if kind == "btc":
            assert not btc_named(public, {}) & secret_tiles(snap.state, None)
        if phase is None:  # the end: both pages tell the moves as the channel does, the same ones
            assert moves_told(page) == moves_told(public) and moves_told(public)
    if kind == "btc":
        assert looked, "the probe looked while other seats held secret tiles"


def swap_secrets(state: Any) -> Any:
    """The state with every tile of the other seats' hands, choices and handed-on tiles replaced by an undrawn
    tile of the same kind (single or duplex): what seat 0 may not know changed, nothing else."""
    singles = iter(range(state.next_single, len(btc_tiles.SINGLE_POOL)))
    duplexes = iter(range(state.next_duplex, len(state.tiles)))

    def other(tile: int) -> int:
        return next(singles if tile < len(btc_tiles.SINGLE_POOL) else duplexes)

    players = [
        p
        if seat == 0
        else dataclasses.replace(
            p,
            hand=[other(t) for t in p.hand],
            choice=[other(t) for t in p.choice],
            outgoing=[other(t) for t in p.outgoing],
        )
        for seat, p in enumerate(state.players)
    ]
    return dataclasses.replace(state, players=players)


async def test_between_two_cities_board_does_not_depend_on_other_seats_secrets(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = Drawn(monkeypatch)
    gid = await new_game(service, "btc", ai=SEATS["btc"] - 1)
    rules = games.rules("btc")
    compared = 0
    for step in range(40):
        snap = await service.snapshot(gid)
        if snap.info.game.status != "active":
            break
        state = snap.state
        twin = swap_secrets(state)
        if secret_tiles(state, 0) - secret_tiles(twin, 0) and 0 in snap.info.awaiting:
            assert rules.view(twin, 0) == rules.view(state, 0) and rules.view(twin, None) == rules.view(state, None)
            shown = []
            for each in (state, twin):
                del drawn.texts[:]
                png = drawn(snap.info, 0, each, "en")
                assert drawn.texts
                shown.append((png, list(drawn.texts), real_board.play_data(snap.info, 0, each, "en")))
            assert shown[0] == shown[1], step
            compared += 1
        await play(service, gid, 1)
    assert compared >= 3, compared


async def test_a_seats_drawing_serves_its_own_state_only(
    board: Board, service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play.json`` (its regions) and ``play.png`` of one version share one drawing (``board.kept``: the service
    reads the same state for both); a move, or another state of the same version whose seat's hand differs, is
    drawn anew: a kept drawing is never another state's."""
    board.server.door.picture = real_board.play_picture
    board.server.door.data = real_board.play_data
    renderer = pictures.get("btc")
    assert renderer is not None
    drawings: list[int] = []
    original = renderer.render_turn

    def counted(view: Any, seat: int, names: list[str], **kwargs: Any) -> bytes:
        drawings.append(seat)
        return original(view, seat, names, **kwargs)

    monkeypatch.setattr(renderer, "render_turn", counted)
    gid = await new_game(service, "btc", ai=SEATS["btc"] - 1)
    browser = await board.signed_in(HOST, gid)
    for _ in range(2):  # the set-up, then after everyone chose (seat 0 places)
        assert "play" in await board.play_json(browser, gid)
        async with browser.get(board.game(gid) + "/play.png") as r:
            png = await r.read()
        snap = await service.snapshot(gid)
        names = [snap.info.name(s) for s in range(len(snap.info.seats))]
        assert len(drawings) == 1 and png == original(games.rules("btc").view(snap.state, 0), 0, names, locale="en")
        del drawings[:]
        await play(service, gid, SEATS["btc"])
    snap = await service.snapshot(gid)
    other = twin("btc", snap.state, 1)  # seat 0's hand changed (as seen by seat 1), the same version
    assert games.rules("btc").view(other, 0) != games.rules("btc").view(snap.state, 0)
    first = real_board.drawn(snap.info, 0, snap.state, "en")
    again = real_board.drawn(snap.info, 0, snap.state, "en")
    changed = real_board.drawn(snap.info, 0, other, "en")
    assert again == first and len(drawings) == 2 and changed[0] != first[0]
    assert changed[0] == original(games.rules("btc").view(other, 0), 0, names, locale="en")
