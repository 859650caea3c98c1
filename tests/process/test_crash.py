"""``kill -9`` of the bot in the middle of a burst of moves across many channels, then a restart.

The burst is made of clicks in three deterministic states at the moment of the kill, plus a wave
cut at random:

- *acknowledged*: the player was told "X has bid." (the move committed first);
- *committed, not yet told*: the fake holds the bot's edit of the private message, so the move is
  in the store but the player never heard of it;
- *not yet committed*: the fake holds the bot's answer to the click (the defer), which the bot awaits
  before playing the move, so the move was never written;
- *cut at random*: delivered just before the kill, in whatever state the kill finds them.

After the kill every acknowledged move is in the store, none twice, nothing that was not clicked;
``PRAGMA integrity_check`` is ok. After the restart the buttons posted before the kill still work,
a button whose move was already played is refused with a sentence, and every game plays on to its end.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle, RecordedRequest
from tests.fakediscord.fixtures import BotProcessFactory
from tests.process.conftest import (
    BASE_ENV,
    ENTRY,
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
    user_id,
    wait_turn,
)

HOLD_SECONDS = 600.0  # "forever" for a held request: the fake answers it only at teardown
TABLES = 12
RANDOM_TABLES = 4
PAIRS = (("alice", "bob"), ("carol", "dave"))
RESUME_SECONDS = 2.5  # after READY, for work the bot should do by itself at start-up


@dataclass
class Click:
    table: Table
    user: str
    card: int
    opened: InteractionHandle  # the private message the button is on
    handle: InteractionHandle
    state: str  # "ack", "held-ack", "held-defer", "random"


def holds(token: str, method: str, last: str) -> object:
    """Match the request of one interaction token (``.../<token>/callback`` or ``.../@original``)."""

    def matches(rec: RecordedRequest) -> bool:
        parts = rec.path.split("/")
        return rec.method == method and token in parts and parts[-1] == last

    return matches


async def prepare(fake: FakeDiscord, table: Table, plan: dict[str, tuple[int, str]]) -> list[Click]:
    """Open both players' private choices and build (not deliver) their bid clicks."""
    clicks = []
    for user, (card, state) in plan.items():
        opened = await open_choices(fake, table, user)
        handle = fake.make_click(opened, bid_id(opened, card), user=user)
        clicks.append(Click(table, user, card, opened, handle, state))
    return clicks


