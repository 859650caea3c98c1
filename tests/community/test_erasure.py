"""Forget-me's edit queue (bot.community.erasure) on both engines: what is planned, the leases that
let a restart or another process resume it without an edit made twice, and the scrub after it."""

from __future__ import annotations

import pytest

from bot.composition import App, compose
from bot.service import Service
from bot.store.engine import POSTGRES
from tests.community.conftest import ANA, BEA, CEM, bid, toy_game
from tests.conftest import FakeClock


async def posted(app: App, gid: int, base: int) -> None:
    """The bot's posts of a game: lobby, status, a turn post per version so far."""
    await app.service.set_messages(gid, lobby_message_xid=base, status_message_xid=base + 1)
    await app.service.set_messages(gid, turn_message_xid=base + 2)


async def test_plan_queue_take_finish(community: App, clock: FakeClock) -> None:
    """A forget-me plans the posts of the player's games, none of others'; the edits are taken a few
    at a time, each once, and a finished one is never taken again."""
    app = community
    mine, theirs = await toy_game(app.service, 1, ANA, BEA), await toy_game(app.service, 2, BEA, CEM)
    await posted(app, mine, 1000)
    await posted(app, theirs, 2000)
    await bid(app.service, mine, ANA, 3)
    await bid(app.service, mine, BEA, 2)
    await app.service.set_messages(mine, turn_message_xid=1003)
    forgotten = await app.forget(ANA)
    assert (forgotten.edits, forgotten.beyond) == (4, 0)
    first = await app.erasure.take(3)
    assert [e.kind for e in first] == ["lobby", "status", "turn"] and first[2].version == 2
    for edit in first:
        assert await app.erasure.finish(edit, "done")
    rest = await app.erasure.take(3)
    assert [(e.kind, e.message_xid, e.version) for e in rest] == [("turn", 1002, 0)]
    assert await app.erasure.finish(rest[0], "gone")
    assert await app.erasure.take(3) == []
    assert not await app.erasure.finish(first[0], "done"), "finished once"
    assert await app.erasure.progress() == {"done": 3, "gone": 1}


async def test_a_claim_of_a_dead_run_is_taken_over_after_its_lease(
    community: App, service: Service, clock: FakeClock
) -> None:
    """Another run's claim is taken over (SQLite: at once, its file has one process; PostgreSQL: once
    the lease ran out), and the dead run can no longer finish it; a passing failure is retried a few
    times, then given up."""
    app = community
    gid = await toy_game(app.service, 1, ANA, BEA)
    await posted(app, gid, 1000)
    await app.forget(ANA)
    other = compose(Service(service._store, clock), boot="second")
    taken = await app.erasure.take(1)
    assert len(taken) == 1
    if service._store.dialect == POSTGRES:
        assert taken[0].id not in [e.id for e in await other.erasure.take(5)], "its lease still runs"
        clock.advance(service._store.lease_ms / 1000 + 1)
    again = [e for e in await other.erasure.take(5) if e.id == taken[0].id]
    assert len(again) == 1 and again[0].claim_boot == "second"
    assert not await app.erasure.finish(taken[0], "done"), "the dead run lost its claim"
    assert await other.erasure.finish(again[0], "done")
    edit = next(e for e in await other.erasure.db.edits() if e.status == "claimed")
    for _ in range(10):
        assert await other.erasure.retry(edit)
        retaken = [e for e in await other.erasure.take(5) if e.id == edit.id]
        if not retaken:
            break
        edit = retaken[0]
    statuses = {e.id: e.status for e in await other.erasure.db.edits()}
    assert statuses[edit.id] == "failed"


async def test_a_repost_and_the_recap_are_recorded_once(community: App) -> None:
    app = community
    gid = await toy_game(app.service, 1, ANA, BEA)
    await app.service.set_messages(gid, turn_message_xid=500)
    await app.service.set_messages(gid, turn_message_xid=500)
    await app.erasure.record_post(gid, "recap", 501)
    await app.erasure.record_post(gid, "recap", None)
    assert [(k, m) for k, _, _, m in await app.erasure.db.posts(gid)] == [("turn", 500), ("recap", 501)]


async def test_a_turn_post_is_told_again_as_it_was(community: App) -> None:
    """The post of version 1 is the game then (replayed), the move that made it and its summary with
    the seat's name of today."""
    app = community
    gid = await toy_game(app.service, 1, ANA, BEA)
    await bid(app.service, gid, ANA, 3)
    await bid(app.service, gid, BEA, 2)
    await app.forget(ANA)
    post = await app.erasure.turn_post(gid, 1)
    assert post.snapshot.version == 1 and post.seat == 0 and not post.final
    assert post.summary is not None and post.summary[1]["player"] == "Former player"
    start = await app.erasure.turn_post(gid, 0)
    assert start.summary is None and start.seat is None


async def test_the_scrub_runs_on_both_engines(community: App, service: Service) -> None:
    """After forget-me the store scrubs (a WAL checkpoint on SQLite, VACUUM outside a transaction on
    PostgreSQL) without an error, and the bot goes on writing."""
    app = community
    gid = await toy_game(app.service, 1, ANA, BEA)
    assert await app.forget_user(ANA) > 0
    await bid(app.service, gid, BEA, 2)
    assert (await service.info(gid)).seats[0].name == "Former player"


@pytest.mark.engines("sqlite")  # PostgreSQL has no shared commits to count
async def test_keeping_a_turn_posts_id_costs_no_commit_of_its_own(community: App, service: Service) -> None:
    """On SQLite the post's row is written by the game row's update, one writer in one commit (one fsync per turn
    post, as before the posts were kept; two writers sharing it before the post rode in the update's write)."""
    app = community
    gid = await toy_game(app.service, 1, ANA, BEA)
    writers = service._store.writers
    assert writers is not None
    before = (writers.commits, writers.writes)
    await app.service.set_messages(gid, turn_message_xid=700)
    assert (writers.commits - before[0], writers.writes - before[1]) == (1, 1)
    assert [m for _, _, _, m in await app.erasure.db.posts(gid)] == [700]
