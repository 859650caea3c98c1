"""Two bot processes, one per shard, on one PostgreSQL database, against a two-shard fake gateway.

Process A runs the shard of the fake's main guild, process B the shard of a second guild. Each guild
has games of two humans, games of a human against the AI, and idle games where a human is awaited (their
reminders fall due when the test moves the bots' clock 13 hours on). Mid-burst, A is killed with
``kill -9`` and restarted. Then: every acknowledged move is in the move log, no move was applied twice,
no message was posted twice (the fake keeps one message per nonce; no turn is posted twice), and every
due reminder was sent exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot import store
from bot.testing.fakediscord.payloads import FakeMessage, shard_of
from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle, RecordedRequest
from bot.testing.postgres import PostgresServer
from tests.conftest import fresh_postgres_database
from tests.fakediscord.fixtures import BotProcess, BotProcessFactory
from tests.process.conftest import (
    BASE_ENV,
    ENTRY,
    WAIT,
    Table,
    acknowledged,
    bid_id,
    ids_of,
    public_messages,
    refusal,
    start_toy,
    turn_messages,
    wait_turn,
)

HOUR_MS = 3_600_000
LEASE_EXPIRED_MS = 3 * 60_000
"""Moved on after the restart, so the killed run's leases (a minute) have run out."""
REMINDER = "has been waiting for you since"
ROUNDS = 3
CHANNELS = {"main": ("games", "general", "lounge", "hall"), "second": ("plaza", "market", "park", "pier")}


@dataclass
class Burst:
    """What the players saw: every acknowledged bid (game, user, card)."""

    acked: list[tuple[int, str, int]] = field(default_factory=list)
    handles: list[InteractionHandle] = field(default_factory=list)


async def start_against_ai(fake: FakeDiscord, channel: str, host: str) -> Table:
    """/game new toy with one AI seat, started by the host; the AI bids at once."""
    lobby = await fake.slash("game", "new", game="toy", ai_players=1, user=host, channel=channel)
    sent = await lobby.response(WAIT)
    join_id = next(c for c in sent.custom_ids if c.endswith(":join"))
    game_id = int(join_id.split(":")[1])
    await (await fake.click(lobby, f"lobby:{game_id}:start", user=host)).response(WAIT)
    table = Table(channel, game_id, host, "", lobby)
    await wait_turn(fake, table, 0)
    return table


def live(fake: FakeDiscord, table: Table) -> bool:
    """Whether the table's guild has a connected shard (its process is up)."""
    guild = fake.channel(table.channel).guild_id or 0
    return fake.gateway.shard_connected(shard_of(guild, 2))


async def try_bid(fake: FakeDiscord, table: Table, user: str, card: int, burst: Burst) -> bool:
    """Open the newest turn message's choices and bid one of the cards offered (``card`` picks which);
    False if the process did not answer (killed) or refused."""
    try:
        message = turn_messages(fake, table)[-1]
        open_id = next(i for i in ids_of(message) if i.startswith("open:"))
        opened = await fake.click(message, open_id, user=user)
        await opened.response(5.0)
        callback = opened.callback
        offered = [i for i in (callback.custom_ids if callback is not None else []) if i.startswith("mv:")]
        if not offered:
            return False  # no choices: this player already bid this round
        cards = sorted(json.loads(i.split(":", 4)[4])["card"] for i in offered)
        card = cards[card % len(cards)]
        handle = await fake.click(opened, bid_id(opened, card), user=user)
        burst.handles.append(handle)
        await fake.wait_until(lambda: acknowledged(handle) or refusal(handle), 5.0, f"{user}'s bid")
    except (AssertionError, RuntimeError, StopIteration, TimeoutError, LookupError):
        return False
    if acknowledged(handle):
        burst.acked.append((table.game_id, user, card))
        return True
    return False


