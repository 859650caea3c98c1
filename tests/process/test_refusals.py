"""What must be refused with a sentence and change nothing: forged and malformed custom_ids, a
non-player or a player of another game clicking, an admin command without the right, and a channel
where the bot may not attach files."""

from __future__ import annotations

import json

from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle
from tests.fakediscord.fixtures import BotProcess
from tests.process.conftest import (
    FORGED,
    NOT_PLAYING,
    STALE,
    WAIT,
    Table,
    acknowledged,
    bid,
    bid_id,
    ids_of,
    open_choices,
    public_messages,
    refusal,
    start_toy,
    store_of,
    turn_messages,
    wait_turn,
)

ABANDON_REFUSED = "Only the host or someone who can manage this server can abandon the game."
NO_ATTACH = "I may not attach pictures in this channel"


async def forged_click(
    fake: FakeDiscord, base: InteractionHandle, custom_id: str, *, user: str = "alice", values: list[str] | None = None
) -> InteractionHandle:
    """Deliver a click shaped like ``base`` (a real button click) with another custom_id: what a
    modified client could send. With ``values`` it claims to be a select menu."""
    message = fake.world.messages[int(base.payload["message"]["id"])]
    handle = fake.make_click(message, base.payload["data"]["custom_id"], user=user)
    handle.payload["data"]["custom_id"] = custom_id
    if values is not None:
        handle.payload["data"]["component_type"] = 3
        handle.payload["data"]["values"] = values
    return await fake.deliver(handle)


def snapshot(fake: FakeDiscord, toy_bot: BotProcess, table: Table) -> tuple[object, ...]:
    """Everything a refusal must leave alone: the game row, its moves and the channel's posts."""
    db = store_of(toy_bot)
    posts = [(m.id, m.content, json.dumps(m.components)) for m in public_messages(fake, table.channel)]
    return (db.game(table.game_id), db.moves(table.game_id), posts)


