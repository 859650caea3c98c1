"""Reminder-loop figures: the cost of one pass of :meth:`bot.community.reminders.Reminders.run_due` with
10,000 stored games (quick: 1,000), beside the cost of one bare indexed query on the same file.

The database is filled directly (games, seats, snapshots, and one wait per active game, as the
loop would have left them) so the figures measure a pass, not the filling. Measured:

- an idle pass (nothing due: every stage is one indexed query, plus the heartbeat write);
- a pass with ``BATCH`` reminders due (planning, claiming in the store), per action;
- the first reconcile of games the loop has not seen yet, per game;
- floors: the loop's due-waits query alone through the store (aiosqlite, the same stack), the
  same query run bare with sqlite3, and a bare insert+commit. An idle pass is a handful of such
  queries (one per stage) plus the heartbeat write, whatever the number of games stored.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot import games as game_registry
from bot import store
from bot.community.base import HOUR_MS
from bot.composition import compose
from bot.rules import core
from bot.service import Service

GAMES = 10_000
QUICK_GAMES = 1_000
BATCH = 100
RECONCILE_GAMES = 200
QUICK_RECONCILE_GAMES = 40
IDLE_PASSES = 30
QUICK_IDLE_PASSES = 8
NOW = 1_800_000_000_000
DUE_QUERY = "SELECT game_id, seat FROM community_waits WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?"


class Turns(core.GameRules[int]):
    """Two seats taking turns forever: the cheapest game with someone always awaited."""

    kind = "bench-turns"
    title_key = "bench.turns"
    ai_levels = ("first",)

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (2, 2)

    def setup(self, options: Mapping[str, Any], seat_count: int, seed: int) -> int:
        return 0

    def awaiting(self, state: int) -> frozenset[int]:
        return frozenset({state % 2})

    def legal_moves(self, state: int, seat: int) -> list[core.Move]:
        return [{"kind": "pass"}] if seat == state % 2 else []

    def apply(self, state: int, seat: int, move: core.Move) -> int:
        return state + 1

    def is_over(self, state: int) -> bool:
        return False

    def result(self, state: int) -> core.Result:
        return core.build_result([0, 0], [{}, {}])

    def view(self, state: int, seat: int | None) -> dict[str, Any]:
        return {"n": state}

    def to_json(self, state: int) -> dict[str, Any]:
        return {"n": state}

    def from_json(self, data: Mapping[str, Any]) -> int:
        return int(data["n"])

    def ai_move(self, state: int, seat: int, level: str, seed: int) -> core.Move:
        return {"kind": "pass"}


def fill(path: Path, games: int, *, with_waits: bool, awaiting_since: int | None = None) -> None:
    """Active games (each in its own channel, two human seats, seat 0 awaited) and their waits."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("BEGIN")
    first = (conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone() or (0,))[0] + 1
    rows = []
    for i in range(first, first + games):
        at = NOW - 3 * HOUR_MS + i
        rows.append(
            (i, 1, 100_000 + i, "bench-turns", "{}", i, "active", 0, None, at, at, at, None, awaiting_since or at)
        )
    conn.executemany(
        "INSERT INTO games (id, guild_xid, channel_xid, kind, options, seed, status, version, host_xid,"
        " created_at, updated_at, started_at, finished_at, awaiting_since) VALUES"
        " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    conn.executemany(
        "INSERT INTO seats (game_id, seat, user_xid, ai_level, name, joined_at) VALUES (?, ?, ?, NULL, ?, ?)",
        [(i, s, 1_000 + (i * 2 + s) % 5_000, f"P{s}", NOW) for i in range(first, first + games) for s in (0, 1)],
    )
    conn.executemany(
        "INSERT INTO snapshots (game_id, version, state) VALUES (?, 0, ?)",
        [(i, json.dumps({"n": 0})) for i in range(first, first + games)],
    )
    if with_waits:
        conn.executemany(
            "INSERT INTO community_waits (game_id, seat, guild_xid, channel_xid, user_xid, since,"
            " since_version, due_at) VALUES (?, 0, 1, ?, ?, ?, 0, ?)",
            [
                (i, 100_000 + i, 1_000 + (i * 2) % 5_000, NOW - 3 * HOUR_MS, NOW + HOUR_MS + i)
                for i in range(first, first + games)
            ],
        )
        conn.execute(
            "INSERT OR REPLACE INTO community_meta (key, value) VALUES ('reconcile_watermark', ?)",
            (f"{NOW}:{first + games}",),
        )
    conn.execute("INSERT OR REPLACE INTO community_meta (key, value) VALUES ('heartbeat', ?)", (str(NOW),))
    conn.execute("COMMIT")
    conn.close()


def bare_query_ms(path: Path, repeats: int, now: int) -> tuple[float, int, str]:
    """The loop's due-waits query run bare: (median ms, rows returned, query plan)."""
    conn = sqlite3.connect(path)
    plan = " ".join(str(r[-1]) for r in conn.execute("EXPLAIN QUERY PLAN " + DUE_QUERY, (now, BATCH)))
    times = []
    rows = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        rows = len(conn.execute(DUE_QUERY, (now, BATCH)).fetchall())
        times.append((time.perf_counter() - t0) * 1000)
    conn.close()
    return statistics.median(times), rows, plan


