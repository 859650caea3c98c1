"""The log never carries SQL parameters or hands: a whole Between Two Cities game played at
LOG_LEVEL=DEBUG through the service and the store leaves no hand in the log."""

from __future__ import annotations

import json
import sqlite3
import textwrap
from pathlib import Path

from tests.cli.helpers import ROOT, environment, run_process

GAME = textwrap.dedent("""
    import asyncio, logging, sys
    sys.path.insert(0, {root!r})
    from bot import cli, store
    from bot.service import Service

    if sys.argv[1] == "bot":
        cli.setup_logging(logging.DEBUG)       # what python -m bot does with LOG_LEVEL=DEBUG
    else:
        logging.basicConfig(level=logging.DEBUG)  # the control: every logger at DEBUG

    async def main():
        db = await store.Store.open(sys.argv[2])
        service = Service(db)
        info = await service.create_game(guild_xid=1, channel_xid=1, kind="btc", options={{}}, host_xid=1,
                                         host_name="Ana", ai_seats=2, ai_level="random")
        info = await service.start(info.id, 1)
        while (await service.info(info.id)).game.status == "active":
            if await service.play_ai(info.id) is None:
                _, _, moves = await service.legal_moves(info.id, 1)
                await service.move(info.id, 1, moves[0])
        await db.close()

    asyncio.run(main())
""")


def hands(db: Path) -> tuple[set[str], set[str]]:
    """Every hand dealt in the stored game (replayed from its move log), as the JSON text of the list,
    and the names of the tiles in them: what a leak would show."""
    from bot import games

    conn = sqlite3.connect(db)
    try:
        kind, options, seed = conn.execute("SELECT kind, options, seed FROM games").fetchone()
        seats = conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
        moves = conn.execute("SELECT seat, move FROM moves ORDER BY version").fetchall()
    finally:
        conn.close()
    rules = games.rules(kind)
    state = rules.setup(json.loads(options), seats, seed)
    lists, names = set(), set()
    for seat, move in [(None, None), *moves]:
        if move is not None:
            state = rules.apply(state, seat, json.loads(move))
        data = rules.to_json(state)
        for player in data["players"]:
            if len(player["hand"]) >= 3:
                lists.add(json.dumps(player["hand"], separators=(",", ":")))  # as the store writes it
                names.update(data["tiles"][i] for i in player["hand"])
    return lists, names


def play(tmp_path: Path, how: str) -> tuple[str, Path]:
    db = tmp_path / f"{how}.sqlite3"
    ran = run_process("-c", GAME.format(root=str(ROOT)), how, str(db), env=environment(), timeout=300)
    assert ran.status == 0, ran.err[-2000:]
    return ran.err, db


def test_a_debug_game_leaves_no_hand_in_the_log(tmp_path: Path) -> None:
    log, db = play(tmp_path, "bot")
    lists, names = hands(db)
    assert lists and names  # the game dealt hands, so there was something to leak
    assert not [h for h in lists if h in log]
    assert not [n for n in names if n in log]
    assert "INSERT" not in log and "snapshots" not in log


def test_the_control_run_would_show_them(tmp_path: Path) -> None:
    """Without the bot's logging set-up, aiosqlite's DEBUG lines carry the statements and the hands:
    the test above can fail."""
    log, db = play(tmp_path, "raw")
    lists, names = hands(db)
    assert "INSERT" in log
    assert [h for h in lists if h in log] and [n for n in names if n in log]