async def test_kill9_mid_burst_loses_nothing_and_every_game_resumes(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """Acknowledged moves survive kill -9 exactly once, the database is intact, and after the restart
    old buttons work, replayed buttons are refused, and all games finish with six moves each."""
    fake = fake_discord
    names = [f"burst-{i}" for i in range(TABLES + RANDOM_TABLES)]
    for name in names:
        fake.world.add_channel(name, parent="Games")
    bp = await bot_process(entry=ENTRY, env=BASE_ENV)

    tables = await asyncio.gather(*(start_toy(fake, name, *PAIRS[i % 2]) for i, name in enumerate(names)))
    states = ("ack", "held-ack", "held-defer")
    plans = []
    for i, table in enumerate(tables):
        if i < TABLES:
            plans.append({table.host: (3, "ack"), table.guest: (1, states[i % 3])})
        else:
            plans.append({table.host: (3, "random"), table.guest: (1, "random")})
    clicks = [c for group in await asyncio.gather(*(prepare(fake, t, p) for t, p in zip(tables, plans))) for c in group]
    for c in clicks:
        if c.state == "held-ack":
            fake.delay(holds(c.handle.token, "PATCH", "@original"), HOLD_SECONDS)
        elif c.state == "held-defer":
            fake.delay(holds(c.handle.token, "POST", "callback"), HOLD_SECONDS)

    # The burst: every planned click across all channels at once, the random wave last.
    planned = [c for c in clicks if c.state != "random"]
    await asyncio.gather(*(fake.deliver(c.handle) for c in planned))

    def reached(c: Click) -> bool:
        if c.state == "ack":
            return acknowledged(c.handle)
        method, last = ("PATCH", "@original") if c.state == "held-ack" else ("POST", "callback")
        return bool(fake.requests_matching(holds(c.handle.token, method, last)))

    await fake.wait_until(lambda: all(reached(c) for c in planned), WAIT, "the burst to reach its states")
    wave = [c for c in clicks if c.state == "random"]
    await asyncio.gather(*(fake.deliver(c.handle) for c in wave))
    # Kill as soon as the bot is busy with the wave (some clicks answered, most likely not all).
    await fake.wait_until(lambda: any(c.handle.callback for c in wave), WAIT, "the wave to start")
    await bp.kill()
    told = {id(c) for c in clicks if acknowledged(c.handle)}
    assert not any(acknowledged(c.handle) for c in clicks if c.state.startswith("held")), (
        "a held click was acknowledged: the holds did not work"
    )

    # --- the store after kill -9 ------------------------------------------------------------------
    db = store_of(bp)
    assert db.integrity() == "ok"
    stored = db.moves()
    keys = [(m.game_id, m.actor_xid, m.move["card"]) for m in stored]
    assert len(keys) == len(set(keys)), f"a move was stored twice: {keys}"
    clicked = {(c.table.game_id, user_id(fake, c.user), c.card) for c in clicks}
    assert set(keys) <= clicked, "the store holds a move nobody clicked"
    for c in clicks:
        key = (c.table.game_id, user_id(fake, c.user), c.card)
        if id(c) in told or c.state == "held-ack":
            assert key in keys, f"{c.state} move of {c.user} in #{c.table.channel} lost"
        if c.state == "held-defer":
            assert key not in keys, "a move whose click was never answered was played"
    for table in tables:
        game = db.game(table.game_id)
        moves = db.moves(table.game_id)
        assert game["version"] == len(moves) and db.snapshot_version(table.game_id) == game["version"]
        assert [m.version for m in moves] == list(range(1, len(moves) + 1))

    # --- restart ----------------------------------------------------------------------------------
    await bp.restart()
    again = []
    for c in clicks:  # the same button on the same pre-kill private message, clicked again
        message = c.opened.original
        assert message is not None
        button = c.handle.payload["data"]["custom_id"]
        if id(c) in told:
            assert button not in ids_of(message), "an acknowledged choice kept its buttons"
            continue
        assert button in ids_of(message), "an unanswered choice lost its buttons"
        key = (c.table.game_id, user_id(fake, c.user), c.card)
        again.append((c, key in keys, await fake.click(message, button, user=c.user)))
    assert {c.state for c, _, _ in again} >= {"held-ack", "held-defer"}
    await fake.wait_until(
        lambda: all(acknowledged(r) or refusal(r) for _, _, r in again), WAIT, "answers to the re-clicked buttons"
    )
    for c, was_stored, retry in again:
        if was_stored:  # played before the kill, never acknowledged: refused, not played twice
            assert not acknowledged(retry) and STALE in (refusal(retry) or ""), (c.state, refusal(retry))
        else:  # never played: the old button still works
            assert acknowledged(retry), (c.state, refusal(retry))
    after = store_of(bp).moves()
    assert len(after) == len(stored) + sum(1 for _, was_stored, _ in again if not was_stored)
    assert {(m.game_id, m.actor_xid, m.move["card"]) for m in after} == clicked

    # --- every game plays on to its end -----------------------------------------------------------
    async def finish(table: Table) -> None:
        for a, b in ((1, 2), (2, 3)):
            await bid(fake, table, table.host, a)
            await bid(fake, table, table.guest, b)

    await asyncio.gather(*(finish(t) for t in tables))
    db = store_of(bp)
    assert db.integrity() == "ok"
    for table in tables:
        game = db.game(table.game_id)
        assert game["status"] == "finished" and game["version"] == 6, (table.channel, game)
        by_seat: dict[int, list[int]] = {0: [], 1: []}
        for m in db.moves(table.game_id):
            by_seat[m.seat].append(m.move["card"])
        assert by_seat == {0: [3, 1, 2], 1: [1, 2, 3]}
        await fake.wait_until(
            lambda t=table: any("is over" in m.content for m in public_messages(fake, t.channel)),
            WAIT,
            f"the end of the game in #{table.channel}",
        )


async def test_move_committed_before_kill_is_posted_after_restart(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """A round completed and committed just before kill -9, before its turn message was posted, is
    posted after the restart without anyone having to click or ask for /game status."""
    fake = fake_discord
    bp = await bot_process(entry=ENTRY, env=BASE_ENV)
    table = await start_toy(fake)
    await bid(fake, table, "alice", 3)
    opened = await open_choices(fake, table, "bob")
    click = fake.make_click(opened, bid_id(opened, 1), user="bob")
    fake.delay(holds(click.token, "PATCH", "@original"), HOLD_SECONDS)  # the bot stalls after the commit
    await fake.deliver(click)
    await fake.wait_until(
        lambda: fake.requests_matching(holds(click.token, "PATCH", "@original")),
        WAIT,
        "the bot to commit and stall on the acknowledgement",
    )
    await bp.kill()
    assert store_of(bp).game(table.game_id)["version"] == 2
    await bp.restart()
    await wait_turn(fake, table, 2, seconds=RESUME_SECONDS)
