"""The hidden-information probe over the after-game analysis (issue 40): nothing of it exists or shows before a game
ends, and afterwards it shows each viewer only what the rules let them see.

The real bot plays against the fake Discord with one analysis worker; at the start and every few moves of a game
in play (Quadropolis' face-down tiles, Between Two Cities' hidden hands and choices, Urban Panic's stack), the
probe asks ``/game analysis`` for it, reads the public page and every best-move picture address, and checks that
no analysis row exists (asking queues nothing), the page carries no mark, no accuracy, no best move and no
best-move picture, the story chart is not served, and the channel has no ready post; Between Two Cities' page names
no tile of any seat's private view. Once the game ends: the ready post comes once, the public page's analysis (its
marks, best moves, their pictures and the story chart) is made from the spectator's view alone (every view the
rules are asked for meanwhile is ``view(state, None)``), and ``/game analysis`` answers the asker privately from
their own view and the spectator's, never another seat's."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import aiohttp
import pytest

from bot import games
from bot.i18n import t
from bot.rules.btc.audit import ids_in
from bot.web.watch import RateLimit
from tests.discord.conftest import Harness, answer
from tests.discord.test_analysis import analysis_harness, ready_post
from tests.web.test_hidden import seat_views
from tests.web.test_hidden_board import btc_named

__all__ = ["analysis_harness", "seat_views"]
EVERY = 5
"""Probe every this many of Alice's moves."""


def ready_prefix(gid: int) -> str:
    return t("analysis.ready", "en", game=gid, players="\0").partition("\0")[0]


async def fetch(session: aiohttp.ClientSession, url: str) -> tuple[int, bytes]:
    async with session.get(url, allow_redirects=False) as r:
        return r.status, await r.read()


class Probe:
    def __init__(self, h: Harness, gid: int, spy: list[tuple[str, Any]]) -> None:
        self.h, self.gid, self.spy = h, gid, spy
        self.looks = self.secrets = 0

    def url(self, path: str = "") -> str:
        page = self.h.bot.web_links.game(self.gid)
        assert page is not None
        return page.split("?")[0] + path

    async def page(self, session: aiohttp.ClientSession) -> str:
        status, body = await fetch(session, self.url("?lang=en"))
        assert status == 200
        return body.decode()

    async def before_the_end(self, session: aiohttp.ClientSession) -> None:
        h, gid = self.h, self.gid
        app = h.bot.app
        assert await app.analyses.get(gid) is None
        refused = await answer(await h.fake.slash("game", "analysis", game=gid, user="alice"))
        assert refused.ephemeral and refused.content == t("analysis.error.not_finished", "en", game=gid)
        assert not refused.files
        assert await app.analyses.get(gid) is None, "asking in play queues nothing"
        page = await self.page(session)
        for shown in ('class="loss"', 'id="accuracy"', 'id="bestfig"', 'class="story"'):
            assert shown not in page, shown
        turns = json.loads(html.unescape(re.search(r'data-turns="([^"]*)"', page)[1]))  # type: ignore[index]
        assert all(len(turn) == 3 for turn in turns), "no best move in play"
        for n in range(len(turns)):
            assert (await fetch(session, self.url(f"/b{n}.png?lang=en")))[0] == 404
        assert (await fetch(session, self.url("/story.png?lang=en")))[0] == 404
        assert not [m for m in h.channel_messages() if (m.content or "").startswith(ready_prefix(gid))]
        info = await h.service.info(gid)
        state = (await h.service.snapshot(gid)).state
        if info.game.kind == "btc":  # the probe's secrets: the tiles of every seat's private view
            rules = games.rules("btc")
            hidden = set().union(*(ids_in(rules.view(state, s.seat)) for s in info.seats)) - ids_in(
                rules.view(state, None)
            )
            self.secrets += bool(hidden)
            assert not btc_named(page, {}) & hidden
        self.looks += 1

    async def after_the_end(self, session: aiohttp.ClientSession) -> None:
        h, gid = self.h, self.gid
        assert len(await ready_post(h, gid, "en")) == 1
        row = await h.bot.app.analyses.get(gid)
        assert row is not None and row.status == "done"
        asked = len(self.spy)
        page = await self.page(session)
        assert 'class="loss"' in page and 'id="accuracy"' in page
        turns = json.loads(html.unescape(re.search(r'data-turns="([^"]*)"', page)[1]))  # type: ignore[index]
        template = html.unescape(re.search(r'data-best-src="([^"]*)"', page)[1])  # type: ignore[index]
        best = [(n, turn[3][0]) for n, turn in enumerate(turns) if len(turn) > 3 and turn[3][0]]
        assert best, "some move missed the best one"
        for n, mark in best:
            status, png = await fetch(session, self.url("").split("/g/")[0] + template.format(n=n, m=mark))
            assert status == 200 and png.startswith(b"\x89PNG")
        story = re.search(r'<img class="story" src="([^"]+)"', page)
        if story is not None:
            assert (await fetch(session, self.url("").split("/g/")[0] + html.unescape(story[1])))[0] == 200
        seats = {seat for _, seat in self.spy[asked:]}
        assert seats == {None}, ("the analysed page read a seat's own view", seats)  # and it read views

        info = await h.service.info(gid)
        alice = info.seat_of(h.fake.user("alice").id)
        assert alice is not None
        asked = len(self.spy)
        mine = await answer(await h.fake.slash("game", "analysis", game=gid, user="alice"))
        assert mine.ephemeral
        seats = {seat for _, seat in self.spy[asked:]}
        assert seats and seats <= {None, alice.seat}, ("Alice's analysis read another seat's view", seats)


@pytest.mark.parametrize(
    ("game", "ai", "options"),
    [
        ("quadropolis", 1, {"mode": "classic"}),
        ("btc", 2, {"mode": "standard"}),
        ("urbanpanic", 1, {"mode": "advanced"}),
    ],
)
async def test_nothing_of_the_analysis_exists_before_the_end_and_after_it_each_sees_only_their_own(
    analysis_harness: Harness, seat_views: list[tuple[str, Any]], game: str, ai: int, options: dict[str, str]
) -> None:
    h = analysis_harness
    assert h.bot.web is not None
    h.bot.web.limit = RateLimit(1e6, 1e6)  # the probe's many reads from one address are not a crowd
    lobby = await h.fake.slash("game", "new", game=game, ai_players=ai, ai_level="random", user="alice", **options)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    probe = Probe(h, gid, seat_views)
    alice = h.fake.user("alice").id
    rules = games.rules(game)
    async with aiohttp.ClientSession() as session:
        await probe.before_the_end(session)
        moved = 0
        for step in range(3000):
            info = await h.service.info(gid)
            if info.game.status != "active":
                break
            seat = info.seat_of(alice)
            assert seat is not None
            if seat.seat not in info.awaiting:
                await h.settle()
                continue
            snap = await h.service.snapshot(gid)
            outcome = await h.service.move(gid, alice, rules.ai_move(snap.state, seat.seat, "random", step))
            await h.bot.flow.after_move(outcome)
            await h.settle()
            moved += 1
            if moved % EVERY == 0 and (await h.service.info(gid)).game.status == "active":
                await probe.before_the_end(session)
        assert (await h.service.info(gid)).game.status == "finished"
        await probe.after_the_end(session)
    assert probe.looks > 3
    assert game != "btc" or probe.secrets, "the probe looked while hands were hidden"
