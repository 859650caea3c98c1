"""Time banks' figures (issue 41, the correspondence clocks): what the time banks cost per move and per due-check, with
10,000 running games stored (quick: 1,000), each with a history of ``MOVES`` moves and their turn records.

The database is filled directly (as :mod:`bot.benches.reminders` fills it, plus the move log and the clocks'
turn records) so the figures measure the clocks, not the filling. Measured:

- per move: the turn record a move adds (``Clocks.record``, one insert, made for every game so that a bank
  chosen later has its history), and a whole move through the service with its listeners (the reminder loop's
  sync, the record) on games with a bank and without;
- per due-check: a loop pass with ``BATCH`` reminders due on games without a bank and on games with one (the
  clocks computed from the records for each due wait), the difference per wait;
- the computation alone: ``Clocks.of_game`` (the records read and the banks computed) and the pure
  :func:`bot.community.clock.clocks` on a game's history;
- the game page's cache key: ``Clocks.mark`` (one query: what the banks depend on besides the move log),
  which every request for a game in play now reads.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot import games as game_registry
from bot import store
from bot.benches.reminders import BATCH, NOW, Clock, Turns, fill
from bot.community.base import HOUR_MS
from bot.community.clock import PRESETS, clocks
from bot.composition import compose
from bot.service import Service

GAMES = 10_000
QUICK_GAMES = 1_000
MOVES = 30
"""Moves (and turn records) of every stored game's history."""
REPEATS = 200
QUICK_REPEATS = 40
GUILD = 1
PASSES = 5
"""Due-check passes of each kind (with a bank, without), alternating; 2 x PASSES x BATCH games are used."""


def add_history(path: Path, games: int, moves: int) -> None:
    """Every game gets ``moves`` moves, one an hour, seats taking turns, and the turn record of each; its
    version and snapshot follow (seat 0 awaited again after an even number of moves)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    start = NOW - (moves + 3) * HOUR_MS
    for gid in range(1, games + 1):
        conn.executemany(
            "INSERT INTO moves (game_id, version, seat, move, at, actor_xid) VALUES (?, ?, ?, ?, ?, NULL)",
            [(gid, v, (v - 1) % 2, '{"kind":"pass"}', start + v * HOUR_MS) for v in range(1, moves + 1)],
        )
        conn.executemany(
            "INSERT INTO clock_turns (game_id, version, at, seats) VALUES (?, ?, ?, ?)",
            [(gid, v, start + v * HOUR_MS, json.dumps([v % 2])) for v in range(moves + 1)],
        )
    conn.execute("UPDATE games SET version = ?, started_at = ?", (moves, start))
    conn.execute("UPDATE snapshots SET version = ?, state = ?", (moves, json.dumps({"n": moves})))
    conn.execute("COMMIT")
    conn.close()


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


async def _measure(folder: Path, quick: bool) -> dict[str, Any]:
    game_registry.register_rules(Turns())
    games = QUICK_GAMES if quick else GAMES
    repeats = QUICK_REPEATS if quick else REPEATS
    path = folder / "timebanks.sqlite3"
    db = await store.Store.open(path)
    await db.close()
    fill(path, games, with_waits=True)
    add_history(path, games, MOVES)
    db = await store.Store.open(path)
    clock = Clock()
    app = compose(Service(db, clock), boot="bench")
    loop = app.reminders
    try:
        control = PRESETS["3d+1d"]
        # The computation alone, on one game's history.
        info = await app.service.info(games)
        of_game = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            await app.clocks.of_game(info, control, clock.ms)
            of_game.append(_ms(t0))
        mark = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            await app.clocks.mark(info.game, info.seats)
            mark.append(_ms(t0))
        history = await app.clocks.history(info)
        pure = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            clocks(control, history, range(2), clock.ms)
            pure.append(_ms(t0))

        async def due_pass(first: int, bank: bool) -> float:
            """A pass with BATCH reminders due (games first .. first + BATCH - 1, each with a bank or none),
            its time."""
            clock.ms += 60_000
            for gid in range(first, first + BATCH):
                if bank:
                    await app.preferences.update_settings(GUILD, {"clock": "3d+1d"}, game_id=gid)
                await loop.db.update_wait(gid, 0, since=clock.ms - 12 * HOUR_MS, due_at=clock.ms - 1)
            t0 = time.perf_counter()
            due = await loop.run_due(clock.ms, BATCH)
            took = _ms(t0)
            assert sum(a.kind == "reminder" for a in due) == BATCH, [a.kind for a in due]
            for action in due:
                await loop.mark_sent(action.id, message_xid=action.id)
            return took

        await loop.run_due(clock.ms, BATCH)  # the first pass reads the settings' tables once
        without: list[float] = []
        with_bank: list[float] = []
        for k in range(PASSES):  # side by side, so the machine's drift falls on both
            without.append(await due_pass(1 + 2 * k * BATCH, False))
            with_bank.append(await due_pass(1 + (2 * k + 1) * BATCH, True))
        # Per move: the turn record alone, then whole moves (service, listeners) on games with a bank.
        record = []
        for gid in range(1, repeats + 1):
            row = await app.service.info(gid)
            t0 = time.perf_counter()
            await app.clocks.record(row)  # already recorded at this version: the insert finds its row
            record.append(_ms(t0))

        async def move(gid: int) -> float:
            user = (await app.service.info(gid)).seats[0].user_xid
            assert user is not None
            clock.ms += 1
            t0 = time.perf_counter()
            await app.service.move(gid, user, {"kind": "pass"})
            return _ms(t0)

        moves: list[float] = []
        plain_moves: list[float] = []  # games without a bank (their turns are recorded all the same)
        for k in range(PASSES):
            for n in range(BATCH)[: repeats // PASSES]:
                moves.append(await move(1 + (2 * k + 1) * BATCH + n))
                plain_moves.append(await move(1 + 2 * k * BATCH + n))
        recorded = await db.fetch_one("SELECT COUNT(*) FROM clock_turns WHERE version = ?", (MOVES + 1,))
    finally:
        await db.close()
    per_due_without = statistics.median(without) / BATCH
    per_due_with = statistics.median(with_bank) / BATCH
    return {
        "timebanks.games_stored": games,
        "timebanks.moves_per_game": MOVES,
        "timebanks.of_game_ms": round(statistics.median(of_game), 3),
        "timebanks.pure_compute_ms": round(statistics.median(pure), 4),
        "timebanks.page_mark_ms": round(statistics.median(mark), 3),
        "timebanks.due_check_without_bank_ms": round(per_due_without, 3),
        "timebanks.due_check_with_bank_ms": round(per_due_with, 3),
        "timebanks.due_check_cost_ms": round(per_due_with - per_due_without, 3),
        "timebanks.turn_record_ms": round(statistics.median(record), 3),
        "timebanks.move_with_bank_ms": round(statistics.median(moves), 3),
        "timebanks.move_without_bank_ms": round(statistics.median(plain_moves), 3),
        "timebanks.moves_recorded": int(recorded[0]) if recorded else 0,
    }


def figures(quick: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(Path(tmp), quick))


if __name__ == "__main__":
    print(json.dumps(figures(quick=True), indent=1))
