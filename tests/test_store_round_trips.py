"""What a move asks of the database (issue 42), counted by the store's own counters (bot/store/counters.py):
on PostgreSQL a move is one round trip (the version check, the move, the snapshot and the NOTIFY in one
statement, no BEGIN/COMMIT, no reset query when the connection goes back to the pool), a game and its seats
are one statement, and none of it weakens a guarantee (a stale move writes and announces nothing, a
transaction that failed leaves its connection clean). The load bench's side-by-side figures are checked
here too."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from bot import store
from bot.benches.load import sidebyside
from bot.store.community.clocks import ClockStore, turn_values
from bot.store.community.erasure import ErasureStore
from bot.store.community.followers import FollowerStore
from bot.store.community.reminders import WaitRow, WaitStore
from bot.store.community.settings import SettingsStore
from bot.store.community.undo import UndoRow, UndoStore
from bot.store.counters import COUNTERS, per_unit
from bot.store.engine import KEEP_USES, MOVES_CHANNEL, PostgresEngine
from bot.testing.postgres import PostgresServer
from tests.conftest import fresh_postgres_database
from tests.test_store_engines import ANA, BEA, GUILD, started_game


def move_args(version: int, *, result: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "expected_version": version,
        "seat": 0,
        "move": {"card": version},
        "at": 100 + version,
        "actor_xid": ANA,
        "state": {"turn": version + 1},
        "awaiting_changed": True,
        "result": result,
    }


async def test_a_move_on_postgres_is_one_round_trip(postgres_server: PostgresServer) -> None:
    """One statement, one round trip, one NOTIFY, no transaction of its own and no pool acquisition (the engine
    keeps the connection its last use gave back); the game, the move and the snapshot are all written, and a
    finishing move finishes the game the same way."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server))
    try:
        game_id = await started_game(db)
        before = COUNTERS.snapshot()
        made = await db.commit_move(game_id, **move_args(0))
        spent = per_unit(before, COUNTERS.snapshot(), 1)
        assert (made.version, made.older_undos_open) == (1, False)
        assert (spent["round_trips"], spent["statements"], spent["acquisitions"]) == (1, 1, 0)
        assert (spent["transactions"], spent["notifies"]) == (0, 1)
        assert await db.snapshot(game_id) == (1, {"turn": 1})
        assert [(m.version, m.move, m.actor_xid) for m in await db.moves(game_id)] == [(1, {"card": 0}, ANA)]
        game = await db.get_game(game_id)
        assert game is not None and (game.version, game.updated_at, game.awaiting_since) == (1, 100, 100)
        assert (await db.commit_move(game_id, **move_args(1, result={"winner": 0}))).version == 2
        game = await db.get_game(game_id)
        assert game is not None and (game.status, game.finished_at, game.result) == ("finished", 101, {"winner": 0})
    finally:
        await db.close()


