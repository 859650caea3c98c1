"""Game rows and seats kept between reads (SQLite): what a player's next click reads is always what the
store last wrote, even when a read and a write of the same game interleave on the event loop; a database
several processes share (PostgreSQL) keeps nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot import store
from bot.store.counters import COUNTERS
from bot.store.rowcache import RowCache
from bot.testing.postgres import PostgresServer
from tests.conftest import emptied_postgres_database

GUILD, CHANNEL, HOST = 10, 20, 30


async def new_game(db: store.Store) -> int:
    game = await db.create_game(
        guild_xid=GUILD, channel_xid=CHANNEL, kind="toy", options={}, seed=1, host_xid=HOST, at=1
    )
    return game.id


# -- the cache's own bookkeeping ----------------------------------------------------------------------


def test_a_read_that_a_write_overtook_keeps_nothing() -> None:
    rows = RowCache()
    with rows.reading(1) as keep:
        with rows.changing(1):
            pass
        keep.append(("game", "old"))
    assert rows.get("game", 1) is None
    with rows.reading(1) as keep:
        keep.append(("game", "new"))
    assert rows.get("game", 1) == "new"


def test_a_write_drops_the_row_before_and_after_it() -> None:
    rows = RowCache()
    with rows.reading(1) as keep:
        keep.append(("game", "v1"))
        keep.append(("seats", ("ana",)))
    with rows.changing(1, seats=False):
        assert rows.get("game", 1) is None
        with rows.reading(1) as keep:  # read inside the open transaction: may see its own write
            keep.append(("game", "uncommitted"))
        assert rows.get("game", 1) == "uncommitted"
    assert rows.get("game", 1) is None, "a row read during a write outlived it"
    assert rows.get("seats", 1) == ("ana",), "a write of the game row dropped the seats"


def test_forgetting_everything_stops_reads_under_way() -> None:
    rows = RowCache()
    with rows.reading(1) as keep, rows.changing_all():
        keep.append(("game", "stale"))
    assert rows.get("game", 1) is None


def test_a_row_its_own_write_returned_is_kept_unless_another_write_overlapped() -> None:
    """A write that returns the row it leaves keeps it for the next read; one that another write of the game
    overlapped (started or ended meanwhile), or a forget-all, keeps nothing; the row it dropped stays dropped."""
    rows = RowCache()
    with rows.reading(1) as keep:
        keep.append(("game", "v1"))
    with rows.rewriting(1) as keep:
        assert rows.get("game", 1) is None
        keep.append(("game", "v2"))
    assert rows.get("game", 1) == "v2"
    with rows.rewriting(1) as keep:
        with rows.changing(1, seats=False):
            pass
        keep.append(("game", "v3 or not"))
    assert rows.get("game", 1) is None, "a write overlapped by another one kept its row"
    with rows.changing(1, seats=False), rows.rewriting(1) as keep:  # the other write ends after this one
        keep.append(("game", "v4"))
    assert rows.get("game", 1) is None
    with rows.rewriting(1) as keep:
        rows.forget_all()
        keep.append(("game", "v5"))
    assert rows.get("game", 1) is None
    assert not rows._reading and not rows._generation


def test_memory_is_bounded_and_bookkeeping_does_not_grow() -> None:
    rows = RowCache(limit=10)
    for game in range(500):
        with rows.reading(game) as keep:
            keep.append(("game", game))
        with rows.changing(game):
            pass
        with rows.reading(game) as keep:
            keep.append(("game", game))
    assert len(rows._rows) <= 20 and not rows._reading and not rows._generation
    assert rows.get("game", 499) == 499 and rows.get("game", 0) is None


# -- through the store ---------------------------------------------------------------------------------


async def test_every_write_of_a_game_is_seen_by_the_next_read(tmp_path: Path) -> None:
    db = await store.Store.open(tmp_path / "bot.sqlite3")
    try:
        assert db.rows is not None
        gid = await new_game(db)
        assert (await db.get_game(gid)).status == "lobby"  # type: ignore[union-attr]
        await db.add_seat(gid, user_xid=HOST, ai_level=None, name="Ana", at=2, max_seats=2)
        assert [s.name for s in await db.seats(gid)] == ["Ana"]
        await db.add_seat(gid, user_xid=None, ai_level="greedy", name="AI", at=3, max_seats=2)
        await db.update_seat(gid, 0, name="Ana B.")
        assert [s.name for s in await db.seats(gid)] == ["Ana B.", "AI"]
        assert await db.start_game(gid, state={"n": 0}, at=4)
        assert (await db.get_game(gid)).status == "active"  # type: ignore[union-attr]
        made = await db.commit_move(
            gid, expected_version=0, seat=0, move={"k": 1}, at=5, actor_xid=HOST, state={"n": 1}, awaiting_changed=True
        )
        version = made.version
        assert made.older_undos_open is None  # SQLite: undo's check is not read with the move
        game = await db.get_game(gid)
        assert game is not None and (game.version, game.awaiting_since) == (version, 5)
        updated = await db.update_game(gid, turn_message_xid=777)
        assert updated is not None and (updated.turn_message_xid, updated.version) == (777, version)
        before = COUNTERS.statements
        assert await db.get_game(gid) == updated and COUNTERS.statements == before, "the row returned was read again"
        await db.settle(gid, version)
        game = await db.get_game(gid)
        assert game is not None and (game.turn_message_xid, game.settled_version) == (777, version)
        await db.delete_user_data(HOST, replacement_name="Player 1")
        assert [(s.user_xid, s.name) for s in await db.seats(gid)] == [(None, "Player 1"), (None, "AI")]
        assert (await db.get_game(gid)).host_xid is None  # type: ignore[union-attr]
        assert await db.finish_game(gid, status="abandoned", at=6, result=None)
        assert (await db.get_game(gid)).status == "abandoned"  # type: ignore[union-attr]
        assert db.rows.hits > 0, "nothing was ever read from memory"
    finally:
        await db.close()


async def test_a_read_racing_a_move_never_brings_back_the_old_row(tmp_path: Path) -> None:
    """Many reads of a game are under way while its moves commit: after each commit, the next read
    gives the new version (a read that began before the commit must not put the old row back)."""
    db = await store.Store.open(tmp_path / "bot.sqlite3")
    try:
        gid = await new_game(db)
        await db.add_seat(gid, user_xid=HOST, ai_level=None, name="Ana", at=2, max_seats=1)
        await db.start_game(gid, state={}, at=3)
        stop = False

        async def reader() -> None:
            while not stop:
                await db.get_game(gid)
                await asyncio.sleep(0)  # a read from memory does not wait: let the others run

        readers = [asyncio.create_task(reader()) for _ in range(8)]
        try:
            for version in range(20):
                await db.commit_move(
                    gid,
                    expected_version=version,
                    seat=0,
                    move={},
                    at=10 + version,
                    actor_xid=HOST,
                    state={},
                    awaiting_changed=False,
                )
                game = await db.get_game(gid)
                assert game is not None and game.version == version + 1
                await asyncio.sleep(0)
        finally:
            stop = True
            await asyncio.gather(*readers)
    finally:
        await db.close()


async def test_a_database_two_processes_share_keeps_nothing(postgres_server: PostgresServer) -> None:
    """Two stores on one PostgreSQL database (two bot processes): what one writes, the other reads
    at once, however often it read the game before."""
    url = await emptied_postgres_database(postgres_server)
    one, two = await store.Store.open(url), await store.Store.open(url)
    try:
        assert one.rows is None and two.rows is None
        gid = await new_game(one)
        for _ in range(3):
            assert (await one.get_game(gid)).status == "lobby"  # type: ignore[union-attr]
        await two.add_seat(gid, user_xid=HOST, ai_level=None, name="Ana", at=2, max_seats=1)
        await two.finish_game(gid, status="abandoned", at=3, result=None)
        assert (await one.get_game(gid)).status == "abandoned"  # type: ignore[union-attr]
        assert [s.name for s in await one.seats(gid)] == ["Ana"]
    finally:
        await one.close()
        await two.close()