async def test_forged_and_malformed_custom_ids_are_refused(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """Hand-made custom_ids (garbage, broken JSON, unknown game, future version, impossible or
    unknown bids, bad select values) each get an ephemeral sentence and change nothing."""
    fake = fake_discord
    table = await start_toy(fake)
    gid = table.game_id
    opened = await open_choices(fake, table, "alice")
    real = fake.make_click(opened, bid_id(opened, 3), user="alice")
    token = real.payload["data"]["custom_id"].split(":")[3]
    before = snapshot(fake, toy_bot, table)
    cases: list[tuple[str, list[str] | None, str]] = [
        ("mv:zz:not-a-move", None, FORGED),
        (f"mv:{gid}:0:{token}:{{not json", None, FORGED),
        (f"mv:{gid}:0:{token}:[1,2]", None, FORGED),
        (f"mv:{gid}:0:{token}", None, FORGED),
        (f"lobby:{gid}:explode", None, FORGED),
        (f"open:{gid}", None, FORGED),
        ("x" * 100, None, FORGED),
        ("", None, FORGED),
        ('mv:-1:0:t:{"kind":"bid"}', None, FORGED),
        (f"sel:{gid}:0:{token}", ['{"kind":"bid","card":3}'], FORGED),
        (f"sel:{gid}:0:{token}:0", ["not json"], FORGED),
        (f"sel:{gid}:0:{token}:0", ['{"kind":"bid","card":3}', '{"kind":"bid","card":2}'], FORGED),
        (f'mv:999999:0:{token}:{{"kind":"bid","card":3}}', None, "I cannot find game #999999."),
        (f'mv:{gid}:99:{token}:{{"kind":"bid","card":3}}', None, STALE),
        (f'mv:{gid}:0:{token}:{{"kind":"bid","card":9}}', None, "You do not hold card 9."),
        (f'mv:{gid}:0:{token}:{{"kind":"steal"}}', None, "Sealed Bids only knows bids."),
        (f'mv:{gid}:0:{token}:{{"card":[3],"kind":"bid"}}', None, "You do not hold card [3]."),
    ]
    handles = [await forged_click(fake, real, cid, values=values) for cid, values, _ in cases]
    await fake.wait_until(lambda: all(refusal(h) for h in handles), WAIT, "a sentence for every forged id")
    for (cid, _, expected), handle in zip(cases, handles):
        assert expected in (refusal(handle) or ""), (cid, refusal(handle))
        assert not acknowledged(handle)
    assert snapshot(fake, toy_bot, table) == before
    await (await fake.deliver(real)).response(WAIT)  # the real button still works afterwards
    await fake.wait_until(lambda: acknowledged(real), WAIT, "the real bid")


async def test_outsiders_clicks_are_refused(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """A non-player and a player of another game clicking this game's buttons (public or private)
    are told they are not playing; nothing changes in either game."""
    fake = fake_discord
    table = await start_toy(fake, "games", "alice", "bob")
    other = await start_toy(fake, "general", "carol", "dave")
    turn = turn_messages(fake, table)[-1]
    opened = await open_choices(fake, table, "alice")
    before = (snapshot(fake, toy_bot, table), snapshot(fake, toy_bot, other))
    attempts = [
        await fake.click(turn, f"open:{table.game_id}:0", user="stranger"),
        await fake.click(turn, f"open:{table.game_id}:0", user="carol"),
        await fake.click(opened, bid_id(opened, 3), user="dave"),
        await fake.click(opened, bid_id(opened, 2), user="quinn"),
    ]
    await fake.wait_until(lambda: all(refusal(h) for h in attempts), WAIT, "the refusals")
    for handle in attempts:
        assert NOT_PLAYING in (refusal(handle) or ""), refusal(handle)
    assert (snapshot(fake, toy_bot, table), snapshot(fake, toy_bot, other)) == before


async def test_abandon_needs_host_or_manage_server(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """/game abandon by a player who is not the host and may not manage the server is refused with a
    sentence and the game plays on; a moderator with Manage Server may abandon it."""
    fake = fake_discord
    table = await start_toy(fake)
    await bid(fake, table, "alice", 3)
    before = snapshot(fake, toy_bot, table)
    for user in ("bob", "carol"):
        handle = await fake.slash("game", "abandon", user=user)
        # Acknowledged first with a public "thinking...", which the private refusal replaces.
        await fake.wait_until(lambda h=handle: refusal(h), WAIT, "the refusal")
        assert ABANDON_REFUSED in (refusal(handle) or ""), handle.sent
    assert snapshot(fake, toy_bot, table) == before
    await bid(fake, table, "bob", 1)  # the game goes on
    await wait_turn(fake, table, 2)

    done = await fake.slash("game", "abandon", user="mona")
    sent = await fake.wait_until(lambda: next((s for s in done.sent if s.content), None), WAIT, "the answer")
    assert f"Game #{table.game_id} was abandoned" in (sent.content or "") and not sent.ephemeral
    assert store_of(toy_bot).game(table.game_id)["status"] == "abandoned"
    await fake.wait_until(lambda: not turn_messages(fake, table), WAIT, "the buttons to be removed")


async def test_no_attach_files_still_plays_with_a_sentence(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """Where the bot may not attach files, the turn is posted as text with a sentence saying why the
    picture is missing, nothing is lost, and the game is played to its end there."""
    fake = fake_discord
    channel = "no-files"
    table = await start_toy(fake, channel)
    first = turn_messages(fake, table)[-1]
    assert not first.attachments and NO_ATTACH in first.content
    refused = [
        r for r in fake.requests_matching(f"POST /channels/{fake.channel(channel).id}/messages") if r.status == 403
    ]
    assert refused and all(r.files for r in refused)
    for round_number, (a, b) in enumerate(((3, 1), (1, 2), (2, 3)), start=1):
        await bid(fake, table, "alice", a)
        last = await bid(fake, table, "bob", b)
        if round_number < 3:
            turn = await wait_turn(fake, table, 2 * round_number)
            assert not turn.attachments and NO_ATTACH in turn.content
            assert f"Bids revealed: {a} against {b}." in turn.content
    await fake.wait_until(
        lambda: any("is over" in m.content for m in public_messages(fake, channel)), WAIT, "the end of the game"
    )
    ending = next(m for m in public_messages(fake, channel) if "is over" in m.content)
    assert not ending.attachments and NO_ATTACH in ending.content
    await fake.wait_until(
        lambda: any(NO_ATTACH in (s.content or "") for s in last.followups),
        WAIT,
        "the sentence to the player whose move was not pictured",
    )
    game = store_of(toy_bot).game(table.game_id)
    assert game["status"] == "finished" and game["version"] == 6
    assert all(not m.attachments for m in public_messages(fake, channel))
    assert ids_of(first) == []  # the first turn's button was taken away when the next was posted
