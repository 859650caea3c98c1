"""Regression: after a crash, resume_ai starts the AI before resume_announcements has told the move
that was committed but never announced. The AI plays first; the crash's move is never told, the AI's
move is told twice."""

import dataclasses

from cogs.app import CityBot
from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import start


async def test_restart_announces_in_order(harness: Harness) -> None:
    """After a crash the committed turn is announced before the AI moves on, once."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=1)
    while 0 not in (await h.service.info(gid)).awaiting:
        await h.settle()
    alice = h.fake.user("alice").id
    # alice's whole turn commits, then the process dies before anything is announced
    while 0 in (await h.service.info(gid)).awaiting:
        _, _, moves, _ = await h.service.choices(gid, alice)
        await h.service.move(gid, alice, next(m for m in moves if m["kind"] in ("take", "build", "discard")))
    await h.bot.close()
    before = len(h.channel_messages())
    settings = dataclasses.replace(h.bot.settings, ai_pause_seconds=0.0)
    bot = CityBot(settings, clock=h.clock)
    try:
        await bot.login(h.fake.token)
        h.fake.use_client(bot)
        await h.settle(limit=15)
        new = [m.content or "" for m in h.channel_messages()[before:]]
        alice_name = "Alice"
        told = [m for m in new if m.startswith(alice_name)]
        assert told, "alice's committed turn was never announced after the restart"
        assert len(new) == len(set(new)), "the same turn was announced twice"
    finally:
        await bot.close()
