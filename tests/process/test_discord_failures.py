"""Discord failing while the bot posts the turn picture: 429 with retry_after, 500, a request that
never answers, and a post that finally fails. The move stays committed, the post is retried with
back-off, and ``/game status`` posts the board again when the post was lost."""

from __future__ import annotations

import asyncio
import re

from bot.testing.fakediscord.server import FakeDiscord, RecordedRequest
from cogs import operations
from tests.fakediscord.fixtures import BotProcess, BotProcessFactory
from tests.process.conftest import (
    BASE_ENV,
    ENTRY,
    WAIT,
    Table,
    acknowledged,
    bid,
    bid_id,
    ids_of,
    open_choices,
    poll,
    public_messages,
    refusal,
    start_toy,
    store_of,
    wait_turn,
)

REVEAL = "Bids revealed: 3 against 1."
COMMAND_MENTION = re.compile(r"</([^:>]+):\d+>")


def unlinked(text: str) -> str:
    """A sentence as written in the catalogue: Discord shows each command mention (</game status:1>) as the
    command's name in the reader's language."""
    return COMMAND_MENTION.sub(r"/\1", text)


DISCORD_TROUBLE = "Discord did not accept my reply; the game is safe. Try /game status."
REPOSTED = "I posted the board again below."
SETTLE_SECONDS = 0.5


def channel_posts(fake: FakeDiscord, channel: str, since: int) -> list[RecordedRequest]:
    return fake.requests_matching(f"POST /channels/{fake.channel(channel).id}/messages", since=since)


def reveals(fake: FakeDiscord, table: Table) -> list[str]:
    return [m.content for m in public_messages(fake, table.channel) if REVEAL in m.content]


async def first_round_with_failing_post(fake: FakeDiscord, table: Table) -> int:
    """Alice bids 3; returns the request mark from which the completing bid's post is made."""
    await bid(fake, table, "alice", 3)
    return fake.mark()


