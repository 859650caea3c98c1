"""Deadlines and timeout policies: AI move, AI take-over, the other players' vote, more time,
nothing; each outcome is an announced action; the late player moving cancels it all."""

from __future__ import annotations

import pytest

from bot.community.base import HOUR_MS, CommunityError
from bot.community.votes import tally
from bot.composition import App
from bot.service import Service
from tests.community.conftest import ANA, BEA, GUILD, bid, confirm, run, run_until, toy_game
from tests.conftest import FakeClock


async def late_bea(service: Service, community: App, clock: FakeClock, **settings: object) -> int:
    await community.preferences.update_settings(GUILD, {"reminder_hours": 100, **settings})
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    return gid


async def test_policy_ai_move_plays_for_the_late_player(service: Service, community: App, clock: FakeClock) -> None:
    """At the 24 h deadline the AI plays Bea's move; her seat stays hers."""
    gid = await late_bea(service, community, clock, deadline_hours=24, timeout_policy="ai_move")
    got = await run_until(community, clock, 30, 1)
    assert [(h, a.kind, a.user_xid, a.params["take_over"]) for h, a in got] == [(24.0, "ai_move", BEA, False)]
    info = await service.info(gid)
    assert info.game.version == 2 and not info.seats[1].is_ai
    moves = await service._store.moves(gid)
    assert moves[-1].seat == 1 and moves[-1].actor_xid is None


async def test_policy_ai_takeover_keeps_the_seat(service: Service, community: App, clock: FakeClock) -> None:
    """With the take-over policy the AI plays the move and keeps the seat; no more waits for Bea."""
    gid = await late_bea(service, community, clock, deadline_hours=24, timeout_policy="ai_takeover")
    await run_until(community, clock, 25, 1)
    info = await service.info(gid)
    assert info.seats[1].is_ai and info.seats[1].user_xid == BEA
    assert set((await community.reminders.db.waits_for_game(gid)).keys()) == {0}


async def test_policy_none_only_announces(service: Service, community: App, clock: FakeClock) -> None:
    """Policy "none": the deadline is announced once and the game waits."""
    gid = await late_bea(service, community, clock, deadline_hours=10, timeout_policy="none")
    got = await run_until(community, clock, 40, 1)
    assert [(h, a.kind) for h, a in got] == [(10.0, "deadline_passed")]
    assert (await service.info(gid)).game.version == 1


async def test_no_deadline_without_another_human(service: Service, community: App, clock: FakeClock) -> None:
    """Against the AI alone nobody waits for you: reminders, but no deadline and no vote."""
    await community.preferences.update_settings(GUILD, {"deadline_hours": 5, "reminder_hours": 2})
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=3, kind="toy", options={}, host_xid=ANA, host_name="Ana", ai_seats=1
    )
    await service.start(info.id, ANA)
    await service.play_ai(info.id)
    await run(community, clock)
    got = await run_until(community, clock, 20, 1)
    assert {a.kind for _, a in got} == {"reminder"}


async def test_vote_opens_for_the_other_players(service: Service, community: App, clock: FakeClock) -> None:
    """Default policy: at 72 h the other players get a vote, open for 24 h."""
    gid = await late_bea(service, community, clock)
    got = await run_until(community, clock, 73, 1)
    votes = [(h, a) for h, a in got if a.kind == "vote_open"]
    assert len(votes) == 1
    h, action = votes[0]
    assert h == 72.0 and action.user_xid == BEA and action.params["voters"] == [ANA]
    assert action.params["closes_at"] == clock.now_ms() - HOUR_MS + 24 * HOUR_MS
    vote = await community.votes.db.vote(gid, action.params["version"], 1)
    assert vote is not None and vote.status == "open"


async def open_vote(service: Service, community: App, clock: FakeClock) -> tuple[int, int]:
    gid = await late_bea(service, community, clock)
    got = await run_until(community, clock, 72, 1)
    action = next(a for _, a in got if a.kind == "vote_open")
    return gid, int(action.params["version"])


