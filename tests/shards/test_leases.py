"""Leases in the store, on SQLite and PostgreSQL: with two processes on one database exactly one
takes each outbox row and each piece of a game's work, and a process that died is taken over once
its lease ran out (with the same nonce)."""

from __future__ import annotations

import asyncio

import pytest

from bot.community.reminders import CLAIM_TIMEOUT_MS, MAX_ATTEMPTS
from bot.composition import App, compose
from bot.service import Service
from bot.store.community.outbox import NewOutbox
from bot.store.leases import LeaseStore
from tests.community.conftest import ANA, GUILD, bid, confirm, toy_game
from tests.conftest import FakeClock
from tests.shards.conftest import Opener

NO_DEADLINE = {"deadline_hours": 0}


async def two_processes(open_db: Opener, clock: FakeClock) -> tuple[App, App]:
    apps = []
    for boot in ("process-a", "process-b"):
        seeds = iter(range(1000 if boot.endswith("a") else 50_000, 100_000))
        apps.append(compose(Service(await open_db(), clock, seed_source=lambda s=seeds: next(s)), boot=boot))
    return apps[0], apps[1]


async def games_awaiting_bea(app: App, clock: FakeClock, count: int) -> list[int]:
    """Games where Ana has bid and the guest is awaited (a different guest in each: a player gets
    only so many reminders a day)."""
    await app.preferences.update_settings(GUILD, NO_DEADLINE)
    ids = []
    for channel in range(1, count + 1):
        gid = await toy_game(app.service, channel=channel, guest=5000 + channel)
        await bid(app.service, gid, ANA, 3)
        ids.append(gid)
    await confirm(app, await app.reminders.run_due(clock.now_ms()))  # the waits begin now
    return ids


@pytest.mark.parametrize("engine", ["postgres"])  # on SQLite the lock file allows one process
async def test_two_processes_passing_at_once_send_each_reminder_once(open_db: Opener, clock: FakeClock) -> None:
    a, b = await two_processes(open_db, clock)
    games = await games_awaiting_bea(a, clock, 12)
    clock.advance(12 * 3600 + 60)
    got_a, got_b = await asyncio.gather(a.reminders.run_due(clock.now_ms(), 5), b.reminders.run_due(clock.now_ms(), 5))
    more_a, more_b = await asyncio.gather(a.reminders.run_due(clock.now_ms()), b.reminders.run_due(clock.now_ms()))
    sent = [x for x in got_a + got_b + more_a + more_b if x.kind == "reminder"]
    assert sorted(x.game_id for x in sent) == games  # every game's reminder, each once
    assert len({x.id for x in sent}) == len({x.nonce for x in sent}) == len(games)
    for x in sent:
        assert await (a if x.claim_boot == "process-a" else b).reminders.mark_sent(x.id, 99)
    clock.advance(CLAIM_TIMEOUT_MS / 1000)
    again = await asyncio.gather(a.reminders.run_due(clock.now_ms()), b.reminders.run_due(clock.now_ms()))
    assert [x for x in again[0] + again[1] if x.kind == "reminder"] == []


async def test_a_claim_of_a_dead_process_is_taken_over_after_its_lease(
    open_db: Opener, clock: FakeClock, engine: str
) -> None:
    """PostgreSQL: process b takes a's claims over once their lease ran out. SQLite (one process per
    file, its lock file says so): the next run takes an earlier run's claims at once."""
    a, b = await two_processes(open_db, clock)
    await games_awaiting_bea(a, clock, 3)
    clock.advance(12 * 3600)
    claimed = [x for x in await a.reminders.run_due(clock.now_ms()) if x.kind == "reminder"]
    assert len(claimed) == 3 and all(x.claim_boot == "process-a" for x in claimed)
    # process a dies here, before sending. While its lease runs, b leaves its claims alone.
    if engine == "postgres":
        clock.advance(CLAIM_TIMEOUT_MS / 1000 - 1)
        assert await b.reminders.run_due(clock.now_ms()) == []
        clock.advance(1)
    taken = await b.reminders.run_due(clock.now_ms())
    assert sorted((x.id, x.nonce, x.attempts, x.claim_boot) for x in taken) == sorted(
        (x.id, x.nonce, 2, "process-b") for x in claimed
    )
    for x in taken:
        assert await b.reminders.mark_sent(x.id, 77)
    clock.advance(CLAIM_TIMEOUT_MS / 1000)
    assert await a.reminders.run_due(clock.now_ms()) == [] and await b.reminders.run_due(clock.now_ms()) == []