async def play_out(fake: FakeDiscord, db: store.Store, table: Table, burst: Burst) -> None:
    """Play the table to its end: each awaited human bids (retrying while its process is down)."""
    users = {fake.user(n).id: n for n in (table.host, table.guest) if n}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 90
    while loop.time() < deadline:
        game = await db.get_game(table.game_id)
        assert game is not None
        if game.status == "finished":
            return
        moves = await db.moves(table.game_id)
        if not live(fake, table):
            await asyncio.sleep(0.2)
            continue
        seats = {s.seat: s.user_xid for s in await db.seats(table.game_id)}
        round_no = len(moves) // 2
        done = {m.seat for m in moves[2 * round_no :]}
        todo = [users[u] for s, u in seats.items() if u in users and s not in done]
        if not todo:
            await asyncio.sleep(0.1)  # the AI's bid, or the reveal, is on its way
            continue
        if not await try_bid(fake, table, todo[0], round_no + len(todo[0]), burst):
            await asyncio.sleep(0.2)
    raise AssertionError(f"game {table.game_id} did not finish")


def set_clock(path: Path, offset_ms: int) -> None:
    """Move both bots' clocks (PROCESS_CLOCK_FILE) to ``offset_ms`` ahead of real time."""
    path.write_text(str(offset_ms))


async def outbox(db: store.Store, kind: str) -> list[tuple[str, int, str]]:
    """(nonce, attempts, status) of the outbox rows of one kind, oldest first."""
    rows = await db.fetch_all(
        "SELECT nonce, attempts, status FROM community_outbox WHERE kind = ? ORDER BY id", (kind,)
    )
    return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]


def nonce_counts(fake: FakeDiscord) -> Counter[str]:
    return Counter(m.nonce for m in fake.world.messages.values() if m.nonce is not None and not m.deleted)


def reminders_in(fake: FakeDiscord, channel: str) -> list[FakeMessage]:
    return [m for m in public_messages(fake, channel) if REMINDER in m.content]


