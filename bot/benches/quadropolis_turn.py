"""The whole server-side turn of a Quadropolis game with 1,000 games stored (figures `turn.*`).

One turn = load the game (snapshot from the store, the in-memory cache emptied first), apply the
take and the build, commit both, and render the turn picture. Reported as p50/p95 beside the
render alone and a bare SQLite insert+commit measured in the same run.

The first turn of the run fills the picture caches (fonts, text, the palette's colours) as a running
bot's first picture does; it is reported alone (``first_turn_ms``) and the percentiles are over the
turns after it, as in the render figures.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any, cast

from bot import games as game_registry
from bot import store
from bot.benches.store import bare_insert_commit_ms, percentile
from bot.rules.core import of_kind
from bot.rules.quadropolis.movetypes import QuadBuild, QuadDiscard, QuadTake
from bot.rules.quadropolis.viewtypes import QuadView
from bot.service import Service

GAMES_STORED = 1000
TURNS_MEASURED = 60


async def _measure(folder: Path, quick: bool) -> dict[str, Any]:
    try:
        rules = game_registry.rules("quadropolis")
        from render import pictures

        qp_render = pictures.get("quadropolis")
        assert qp_render is not None
    except Exception as exc:  # the game or its pictures are not in this build
        return {"turn.skipped": repr(exc)}
    games = 40 if quick else GAMES_STORED
    turns = 8 if quick else TURNS_MEASURED
    db = await store.Store.open(folder / "turn.sqlite3")
    service = Service(db)
    try:
        started = []
        for i in range(games):
            info = await service.create_game(
                guild_xid=1,
                channel_xid=50_000 + i,
                kind="quadropolis",
                options={"mode": "classic"},
                host_xid=i * 2 + 1,
                host_name=f"P{i}",
            )
            await service.join(info.id, i * 2 + 2, f"Q{i}")
            await service.start(info.id, i * 2 + 1)
            started.append(info.id)
        whole: list[float] = []
        render_only: list[float] = []
        for n in range(turns + 1):
            gid = started[n % len(started)]
            service._cache.clear()  # measure the load from the store too
            t0 = time.perf_counter()
            info = await service.info(gid)
            seat = next(iter(info.awaiting))
            user = info.seats[seat].user_xid
            assert user is not None
            _, _, moves = await service.legal_moves(gid, user)
            take = of_kind(moves, QuadTake)[0]
            out = await service.move(gid, user, take)
            if seat in out.info.awaiting:
                _, _, moves = await service.legal_moves(gid, user)
                await service.move(gid, user, (of_kind(moves, QuadBuild) + of_kind(moves, QuadDiscard))[0])
            snap = await service.snapshot(gid)
            t1 = time.perf_counter()
            png = qp_render.render_turn(cast(QuadView, snap.view(None)), seat, [s.name for s in info.seats])
            t2 = time.perf_counter()
            assert png[:4] == b"\x89PNG"
            whole.append((t2 - t0) * 1000)
            render_only.append((t2 - t1) * 1000)
    finally:
        await db.close()
    del rules
    floor = bare_insert_commit_ms(folder / "floor.sqlite3", 50)
    f50 = percentile(floor, 0.5)
    first = whole.pop(0)
    render_only.pop(0)
    w50, w95 = percentile(whole, 0.5), percentile(whole, 0.95)
    return {
        "turn.games_stored": games,
        "turn.turns_measured": len(whole),
        "turn.quadropolis_first_turn_ms": round(first, 2),
        "turn.quadropolis_whole_turn_ms_p50": round(w50, 2),
        "turn.quadropolis_whole_turn_ms_p95": round(w95, 2),
        "turn.quadropolis_render_ms_p50": round(percentile(render_only, 0.5), 2),
        "turn.render_share_of_turn_p50": round(percentile(render_only, 0.5) / w50, 2) if w50 else None,
        "turn.whole_turn_vs_floor_insert_commit_ratio_p50": round(w50 / f50, 1) if f50 else None,
    }


def figures(quick: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(Path(tmp), quick))
