"""Forget-me figures (:mod:`bot.community.erasure`), on a SQLite file:

- ``erasure.forget_ms``: one whole request (:meth:`bot.composition.App.forget`: the plan, every feature
  forgetting, the queue, the WAL checkpoint) for a player who sat in ``GAMES`` finished two-player
  games (quick: fewer; of the first registered game, ``erasure.game``) among twice as many games of
  others, every turn post's id kept;
  ``erasure.plan_ms`` its plan alone (measured on a second player of the same size), ``scrub_ms`` the
  checkpoint alone, ``edits_planned`` what it planned;
- ``erasure.take_finish_ms_per_edit``: the store's side of one edit (taken with its lease, marked done),
  over every planned edit in passes of :data:`~bot.community.erasure.EDITS_PER_PASS`;
- ``erasure.turn_post_ms_mean`` / ``_max``: telling one turn post again (the game replayed from its move
  log to that version, the move's summary), over every post of one game; the picture's drawing is the
  render bench's figure.

Games are played by the rules' random AI through the service, so the move log is real.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot import games
from bot.community.erasure import EDITS_PER_PASS
from bot.composition import App, compose
from bot.service import Service
from bot.store import Store

GAMES = 20
QUICK_GAMES = 4
PLAYER, OTHER, THIRD, FOURTH = 1_000_001, 1_000_002, 1_000_003, 1_000_004


def bench_game() -> str:
    """The first registered game that two players can play (its default options)."""
    return next(
        kind
        for kind in games.available()
        if games.rules(kind).seat_range({})[0] <= 2 <= games.rules(kind).seat_range({})[1]
    )


async def _played_game(app: App, host: int, guest: int, channel: int, message_base: int) -> int:
    """A finished two-player game, each turn post's id kept as the bot keeps it."""
    service = app.service
    kind = bench_game()
    info = await service.create_game(
        guild_xid=1, channel_xid=channel, kind=kind, options={}, host_xid=host, host_name="Host"
    )
    await service.join(info.id, guest, "Guest")
    await service.start(info.id, host)
    await service.set_messages(info.id, lobby_message_xid=message_base, status_message_xid=message_base + 1)
    rules = games.rules(kind)
    for step in range(1000):
        now = await service.info(info.id)
        if now.game.status != "active":
            break
        seat = min(now.awaiting)
        snap = await service.snapshot(info.id)
        await service.move(info.id, now.seats[seat].user_xid or 0, rules.ai_move(snap.state, seat, "random", step))
        await service.set_messages(info.id, turn_message_xid=message_base + 2 + step)
    return info.id


async def _measure(folder: Path, quick: bool) -> dict[str, Any]:
    count = QUICK_GAMES if quick else GAMES
    db = await Store.open(folder / "bench.sqlite3")
    try:
        app = compose(Service(db))
        gids = []
        for i in range(count):
            gids.append(await _played_game(app, PLAYER, OTHER, 10 + 4 * i, 10_000 * (1 + 4 * i)))
            await _played_game(app, THIRD, FOURTH, 11 + 4 * i, 10_000 * (2 + 4 * i))
            await _played_game(app, THIRD, OTHER, 12 + 4 * i, 10_000 * (3 + 4 * i))
        t0 = time.perf_counter()
        _, planned, _ = await app.erasure.plan(THIRD)
        plan_ms = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        forgotten = await app.forget(PLAYER)
        forget_ms = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        await db.scrub(app.personal_tables)
        scrub_ms = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        made = 0
        while edits := await app.erasure.take(EDITS_PER_PASS):
            for edit in edits:
                await app.erasure.finish(edit, "done")
                made += 1
        take_ms = (time.perf_counter() - t0) * 1000
        posts = await app.erasure.db.posts(gids[0])
        told = []
        for kind, version, _, _ in posts:
            if kind != "turn":
                continue
            t0 = time.perf_counter()
            await app.erasure.turn_post(gids[0], version)
            told.append((time.perf_counter() - t0) * 1000)
        return {
            "erasure.game": bench_game(),
            "erasure.games_of_player": count,
            "erasure.edits_planned": forgotten.edits,
            "erasure.plan_ms": round(plan_ms, 2),
            "erasure.plan_edits": planned,
            "erasure.forget_ms": round(forget_ms, 2),
            "erasure.scrub_ms": round(scrub_ms, 2),
            "erasure.take_finish_ms_per_edit": round(take_ms / max(made, 1), 3),
            "erasure.turn_post_ms_mean": round(statistics.fmean(told), 2) if told else None,
            "erasure.turn_post_ms_max": round(max(told), 2) if told else None,
            "erasure.turn_posts_told": len(told),
        }
    finally:
        await db.close()


def figures(quick: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_measure(Path(folder), quick))