async def test_vote_takeover_decides_at_once(service: Service, community: App, clock: FakeClock) -> None:
    """Ana is the only voter: her "take over" is a majority; the AI plays and keeps Bea's seat."""
    gid, version = await open_vote(service, community, clock)
    result = await community.votes.cast_vote(gid, version, 1, ANA, "takeover")
    assert result.decision == "takeover"
    assert sorted(a.kind for a in result.actions) == ["ai_move", "vote_closed"]
    await confirm(community, result.actions)
    info = await service.info(gid)
    assert info.seats[1].is_ai and info.game.version == 2
    with pytest.raises(CommunityError) as err:
        await community.votes.cast_vote(gid, version, 1, ANA, "move")
    assert err.value.key == "community.error.vote_over"


async def test_vote_wait_gives_a_new_deadline(service: Service, community: App, clock: FakeClock) -> None:
    """ "More time": announced with the new deadline (72 h from now); a new vote comes then."""
    gid, version = await open_vote(service, community, clock)
    clock.advance(2 * 3600)
    result = await community.votes.cast_vote(gid, version, 1, ANA, "wait")
    extended = next(a for a in result.actions if a.kind == "extended")
    assert extended.params["deadline"] == clock.now_ms() + 72 * HOUR_MS
    await confirm(community, result.actions)
    got = await run_until(community, clock, 73, 1)
    assert [(h, a.kind) for h, a in got if a.kind.startswith("vote")] == [(72.0, "vote_open")]


async def test_vote_closing_without_ballots_lets_the_ai_move(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Nobody voted in 24 h: the AI plays the move (the seat stays Bea's)."""
    gid, _ = await open_vote(service, community, clock)
    got = await run_until(community, clock, 25, 1)
    assert sorted((h, a.kind) for h, a in got) == [(24.0, "ai_move"), (24.0, "vote_closed")]
    info = await service.info(gid)
    assert info.game.version == 2 and not info.seats[1].is_ai


async def test_late_player_moving_cancels_the_vote(service: Service, community: App, clock: FakeClock) -> None:
    """Bea moves while the vote is open: the vote message is closed, clicks are refused."""
    gid, version = await open_vote(service, community, clock)
    await bid(service, gid, BEA, 1)
    actions = await run(community, clock)
    closed = [a for a in actions if a.kind == "vote_closed"]
    assert len(closed) == 1 and closed[0].params["decision"] == "moved"
    with pytest.raises(CommunityError):
        await community.votes.cast_vote(gid, version, 1, ANA, "move")


async def test_only_the_other_players_vote(service: Service, community: App, clock: FakeClock) -> None:
    """The late player and strangers cannot vote; an unknown vote is a sentence."""
    gid, version = await open_vote(service, community, clock)
    for voter, key in ((BEA, "community.error.not_a_voter"), (999, "community.error.not_a_voter")):
        with pytest.raises(CommunityError) as err:
            await community.votes.cast_vote(gid, version, 1, voter, "move")
        assert err.value.key == key
    with pytest.raises(CommunityError):
        await community.votes.cast_vote(gid, version + 5, 1, ANA, "move")


async def test_ai_move_for_a_turn_already_over_is_skipped(service: Service, community: App, clock: FakeClock) -> None:
    """An AI move offered again after Bea moved herself does nothing (no double move)."""
    gid = await late_bea(service, community, clock, deadline_hours=24, timeout_policy="ai_move")
    clock.advance(24 * 3600)
    actions = await community.reminders.run_due(clock.now_ms())
    [ai] = [a for a in actions if a.kind == "ai_move"]
    await bid(service, gid, BEA, 2)
    assert await community.reminders.execute_ai(ai) is None
    assert (await service.info(gid)).game.version == 2
    row = await community.reminders.outbox.outbox(ai.id)
    assert row is not None and row.status == "skipped"


def test_tally_majority_and_fallbacks() -> None:
    """More than half decides at once; at the close the most-backed choice wins; ties -> AI move."""
    voters = [1, 2, 3]
    assert tally({1: "wait"}, voters, final=False) is None
    assert tally({1: "wait", 2: "wait"}, voters, final=False) == "wait"
    assert tally({1: "wait", 2: "takeover"}, voters, final=True) == "move"
    assert tally({1: "wait"}, voters, final=True) == "wait"
    assert tally({}, voters, final=True) == "move"
    assert tally({9: "wait"}, voters, final=True) == "move"  # not a voter
