"""``python -m bot`` with DATABASE_URL: the real bot process plays a whole game by clicks on a PostgreSQL
server the test started, and writes no SQLite file."""

from __future__ import annotations

import asyncio

from bot import store
from bot.testing.fakediscord.server import FakeDiscord
from bot.testing.postgres import PostgresServer
from tests.conftest import fresh_postgres_database
from tests.fakediscord.fixtures import BotProcessFactory
from tests.process.conftest import BASE_ENV, ENTRY, WAIT, bid, public_messages, start_toy, user_id, wait_turn


async def test_toy_game_played_to_the_end_on_postgres(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory, postgres_server: PostgresServer
) -> None:
    url = await fresh_postgres_database(postgres_server)
    bot = await bot_process(entry=ENTRY, env={**BASE_ENV, "DATABASE_URL": url})
    fake = fake_discord
    table = await start_toy(fake)
    bids = ((3, 1), (1, 2), (2, 3))
    for number, (a, b) in enumerate(bids, start=1):
        await bid(fake, table, "alice", a)
        await bid(fake, table, "bob", b)
        if number < len(bids):
            await wait_turn(fake, table, 2 * number)
    await fake.wait_until(
        lambda: any("is over" in m.content for m in public_messages(fake, "games")), WAIT, "the end message"
    )
    assert not bot.db_path.exists()  # DATABASE_URL wins over DATABASE_PATH: no SQLite file was written

    db = await store.Store.open(url)
    try:
        game = await db.get_game(table.game_id)
        for _ in range(int(WAIT / 0.05)):  # the end is posted, then recorded as announced
            if game is None or game.settled_version == 6:
                break
            await asyncio.sleep(0.05)
            game = await db.get_game(table.game_id)
        assert game is not None and game.status == "finished" and game.version == 6
        alice, bob = user_id(fake, "alice"), user_id(fake, "bob")
        assert [(m.seat, m.move["card"], m.actor_xid) for m in await db.moves(table.game_id)] == [
            (0, 3, alice),
            (1, 1, bob),
            (0, 1, alice),
            (1, 2, bob),
            (0, 2, alice),
            (1, 3, bob),
        ]
        assert game.settled_version == 6  # every move's announcement completed
    finally:
        await db.close()
