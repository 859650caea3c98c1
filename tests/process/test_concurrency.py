"""Many simultaneous clicks on the same turn, from the same and from different users: exactly one
move per seat is played, and every other click is answered with a sentence saying why."""

from __future__ import annotations

import asyncio
import random

from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle
from tests.fakediscord.fixtures import BotProcess
from tests.process.conftest import (
    NOT_PLAYING,
    NOT_YOUR_TURN,
    STALE,
    WAIT,
    Table,
    acknowledged,
    bid_id,
    open_choices,
    public_messages,
    refusal,
    start_toy,
    store_of,
    turn_messages,
    user_id,
    wait_answered,
    wait_turn,
)

CHANNELS = ("games", "general", "table-1", "no-files")
LOBBY_FULL = "This game is full."
ALREADY_JOINED = "You have already joined this game."
ALREADY_STARTED = "This game has already started."


async def contested_round(fake: FakeDiscord, table: Table) -> list[tuple[str, int, InteractionHandle]]:
    """Build a pile of clicks on round 1 of ``table``: each player hammers their own buttons (the same
    one four times, the others once), and two people who do not play click the players' buttons."""
    pile: list[tuple[str, int, InteractionHandle]] = []
    opened = {user: await open_choices(fake, table, user) for user in table.players}
    for user, favourite in ((table.host, 3), (table.guest, 2)):
        for card in (favourite, favourite, favourite, favourite, 1 if favourite != 1 else 2):
            pile.append((user, card, fake.make_click(opened[user], bid_id(opened[user], card), user=user)))
    for outsider, victim in (("carol", table.host), ("dave", table.guest)):
        pile.append((outsider, 3, fake.make_click(opened[victim], bid_id(opened[victim], 3), user=outsider)))
    return pile


async def test_simultaneous_clicks_play_exactly_one_move_per_seat(
    fake_discord: FakeDiscord, toy_bot: BotProcess
) -> None:
    """In four channels at once, 12 clicks each on the same round: one bid per player is played and
    acknowledged, the rest get "earlier turn" / "not your turn" / "not playing"; the store holds
    exactly two moves per game, matching the acknowledged clicks, and the round is revealed once."""
    fake = fake_discord
    tables = [await start_toy(fake, channel) for channel in CHANNELS]
    piles = [await contested_round(fake, table) for table in tables]
    everything = [click for pile in piles for click in pile]
    random.Random(8).shuffle(everything)
    await asyncio.gather(*(fake.deliver(handle) for _, _, handle in everything))
    await wait_answered(fake, [h for _, _, h in everything])

    db = store_of(toy_bot)
    for table, pile in zip(tables, piles):
        played = {user: [(card, h) for u, card, h in pile if u == user and acknowledged(h)] for user in table.players}
        assert all(len(v) == 1 for v in played.values()), {u: len(v) for u, v in played.items()}
        for user, _card, handle in pile:
            if acknowledged(handle):
                continue
            why = refusal(handle) or ""
            if user in table.players:
                assert STALE in why or NOT_YOUR_TURN in why, why
            else:
                assert NOT_PLAYING in why, why
        moves = db.moves(table.game_id)
        assert sorted((m.actor_xid, m.move["card"]) for m in moves) == sorted(
            (user_id(fake, u), v[0][0]) for u, v in played.items()
        )
        assert db.game(table.game_id)["version"] == 2
        a, b = played[table.host][0][0], played[table.guest][0][0]
        await wait_turn(fake, table, 2)
        reveals = [m for m in public_messages(fake, table.channel) if "Bids revealed" in m.content]
        assert [m.content.splitlines()[0] for m in reveals] == [f"Bids revealed: {a} against {b}."]


async def test_simultaneous_joins_and_starts_seat_and_start_once(
    fake_discord: FakeDiscord, toy_bot: BotProcess
) -> None:
    """Four people (one twice) press Join on a two-seat lobby at once: one gets the seat, the others
    hear the game is full or that they joined already; five Start presses start it once."""
    fake = fake_discord
    lobby = await fake.slash("game", "new", game="toy", user="alice")
    sent = await lobby.response(WAIT)
    gid = int(sent.custom_ids[0].split(":")[1])
    joiners = ["bob", "carol", "dave", "quinn", "bob"]
    joins = [fake.make_click(lobby, f"lobby:{gid}:join", user=u) for u in joiners]
    await asyncio.gather(*(fake.deliver(h) for h in joins))
    await fake.wait_until(lambda: all(h.callback for h in joins), WAIT, "answers to the joins")
    seated = [u for u, h in zip(joiners, joins) if not h.callback.ephemeral]
    assert len(seated) == 1, [str(h.callback) for h in joins]
    for user, handle in zip(joiners, joins):
        if handle.callback.ephemeral:
            expected = ALREADY_JOINED if user == seated[0] else LOBBY_FULL
            assert expected in (handle.callback.content or ""), (user, handle.callback.content)

    starts = [fake.make_click(lobby, f"lobby:{gid}:start", user="alice") for _ in range(5)]
    await asyncio.gather(*(fake.deliver(h) for h in starts))
    await fake.wait_until(
        lambda: all(any(s.content or s.embeds for s in h.sent) or refusal(h) for h in starts),
        WAIT,
        "answers to the starts",
    )
    table = Table("games", gid, "alice", seated[0], lobby)
    await fake.wait_until(lambda: turn_messages(fake, table), WAIT, "the first turn message")
    refused = [refusal(h) for h in starts if refusal(h)]
    assert len(refused) == 4 and all(ALREADY_STARTED in r for r in refused), refused
    turn_posts = [
        s for s in fake.sent if s.kind == "message" and any(c.startswith(f"open:{gid}:") for c in s.custom_ids)
    ]
    assert len(turn_posts) == 1
    game = store_of(toy_bot).game(gid)
    assert game["status"] == "active" and game["version"] == 0
