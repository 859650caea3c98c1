"""Links from Discord to the web pages (issue 28): "Open the board" on the lobby, every turn post and the
status message, "Open the league" on a league table, and ``/game link`` (private, read-only). They are link
buttons: Discord sends no interaction for them, so nothing is acknowledged. Without ``WEB_BASE_URL`` none is
posted and ``/game link`` says so."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.i18n import t
from bot.settings import Settings
from bot.store import web as web_store
from bot.testing.fakediscord.payloads import walk_components
from bot.web import links
from cogs import weblinks
from tests.conftest import FakeClock
from tests.discord.conftest import Harness, _harness, answer
from tests.discord.test_play_toy import bid, start_toy

BASE = "https://games.example.org/city"


@pytest.fixture
async def linked(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Harness]:
    """The bot with ``WEB_BASE_URL`` set and no ``WEB_SECRET``: its key is made and kept in the database."""
    async for h in _harness(tmp_path, clock, tmp_path / "bot.sqlite3", web=False, base_url=BASE):
        yield h


def urls(components: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(label, url) of every link button."""
    return [(c["label"], c["url"]) for c in walk_components(components) if c.get("style") == 5]


async def key(h: Harness) -> bytes:
    return await web_store.secret(h.service._store)


async def test_the_lobby_turn_posts_and_status_carry_a_signed_link_to_the_board(linked: Harness) -> None:
    h = linked
    gid = await start_toy(h)
    secret = await key(h)
    board = BASE + links.path_game(secret, gid)
    assert links.verify(secret, "g", str(gid), board.rsplit("/", 1)[1])
    info = await h.service.info(gid)
    by_id = {m.id: m for m in h.channel_messages()}
    label = t("web.link.board", info.game.locale)
    for message_xid in (info.game.lobby_message_xid, info.game.turn_message_xid, info.game.status_message_xid):
        assert urls(by_id[message_xid].components) == [(label, board)], message_xid
    # The turn post keeps its own controls, the link beside them.
    assert by_id[info.game.turn_message_xid].custom_ids()
    first_turn = info.game.turn_message_xid
    await bid(h, gid, "alice", 3)
    await bid(h, gid, "bob", 2)
    info = await h.service.info(gid)
    assert info.game.turn_message_xid != first_turn
    by_id = {m.id: m for m in h.channel_messages()}
    # The old post lost its controls but not its link; the new one has both.
    assert by_id[first_turn].custom_ids() == [] and urls(by_id[first_turn].components) == [(label, board)]
    assert urls(by_id[info.game.turn_message_xid].components) == [(label, board)]


async def test_a_lobby_gets_its_link_when_the_game_starts(linked: Harness) -> None:
    """Before the start a game has no page (it would say "not found"): the lobby's buttons are the lobby's
    own, and /game link says when the page opens; the start edits the lobby to the link."""
    h = linked
    lobby = await h.fake.slash("game", "new", game="toy", user="alice")
    sent = await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    assert not urls(sent.components) and sent.custom_ids
    early = await answer(await h.fake.slash("game", "link", user="bob"))
    assert early.ephemeral and early.content == t("web.link.lobby", "en", game=gid) and not urls(early.components)
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    lobby_xid = (await h.service.info(gid)).game.lobby_message_xid
    message = next(m for m in h.channel_messages() if m.id == lobby_xid)
    assert message.custom_ids() == [] and urls(message.components) == [
        (t("web.link.board", "en"), BASE + links.path_game(await key(h), gid))
    ]


async def test_no_base_url_posts_no_link(harness: Harness) -> None:
    h = harness
    gid = await start_toy(h)
    assert all(not urls(m.components) for m in h.channel_messages())
    handle = await h.fake.slash("game", "link", user="alice")
    sent = await answer(handle)
    assert sent.ephemeral and sent.content == t("web.link.off", "en") and not sent.components
    assert (await h.service.info(gid)).game.status == "active"


async def test_game_link_answers_privately_with_the_board_and_the_askers_page(linked: Harness) -> None:
    h = linked
    gid = await start_toy(h)
    secret = await key(h)
    handle = await h.fake.slash("game", "link", user="carol")
    sent = await answer(handle)
    board = BASE + links.path_game(secret, gid)
    carol = int(h.fake.user("carol").id)
    assert sent.ephemeral and board in (sent.content or "")
    assert urls(sent.components) == [
        (t("web.link.board", "en"), board),
        (t("web.link.player", "en"), BASE + links.path_player(secret, h.fake.world.guild_id, carol) + "?lang=en"),
    ]
    by_number = await answer(await h.fake.slash("game", "link", game=gid, user="carol"))
    assert board in (by_number.content or "")


async def test_game_link_refuses_a_missing_game_with_a_sentence(linked: Harness) -> None:
    h = linked
    sent = await answer(await h.fake.slash("game", "link", user="alice"))
    assert sent.ephemeral and not urls(sent.components) and "game" in (sent.content or "").lower()
    sent = await answer(await h.fake.slash("game", "link", game=999, user="alice"))
    assert sent.ephemeral and "#999" in (sent.content or "") and not urls(sent.components)