def bare_commit_ms(path: Path, repeats: int) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE IF NOT EXISTS beat (k TEXT PRIMARY KEY, v TEXT)")
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT OR REPLACE INTO beat (k, v) VALUES ('h', ?)", (str(i),))
        conn.execute("COMMIT")
        times.append((time.perf_counter() - t0) * 1000)
    conn.close()
    return statistics.median(times)


class Clock:
    def __init__(self) -> None:
        self.ms = NOW

    def now_ms(self) -> int:
        return self.ms


async def _measure(folder: Path, quick: bool) -> dict[str, Any]:
    game_registry.register_rules(Turns())
    games = QUICK_GAMES if quick else GAMES
    passes = QUICK_IDLE_PASSES if quick else IDLE_PASSES
    path = folder / "reminders.sqlite3"
    db = await store.Store.open(path)
    await db.close()
    fill(path, games, with_waits=True)
    db = await store.Store.open(path)
    clock = Clock()
    community = compose(Service(db, clock), boot="bench").reminders
    try:
        idle = []
        beats = []
        one_query = []
        for _ in range(passes):
            clock.ms += 1
            t0 = time.perf_counter()
            actions = await community.run_due(clock.ms, BATCH)
            idle.append((time.perf_counter() - t0) * 1000)
            assert actions == []
            t0 = time.perf_counter()
            await community.heartbeat(clock.ms)
            beats.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            await community.db.due_waits(clock.ms, BATCH)
            one_query.append((time.perf_counter() - t0) * 1000)
        # BATCH reminders due: those waits began 12 h ago, so their first reminder is owed now.
        clock.ms = NOW + 30 * 60_000
        for gid in range(1, BATCH + 1):
            await community.db.update_wait(gid, 0, since=NOW - 12 * HOUR_MS, due_at=clock.ms - 1)
        t0 = time.perf_counter()
        due = await community.run_due(clock.ms, BATCH)
        busy_ms = (time.perf_counter() - t0) * 1000
        reminders = [a for a in due if a.kind == "reminder"]
        t0 = time.perf_counter()
        for action in due:
            await community.mark_sent(action.id, message_xid=action.id)
        confirm_ms = (time.perf_counter() - t0) * 1000
        # Games the loop has never seen (started while it was not running): reconciled, per game.
        new_games = QUICK_RECONCILE_GAMES if quick else RECONCILE_GAMES
        await db.close()
        fill(path, new_games, with_waits=False, awaiting_since=clock.ms - 1)
        db = await store.Store.open(path)
        community = compose(Service(db, clock), boot="bench-2").reminders
        t0 = time.perf_counter()
        await community.run_due(clock.ms, new_games)
        reconcile_ms = (time.perf_counter() - t0) * 1000
        synced = 0
        for gid in range(games + 1, games + new_games + 1):
            synced += bool(await community.db.waits_for_game(gid))
    finally:
        await db.close()
    query_ms, _, plan = bare_query_ms(path, 50, NOW)
    batch_query_ms, batch_rows, _ = bare_query_ms(path, 50, NOW + 10_000 * HOUR_MS)
    commit_ms = bare_commit_ms(folder / "floor.sqlite3", 30)
    idle_ms = statistics.median(idle)
    reads_ms = max(0.0, idle_ms - statistics.median(beats))
    return {
        "reminders.games_stored": games,
        "reminders.batch": BATCH,
        "reminders.pass_idle_ms": round(idle_ms, 3),
        "reminders.pass_idle_reads_ms": round(reads_ms, 3),
        "reminders.heartbeat_write_ms": round(statistics.median(beats), 3),
        "reminders.floor_indexed_query_ms": round(query_ms, 4),
        "reminders.floor_indexed_query_full_batch_ms": round(batch_query_ms, 4),
        "reminders.floor_full_batch_rows": batch_rows,
        "reminders.floor_commit_ms": round(commit_ms, 3),
        "reminders.one_query_via_store_ms": round(statistics.median(one_query), 3),
        "reminders.pass_idle_vs_one_query_via_store_ratio": round(idle_ms / statistics.median(one_query), 1),
        "reminders.pass_idle_reads_vs_bare_query_ratio": round(reads_ms / query_ms, 1) if query_ms else None,
        "reminders.pass_idle_vs_commit_ratio": round(idle_ms / commit_ms, 2) if commit_ms else None,
        "reminders.due_query_uses_index": "community_waits_due" in plan,
        "reminders.pass_with_batch_due_ms": round(busy_ms, 2),
        "reminders.reminders_claimed": len(reminders),
        "reminders.per_due_action_ms": round(busy_ms / max(1, len(due)), 3),
        "reminders.confirm_per_action_ms": round(confirm_ms / max(1, len(due)), 3),
        "reminders.reconcile_per_game_ms": round(reconcile_ms / new_games, 3),
        "reminders.reconciled_games": synced,
    }


def figures(quick: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(Path(tmp), quick))


if __name__ == "__main__":
    print(json.dumps(figures(quick=True), indent=1))
