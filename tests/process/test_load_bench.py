"""The load bench's own checks: its store check catches lost, duplicated and unconfirmed moves, and
a two-channel run through the real process plays every game with nothing lost."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.benches import load


def tiny_store(path: Path, moves: list[tuple[int, int, int, int]]) -> Path:
    """A database with the two tables the check reads: (game, version, actor, card) moves."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER, status TEXT, version INTEGER)")
    db.execute("CREATE TABLE moves (game_id INTEGER, version INTEGER, actor_xid INTEGER, move TEXT, undone_at INTEGER)")
    for game, version, actor, card in moves:
        db.execute(
            "INSERT INTO moves VALUES (?, ?, ?, ?, NULL)",
            (game, version, actor, json.dumps({"kind": "bid", "card": card})),
        )
    db.execute("INSERT INTO games VALUES (1, 'finished', 6)")
    db.commit()
    db.close()
    return path


def test_store_check_counts_lost_duplicated_and_unconfirmed_moves(tmp_path: Path) -> None:
    """An acknowledged move missing from the log is lost, a version stored twice is a duplicate, and
    a stored move nobody was told about is unacknowledged; a clean log counts zero of each."""
    run = load.Run(acked=[(1, 10, 3), (1, 20, 1)])
    clean = load.check_store(tiny_store(tmp_path / "clean.db", [(1, 1, 10, 3), (1, 2, 20, 1)]), run)
    assert (clean["lost"], clean["duplicated"], clean["unacknowledged"]) == (0, 0, 0)
    assert clean["integrity_ok"] == 1 and clean["games_finished"] == 1
    bad = load.check_store(tiny_store(tmp_path / "bad.db", [(1, 1, 10, 3), (1, 1, 10, 3), (1, 3, 20, 2)]), run)
    assert (bad["lost"], bad["duplicated"], bad["unacknowledged"]) == (1, 2, 1)


async def test_two_channels_through_the_process(tmp_path: Path) -> None:
    """Two channels, one game each, through the real process: 12 acknowledged moves, all stored
    once, both games finished, figures present and the bot process stopped."""
    figures = await load.measure_process(2, 0.0, tmp_path)
    assert figures["load.process.moves"] == 12 and figures["load.process.games_finished"] == 2
    assert figures["load.process.errors"] == 0, figures.get("load.process.first_error")
    assert (
        figures["load.process.lost"],
        figures["load.process.duplicated"],
        figures["load.process.unacknowledged"],
    ) == (0, 0, 0)
    assert figures["load.process.callback_p95_ms"] >= figures["load.process.callback_p50_ms"] > 0
    assert figures["load.process.moves_per_s"] > 0
    # 15 interactions per game of 6 moves; the requests are at least one answer to each of them
    assert figures["load.process.interactions_per_move"] == 2.5
    assert figures["load.process.requests_per_move"] >= 2.5


async def test_the_floor_is_discord_py_s_own_cost_per_request() -> None:
    """The floor process sends its requests through discord.py to the fake and reports CPU per
    request; the per-move floor is that times the requests a move made."""
    floor = await load.measure_floor(20)
    assert 0 < floor["load.floor.discordpy_edit_cpu_ms_per_request"] < 1000
    assert 0 < floor["load.floor.discordpy_post_cpu_ms_per_request"] < 1000
    assert floor["load.floor.fake_cpu_ms_per_request"] > 0
    per_move = load.floor_per_move({**floor, "load.process.requests_per_move": 6.0})
    assert per_move["load.floor.discordpy_cpu_ms_per_move"] == round(
        6.0 * floor["load.floor.discordpy_cpu_ms_per_request"], 2
    )