async def test_turn_post_survives_429_and_500(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """A 500 and two 429s (retry_after) on the turn picture: the move is committed and acknowledged,
    the post is retried until it lands, and the round is announced exactly once with its picture."""
    fake = fake_discord
    table = await start_toy(fake)
    mark = await first_round_with_failing_post(fake, table)
    route = f"POST /channels/{fake.channel('games').id}/messages"
    fake.server_error(route, status=500, times=1)  # first: discord.py waits 1 s, later ones longer
    fake.rate_limit(route, times=2, retry_after=0.3)
    await bid(fake, table, "bob", 1)
    turn = await wait_turn(fake, table, 2)
    assert [r.status for r in channel_posts(fake, "games", mark)] == [500, 429, 429, 200]
    assert REVEAL in turn.content and turn.attachments
    assert reveals(fake, table) == [turn.content]
    db = store_of(toy_bot)
    assert db.game(table.game_id)["version"] == 2 and len(db.moves(table.game_id)) == 2
    await poll(lambda: db.game(table.game_id)["turn_message_xid"] == turn.id, "the turn message id")
    opened = await open_choices(fake, table, "alice", turn)  # the new turn message works
    assert sorted(c for c in opened.callback.custom_ids if c.startswith("mv:")) == sorted(
        [bid_id(opened, 1), bid_id(opened, 2)]
    )


async def test_turn_post_that_never_answers_is_retried_with_the_same_nonce(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """Discord never answers the first upload of the turn picture: the bot gives up on it after its
    time-out and posts again with the same nonce (enforce_nonce), so Discord could not make two
    messages; the round is announced once and the game goes on."""
    fake = fake_discord
    bp = await bot_process(entry=ENTRY, env={**BASE_ENV, "PROCESS_POST_TIMEOUT": "1.0"})
    table = await start_toy(fake)
    mark = await first_round_with_failing_post(fake, table)
    route = f"POST /channels/{fake.channel('games').id}/messages"
    hold = fake.delay(route, 600.0)  # answered only at teardown
    await bid(fake, table, "bob", 1)
    turn = await wait_turn(fake, table, 2)
    assert hold.hits, "the first upload was not held"
    posts = channel_posts(fake, "games", mark)
    assert len(posts) == 2 and posts[1].status == 200
    nonces = [(p.json or {}).get("nonce") for p in posts]
    assert nonces[0] and nonces[0] == nonces[1], nonces
    assert all((p.json or {}).get("enforce_nonce") is True for p in posts)
    assert reveals(fake, table) == [turn.content]
    db = store_of(bp)
    assert db.game(table.game_id)["version"] == 2
    await poll(lambda: db.game(table.game_id)["turn_message_xid"] == turn.id, "the turn message id")
    await bid(fake, table, "alice", 1)


async def test_lost_turn_post_is_reposted_by_game_status(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """Every attempt to post the turn picture fails (503): the move stays committed, the player who
    made it is told the game is safe, and /game status posts the board again with working buttons."""
    fake = fake_discord
    table = await start_toy(fake)
    mark = await first_round_with_failing_post(fake, table)
    route = f"POST /channels/{fake.channel('games').id}/messages"
    fake.fail(route, status=503, code=0, message="Service Unavailable", times=operations.POST_ATTEMPTS)
    last = await bid(fake, table, "bob", 1)
    await fake.wait_until(
        lambda: DISCORD_TROUBLE in unlinked(refusal(last) or ""), WAIT, "the sentence about the lost post"
    )
    assert [r.status for r in channel_posts(fake, "games", mark)] == [503] * operations.POST_ATTEMPTS
    assert reveals(fake, table) == []
    db = store_of(toy_bot)
    assert db.game(table.game_id)["version"] == 2 and len(db.moves(table.game_id)) == 2

    status = await fake.slash("game", "status", user="carol")  # anyone in the channel may ask
    await fake.wait_until(
        lambda: any(REPOSTED in (s.content or "") for s in status.sent), WAIT, "the /game status answer"
    )
    turn = await wait_turn(fake, table, 2)
    assert turn.attachments and turn.attachments[0].data.startswith(b"\x89PNG")
    await poll(lambda: db.game(table.game_id)["turn_message_xid"] == turn.id, "the turn message id")
    opened = await open_choices(fake, table, "alice", turn)
    played = await fake.click(opened, bid_id(opened, 2), user="alice")
    await fake.wait_until(lambda: acknowledged(played) or refusal(played), WAIT, "alice's bid")
    assert acknowledged(played), refusal(played)
    assert db.game(table.game_id)["version"] == 3


async def test_click_delivered_twice_plays_once(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """The same click delivered twice (a replayed gateway event; the second answer is refused by
    Discord as already acknowledged) plays the bid once."""
    fake = fake_discord
    table = await start_toy(fake)
    opened = await open_choices(fake, table, "alice")
    click = fake.make_click(opened, bid_id(opened, 3), user="alice")
    await asyncio.gather(fake.deliver(click), fake.deliver(click))
    await fake.wait_until(lambda: acknowledged(click), WAIT, "the acknowledgement")
    await bid(fake, table, "bob", 1)
    await wait_turn(fake, table, 2)
    moves = store_of(toy_bot).moves(table.game_id)
    assert [(m.seat, m.move["card"]) for m in moves] == [(0, 3), (1, 1)]
    assert "Alice has bid." in {s.content for s in click.sent if s.kind == "edit"}
    message = opened.original
    assert message is not None and not any(i.startswith("mv:") for i in ids_of(message))


async def settled(fake: FakeDiscord, seconds: float = SETTLE_SECONDS) -> None:
    """Wait until the bot sent nothing for ``seconds`` (to assert on something it must not do)."""
    count = -1
    while count != len(fake.requests):
        count = len(fake.requests)
        await asyncio.sleep(seconds)


async def test_click_whose_first_answer_failed_is_not_played(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """When Discord answers the bot's acknowledgement of a bid with 10062 (the player saw "This
    interaction failed"), the bid is not played; and the second delivery of a click that was played
    says nothing to its player (no "earlier turn" sentence after "Alice has bid.")."""
    fake = fake_discord
    table = await start_toy(fake)
    opened = await open_choices(fake, table, "bob")
    failed = fake.make_click(opened, bid_id(opened, 3), user="bob")
    fake.unknown_interaction(lambda rec: failed.token in rec.path.split("/"))
    await fake.deliver(failed)

    opened = await open_choices(fake, table, "alice")
    click = fake.make_click(opened, bid_id(opened, 3), user="alice")
    await fake.deliver(click)
    await fake.wait_until(lambda: acknowledged(click), WAIT, "the acknowledgement")
    await fake.deliver(click)
    await settled(fake)
    played = [(m.actor_xid, m.move["card"]) for m in store_of(toy_bot).moves(table.game_id)]
    assert played == [(fake.user("alice").id, 3)], "the bid Bob saw fail was played"
    assert refusal(click) is None, refusal(click)


async def test_slow_turn_post_does_not_leave_stale_controls(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """The first round's post is slow (held 1.5 s) while both players already play the second round
    from the old message: both rounds are announced in order, and only the newest turn message keeps
    live buttons (the one the store points at)."""
    fake = fake_discord
    table = await start_toy(fake)
    await bid(fake, table, "alice", 3)
    hold = fake.delay(f"POST /channels/{fake.channel('games').id}/messages", 1.5)
    await bid(fake, table, "bob", 1)
    await fake.wait_until(lambda: hold.hits, WAIT, "the slow post")
    await bid(fake, table, "alice", 1)  # still on the first turn message: its buttons work
    await bid(fake, table, "bob", 2)
    newest = await wait_turn(fake, table, 4)
    db = store_of(toy_bot)
    await poll(lambda: db.game(table.game_id)["turn_message_xid"] == newest.id, "the newest turn message")
    await poll(
        lambda: (
            [m.id for m in public_messages(fake, "games") if any(i.startswith("open:") for i in ids_of(m))]
            == [newest.id]
        ),
        "the older turn messages to lose their buttons",
    )
    said = [m.content.splitlines()[0] for m in public_messages(fake, "games") if "Bids revealed" in m.content]
    assert said == [REVEAL, "Bids revealed: 1 against 2."]