async def test_a_claim_is_given_up_after_its_attempts_whoever_took_it(open_db: Opener, clock: FakeClock) -> None:
    """Offered three times in all (by either process), then marked failed."""
    a, b = await two_processes(open_db, clock)
    await games_awaiting_bea(a, clock, 1)
    clock.advance(12 * 3600)
    offered = [x.id for x in await a.reminders.run_due(clock.now_ms())]
    for app in (b, a, b, a):
        clock.advance(CLAIM_TIMEOUT_MS / 1000)
        offered += [x.id for x in await app.reminders.run_due(clock.now_ms())]
    assert len(offered) == MAX_ATTEMPTS and len(set(offered)) == 1
    row = await a.reminders.outbox.outbox(offered[0])
    assert row is not None and row.status == "failed"


@pytest.mark.parametrize("engine", ["postgres"])
async def test_a_queued_row_is_handed_to_one_process(open_db: Opener, clock: FakeClock) -> None:
    a, b = await two_processes(open_db, clock)
    rows = [
        NewOutbox(
            kind="last", nonce=f"n{i}", game_id=None, seat=None, user_xid=None, guild_xid=None, channel_xid=1, params={}
        )
        for i in range(20)
    ]
    await a.reminders.outbox.queue(rows, clock.now_ms())
    got = await asyncio.gather(
        *(app.reminders.outbox.take_due(app.reminders.boot, clock.now_ms(), 7, max_attempts=3) for app in (a, b, a, b))
    )
    nonces = [x.nonce for batch in got for x in batch]
    assert len(nonces) == 20 and len(set(nonces)) == 20


async def test_a_game_lease_has_one_owner_until_it_runs_out(open_db: Opener) -> None:
    one, two = LeaseStore(await open_db()), LeaseStore(await open_db())
    results = await asyncio.gather(
        *(store.take("ai:7", owner, 1000, 2000, 7) for store, owner in ((one, "a"), (two, "b"), (one, "a"), (two, "b")))
    )
    assert sorted(set(results)) == [False, True] and results[0] == results[2] and results[1] == results[3]
    winner, loser = ("a", "b") if results[0] else ("b", "a")
    assert await one.holder("ai:7") == (winner, 2000)
    assert await one.take("ai:7", winner, 1500, 2500, 7)  # the owner renews it
    assert not await two.take("ai:7", loser, 2499, 3000, 7)
    assert await two.expired("ai:", 2499, 10) == [] and await two.expired("ai:", 2500, 10) == [("ai:7", 7)]
    assert not await two.release("ai:7", loser)
    assert await two.take("ai:7", loser, 2500, 4000, 7)  # ran out: taken over
    assert not await one.take("ai:7", winner, 2600, 5000, 7)
    assert await two.release("ai:7", loser) and await one.holder("ai:7") is None
    assert await one.take("ai:7", winner, 2600, 5000, 7)


@pytest.mark.parametrize("engine", ["postgres"])
async def test_two_processes_open_and_close_each_vote_once(open_db: Opener, clock: FakeClock) -> None:
    """At the deadline the vote opens once; when it closes, one process decides it: one AI move
    and one closing edit in all, and the AI plays the late move once."""
    a, b = await two_processes(open_db, clock)
    await a.preferences.update_settings(GUILD, {"reminder_hours": 100, "deadline_hours": 24})
    games = []
    for channel in range(1, 5):
        gid = await toy_game(a.service, channel=channel, guest=5000 + channel)
        await bid(a.service, gid, ANA, 3)
        games.append(gid)
    await confirm(a, await a.reminders.run_due(clock.now_ms()))
    clock.advance(24 * 3600 + 60)
    opened = await asyncio.gather(a.reminders.run_due(clock.now_ms()), b.reminders.run_due(clock.now_ms()))
    votes = [x for batch in opened for x in batch if x.kind == "vote_open"]
    assert sorted(x.game_id for x in votes) == games
    for app, batch in zip((a, b), opened, strict=True):
        await confirm(app, batch)
    clock.advance(24 * 3600 + 60)
    closed = await asyncio.gather(a.reminders.run_due(clock.now_ms()), b.reminders.run_due(clock.now_ms()))
    done = [x for batch in closed for x in batch]
    assert sorted(x.game_id for x in done if x.kind == "ai_move") == games
    assert sorted(x.game_id for x in done if x.kind == "vote_closed") == games
    for app, batch in zip((a, b), closed, strict=True):
        await confirm(app, batch)
    for gid in games:
        moves = await a.service._store.moves(gid)
        assert [m.seat for m in moves] == [0, 1] and moves[-1].actor_xid is None  # the AI's one move
