"""Store figures: move commit latency with many games stored, and replay of a 100-move log.

Each beside its floor measured in the same run: a bare SQLite insert+commit with the same pragmas
(WAL, synchronous=FULL) on the same disk, and a bare read of the same 100 rows.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot import games as game_registry
from bot import store
from bot.rules import core
from bot.service import Service

GAMES_STORED = 1000
MOVES_MEASURED = 300
REPLAY_MOVES = 100


class Counter(core.GameRules[int]):
    """The cheapest possible game (one seat adds 1), so the figures measure the store and service."""

    kind = "bench-counter"
    title_key = "bench.counter"

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (1, 1)

    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> int:
        return 0

    def awaiting(self, state: int) -> frozenset[int]:
        return frozenset({0})

    def legal_moves(self, state: int, seat: int) -> list[core.Move]:
        return [{"kind": "add"}]

    def apply(self, state: int, seat: int, move: core.Move) -> int:
        return state + 1

    def is_over(self, state: int) -> bool:
        return False

    def result(self, state: int) -> core.Result:
        return core.build_result([state], [{"count": state}])

    def view(self, state: int, seat: int | None) -> dict[str, Any]:
        return {"count": state}

    def to_json(self, state: int) -> dict[str, Any]:
        return {"count": state}

    def from_json(self, data: Mapping[str, Any]) -> int:
        return int(data["count"])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def open_floor(path: Path) -> sqlite3.Connection:
    """A bare SQLite database with the store's pragmas, for the floor figures."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (a INTEGER PRIMARY KEY, b TEXT)")
    return conn


def floor_insert_commit_ms(conn: sqlite3.Connection, i: int) -> float:
    """One bare insert+commit, in milliseconds."""
    t0 = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t (b) VALUES (?)", (f'{{"kind":"add","n":{i}}}',))
    conn.execute("COMMIT")
    return (time.perf_counter() - t0) * 1000


def bare_insert_commit_ms(path: Path, n: int) -> list[float]:
    conn = open_floor(path)
    out = [floor_insert_commit_ms(conn, i) for i in range(n)]
    conn.close()
    return out


def bare_read_ms(path: Path, game_id: int) -> float:
    conn = sqlite3.connect(path)
    t0 = time.perf_counter()
    rows = conn.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY version", (game_id,)).fetchall()
    elapsed = (time.perf_counter() - t0) * 1000
    conn.close()
    assert len(rows) == REPLAY_MOVES
    return elapsed


async def _measure(folder: Path, quick: bool) -> dict[str, Any]:
    game_registry.register_rules(Counter())
    games = 50 if quick else GAMES_STORED
    moves = 40 if quick else MOVES_MEASURED
    db = await store.Store.open(folder / "bench.sqlite3")
    service = Service(db)
    try:
        ids = []
        for i in range(games):
            info = await service.create_game(
                guild_xid=1, channel_xid=10_000 + i, kind="bench-counter", options={}, host_xid=i + 1, host_name=f"P{i}"
            )
            await service.start(info.id, i + 1)
            ids.append((info.id, i + 1))
        latencies = []
        floor: list[float] = []
        floor_conn = open_floor(folder / "floor.sqlite3")
        for n in range(moves):
            gid, user = ids[n % len(ids)]
            t0 = time.perf_counter()
            await service.move(gid, user, {"kind": "add"})
            latencies.append((time.perf_counter() - t0) * 1000)
            floor.append(floor_insert_commit_ms(floor_conn, n))  # interleaved: same disk, same moment
        floor_conn.close()
        # A 100-move log to replay.
        replay_id, replay_user = ids[-1]
        for _ in range(REPLAY_MOVES - sum(1 for n in range(moves) if n % len(ids) == len(ids) - 1)):
            await service.move(replay_id, replay_user, {"kind": "add"})
        game = await db.get_game(replay_id)
        assert game is not None and game.version == REPLAY_MOVES
        replays = []
        for _ in range(5 if quick else 20):
            t0 = time.perf_counter()
            state = await service._replay(game, game.version)
            replays.append((time.perf_counter() - t0) * 1000)
            assert state == REPLAY_MOVES
    finally:
        await db.close()
    read_floor = min(bare_read_ms(folder / "bench.sqlite3", replay_id) for _ in range(5))
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    f50, f95 = percentile(floor, 0.5), percentile(floor, 0.95)
    replay = statistics.median(replays)
    return {
        "store.games_stored": games,
        "store.move_commit_ms_p50": round(p50, 3),
        "store.move_commit_ms_p95": round(p95, 3),
        "store.floor_insert_commit_ms_p50": round(f50, 3),
        "store.floor_insert_commit_ms_p95": round(f95, 3),
        "store.move_commit_vs_floor_ratio_p50": round(p50 / f50, 2) if f50 else None,
        "store.move_commit_vs_floor_ratio_p95": round(p95 / f95, 2) if f95 else None,
        "store.replay_100_moves_ms": round(replay, 3),
        "store.replay_vs_floor_insert_commit_ratio": round(replay / f50, 2) if f50 else None,
        "store.replay_vs_bare_read_ratio": round(replay / read_floor, 2) if read_floor else None,
    }


def figures(quick: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(Path(tmp), quick))