async def test_a_league_table_opens_the_league(linked: Harness) -> None:
    h = linked
    league = await h.bot.app.leagues.create_league(h.fake.world.guild_id, "Bids", "toy")
    handle = await h.fake.slash("league", "table", name="Bids", user="alice")
    await answer(handle)
    await h.settle()
    shown = [s for s in handle.sent if s.embeds]
    secret = await key(h)
    assert urls(shown[-1].components) == [
        (t("web.link.league", "en"), BASE + links.path_league(secret, league.id) + "?lang=en")
    ]


@pytest.mark.parametrize("lang", ["en", "hu", "es", "ru", "pl"])
def test_a_full_view_leaves_the_link_to_the_status_message(lang: str) -> None:
    """A view at Discord's bound (five rows of menus, or 25 buttons) takes no link: add_link says so."""
    url = BASE + "/g/1/" + "x" * 22
    menus = discord.ui.View()
    for row in range(5):
        menus.add_item(discord.ui.Select(options=[discord.SelectOption(label="a")], row=row))
    assert not weblinks.add_link(menus, weblinks.BOARD, url, lang) and len(menus.children) == 5
    buttons = discord.ui.View()
    for i in range(25):
        buttons.add_item(discord.ui.Button(label=str(i), custom_id=f"b{i}"))
    assert not weblinks.add_link(buttons, weblinks.BOARD, url, lang)
    room = discord.ui.View()
    for i in range(24):
        room.add_item(discord.ui.Button(label=str(i), custom_id=f"b{i}"))
    assert weblinks.add_link(room, weblinks.BOARD, url, lang)
    assert room.children[-1].url == url and room.children[-1].label == t("web.link.board", lang)  # type: ignore[attr-defined]
    assert t("web.link.board", lang) != "web.link.board"


def test_settings_dataclass_has_no_links_by_default() -> None:
    assert (
        dataclasses.fields(Settings)
        and Settings(
            token="x", database_path=Path("x"), dev_guild_id=None, log_level=0, ai_pause_seconds=0
        ).web_base_url
        == ""
    )


async def test_the_posted_links_open_their_pages(web_harness: Harness) -> None:
    """End to end: the league table's button and /game link's buttons lead to pages the bot serves."""
    h = web_harness
    gid = await start_toy(h)
    await h.bot.app.leagues.create_league(h.fake.world.guild_id, "Bids & Co", "toy")
    table = await h.fake.slash("league", "table", name="Bids & Co", user="alice")
    await answer(table)
    await h.settle()
    league_url = urls([s for s in table.sent if s.embeds][-1].components)[0][1]
    link = await answer(await h.fake.slash("game", "link", user="alice"))
    (_, board), (_, mine) = urls(link.components)
    async with aiohttp.ClientSession() as session:
        for url, expected in ((league_url, "Bids &amp; Co"), (board, f"#{gid}"), (mine, "<h1>Alice</h1>")):
            async with session.get(url) as r:
                body = await r.text()
                assert r.status == 200 and expected in body, (url, body[body.find("<header") :][:300])
        async with session.get(mine[:-12] + "x" * 12) as r:
            assert r.status == 404


async def test_a_turn_post_with_public_controls_keeps_them_and_the_link_stays_within_discords_bounds(
    linked: Harness,
) -> None:
    """Quadropolis puts its menus on the turn post: they are all still there, the link is beside them where a
    row has room, and the status message has it in any case."""
    from tests.discord.test_quadropolis import start as start_quadropolis

    h = linked
    gid = await start_quadropolis(h, "classic", ["alice"], 1)
    info = await h.service.info(gid)
    by_id = {m.id: m for m in h.channel_messages()}
    turn = by_id[info.game.turn_message_xid]
    board = BASE + links.path_game(await key(h), gid)
    controls = [c for c in walk_components(turn.components) if c.get("type") != 1 and c.get("style") != 5]
    assert controls, "the turn post has its menus"
    rows = [[c for c in r["components"] if c.get("style") != 5] for r in turn.components]
    rows = [r for r in rows if r]  # the controls alone, as the presenter made them
    assert len(turn.components) <= 5 and sum(len(r["components"]) for r in turn.components) <= 25
    room = len(rows) < 5 or any(len(r) < 5 and all(c["type"] == 2 for c in r) for r in rows)
    assert urls(turn.components) == ([(t("web.link.board", "en"), board)] if room else [])
    assert urls(by_id[info.game.status_message_xid].components) == [(t("web.link.board", "en"), board)]


async def test_a_league_profile_opens_the_players_page(linked: Harness) -> None:
    """/league player carries a link to the player's page (which exists once they have a seat here)."""
    h = linked
    guild = h.fake.world.guild_id
    await h.bot.app.leagues.create_league(guild, "Bids", "toy", rated=True)
    await start_toy(h)
    handle = await h.fake.slash("league", "player", name="Bids", player=h.fake.user("bob"), user="alice")
    await answer(handle)
    await h.settle()
    shown = [s for s in handle.sent if s.embeds or s.content]
    bob = int(h.fake.user("bob").id)
    page = BASE + links.path_player(await key(h), guild, bob) + "?lang=en"
    assert shown and shown[-1].ephemeral
    assert urls(shown[-1].components) == [(t("web.link.player_page", "en"), page)]
