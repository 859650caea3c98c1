"""An archived thread loses no edit (issue 36, point 11).

Discord refuses every edit in an archived thread (400 50083) and a new message there unarchives it, unless
the thread is locked (then only a member with Manage Threads can); the fake Discord does the same. The bot
edits a player's private menu into their move's sentence as soon as the move is committed, before anything
is posted: refused, that edit is made again once the bot's next post has reopened the thread, and what
cannot be done at all (a locked thread) is logged."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from bot.testing.fakediscord import payloads as P
from tests.discord.conftest import Harness, answer
from tests.discord.test_lost import deny_bot

THREAD = "table-1"
ARCHIVED = 50083


async def start_in_thread(h: Harness) -> int:
    lobby = await h.fake.slash("game", "new", game="toy", user="alice", channel=THREAD)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel(THREAD).id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    return gid


async def open_menu(h: Harness, gid: int, user: str) -> tuple[Any, Any]:
    """The user's private menu (the interaction that opened it, and the menu as sent)."""
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages(THREAD) if m.id == info.game.turn_message_xid)
    open_id = next(c["custom_id"] for row in turn.components for c in row["components"])
    opened = await h.fake.click(turn, open_id, user=user)
    menu = await answer(opened)
    assert menu.ephemeral and menu.custom_ids
    return opened, menu


def bid_button(menu: Any, card: int) -> str:
    return next(c for c in menu.custom_ids if json.loads(c.split(":", 4)[4])["card"] == card)


def archived_refusals(h: Harness, mark: int) -> list[Any]:
    return [
        r
        for r in h.fake.requests[mark:]
        if r.method == "PATCH"
        and r.status == 400
        and isinstance(r.response, dict)
        and r.response.get("code") == ARCHIVED
    ]


async def test_a_refused_confirmation_is_made_after_the_post_that_reopens_the_thread(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    gid = await start_in_thread(h)
    opened, menu = await open_menu(h, gid, "alice")
    h.fake.archive_thread(THREAD)
    mark = len(h.fake.requests)
    with caplog.at_level(logging.INFO, logger="cogs"):
        chosen = await h.fake.click(opened, bid_button(menu, 3), user="alice")
        await chosen.response()
        await h.settle()
    assert archived_refusals(h, mark), "the thread was archived: Discord refused the first edit"
    assert not h.fake.channel(THREAD).archived, "the bot's post reopened it"
    shown = h.fake.world.messages[menu.message.id]
    assert shown.content == "Alice has bid." and not shown.components, "the menu became the move's sentence"
    assert any("waits for the next post" in r.getMessage() for r in caplog.records)
    assert any("reopened: the edit of the answer to interaction" in r.getMessage() for r in caplog.records)


async def test_a_locked_thread_logs_the_edits_it_cost(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """A locked thread (the bot may not manage threads) stays archived: the refused edits are logged as lost."""
    h = harness
    gid = await start_in_thread(h)
    opened, menu = await open_menu(h, gid, "alice")
    deny_bot(h, "games", P.MANAGE_THREADS)  # a thread takes its parent's permissions
    h.fake.archive_thread(THREAD, locked=True)
    with caplog.at_level(logging.INFO, logger="cogs"):
        chosen = await h.fake.click(opened, bid_button(menu, 3), user="alice")
        await chosen.response()
        await h.settle()
    assert h.fake.channel(THREAD).archived
    assert h.fake.world.messages[menu.message.id].components, "nothing could be edited"
    lost = [r.getMessage() for r in caplog.records if "stays archived" in r.getMessage()]
    assert lost and "the answer to interaction" in lost[0], [r.getMessage() for r in caplog.records]