async def test_a_move_on_postgres_tells_whether_an_older_undo_proposal_is_open(postgres_server: PostgresServer) -> None:
    """The move's one statement also reads undo's check (an open proposal of an older version): after a move
    that found none, undo asks nothing more; one open proposal is found and expired as before, after which the
    next move finds none again. SQLite does not read it (None: undo asks)."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server))
    undos = UndoStore(db)
    try:
        game_id = await started_game(db)
        assert (await db.commit_move(game_id, **move_args(0))).older_undos_open is False
        proposal = UndoRow(game_id, 1, ANA, 0, {"card": 0}, [BEA], 100, "open", None, 5)
        assert await undos.create_undo(proposal)
        assert (await db.commit_move(game_id, **move_args(1))).older_undos_open is True
        assert [u.version for u in await undos.expire_undos(game_id, 2)] == [1]
        assert (await db.commit_move(game_id, **move_args(2))).older_undos_open is False
        assert (await undos.undo(game_id, 1)).status == "expired"  # type: ignore[union-attr]
    finally:
        await db.close()


async def test_a_move_on_postgres_reads_the_settings_and_followers_of_its_game(postgres_server: PostgresServer) -> None:
    """The move's one statement also reads what the turn post and the status after it would read: the server's and
    the game's settings as stored (empty where none) and the followers, the longest-standing first; a change made
    before the move is in the next move's reading. A stale move reads nothing (StaleVersion)."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server))
    settings, followers = SettingsStore(db), FollowerStore(db)
    try:
        game_id = await started_game(db)
        made = await db.commit_move(game_id, **move_args(0))
        assert (made.settings, made.followers) == (({}, {}), ())
        await settings.set_settings("guild", GUILD, {"clock": "3d+1d"})
        await settings.set_settings("game", game_id, {"clock": "off"})
        await settings.set_settings("game", game_id + 1, {"clock": "1d+12h"})  # another game's: not read
        assert await followers.follow(game_id, 7, at=20) and await followers.follow(game_id, 3, at=30)
        made = await db.commit_move(game_id, **move_args(1))
        assert made.settings == ({"clock": "3d+1d"}, {"clock": "off"}) and made.followers == (7, 3)
        assert made.settings == await settings.game_settings(GUILD, game_id)
        assert list(made.followers) == await followers.followers(game_id)
    finally:
        await db.close()