async def test_two_shard_processes_on_one_database_survive_a_kill(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    fake = fake_discord
    world = fake.world
    main_shard = shard_of(world.guild_id, 2)
    second = world.add_guild("Town Hall", shard=(1 - main_shard, 2))
    for name in CHANNELS["main"][2:]:
        world.add_channel(name)
    for name in CHANNELS["second"]:
        world.add_channel(name, guild_id=second)
    fake.shard_count = 2
    url = await fresh_postgres_database(postgres_server)
    clock = tmp_path / "clock-offset-ms"
    clock.write_text("0")
    env = {**BASE_ENV, "DATABASE_URL": url, "PROCESS_CLOCK_FILE": str(clock), "SHARD_COUNT": "2"}
    a = await bot_process(entry=ENTRY, env={**env, "SHARD_IDS": str(main_shard)})
    b = await bot_process(entry=ENTRY, env={**env, "SHARD_IDS": str(1 - main_shard)})
    db = await store.Store.open(url)
    try:
        await run_the_burst(fake, db, a, b, clock)
    finally:
        await db.close()


async def run_the_burst(fake: FakeDiscord, db: store.Store, a: BotProcess, b: BotProcess, clock: Path) -> None:
    burst = Burst()
    humans = [await start_toy(fake, "games", "alice", "bob"), await start_toy(fake, "plaza", "alice", "bob")]
    against_ai = [await start_against_ai(fake, "general", "carol"), await start_against_ai(fake, "market", "dave")]
    idle = [
        await start_against_ai(fake, channel, host)
        for channel, host in (("lounge", "mona"), ("hall", "quinn"), ("park", "mona"), ("pier", "quinn"))
    ]
    for table in humans:
        assert await try_bid(fake, table, "alice", 2, burst)
    await asyncio.sleep(2.0)  # the passes after these moves (notices) are over

    # Everyone awaited has now waited 13 hours. A move on A's shard: A's next pass claims every due
    # reminder, and the first post hangs (Discord never answers it), so A is killed mid-claim.
    def reminder_post(rec: RecordedRequest) -> bool:
        return (
            rec.method == "POST" and rec.path.endswith("/messages") and REMINDER in str((rec.json or {}).get("content"))
        )

    hold = fake.delay(reminder_post, 600.0)
    set_clock(clock, 13 * HOUR_MS)
    assert await try_bid(fake, against_ai[0], "carol", 0, burst)
    await fake.wait_until(lambda: hold.hits, WAIT, "A's first reminder post")
    claimed = await outbox(db, "reminder")
    assert claimed and all(row[1] == 1 and row[2] == "claimed" for row in claimed), claimed

    players = [asyncio.create_task(play_out(fake, db, t, burst)) for t in humans + against_ai]
    try:
        on_b = {t.game_id for t in (humans[1], against_ai[1])}
        await fake.wait_until(
            lambda: len(burst.acked) >= 8 and sum(g in on_b for g, _, _ in burst.acked) >= 3, 30, "the burst"
        )
        await asyncio.sleep(2.5)  # B's loop passes a second after each of its moves
        # B passed after its moves meanwhile, but A's claims are leased: nobody else posted them.
        assert len(fake.requests_matching(reminder_post)) == 1
        await a.kill()  # mid-burst and mid-claim: its reminder claims and AI leases stay behind
        await asyncio.sleep(1.0)
        await a.restart()
        set_clock(clock, 13 * HOUR_MS + LEASE_EXPIRED_MS)  # the killed run's leases ran out
        await asyncio.gather(*players)
    finally:
        for task in players:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    # The killed run's claims were taken over (a second attempt, same row and nonce) and sent.
    for channel in ("lounge", "hall", "park", "pier"):
        await fake.wait_until(lambda c=channel: reminders_in(fake, c), 40, f"the reminder in #{channel}")
    first = {row[0] for row in claimed}
    for _ in range(100):
        taken = [row for row in await outbox(db, "reminder") if row[0] in first]
        if all(row[2] != "claimed" for row in taken):
            break
        await asyncio.sleep(0.2)
    assert len(taken) == len(first) and all(row[2] == "sent" and row[1] == 2 for row in taken), taken
    # Each posted once by the process that took it over; the hung one a second time, with its nonce.
    posts = Counter((r.json or {}).get("nonce") for r in fake.requests_matching(reminder_post))
    assert posts == {**dict.fromkeys(first, 1), hold.hits[0].json["nonce"]: 2}, posts

    # Every due reminder: sent exactly once (the idle games' players; nobody twice anywhere).
    await asyncio.sleep(2.0)  # a duplicate, if any, would come now
    for channels in CHANNELS.values():
        for channel in channels:
            mentioned = Counter(tuple(re.findall(r"<@(\d+)>", m.content)) for m in reminders_in(fake, channel))
            assert all(n == 1 for n in mentioned.values()), (channel, mentioned)
    for table in idle:
        assert len(reminders_in(fake, table.channel)) == 1

    # Nothing lost: every acknowledged bid is in the move log.
    for table in humans + against_ai:
        moves = await db.moves(table.game_id)
        logged = {(m.actor_xid, m.move["card"]) for m in moves}
        for game_id, user, card in burst.acked:
            if game_id == table.game_id:
                assert (fake.user(user).id, card) in logged, (table.channel, user, card, moves)
        # Nothing applied twice: each seat bid once a round, and the game ended after its rounds.
        assert Counter(m.seat for m in moves) == {0: ROUNDS, 1: ROUNDS}, moves
        game = await db.get_game(table.game_id)
        assert game is not None and game.status == "finished" and game.settled_version == game.version

    # Nothing posted twice: one message per nonce, one turn message per game version, one end each.
    assert all(n == 1 for n in nonce_counts(fake).values())
    for table in humans + against_ai:
        await fake.wait_until(
            lambda t=table: [m for m in public_messages(fake, t.channel) if "is over" in m.content],
            WAIT,
            f"the end of game {table.game_id}",
        )
        versions = Counter(i for m in turn_messages(fake, table) for i in ids_of(m) if i.startswith("open:"))
        assert all(n == 1 for n in versions.values()), versions
        assert len([m for m in public_messages(fake, table.channel) if "is over" in m.content]) == 1
    assert a.running and b.running
