"""The after-game analysis as the bot runs it (issue 40, :mod:`bot.community.analyses`): queued when a game
finishes (as the server's ``analysis`` setting says) or when asked, claimed with a lease, weighed in a worker
process, kept by seat. On both engines (this folder's suites run on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot import analysis, games
from bot.community.base import CommunityError
from bot.composition import App
from bot.i18n import t
from bot.service import Service
from bot.store.engine import POSTGRES
from tests.community.conftest import ANA, BEA, GUILD, NAMES, toy_game
from tests.conftest import FakeClock

OPTIONS = {"mode": "classic"}
_channels = iter(range(500, 100_000))


async def quadropolis_game(service: Service, *, finish: bool = True, guild: int = GUILD) -> int:
    """A two-player Quadropolis Classic game (Ana and Bea), each move the greedy AI's, played to its end
    (or stopped after a few moves)."""
    info = await service.create_game(
        guild_xid=guild,
        channel_xid=next(_channels),
        kind="quadropolis",
        options=OPTIONS,
        host_xid=ANA,
        host_name=NAMES[ANA],
    )
    await service.join(info.id, BEA, NAMES[BEA])
    await service.start(info.id, ANA)
    rules = games.rules("quadropolis")
    users = (ANA, BEA)
    for step in range(10_000):
        snap = await service.snapshot(info.id)
        if snap.info.game.status != "active" or (not finish and step == 6):
            break
        seat = min(rules.awaiting(snap.state))
        await service.move(info.id, users[seat], dict(rules.ai_move(snap.state, seat, "greedy", step)))
    return info.id


def weighed_here(app: App, game: int) -> Callable[[], Any]:
    async def expected() -> dict[str, Any]:
        snap = await app.service.snapshot(game)
        g = snap.info.game
        moves = [(m.seat, m.move) for m in await app.service.move_rows(game)]
        budget = analysis.Budget(samples=app.analyses.samples)
        return analysis.analyse(g.kind, g.options, len(snap.info.seats), g.seed, moves, budget).to_json()

    return expected


@pytest.fixture
async def app(community: App) -> AsyncIterator[App]:
    community.analyses.samples = 1  # the test's budget: the same game weighed in a few seconds
    yield community
    community.analyses.close()


async def test_a_finished_game_is_queued_then_weighed_in_a_worker_while_the_bot_serves(app: App) -> None:
    game = await quadropolis_game(app.service, finish=False)
    assert await app.analyses.get(game) is None  # not finished: nothing queued, nothing weighed
    with pytest.raises(CommunityError) as refused:
        await app.analyses.request(game)
    assert t(refused.value.key, "en", **refused.value.params) == (
        f"Game #{game} has not finished yet: its analysis can be made once it ends."
    )
    assert await app.analyses.get(game) is None

    game = await quadropolis_game(app.service)
    row = await app.analyses.get(game)
    assert row is not None and row.status == "queued" and row.result is None and row.samples == 1

    weighing = asyncio.create_task(app.analyses.run_pass())
    for _ in range(100_000):  # the pass claims the game, then waits for its worker
        claimed = await app.analyses.get(game)
        if claimed is None or claimed.status != "queued":
            break
        await asyncio.sleep(0.01)
    assert claimed is not None and claimed.status == "claimed"
    # The weighing runs in a worker process: meanwhile this event loop still serves the bot's reads.
    info = await app.service.info(game)
    assert info.game.status == "finished" and not weighing.done()
    assert await weighing == [game]

    row = await app.analyses.get(game)
    assert row is not None and row.status == "done" and row.attempts == 1
    assert row.result == await weighed_here(app, game)()  # the worker's numbers are the analysis's own
    assert [p["seat"] for p in row.result["players"]] == [0, 1]
    assert await app.analyses.run_pass() == []  # done once: never taken again


async def test_the_analysis_is_kept_by_seat_and_forget_me_leaves_no_trace_of_the_player(app: App) -> None:
    game = await quadropolis_game(app.service)
    assert await app.analyses.run_pass() == [game]
    await app.forget(ANA)
    rows = await app.store.fetch_all("SELECT * FROM game_analyses")
    assert len(rows) == 1
    text = json.dumps([list(r) for r in rows], default=str)
    for trace in (str(ANA), NAMES[ANA]):
        assert trace not in text
    row = await app.analyses.get(game)
    assert row is not None and row.status == "done" and len(row.result["players"]) == 2  # the figures stay


async def test_the_server_setting_chooses_which_games_are_weighed_by_themselves(app: App) -> None:
    prefs = app.preferences
    assert (await prefs.server_settings(GUILD)).analysis == "all"
    await prefs.update_settings(GUILD, {"analysis": "asked"})
    off = await quadropolis_game(app.service)
    assert await app.analyses.get(off) is None
    row = await app.analyses.request(off)  # asked later: queued all the same
    assert row.status == "queued"

    await prefs.update_settings(GUILD, {"analysis": "league"})
    friendly = await quadropolis_game(app.service)
    assert await app.analyses.get(friendly) is None  # no league of this server counted it
    await app.leagues.create_league(GUILD, "Spring", "quadropolis")
    for user in (ANA, BEA):
        await app.leagues.join_league(GUILD, "Spring", user, NAMES[user])
    counted = await quadropolis_game(app.service)
    row = await app.analyses.get(counted)
    assert row is not None and row.status == "queued"

    with pytest.raises(CommunityError):
        await prefs.update_settings(GUILD, {"analysis": "sometimes"})
    assert (await prefs.server_settings(GUILD)).analysis == "league"


async def test_an_abandoned_game_is_never_weighed(app: App) -> None:
    game = await toy_game(app.service)
    await app.service.abandon(game, ANA, is_admin=False)
    assert (await app.service.game(game)).status != "finished"
    assert await app.analyses.get(game) is None


async def test_a_claim_left_by_a_dead_process_is_resumed_and_the_game_weighed_once(
    app: App, reopen: Any, clock: FakeClock, engine: str
) -> None:
    game = await quadropolis_game(app.service)
    # The first process took the game, then died before keeping anything.
    taken = await app.analyses.db.take_due("first", clock.now_ms(), 1, max_attempts=3, lease_ms=60_000)
    assert [r.game_id for r in taken] == [game]

    second: App = await reopen("second")
    second.analyses.samples = 1
    if second.store.dialect == POSTGRES:
        # Another live process's claim is left alone while its lease holds.
        assert await second.analyses.run_pass() == []
        clock.advance(61)
    try:
        assert await second.analyses.run_pass() == [game]
    finally:
        second.analyses.close()
    row = await second.analyses.get(game)
    assert row is not None and row.status == "done" and row.attempts == 2
    assert await app.analyses.db.finish(row.id, "first", {"late": True}, clock.now_ms(), None) is False
    assert (await second.analyses.get(game)).result == row.result  # type: ignore[union-attr]


@pytest.mark.engines("postgres")  # a SQLite file admits one process
async def test_two_processes_on_one_database_weigh_each_game_once(app: App, reopen: Any) -> None:
    played = [await quadropolis_game(app.service) for _ in range(2)]
    second: App = await reopen("second")
    second.analyses.samples = 1
    try:
        kept = await asyncio.gather(app.analyses.run_pass(), second.analyses.run_pass())
    finally:
        second.analyses.close()
    assert sorted(kept[0] + kept[1]) == sorted(played) and not set(kept[0]) & set(kept[1])
    for game in played:
        row = await app.analyses.get(game)
        assert row is not None and row.status == "done" and row.attempts == 1
