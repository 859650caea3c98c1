"""PostgreSQL's notifications of moves (issue 28, several processes): a move committed through one store
is heard by another store's listener on the same database at once (``NOTIFY`` in the move's transaction),
a refused move is not, a dropped listening connection connects again by itself; SQLite has no listener."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot import store
from bot.store.engine import parse_move_payload
from bot.testing.postgres import PostgresServer
from tests.conftest import fresh_postgres_database
from tests.test_store_engines import started_game


async def commit(db: store.Store, game_id: int, version: int) -> int:
    made = await db.commit_move(
        game_id,
        expected_version=version,
        seat=0,
        move={"v": version},
        at=10 + version,
        actor_xid=None,
        state={"v": version},
        awaiting_changed=True,
    )
    return made.version


async def until(condition: object, seconds: float = 10.0) -> None:
    """Waits (by small steps, at most ``seconds``) until ``condition()`` is true."""
    for _ in range(int(seconds / 0.02)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")


async def test_a_move_of_one_process_is_heard_by_the_other(postgres_server: PostgresServer) -> None:
    url = await fresh_postgres_database(postgres_server)
    mover, watcher = await store.Store.open(url), await store.Store.open(url)
    heard: list[tuple[int, int]] = []
    states: list[bool] = []
    listener = await watcher.listen_moves(lambda g, v: heard.append((g, v)), states.append)
    try:
        assert listener is not None and listener.live and states == [True]
        game_id = await started_game(mover)
        assert await commit(mover, game_id, 0) == 1
        await until(lambda: heard == [(game_id, 1)])
        # A refused move (another version won) was rolled back: nothing is announced.
        try:
            await commit(mover, game_id, 0)
            raise AssertionError("a stale move was committed")
        except store.StaleVersion:
            pass
        await mover.undo_last_move(game_id, expected_version=1, at=20, state={"v": 0})
        await until(lambda: heard == [(game_id, 1), (game_id, 2)])
    finally:
        assert listener is not None
        await listener.close()
        await mover.close()
        await watcher.close()
    assert states == [True, False]


async def test_a_dropped_listener_connects_again_and_hears_on(postgres_server: PostgresServer) -> None:
    url = await fresh_postgres_database(postgres_server)
    mover, watcher = await store.Store.open(url), await store.Store.open(url)
    heard: list[tuple[int, int]] = []
    states: list[bool] = []
    listener = await watcher.listen_moves(lambda g, v: heard.append((g, v)), states.append)
    assert listener is not None
    try:
        game_id = await started_game(mover)
        listener.drop()  # as a network failure would
        await until(lambda: states == [True, False, True])
        assert listener.connects == 2 and listener.live
        await commit(mover, game_id, 0)
        await until(lambda: heard == [(game_id, 1)])
    finally:
        await listener.close()
        await mover.close()
        await watcher.close()


async def test_sqlite_has_no_listener(db_path: Path) -> None:
    db = await store.Store.open(db_path)
    try:
        assert await db.listen_moves(lambda g, v: None) is None
    finally:
        await db.close()


def test_only_a_well_formed_payload_is_a_move() -> None:
    assert parse_move_payload("12:3") == (12, 3)
    for bad in ("", "12", "12:", ":3", "a:3", "12:-3", "12:3:4", "1 2:3"):
        assert parse_move_payload(bad) is None, bad
