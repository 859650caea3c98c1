"""A whole game played by injected clicks through the real bot process and the fake Discord."""

from __future__ import annotations

import importlib.util
import sys

from bot.testing.fakediscord.server import FakeDiscord
from tests.fakediscord.fixtures import BotProcess
from tests.process.conftest import (
    WAIT,
    bid,
    ids_of,
    public_messages,
    start_toy,
    store_of,
    turn_messages,
    user_id,
    wait_turn,
)


async def test_toy_game_played_to_the_end_by_clicks(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """Lobby, start and three rounds of secret bids by clicks end the game: the channel sees each
    reveal and a final ranking with a picture, the lobby loses its buttons, and the store holds the
    six moves in order with the finished result."""
    fake = fake_discord
    table = await start_toy(fake)
    gid = table.game_id
    lobby = table.lobby.original
    assert lobby is not None and lobby.components == []  # Join/Leave/Start removed once started
    first_turn = turn_messages(fake, table)[-1]
    alice, bob = user_id(fake, "alice"), user_id(fake, "bob")
    assert f"<@{alice}>" in first_turn.content and f"<@{bob}>" in first_turn.content
    assert first_turn.attachments and first_turn.attachments[0].filename == "board.png"

    bids = ((3, 1), (1, 2), (2, 3))
    for number, (a, b) in enumerate(bids, start=1):
        await bid(fake, table, "alice", a)
        await bid(fake, table, "bob", b)
        if number < len(bids):
            await wait_turn(fake, table, 2 * number)  # players act on the newest turn message
    await fake.wait_until(
        lambda: any("is over" in m.content for m in public_messages(fake, "games")), WAIT, "the end message"
    )

    posted = [m.content for m in public_messages(fake, "games")]
    for a, b in bids:
        assert any(f"Bids revealed: {a} against {b}." in c for c in posted)
    ending = next(m for m in public_messages(fake, "games") if "is over" in m.content)
    assert ending.attachments and ending.attachments[0].data.startswith(b"\x89PNG")
    # Alice won rounds 1 (3>1); Bob rounds 2 and 3: Bob first.
    assert ending.content.index(f"<@{bob}>") < ending.content.index(f"<@{alice}>")
    await fake.wait_until(
        lambda: not any(i.startswith(("open:", "mv:")) for m in public_messages(fake, "games") for i in ids_of(m)),
        WAIT,
        "no live controls left in the channel after the end",
    )

    db = store_of(toy_bot)
    game = db.game(gid)
    assert game["status"] == "finished" and game["version"] == 6
    moves = db.moves(gid)
    assert [(m.seat, m.move["card"], m.actor_xid) for m in moves] == [
        (0, 3, alice),
        (1, 1, bob),
        (0, 1, alice),
        (1, 2, bob),
        (0, 2, alice),
        (1, 3, bob),
    ]
    ranks = {s["seat"]: s["rank"] for s in game["result"]["seats"]}
    assert ranks == {0: 2, 1: 1}
    assert db.integrity() == "ok"


async def test_the_bot_runs_on_uvloop_where_it_is_installed(toy_bot: BotProcess) -> None:
    """uvloop is a dependency everywhere but Windows: the bot process runs its event loop on it (the load
    bench measures about 10% more moves per second than on asyncio's own loop)."""
    expected = "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"
    assert sys.platform == "win32" or expected == "uvloop", "uvloop is a dependency here but is not installed"
    assert f"event loop: {expected}" in toy_bot.log_text()