async def test_a_turn_posts_id_and_its_record_on_postgres_are_one_round_trip(postgres_server: PostgresServer) -> None:
    """The turn post's id on the game's row and forget-me's record of the post (``game_posts``) are one statement:
    one round trip, no transaction of its own; the row comes back as the update left it, and the post is kept
    with the version it shows. An unknown game: no row, no post."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server))
    try:
        game_id = await started_game(db)
        before = COUNTERS.snapshot()
        row = await db.update_game(game_id, posts=[store.PostRecord("turn", 5, 700, 0)], turn_message_xid=700)
        spent = per_unit(before, COUNTERS.snapshot(), 1)
        assert (spent["round_trips"], spent["statements"], spent["transactions"]) == (1, 1, 0)
        assert row is not None and row.turn_message_xid == 700
        await db.update_game(game_id, posts=[store.PostRecord("turn", 5, 700, 1)], turn_message_xid=700)
        assert await ErasureStore(db).posts(game_id) == [("turn", 1, 5, 700)]  # a repost updates it
        assert await db.update_game(game_id + 1, posts=[store.PostRecord("turn", 5, 701, 0)], paused_at=1) is None
        assert await ErasureStore(db).posts(game_id + 1) == []
    finally:
        await db.close()


async def test_a_stale_move_on_postgres_writes_and_announces_nothing(postgres_server: PostgresServer) -> None:
    """A move at a version the game has left is StaleVersion: no move, no snapshot, and no notification (the
    first one a listener hears is the next real move's)."""
    url = await fresh_postgres_database(postgres_server)
    db = await store.Store.open(url)
    heard: asyncio.Queue[str] = asyncio.Queue()
    listener = await asyncpg.connect(url)
    await listener.add_listener(MOVES_CHANNEL, lambda *args: heard.put_nowait(args[-1]))
    try:
        game_id = await started_game(db)
        with pytest.raises(store.StaleVersion):
            await db.commit_move(game_id, **move_args(3))
        assert await db.moves(game_id) == [] and await db.snapshot(game_id) == (0, {"turn": 0})
        await db.commit_move(game_id, **move_args(0))
        assert await asyncio.wait_for(heard.get(), 10) == f"{game_id}:1"
    finally:
        await listener.close()
        await db.close()


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_game_and_its_seats_in_one_reading(db: store.Store) -> None:
    """``game_and_seats`` is ``get_game`` and ``seats`` together (one statement on PostgreSQL); a game
    without seats has none and an unknown game is None."""
    game_id = await started_game(db)
    before = COUNTERS.snapshot()
    found = await db.game_and_seats(game_id)
    if db.dialect == store.POSTGRES:
        assert per_unit(before, COUNTERS.snapshot(), 1)["statements"] == 1
    assert found == (await db.get_game(game_id), await db.seats(game_id))
    assert found is not None and [s.user_xid for s in found[1]] == [ANA, BEA]
    empty = await db.create_game(guild_xid=1, channel_xid=6, kind="toy", options={}, seed=1, host_xid=ANA, at=1)
    assert await db.game_and_seats(empty.id) == (await db.get_game(empty.id), [])
    assert await db.game_and_seats(10**12) is None


async def test_postgres_reads_cost_one_round_trip_and_a_failed_transaction_leaves_its_connection_clean(
    postgres_server: PostgresServer,
) -> None:
    """No reset query when a connection goes back to the pool (a read is one round trip), yet a transaction
    that failed is rolled back before its connection is used again (a pool of one: the same connection)."""
    url = await fresh_postgres_database(postgres_server)
    db = await store.Store.open(url, pool_size=1)
    try:
        game_id = await started_game(db)
        before = COUNTERS.snapshot()
        for _ in range(3):
            await db.get_game(game_id)
        assert per_unit(before, COUNTERS.snapshot(), 3)["round_trips"] == 1
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute("UPDATE games SET updated_at = 999 WHERE id = ?", (game_id,))
                raise RuntimeError("the writer failed")
        game = await db.get_game(game_id)
        assert game is not None and game.updated_at != 999
        other = await asyncpg.connect(url)  # the row is not locked by a transaction left open
        try:
            await other.execute("SET lock_timeout = '5s'")
            assert await other.execute("UPDATE games SET updated_at = 7 WHERE id = $1", game_id) == "UPDATE 1"
        finally:
            await other.close()
    finally:
        await db.close()


async def test_postgres_keeps_its_connections_and_gives_back_one_that_is_not_clean(
    postgres_server: PostgresServer,
) -> None:
    """The engine keeps the connections it used instead of giving each back to the pool after every statement
    (asyncpg's acquire and release cost about as much CPU as a short read): a hundred reads take no connection
    from the pool. A statement the server refuses leaves its connection kept; a statement cancelled on its way
    (a timeout) gives its connection back to the pool, whose reset ends what was under way, and the next read
    works; a kept connection goes back after KEEP_USES uses; closing the store gives every kept one back."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server), pool_size=2)
    engine = db.connection
    assert isinstance(engine, PostgresEngine)
    try:
        game_id = await started_game(db)
        before = COUNTERS.snapshot()
        for _ in range(100):
            assert await db.get_game(game_id) is not None
        assert COUNTERS.snapshot()["acquisitions"] == before["acquisitions"]
        kept = len(engine.keeper._kept)
        assert kept >= 1

        with pytest.raises(asyncpg.PostgresError):
            await engine.fetch_one("SELECT no_such_column FROM games")
        assert len(engine.keeper._kept) == kept  # refused by the server: the connection is as it was

        with pytest.raises(TimeoutError):
            await asyncio.wait_for(engine.fetch_one("SELECT pg_sleep(5)"), 0.2)
        assert len(engine.keeper._kept) == kept - 1  # cancelled mid-statement: back to the pool, not kept
        assert await db.get_game(game_id) is not None
        row = await engine.fetch_one("SELECT 1 AS one")
        assert row is not None and row["one"] == 1

        engine.keeper._kept[-1].uses = KEEP_USES - 1
        used = engine.keeper._kept[-1].conn
        await db.get_game(game_id)
        assert all(k.conn is not used for k in engine.keeper._kept)  # its last use gave it back to the pool
    finally:
        await db.close()
    assert engine.keeper._kept == []


async def test_a_use_waiting_for_a_full_pool_gets_the_connection_given_back(postgres_server: PostgresServer) -> None:
    """A pool of one: while a transaction holds the connection, a read waits in line; when the transaction ends,
    its connection is handed to the read (not kept where nobody waiting would find it, and not given back to
    the pool and taken again)."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server), pool_size=1)
    try:
        game_id = await started_game(db)
        began, release = asyncio.Event(), asyncio.Event()

        async def writer() -> None:
            async with db.transaction() as tx:
                await tx.execute("UPDATE games SET updated_at = 5 WHERE id = ?", (game_id,))
                began.set()
                await release.wait()

        task = asyncio.create_task(writer())
        await began.wait()
        before = COUNTERS.snapshot()
        read = asyncio.create_task(db.get_game(game_id))
        await asyncio.sleep(0.1)
        assert not read.done()  # the one connection is the writer's
        release.set()
        await task
        game = await asyncio.wait_for(read, 30)  # a guard against a hang, not a measure of time
        assert game is not None and game.updated_at == 5
        assert COUNTERS.snapshot()["acquisitions"] == before["acquisitions"]  # handed over, not taken again
    finally:
        await db.close()


async def test_a_busy_pool_hands_connections_over_and_a_cancelled_wait_loses_none(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty reads at once on a pool of two: each gets the right row, the engine takes no more connections than
    the pool's size, and a read cancelled while it waits in line neither loses the connection handed to it
    nor keeps the others waiting (every read after it still runs), whether it was cancelled in line or just as a
    connection was handed to it."""
    db = await store.Store.open(await fresh_postgres_database(postgres_server), pool_size=2)
    engine = db.connection
    assert isinstance(engine, PostgresEngine)
    try:
        game_id = await started_game(db)
        for _ in range(3):  # the pool's connections made and kept
            await asyncio.gather(*(db.get_game(game_id) for _ in range(4)))
        before = COUNTERS.snapshot()
        reads: list[asyncio.Task[Any]] = []
        hand_over = engine.keeper._pass_on

        def hand_over_then_cancel(kept: Any) -> None:  # the first read handed a connection is cancelled at once
            hand_over(kept)
            if kept is not None and reads and not reads[2].cancelling():
                reads[2].cancel()

        monkeypatch.setattr(engine.keeper, "_pass_on", hand_over_then_cancel)
        reads += [asyncio.create_task(engine.fetch_one("SELECT ?::bigint AS n", (n,))) for n in range(40)]
        for n in range(5, 40, 3):  # one a turn of the loop, in line
            await asyncio.sleep(0)
            reads[n].cancel()
        cancelled = {2, *range(5, 40, 3)}
        done = await asyncio.wait_for(asyncio.gather(*reads, return_exceptions=True), 30)  # a guard, not a time
        for n, row in enumerate(done):
            if isinstance(row, asyncio.CancelledError):
                assert n in cancelled
            else:
                assert not isinstance(row, BaseException) and row is not None and row["n"] == n
        assert COUNTERS.snapshot()["acquisitions"] == before["acquisitions"]
        assert (
            engine.keeper._held <= 2 and engine.keeper.waiting == 0 and len(engine.keeper._kept) == engine.keeper._held
        )
        assert await db.get_game(game_id) is not None
    finally:
        await db.close()
    assert engine.keeper._kept == [] and engine.keeper._held == 0


async def test_a_move_on_sqlite_is_counted_as_one_writer(db_path: Any) -> None:
    """SQLite's counters: a move is one writer's transaction of three statements, no pool, no NOTIFY."""
    db = await store.Store.open(db_path)
    try:
        game_id = await started_game(db)
        before = COUNTERS.snapshot()
        await db.commit_move(game_id, **move_args(0))
        spent = per_unit(before, COUNTERS.snapshot(), 1)
        assert (spent["transactions"], spent["statements"], spent["commits"]) == (1, 3, 1)
        assert (spent["acquisitions"], spent["notifies"]) == (0, 0)
        assert spent["round_trips"] == 5  # BEGIN IMMEDIATE, three statements, COMMIT
    finally:
        await db.close()


def test_the_bench_takes_the_median_run_the_spread_and_the_ratios() -> None:
    """Each mode's figures are its median repetition's, with every repetition's value, min, max and stdev;
    lost moves are summed over the repetitions; the ratios compare PostgreSQL's medians with SQLite's."""

    def run(mode: str, rate: float, cpu: float, lost: int = 0) -> dict[str, Any]:
        return {f"{mode}.moves_per_s": rate, f"{mode}.cpu_ms_per_move.bot": cpu, f"{mode}.lost": lost}

    lite = [run("load.process", r, c) for r, c in ((100.0, 5.0), (120.0, 6.0), (110.0, 5.5))]
    pg = [run("load.postgres.process", r, c, lost) for r, c, lost in ((90.0, 6.0, 0), (80.0, 7.0, 1), (100.0, 6.5, 0))]
    combined = sidebyside.combine("load.process", lite)
    assert combined["load.process.moves_per_s"] == 110.0 and combined["load.process.cpu_ms_per_move.bot"] == 5.5
    assert combined["load.process.moves_per_s.runs"] == [100.0, 120.0, 110.0]
    assert (combined["load.process.moves_per_s.min"], combined["load.process.moves_per_s.max"]) == (100.0, 120.0)
    assert combined["load.process.moves_per_s.stdev"] == 10.0 and combined["load.process.runs"] == 3
    assert sidebyside.combine("load.postgres.process", pg)["load.postgres.process.lost"] == 1
    ratios = sidebyside.ratios(lite, pg)
    assert ratios["load.ratio.postgres_to_sqlite.moves_per_s"] == round(90 / 110, 2)
    assert ratios["load.ratio.postgres_to_sqlite.cpu_ms_per_move"] == round(6.5 / 5.5, 2)
    assert ratios["load.ratio.postgres_to_sqlite.moves_per_s.min"] == round(80 / 120, 2)
    assert ratios["load.ratio.postgres_to_sqlite.moves_per_s.max"] == round(100 / 110, 2)


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_moves_waits_and_turn_record_are_one_write(db: store.Store) -> None:
    """``replace_waits`` with the move's turn record (what follows most moves): on PostgreSQL one statement, one
    round trip, no transaction of its own; on both engines the waits become exactly the seats kept and saved,
    the open vote about a seat no longer awaited (or whose turn restarted) is cancelled and returned, the other
    stays open, and the turn is recorded once."""
    game_id = await started_game(db)
    waits, clocks = WaitStore(db), ClockStore(db)

    def wait(seat: int, since: int) -> WaitRow:
        return WaitRow(
            game_id=game_id, seat=seat, guild_xid=1, channel_xid=5, user_xid=ANA + seat, since=since, since_version=0
        )

    await waits.replace_waits(game_id, keep=(), upserts=[wait(0, 10), wait(1, 10)], at=10)
    async with db.transaction() as tx:
        for seat in (0, 1):
            await tx.execute(
                "INSERT INTO community_votes (game_id, version, seat, user_xid, voters, opened_at, closes_at)"
                " VALUES (?, 0, ?, ?, '[]', 10, 99)",
                (game_id, seat, ANA + seat),
            )
    before = COUNTERS.snapshot()
    cancelled = await waits.replace_waits(
        game_id, keep=(), upserts=[wait(1, 20)], at=20, turn=turn_values(game_id, 1, 20, [1])
    )
    if db.dialect == store.POSTGRES:
        spent = per_unit(before, COUNTERS.snapshot(), 1)
        assert (spent["round_trips"], spent["statements"], spent["transactions"]) == (1, 1, 0)
    assert sorted(v.seat for v in cancelled) == [0, 1]  # seat 0 no longer awaited, seat 1's turn restarted
    assert {s: w.since for s, w in (await waits.waits_for_game(game_id)).items()} == {1: 20}
    await waits.replace_waits(game_id, keep=[1], upserts=[], at=30, turn=turn_values(game_id, 1, 30, [0]))
    assert [w.since for w in (await waits.waits_for_game(game_id)).values()] == [20]
    records = await clocks.records(game_id, 1, [ANA], 0)
    assert records.turns == [(1, 20, frozenset({1}))]  # a second record of the same version changes nothing
    rows = await db.fetch_all("SELECT seat, status FROM community_votes WHERE game_id = ? ORDER BY seat", (game_id,))
    assert [tuple(r) for r in rows] == [(0, "cancelled"), (1, "cancelled")]


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_new_waits_vacation_is_read_by_its_write(db: store.Store) -> None:
    """A wait that restarts while its player is away with paused deadlines starts paused (from its start), read by
    the same statement that saves it (PostgreSQL: still one round trip, with the votes and the turn record); a
    player away without the pause, one back already, or one not away starts unpaused; a wait kept as it is keeps
    its own pause."""
    game_id = await started_game(db)
    waits = WaitStore(db)
    guild = 1
    await waits.start_away(guild, ANA, since=5, until=100, pauses_deadlines=True)
    await waits.start_away(guild, ANA + 1, since=5, until=100, pauses_deadlines=False)
    await waits.start_away(guild, ANA + 2, since=5, until=15, pauses_deadlines=True)
    seats = range(4)
    rows = [
        WaitRow(game_id=game_id, seat=s, guild_xid=guild, channel_xid=5, user_xid=ANA + s, since=20, since_version=1)
        for s in seats
    ]
    kept = WaitRow(game_id=game_id, seat=4, guild_xid=guild, channel_xid=5, user_xid=ANA, since=20, since_version=1)
    before = COUNTERS.snapshot()
    await waits.replace_waits(
        game_id, keep=(), upserts=[*rows, kept], at=20, turn=turn_values(game_id, 1, 20, seats), away_pauses=seats
    )
    if db.dialect == store.POSTGRES:
        spent = per_unit(before, COUNTERS.snapshot(), 1)
        assert (spent["round_trips"], spent["statements"], spent["transactions"]) == (1, 1, 0)
    paused = {s: w.paused_since for s, w in (await waits.waits_for_game(game_id)).items()}
    assert paused == {0: 20, 1: None, 2: None, 3: None, 4: None}


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_games_messages_write_returns_the_row(db: store.Store) -> None:
    """Setting a game's message ids returns the row as the write left it (no second reading), in one statement."""
    game_id = await started_game(db)
    before = COUNTERS.snapshot()
    row = await db.update_game(game_id, turn_message_xid=77, status_message_xid=78)
    spent = per_unit(before, COUNTERS.snapshot(), 1)
    assert spent["statements"] == 1 and row == await db.get_game(game_id)
    assert row is not None and (row.id, row.turn_message_xid, row.status_message_xid) == (game_id, 77, 78)
    assert await db.update_game(game_id + 999, turn_message_xid=1) is None


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_games_settings_are_one_reading(db: store.Store) -> None:
    """The server's settings and the game's overrides in one statement, each scope its own."""
    game_id = await started_game(db)
    settings = SettingsStore(db)
    guild = game_id + 1000
    assert await settings.game_settings(guild, game_id) == ({}, {})
    await settings.set_settings("guild", guild, {"reminder_hours": 5})
    await settings.set_settings("game", game_id, {"clock": "3d+1d"})
    await settings.set_settings("guild", game_id, {"reminder_hours": 7})  # another server, whose id is the game's
    await settings.set_settings("game", guild, {"clock": "off"})  # another game, whose id is the server's
    before = COUNTERS.snapshot()
    found = await settings.game_settings(guild, game_id)
    assert per_unit(before, COUNTERS.snapshot(), 1)["statements"] == 1
    assert found == ({"reminder_hours": 5}, {"clock": "3d+1d"})
