"""The load bench's figures from a run: every acknowledged move checked against the store (SQLite or
PostgreSQL), the latency percentiles and the summary, and the CPU the bot and the fake spent per move.

Split from :mod:`bot.benches.load` (the module budget, ARCHITECTURE.md), which re-exports these names."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.benches.load.players import Run
from bot.store.counters import per_unit


def check_store(db_path: Path, run: Run) -> dict[str, int]:
    """Acknowledged moves against the move log."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    try:
        rows = db.execute("SELECT game_id, version, actor_xid, move FROM moves WHERE undone_at IS NULL").fetchall()
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        finished = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished' AND version = 6").fetchone()[0]
    finally:
        db.close()
    return compare(rows, run, integrity == "ok", int(finished))


async def check_postgres(url: str, run: Run) -> dict[str, int]:
    """Acknowledged moves against the move log of a PostgreSQL database (integrity: every finished game's
    version is its number of stored moves)."""
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT game_id, version, actor_xid, move FROM moves WHERE undone_at IS NULL")
        finished = await conn.fetchval("SELECT COUNT(*) FROM games WHERE status = 'finished' AND version = 6")
        gaps = await conn.fetchval(
            "SELECT COUNT(*) FROM games g WHERE g.status = 'finished'"
            " AND g.version <> (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)"
        )
        # What the server did besides answering, since it started (a suspect when repetitions differ).
        vacuums = await conn.fetchrow(
            "SELECT COALESCE(SUM(autovacuum_count), 0), COALESCE(SUM(autoanalyze_count), 0) FROM pg_stat_user_tables"
        )
        checkpoints = await conn.fetchval("SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter")
    finally:
        await conn.close()
    server = {
        "server.autovacuums": int(vacuums[0]),
        "server.autoanalyzes": int(vacuums[1]),
        "server.checkpoints": int(checkpoints),
    }
    return {**compare([tuple(r) for r in rows], run, gaps == 0, int(finished)), **server}


def compare(rows: list[Any], run: Run, integrity_ok: bool, finished: int) -> dict[str, int]:
    """(game, version, actor, move JSON) rows of the move log against what the players were told."""
    stored = [(int(g), int(a), int(json.loads(m)["card"])) for g, _, a, m in rows if a is not None]
    versions = [(g, v) for g, v, _, _ in rows]
    acked = set(run.acked)
    return {
        "lost": len(acked - set(stored)),
        "duplicated": len(stored) - len(set(stored)) + len(versions) - len(set(versions)),
        "unacknowledged": len(set(stored) - acked),
        "stored": len(stored),
        "games_finished": finished,
        "integrity_ok": int(integrity_ok),
    }


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summarise(prefix: str, run: Run, checked: dict[str, int]) -> dict[str, Any]:
    moves = len(run.acked)
    out: dict[str, Any] = {
        f"{prefix}.moves": moves,
        f"{prefix}.games": len(run.games),
        f"{prefix}.interactions": run.interactions,
        f"{prefix}.seconds": round(run.seconds, 2),
        f"{prefix}.moves_per_s": round(moves / run.seconds, 1) if run.seconds else 0.0,
        f"{prefix}.interactions_per_s": round(run.interactions / run.seconds, 1) if run.seconds else 0.0,
        f"{prefix}.callback_p50_ms": round(1000 * pct(run.callback_s, 0.50), 1),
        f"{prefix}.callback_p95_ms": round(1000 * pct(run.callback_s, 0.95), 1),
        f"{prefix}.callback_max_ms": round(1000 * max(run.callback_s, default=float("nan")), 1),
        f"{prefix}.move_ack_p50_ms": round(1000 * pct(run.move_ack_s, 0.50), 1),
        f"{prefix}.move_ack_p95_ms": round(1000 * pct(run.move_ack_s, 0.95), 1),
        f"{prefix}.errors": len(run.errors),
    }
    for kind, values in sorted(run.callback_by_kind.items()):
        out[f"{prefix}.callback_p50_ms.{kind}"] = round(1000 * pct(values, 0.50), 1)
        out[f"{prefix}.callback_p95_ms.{kind}"] = round(1000 * pct(values, 0.95), 1)
    out.update({f"{prefix}.{k}": v for k, v in checked.items()})
    if run.errors:
        out[f"{prefix}.first_error"] = run.errors[0][:300]
    return out


def process_cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) a process used so far; 0 when it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def tree_cpu_seconds(pid: int | None) -> float:
    """CPU time of a server process and its children (user + system): its own, its children's that ended
    (``cutime``, ``cstime``) and the running children's; 0 when it cannot be read."""
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(stat.parent.name) == pid:
            total += sum(int(f) for f in fields[11:15]) / tick
        elif fields[1] == str(pid):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


@contextlib.contextmanager
def validation_cpu(schema: Any) -> Iterator[list[float]]:
    """CPU seconds this process spends in the fake's body validation meanwhile (``[seconds]``)."""
    spent = [0.0]
    original = schema.validate

    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - t0

    schema.validate = timed
    try:
        yield spent
    finally:
        schema.validate = original


def cpu_figures(
    prefix: str, run: Run, bot_s: float, fake_s: float, validation_s: float, requests: int = 0
) -> dict[str, Any]:
    """CPU per move, and what the bot asked of Discord per move: ``requests_per_move`` (REST calls,
    callbacks included) and ``interactions_per_move`` (what players sent). ``bound_moves_per_s``: the
    most one process could play if it had a core to itself (the event loop is one thread)."""
    moves = max(1, len(run.acked))
    bot_ms = 1000 * bot_s / moves
    return {
        f"{prefix}.cpu_ms_per_move.bot": round(bot_ms, 2),
        f"{prefix}.cpu_ms_per_move.fake": round(1000 * fake_s / moves, 2),
        f"{prefix}.fake_validation_ms_per_move": round(1000 * validation_s / moves, 2),
        f"{prefix}.requests_per_move": round(requests / moves, 2),
        f"{prefix}.interactions_per_move": round(run.interactions / moves, 2),
        f"{prefix}.bound_moves_per_s": round(1000 / bot_ms, 1) if bot_ms > 0 else None,
    }


COUNTERS_WAIT_SECONDS = 10.0


async def read_counters(pid: int | None, path: Path) -> dict[str, int]:
    """The bot process's store counters (:mod:`bot.store.counters`) now: ``kill -USR2`` makes it write them
    to ``path`` (:mod:`bot.testing.entry`); waits for a newer writing than the one there. Empty if none came."""
    if pid is None:
        return {}

    def written() -> dict[str, int]:
        try:
            return {k: int(v) for k, v in json.loads(path.read_text()).items()}
        except (OSError, ValueError, AttributeError):
            return {}

    before = written().get("seq", 0)
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + COUNTERS_WAIT_SECONDS
    while time.monotonic() < deadline:
        got = written()  # a few hundred bytes of a local file: no thread needed
        if got.get("seq", 0) > before:
            return {k: v for k, v in got.items() if k != "seq"}
        await asyncio.sleep(0.02)
    return {}


def db_figures(prefix: str, before: dict[str, int], after: dict[str, int], moves: int) -> dict[str, Any]:
    """What the bot asked of its database per acknowledged move in the window: ``db.<counter>_per_move``
    (round trips, statements, transactions, commits, pool acquisitions, NOTIFYs; see
    :mod:`bot.store.counters`). Nothing when the counters could not be read."""
    if not before or not after:
        return {f"{prefix}.db.unread": 1}
    return {f"{prefix}.db.{name}_per_move": value for name, value in per_unit(before, after, moves).items()}
