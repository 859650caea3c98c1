"""One door into a move (issue 38): a move made on the game page (``POST {base}/move``) goes through the service
and the turn flow with Discord's announcer, so the channel gets the same posts (the tellings, mentions and
turn pictures) as after the same move made by a Discord click in an identical game; the old turn post's
controls go stale as after a click."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import play_turn

SEED = 424242


async def two_player_game(h: Harness, channel: str) -> int:
    h.service._seed_source = lambda: SEED  # the same tiles in both games
    lobby = await h.fake.slash(
        "game", "new", game="quadropolis", mode="classic", ai_players=0, user="alice", channel=channel
    )
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel(channel).id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    return gid


def posts(h: Harness, channel: str, gid: int) -> list[tuple[str, list[bytes]]]:
    """What the channel shows: each message's text (its game number made neutral) and its pictures."""
    return [
        ((m.content or "").replace(f"#{gid}", "#N"), [a.data for a in m.attachments])
        for m in h.channel_messages(channel)
    ]


async def signed_in(h: Harness, base: str, user: str, gid: int) -> tuple[aiohttp.ClientSession, str]:
    browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    raw = await h.bot.app.sessions.link_token(int(h.fake.user(user).id), gid)
    async with browser.post(f"{base}/signin/{raw}", headers={"Origin": base}) as r:
        assert r.status == 200
    return browser, user


async def test_a_move_on_the_page_posts_what_a_click_posts(web_harness: Harness) -> None:
    h = web_harness
    names = {h.fake.user("alice").id: "alice", h.fake.user("bob").id: "bob"}
    clicked = await two_player_game(h, "games")
    for _ in range(4):  # two whole turns each, by clicks
        await play_turn(h, clicked, names)
    moves = await h.service.move_log(clicked)
    assert len(moves) >= 8

    tapped = await two_player_game(h, "general")
    base = h.bot.web_links.base_url
    page = h.bot.web_links.game(tapped)
    assert page is not None
    browsers = {seat: await signed_in(h, base, name, tapped) for seat, name in enumerate(("alice", "bob"))}
    try:
        for n, (seat, move) in enumerate(moves):
            browser, _ = browsers[seat]
            async with browser.get(page + "/play.json") as r:
                data: Any = await r.json()
            async with browser.post(
                page + "/move",
                data=json.dumps({"version": data["version"], "move": move, "key": f"move-{n:04d}"}),
                headers={"Origin": base, "X-CSRF-Token": data["csrf"], "Content-Type": "application/json"},
            ) as r:
                assert r.status == 200, await r.text()
            await h.settle()
    finally:
        for browser, _ in browsers.values():
            await browser.close()
    assert await h.service.move_log(tapped) == moves
    by_click, by_tap = posts(h, "games", clicked), posts(h, "general", tapped)
    assert sum(len(pngs) for _, pngs in by_click) >= 5  # the start's and each turn's pictures
    assert [text for text, _ in by_tap] == [text for text, _ in by_click]
    assert [pngs for _, pngs in by_tap] == [pngs for _, pngs in by_click]
    # The old turn posts kept their link and lost their controls, as after a click.
    info = await h.service.info(tapped)
    for message in h.channel_messages("general"):
        if message.id not in (info.game.turn_message_xid, info.game.lobby_message_xid):
            assert not [c for c in message.custom_ids() if c.startswith(("mv:", "sel:"))], message.content
