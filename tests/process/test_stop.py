"""A graceful stop of the real bot process (SIGTERM, as ``docker stop`` or systemd sends it).

Mid-burst: moves whose acknowledgement Discord is slow to take are in flight when SIGTERM comes. The
process lets every one of them commit and be acknowledged and announced, refuses what arrives after the
signal with a sentence (and changes nothing), exits 0, and leaves no lock file or heartbeat behind.

With two processes on PostgreSQL, the one that stops hands its games over at once: the other plays the
stopped one's AI seats at its next look for left work (every few seconds), while the stopped one's lease
would still have run for most of a minute (the clocks are not moved: only a handover explains it).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import time
from collections import Counter

from bot import store
from bot.store.leases import LeaseStore
from bot.testing.fakediscord.payloads import shard_of
from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle
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
    open_choices,
    poll,
    refusal,
    start_toy,
    store_of,
    turn_messages,
    wait_turn,
)

STOP_SECONDS = 20
RESTARTING = "The bot is restarting; try again in a minute."
ACK_DELAY = 2.0
"""Discord takes this long to accept each acknowledgement: the moves are in flight at the signal."""
TABLES = (
    ("games", "alice", "bob"),
    ("general", "carol", "dave"),
    ("lounge", "alice", "carol"),
    ("hall", "bob", "dave"),
)


async def gone(bp: BotProcess, seconds: float) -> int:
    """Wait for the process to end by itself (no SIGKILL); its exit status."""
    assert bp.proc is not None
    return await asyncio.wait_for(bp.proc.wait(), seconds)


def left_behind(bp: BotProcess) -> list[str]:
    """The lock file and heartbeat of the bot's database, if they are still there."""
    return [p for p in (store.lock_path(bp.db_path), f"{bp.db_path}.health") if os.path.exists(p)]


