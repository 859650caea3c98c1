"""An Urban Panic game is told the same way in the channel and on its web page: each finished turn in one
line (:meth:`bot.games.Game.tell`), the page's move list showing the lines the channel's turn posts opened
with."""

from __future__ import annotations

import html
import re

import aiohttp

from bot.i18n import t
from tests.discord.conftest import Harness, answer
from tests.discord.test_urbanpanic import h, play_human_turn, start, turn_message
from tests.web.conftest import SECRET, make_server

__all__ = ["h"]  # the fixture, imported for the tests below

MOVE = re.compile(r'<li value="\d+" data-turn="\d+"[^>]*><a href="[^"]*"><span class="say">(.*?)</span></a></li>')
TAG = re.compile(r"<[^>]+>")
"""A move of the page's list: its sentence, each name in it isolated (``<bdi>``)."""


async def test_the_web_page_lists_the_turns_the_channel_was_told(h: Harness) -> None:
    gid = await start(h, "basic", ["alice"], ai=1)
    alice = h.fake.user("alice").id
    seat = (await h.service.info(gid)).seat_of(alice).seat
    for _ in range(3):
        await turn_message(h, gid)
        await play_human_turn(h, gid, "alice", seat)
    info = await h.service.info(gid)
    assert info.game.status == "active"
    others = {info.game.lobby_message_xid, info.game.status_message_xid}
    posts = [m for m in h.channel_messages() if m.id not in others]
    told = [m.content.splitlines()[0] for m in posts[1:]]  # the first post opens the game: no move yet
    assert len(told) >= 5 and all("'s turn: " in line or "without an action" in line for line in told), told
    assert any(line.startswith("Alice's turn: ") for line in told), told

    server = make_server(h.service)
    await server.start()
    try:
        from bot.web.links import Links

        url = Links(f"http://127.0.0.1:{server.port}", SECRET).game(gid)
        assert url is not None
        async with aiohttp.ClientSession() as session, session.get(url) as r:
            assert r.status == 200
            page = await r.text()
    finally:
        await server.stop()
    listed = [html.unescape(TAG.sub("", item)) for item in MOVE.findall(page.split('<ol id="moves"', 1)[1])]
    assert listed == told
    ended = t("urbanpanic.move.end_turn", "en", player="Alice")
    assert ended not in html.unescape(page)


async def test_game_replay_tells_a_turn_as_the_channel_did(h: Harness) -> None:
    """/game replay shows a finished turn with the line the channel's turn post opened with, not the
    rules' bare "… ended the turn."."""
    gid = await start(h, "basic", ["alice"], ai=1)
    alice = h.fake.user("alice").id
    seat = (await h.service.info(gid)).seat_of(alice).seat
    await turn_message(h, gid)
    await play_human_turn(h, gid, "alice", seat)
    await h.settle()
    moves = await h.service.move_log(gid)
    ended = max(i for i, (mover, _) in enumerate(moves, start=1) if mover == seat)
    info = await h.service.info(gid)
    others = {info.game.lobby_message_xid, info.game.status_message_xid}
    told = [m.content.splitlines()[0] for m in h.channel_messages() if m.id not in others]
    alices = [line for line in told if line.startswith("Alice's turn: ")]
    assert alices, told
    shown = await answer(await h.fake.slash("game", "replay", game=gid, turn=ended, user="alice"))
    assert alices[-1] in (shown.content or ""), shown.content
    assert t("urbanpanic.move.end_turn", "en", player="Alice") not in (shown.content or "")
