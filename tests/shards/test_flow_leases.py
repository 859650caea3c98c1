"""The turn flow with leases (two processes' flows on one database, both engines): a game's AI seats
are played by the process holding the game's ``ai:`` lease, and taken over by another once it ran out;
a party timer fires in exactly one process, and a dead process's timer is fired by another after its
deadline and a grace."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.service import MoveOutcome, Service
from bot.store.engine import POSTGRES
from bot.store.leases import LeaseStore
from bot.turnflow import LEASE_MS, TIMER_GRACE_MS, TurnFlow
from tests.conftest import FakeClock
from tests.shards.conftest import Opener


class Recorder:
    """An announcer that remembers what it was asked to tell."""

    def __init__(self) -> None:
        self.announced: list[tuple[int, int | None]] = []
        self.statuses: list[int] = []

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        return None

    async def next_step(self, origin: Any, game_id: int) -> None:
        return None

    async def announce(
        self, game_id: int, outcome: MoveOutcome | None, locale: str, *, repost: bool = False
    ) -> str | None:
        self.announced.append((game_id, outcome.version if outcome is not None else None))
        return None

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        self.statuses.append(game_id)


async def two_flows(open_db: Opener, clock: FakeClock) -> tuple[TurnFlow, TurnFlow, Recorder, Recorder]:
    out: list[Any] = []
    for owner in ("a", "b"):
        db = await open_db()
        recorder = Recorder()
        seeds = iter(range(1000, 100_000))
        flow = TurnFlow(
            Service(db, clock, seed_source=lambda s=seeds: next(s)), recorder, leases=LeaseStore(db), owner=owner
        )
        out += [flow, recorder]
    return out[0], out[2], out[1], out[3]


async def test_the_ai_of_a_dead_process_is_taken_over_once_its_lease_ran_out(open_db: Opener, clock: FakeClock) -> None:
    a, b, _, told_b = await two_flows(open_db, clock)
    info = await a.service.create_game(
        guild_xid=1, channel_xid=2, kind="toy", options={}, host_xid=7, host_name="Ann", ai_seats=1
    )
    await a.service.start(info.id, 7)
    gid = info.id
    # Process a took the game's AI work, then died (kill -9) before playing.
    assert a.leases is not None and await a.leases.take(
        f"ai:{gid}", "a", clock.now_ms(), clock.now_ms() + LEASE_MS, gid
    )
    b.schedule_ai(gid)
    await b.idle()
    assert (await b.service.game(gid)).version == 0  # b leaves it alone while a's lease runs
    clock.advance(LEASE_MS / 1000 - 1)
    assert await b.take_over() == 0
    clock.advance(1)
    assert await b.take_over() == 1
    await b.idle()
    game = await b.service.game(gid)
    assert game.version == 1 and game.settled_version == 1  # the AI bid, told by b
    assert told_b.statuses == [gid]
    assert await b.take_over() == 0 and await a.take_over() == 0  # done: the lease is gone


async def test_an_untold_move_of_a_dead_process_is_told_before_the_ai_moves_on(
    open_db: Opener, clock: FakeClock
) -> None:
    a, b, told_a, told_b = await two_flows(open_db, clock)
    info = await a.service.create_game(
        guild_xid=1, channel_xid=2, kind="toy", options={}, host_xid=7, host_name="Ann", ai_seats=1
    )
    await a.service.start(info.id, 7)
    gid = info.id
    assert a.leases is not None
    await a.leases.take(f"ai:{gid}", "a", clock.now_ms(), clock.now_ms() + LEASE_MS, gid)
    await a.service.play_ai(gid)  # a played the AI's bid ...
    await a.service.move(gid, 7, {"kind": "bid", "card": 2})  # ... the reveal came, and a died untold
    assert told_a.announced == []
    clock.advance(LEASE_MS / 1000)
    assert await b.take_over() == 1
    await b.idle()
    game = await b.service.game(gid)
    assert told_b.announced[0] == (gid, 2)  # the reveal told first, once
    assert game.version == 3 and game.settled_version == 3  # then the AI bid again


async def test_a_party_timer_fires_once_and_a_dead_process_timer_is_fired_by_another(
    open_db: Opener, clock: FakeClock
) -> None:
    a, b, _, _ = await two_flows(open_db, clock)
    service = a.service
    info = await service.create_game(
        guild_xid=1, channel_xid=2, kind="urbanpanic", options={"variant": "party"}, host_xid=7, host_name="Ann"
    )
    await service.join(info.id, 8, "Bo")
    await service.start(info.id, 7)
    gid = info.id
    _, _, moves = await service.legal_moves(gid, 8)
    await service.move(gid, 8, dict(moves[0]))  # the first move starts the party's clock
    deadline = await service.deadline(gid)
    assert deadline is not None
    await a.watch_timer(gid)
    await b.watch_timer(gid)  # both know it; a holds it
    clock.ms = deadline
    # a died before its deadline: b does not fire it while a's grace runs ...
    assert await b.run_timers() == 0
    assert (await b.service.game(gid)).status == "active"
    # ... and fires it once the grace ran out (found by its sweep, fired on the next pass).
    clock.advance(TIMER_GRACE_MS / 1000)
    fired = await b.run_timers() + await b.run_timers()
    assert fired == 1 and (await b.service.game(gid)).status == "finished"
    assert await a.run_timers() == 0  # a, back, finds nothing to fire


async def test_a_human_move_a_dead_process_never_told_is_told_by_another(open_db: Opener, clock: FakeClock) -> None:
    """No AI in the game, so no lease: process a committed a bid and died before announcing it. Once
    a lease's time has passed, b tells it (once), and a live process's fresh moves are left alone."""
    a, b, told_a, told_b = await two_flows(open_db, clock)
    info = await a.service.create_game(guild_xid=1, channel_xid=2, kind="toy", options={}, host_xid=7, host_name="Ann")
    await a.service.join(info.id, 8, "Bea")
    await a.service.start(info.id, 7)
    gid = info.id
    await a.service.move(gid, 7, {"kind": "bid", "card": 2})
    await a.service.move(gid, 8, {"kind": "bid", "card": 1})  # the reveal; a dies untold
    clock.advance(LEASE_MS / 1000 - 1)
    assert await b.take_over() == 0  # maybe a is only slow: its moves are its own for now
    clock.advance(1)
    assert await b.take_over() == 1
    await b.idle()
    assert told_a.announced == [] and told_b.announced == [(gid, 2)]
    assert (await b.service.game(gid)).settled_version == 2
    clock.advance(LEASE_MS / 1000)
    assert await b.take_over() == 0 and await a.take_over() == 0  # told: nothing is told twice
    assert told_b.announced == [(gid, 2)]


async def test_a_shorter_lease_is_taken_over_sooner(open_db: Opener, clock: FakeClock) -> None:
    """LEASE_SECONDS=15 (the store's lease_ms): a dead process's untold move and its AI lease are taken
    over 15 s after, not a minute."""
    a, b, _, told_b = await two_flows(open_db, clock)
    for flow in (a, b):
        flow.lease_ms = flow.service._store.lease_ms = 15_000
    info = await a.service.create_game(
        guild_xid=1, channel_xid=2, kind="toy", options={}, host_xid=7, host_name="Ann", ai_seats=1
    )
    await a.service.start(info.id, 7)
    gid = info.id
    assert await a._take(f"ai:{gid}", gid)  # a holds the game's AI work for 15 s ...
    await a.service.move(gid, 7, {"kind": "bid", "card": 2})  # ... and dies after a move, untold
    clock.advance(14)
    assert await b.take_over() == 0
    clock.advance(1)
    assert await b.take_over() >= 1
    await b.idle()
    assert told_b.statuses[:1] == [gid]  # the bid told (a step inside a round: the status) ...
    assert told_b.announced == [(gid, 2)]  # ... then the AI bid, and the round was revealed
    game = await b.service.game(gid)
    assert game.version == 3 and game.settled_version == 3  # and its next bid, told too


async def test_a_stopping_process_hands_its_ai_and_timer_over_at_once(open_db: Opener, clock: FakeClock) -> None:
    """A graceful stop (bot.drain): a's AI task ends before its next move and a's timer lease ends now, so b
    takes both over at its next look, with no clock moved (a lease's length would be a minute)."""
    a, b, _, told_b = await two_flows(open_db, clock)
    a.ai_pause = 3600.0  # a's AI waits: the stop finds it between two moves
    ai_game = await a.service.create_game(
        guild_xid=1, channel_xid=2, kind="toy", options={}, host_xid=7, host_name="Ann", ai_seats=1
    )
    await a.service.start(ai_game.id, 7)
    a.schedule_ai(ai_game.id)
    assert a.leases is not None
    for _ in range(100):
        if await a.leases.holder(f"ai:{ai_game.id}") is not None:
            break
        await asyncio.sleep(0.01)
    party = await a.service.create_game(
        guild_xid=1, channel_xid=3, kind="urbanpanic", options={"variant": "party"}, host_xid=7, host_name="Ann"
    )
    await a.service.join(party.id, 8, "Bo")
    await a.service.start(party.id, 7)
    _, _, moves = await a.service.legal_moves(party.id, 8)
    await a.service.move(party.id, 8, dict(moves[0]))
    await a.watch_timer(party.id)
    deadline = await a.service.deadline(party.id)
    assert deadline is not None
    assert await b.take_over() == 0  # both leases are a's, and live

    work = a.stop_new_work()
    await asyncio.wait_for(asyncio.gather(*work), 5)  # the pause is cut short; no AI move was made
    a.schedule_ai(ai_game.id)  # nothing starts while stopping
    assert await a.run_timers() == 0 and await a.take_over() == 0
    assert sorted(await a.hand_over()) == sorted([ai_game.id, party.id])
    assert (await a.service.game(ai_game.id)).version == 0

    assert await b.take_over() == 2  # at once: the AI seat and the timer
    await b.idle()
    game = await b.service.game(ai_game.id)
    assert game.version == 1 and game.settled_version == 1 and told_b.statuses == [ai_game.id]
    assert b.timers == {party.id: deadline}
    clock.ms = deadline
    assert await b.run_timers() == 1 and (await b.service.game(party.id)).status == "finished"


async def test_a_stopping_process_gives_its_unsent_claims_back(open_db: Opener, clock: FakeClock) -> None:
    """A reminder claimed by a run that stops unsent is offered to the next taker at once, same nonce."""
    from bot.store.community.outbox import NewOutbox, OutboxStore

    db_a, db_b = await open_db(), await open_db()
    outbox_a, outbox_b = OutboxStore(db_a), OutboxStore(db_b)
    now = clock.now_ms()
    claimed = await outbox_a.claim(
        [
            NewOutbox(
                kind="reminder", nonce="n1", game_id=None, seat=None, user_xid=7, guild_xid=1, channel_xid=2, params={}
            )
        ],
        now,
        "a",
    )
    assert [r.nonce for r in claimed] == ["n1"]
    if db_a.dialect == POSTGRES:  # (a SQLite file has one process: another run's claims are a dead run's)
        assert await outbox_b.take_due("b", now, 10, max_attempts=5) == []  # a's, and live
    assert await outbox_a.hand_over("a") == 1
    taken = await outbox_b.take_due("b", now, 10, max_attempts=5)
    assert [(r.nonce, r.claim_boot) for r in taken] == [("n1", "b")]
