"""The hidden-information probe: every game, in several phases, walked through its page, its pictures, its
story and its event stream. The web never asks the rules for a seat's view (only ``view(state, None)``),
the pictures are those of the public views, and no sentence of a move the channel kept quiet (a secret
pick) reaches the page."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from bot import games
from bot.i18n import t
from bot.service import Service
from tests.web.conftest import Site, new_game, play

PHASES = (0, 2, 7, None)
"""Moves played by the AI before the walk (None: to the end)."""
SEATS = {"quadropolis": 2, "btc": 3, "urbanpanic": 2}


@pytest.fixture
def seat_views(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Every view the rules are asked for while the test runs, as (game, seat)."""
    asked: list[tuple[str, Any]] = []
    for kind in games.available():
        rules = games.rules(kind)
        original = rules.view

        def spy(state: Any, seat: Any, *, _kind: str = kind, _view: Any = original) -> Any:
            asked.append((_kind, seat))
            return _view(state, seat)

        monkeypatch.setattr(rules, "view", spy)
    return asked


async def walk(site: Site, gid: int, *, every_turn: bool) -> str:
    """The page, its pictures (every turn, or the first, middle and last), the story and one event."""
    r, body = await site.get(site.game(gid))
    assert r.status == 200
    page = body.decode()
    last = int(re.search(r'data-last="(\d+)"', page)[1])  # type: ignore[index]
    board = re.search(r'data-src="([^"]+)"', page)
    if board is not None:
        template = html.unescape(board[1])
        turns = range(last + 1) if every_turn else sorted({0, last // 2, last})
        for turn in turns:
            r, png = await site.get(template.replace("{n}", str(turn)))
            assert r.status == 200 and png.startswith(b"\x89PNG")
            _, other = await site.get(site.game(gid) + f"?turn={turn}")
            page += other.decode()
    story = re.search(r'<img class="story" src="([^"]+)"', page)
    if story is not None:
        r, _ = await site.get(html.unescape(story[1]))
        assert r.status == 200
    async with site.session.get(site.game(gid) + "/events") as stream:
        chunk = await stream.content.readuntil(b"\n\n")
        assert re.fullmatch(rb'retry: 2000\nevent: version\ndata: \{"version": \d+\}\n\n', chunk)
    return page


@pytest.mark.parametrize("kind", sorted(SEATS))
async def test_no_hidden_information_on_the_pages(
    site: Site, service: Service, seat_views: list[tuple[str, Any]], kind: str
) -> None:
    gid = await new_game(service, kind, ai=SEATS[kind] - 1)
    played = quiet = 0
    for phase in PHASES:
        if phase is not None:
            played += await play(service, gid, phase - played)
        else:
            await play(service, gid, None)
        asked_before = len(seat_views)
        page = await walk(site, gid, every_turn=phase is not None)
        web_asked = seat_views[asked_before:]
        assert web_asked and all(seat is None for _, seat in web_asked), web_asked[:5]
        # The sentences of the moves the channel kept quiet are not on the page.
        info = await service.info(gid)
        rules, style = games.rules(kind), games.get(kind).turns
        state = rules.setup(info.game.options, len(info.seats), info.game.seed)
        for row in await service._store.moves(gid):
            before, awaited = state, rules.awaiting(state)
            state = rules.apply(state, row.seat, dict(row.move))
            after = rules.awaiting(state)
            key, params = rules.describe(before, row.seat, row.move, state)
            if not rules.is_over(state) and style.quiet_after(
                key, row.seat, after, after - awaited, rules.view(state, None)
            ):
                told = html.escape(t(key, info.game.locale, player=info.name(row.seat), **params))
                assert told not in page, (kind, phase, told)
                quiet += 1
    if games.get(kind).turns.secret:
        assert quiet, "a secret game's picks are quiet: the probe must have looked for them"