def settled(bp: BotProcess, game_id: int) -> tuple[int, int]:
    db = sqlite3.connect(f"file:{bp.db_path}?mode=ro", uri=True, timeout=10)
    try:
        version, told = db.execute("SELECT version, settled_version FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        db.close()
    return int(version), int(told)


async def test_sigterm_mid_burst_finishes_the_moves_in_flight_and_exits_0(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    fake = fake_discord
    for name in ("lounge", "hall", "pier"):
        fake.world.add_channel(name)
    bp = await bot_process(entry=ENTRY, env={**BASE_ENV, "STOP_SECONDS": str(STOP_SECONDS)})
    tables = [await start_toy(fake, channel, host, guest) for channel, host, guest in TABLES]
    late_table = await start_toy(fake, "pier", "dave", "alice")
    opened = {(t.game_id, user): await open_choices(fake, t, user) for t in tables for user in t.players}
    late_opened = await open_choices(fake, late_table, "dave")
    health = bp.db_path.with_name(bp.db_path.name + ".health")
    await poll(health.exists, "the heartbeat file")

    # The burst: every player of four games bids; Discord holds each acknowledgement for a while.
    hold = fake.delay("PATCH /webhooks/**", ACK_DELAY, times=100)
    burst: list[tuple[Table, str, int, InteractionHandle]] = []
    for table in tables:
        for number, user in enumerate(table.players, start=1):
            handle = await fake.click(
                opened[(table.game_id, user)], bid_id(opened[(table.game_id, user)], number), user=user
            )
            burst.append((table, user, number, handle))
    await fake.wait_until(lambda: hold.hits, WAIT, "a move committed, its acknowledgement in flight")
    assert not all(acknowledged(h) for *_, h in burst)  # the signal comes in the middle of the burst
    assert bp.proc is not None
    bp.proc.send_signal(signal.SIGTERM)
    await poll(lambda: "SIGTERM: stopping" in bp.log_text(), "the bot to take the signal")

    # What comes after the signal is refused with a sentence and changes nothing.
    late_bid = await fake.click(late_opened, bid_id(late_opened, 2), user="dave")
    late_slash = await fake.slash("game", "status", user="carol", channel="games")
    assert await gone(bp, STOP_SECONDS + WAIT) == 0

    for handle in (late_bid, late_slash):
        assert refusal(handle) == RESTARTING, handle.sent
    assert store_of(bp).moves(late_table.game_id) == []

    # Every move of the burst committed, acknowledged once, and announced once.
    reader = store_of(bp)
    for table, user, card, handle in burst:
        assert acknowledged(handle), (table.channel, user, handle.sent)
        assert sum(s.kind == "edit" for s in handle.sent) == 1, handle.sent
        logged = {(m.actor_xid, m.move["card"]) for m in reader.moves(table.game_id)}
        assert (fake.user(user).id, card) in logged
    for table in tables:
        assert settled(bp, table.game_id) == (2, 2)
        await wait_turn(fake, table, 2)
        versions = Counter(i for m in turn_messages(fake, table) for i in ids_of(m) if i.startswith("open:"))
        assert all(n == 1 for n in versions.values()), versions
    nonces = Counter(m.nonce for m in fake.world.messages.values() if m.nonce is not None and not m.deleted)
    assert all(n == 1 for n in nonces.values()), nonces

    log = bp.log_text()
    assert "SIGTERM: stopping" in log and "stop: finished" in log and "stop: handed over" in log, log
    assert left_behind(bp) == []

    # Nothing was lost: after a start, the refused player bids as if nothing happened.
    await bp.start()
    await bp.wait_ready()
    again = await open_choices(fake, late_table, "dave")
    retry = await fake.click(again, bid_id(again, 2), user="dave")
    await fake.wait_until(lambda: acknowledged(retry) or refusal(retry), WAIT, "dave's bid")
    assert acknowledged(retry), retry.sent


async def test_sigint_stops_an_idle_bot_gracefully(fake_discord: FakeDiscord, bot_process: BotProcessFactory) -> None:
    bp = await bot_process(entry=ENTRY, env=BASE_ENV)
    assert bp.proc is not None
    bp.proc.send_signal(signal.SIGINT)
    assert await gone(bp, STOP_SECONDS + WAIT) == 0
    assert "SIGINT: stopping" in bp.log_text()
    assert not fake_discord.gateway.connected


async def test_a_stopping_process_hands_its_ai_seats_to_the_other_at_once(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory, postgres_server: PostgresServer
) -> None:
    """Process A plays its AI seats slowly (a 60 s pause), so when SIGTERM comes its AI is awaited and A
    holds the game's lease; B (no pause) must play that seat, announced in A's game's channel."""
    fake = fake_discord
    world = fake.world
    main_shard = shard_of(world.guild_id, 2)
    second = world.add_guild("Town Hall", shard=(1 - main_shard, 2))
    world.add_channel("plaza", guild_id=second)
    fake.shard_count = 2
    url = await fresh_postgres_database(postgres_server)
    env = {**BASE_ENV, "DATABASE_URL": url, "SHARD_COUNT": "2", "STOP_SECONDS": str(STOP_SECONDS)}
    a = await bot_process(entry=ENTRY, env={**env, "SHARD_IDS": str(main_shard), "AI_PAUSE_SECONDS": "60"})
    await bot_process(entry=ENTRY, env={**env, "SHARD_IDS": str(1 - main_shard)})

    lobby = await fake.slash("game", "new", game="toy", ai_players=1, user="carol", channel="games")
    join_id = next(c for c in (await lobby.response(WAIT)).custom_ids if c.endswith(":join"))
    game_id = int(join_id.split(":")[1])
    await (await fake.click(lobby, f"lobby:{game_id}:start", user="carol")).response(WAIT)
    table = Table("games", game_id, "carol", "", lobby)
    await wait_turn(fake, table, 0)

    db = await store.Store.open(url)
    try:
        leases = LeaseStore(db)
        await poll_async(lambda: leases.holder(f"ai:{game_id}"), "A's lease on the AI seat")
        held = await leases.holder(f"ai:{game_id}")
        assert held is not None
        a_owner, a_until = held
        assert a.proc is not None
        signalled = time.monotonic()
        a.proc.send_signal(signal.SIGTERM)
        assert await gone(a, STOP_SECONDS + WAIT) == 0

        async def ai_moved() -> bool:
            return any(m.seat == 1 for m in await db.moves(game_id))

        # Well within A's lease (60 s from its last renewal): only the handover explains it.
        await poll_async(ai_moved, "B to play A's AI seat", seconds=a_until / 1000 - time.time() - 5)
        took = time.monotonic() - signalled

        async def told() -> bool:
            game = await db.get_game(game_id)
            return game is not None and game.version >= 1 and game.settled_version == game.version

        await poll_async(told, "B to announce the AI's bid")
        holder = await leases.holder(f"ai:{game_id}")
        assert holder is None or holder[0] != a_owner
    finally:
        await db.close()
    assert "stop: handed over to another process" in a.log_text()
    print(f"SIGTERM of A -> B played its AI seat: {took:.1f} s")


async def poll_async(check: object, what: str, seconds: float = WAIT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await check():  # type: ignore[operator]
        assert loop.time() < deadline, f"timed out after {seconds:.0f}s waiting for {what}"
        await asyncio.sleep(0.1)


async def health_of(bp: BotProcess) -> tuple[int, str]:
    """``python -m bot health`` run beside the bot, with its settings: (exit status, what it said)."""
    env = {k: v for k, v in bp.environment().items() if k != "DISCORD_TOKEN"}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        cwd=bp.workdir,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_health_follows_the_gateway_and_the_process(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    bp = await bot_process(entry=ENTRY, env=BASE_ENV)
    status, said = await health_of(bp)
    for _ in range(int(WAIT / 0.2)):  # the first heartbeat comes just after READY
        if status == 0:
            break
        await asyncio.sleep(0.2)
        status, said = await health_of(bp)
    assert status == 0 and said.startswith("healthy:"), said

    await fake_discord.stop()  # Discord is gone: the gateway is down, the process still runs
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3 * WAIT
    while (await health_of(bp))[0] == 0:
        assert loop.time() < deadline, "health still says healthy with the gateway down"
        await asyncio.sleep(0.5)
    status, said = await health_of(bp)
    assert status == 1 and "gateway" in said and bp.running, said

    await bp.kill()
    status, said = await health_of(bp)
    assert status == 1 and "is gone" in said, said


async def test_sigterm_while_starting_exits_0_and_leaves_nothing(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """A signal while the bot logs in and syncs its commands: the set-up ends, the bot stops, exit 0."""
    bp = await bot_process(entry=ENTRY, env=BASE_ENV, wait_ready=False)
    await poll(lambda: "event loop:" in bp.log_text(), "the bot's event loop")
    assert bp.proc is not None
    bp.proc.send_signal(signal.SIGTERM)
    assert await gone(bp, STOP_SECONDS + WAIT) == 0, bp.log_tail()
    assert "Traceback" not in bp.log_text() and left_behind(bp) == []


async def test_sigterm_while_discord_names_its_gateway_waits_for_the_launch_and_logs_no_traceback(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """The signal comes after the set-up, while Discord is still naming its gateway (no shard to launch yet,
    which is not every shard launched): the stop waits for the launch before it closes the client, so
    discord.py never retries a connection on a closed client and logs no traceback; exit 0."""
    fake_discord.delay("GET /gateway/bot", 3.0)
    bp = await bot_process(entry=ENTRY, env=BASE_ENV, wait_ready=False)
    await poll(lambda: "synced" in bp.log_text(), "the commands synced")
    assert bp.proc is not None
    bp.proc.send_signal(signal.SIGTERM)
    assert await gone(bp, STOP_SECONDS + WAIT) == 0, bp.log_tail()
    assert "Traceback" not in bp.log_text() and "Retrying" not in bp.log_text(), bp.log_tail()
    assert len(fake_discord.gateway.connections) == 1  # the launch the stop waited for (no retry)
    assert left_behind(bp) == []


async def test_work_that_outlives_stop_seconds_is_cut_off_and_told_at_the_next_start(
    fake_discord: FakeDiscord, bot_process: BotProcessFactory
) -> None:
    """Discord holds a move's acknowledgement far longer than STOP_SECONDS: the stop waits that long,
    no longer, exits 0 and says so; the move is committed, and the next start announces its turn."""
    fake = fake_discord
    bp = await bot_process(entry=ENTRY, env={**BASE_ENV, "STOP_SECONDS": "1"})
    table = await start_toy(fake)
    first = await open_choices(fake, table, "alice")
    handle = await fake.click(first, bid_id(first, 1), user="alice")
    await fake.wait_until(lambda: acknowledged(handle), WAIT, "alice's bid")
    second = await open_choices(fake, table, "bob")
    hold = fake.delay("PATCH /webhooks/**", 600.0, times=1)
    stuck = await fake.click(second, bid_id(second, 2), user="bob")
    await fake.wait_until(lambda: hold.hits, WAIT, "bob's move committed, its acknowledgement held")
    assert bp.proc is not None
    bp.proc.send_signal(signal.SIGTERM)
    assert await gone(bp, 1 + WAIT) == 0
    assert not acknowledged(stuck)
    assert "were cut off (STOP_SECONDS)" in bp.log_text() and "Traceback" not in bp.log_text(), bp.log_text()
    assert [m.seat for m in store_of(bp).moves(table.game_id)] == [0, 1]  # committed all the same

    await bp.start()
    await bp.wait_ready()
    await wait_turn(fake, table, 2)  # the reveal, announced by the next start
    await poll(lambda: settled(bp, table.game_id) == (2, 2), "the reveal to be settled")
