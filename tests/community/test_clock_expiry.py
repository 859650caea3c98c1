"""A time bank that runs out (issue 41) is a deadline: the earlier of the two applies, its policy once (a
vote, the AI's move, or a forfeit in a rated league's game), computed from committed times only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot import games
from bot.community.base import CommunityError
from bot.composition import App
from bot.service import Service
from tests.community.conftest import ANA, BEA, CEM, GUILD, NAMES, bid, confirm, run, run_until, toy_game
from tests.conftest import FakeClock

Reopen = Callable[[str], Any]
DAY_BANK = {"clock": "1d+12h", "reminder_hours": 100}
"""A bank of 24 hours (plus 12 a finished turn, at most 3 days); the per-move deadline stays 72 hours."""


async def late_bea(service: Service, community: App, clock: FakeClock, **settings: object) -> int:
    """Ana bids at once; Bea is the one awaited, her bank running."""
    await community.preferences.update_settings(GUILD, {**DAY_BANK, **settings})
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    return gid


async def test_the_bank_runs_out_before_the_per_move_deadline(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Bea's 24-hour bank runs out long before the 72-hour deadline: the vote opens at hour 24, once. Nobody
    votes, so at hour 48 the AI plays her move, which finishes her turn: her bank is the 12-hour increment,
    and the next round's vote about her opens at hour 60. Ana finished her first turn at once (24 + 12 =
    36 hours), so hers would run out only at hour 84."""
    await late_bea(service, community, clock)
    got = await run_until(community, clock, 80, 1)
    assert [(h, a.kind, a.user_xid) for h, a in got if a.kind in ("vote_open", "ai_move")] == [
        (24.0, "vote_open", BEA),
        (48.0, "ai_move", BEA),
        (60.0, "vote_open", BEA),
    ]


async def test_the_ai_moves_when_the_bank_runs_out(service: Service, community: App, clock: FakeClock) -> None:
    gid = await late_bea(service, community, clock, timeout_policy="ai_move")
    got = await run_until(community, clock, 30, 1)
    assert [(h, a.kind) for h, a in got if a.kind == "ai_move"] == [(24.0, "ai_move")]
    moves = await service._store.moves(gid)
    assert moves[-1].seat == 1 and moves[-1].actor_xid is None


async def test_nothing_happens_at_the_bank_when_the_policy_is_none(
    service: Service, community: App, clock: FakeClock
) -> None:
    gid = await late_bea(service, community, clock, timeout_policy="none")
    got = await run_until(community, clock, 30, 1)
    assert [(h, a.kind) for h, a in got] == [(24.0, "deadline_passed")]
    assert (await service.info(gid)).game.version == 1


async def rated_league(community: App, *, rated: bool = True) -> None:
    await community.leagues.create_league(GUILD, "Masters", "toy", rated=rated)
    for user, name in ((ANA, "Ana"), (BEA, "Bea")):
        await community.leagues.join_league(GUILD, "Masters", user, name)


async def test_a_rated_league_game_is_forfeited(service: Service, community: App, clock: FakeClock) -> None:
    """Policy forfeit in a rated league's game: at hour 24 Bea forfeits, once; the game is over."""
    await rated_league(community)
    gid = await late_bea(service, community, clock, timeout_policy="forfeit")
    got = await run_until(community, clock, 30, 1)
    assert [(h, a.kind, a.user_xid) for h, a in got] == [(24.0, "forfeit", BEA)]
    info = await service.info(gid)
    assert info.seats[1].resigned and info.game.status == "finished"
    assert await run_until(community, clock, 10, 1) == []


async def test_forfeit_outside_a_rated_league_is_a_vote(service: Service, community: App, clock: FakeClock) -> None:
    await rated_league(community, rated=False)
    gid = await late_bea(service, community, clock, timeout_policy="forfeit")
    got = await run_until(community, clock, 30, 1)
    assert [(h, a.kind) for h, a in got] == [(24.0, "vote_open")]
    assert not (await service.info(gid)).seats[1].resigned


async def test_a_move_committed_one_millisecond_before_the_bank_runs_out_counts(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Bea bids 1 ms before her bank runs out; the loop looks only an hour later: nothing is owed."""
    await community.preferences.update_settings(GUILD, {**DAY_BANK, "timeout_policy": "ai_move"})
    gid = await toy_game(service)
    start = clock.now_ms()
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    clock.ms = start + 24 * 3_600_000 - 1
    await bid(service, gid, BEA, 2)
    clock.advance(3600)
    got = await run(community, clock)
    assert [a.kind for a in got if a.user_xid == BEA and a.kind in ("ai_move", "vote_open")] == []
    moves = await service._store.moves(gid)
    assert [(m.seat, m.actor_xid) for m in moves[:2]] == [(0, ANA), (1, BEA)]
    banks = await community.clocks.of_game(
        await service.info(gid), (await community.preferences.settings_for(gid)).time_control
    )
    assert banks[1].ran_out_at is None


async def test_a_vacation_moves_the_moment_the_bank_runs_out(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Bea goes away at hour 10 for two days: her bank stops, and runs out at hour 24 + 48 = 72."""
    gid = await late_bea(service, community, clock, timeout_policy="ai_move", deadline_hours=500)
    await run_until(community, clock, 10, 1)
    await community.reminders.set_away(GUILD, BEA, 2)
    got = await run_until(community, clock, 70, 1)
    assert [(h + 10, a.kind) for h, a in got if a.kind == "ai_move"] == [(72.0, "ai_move")]
    assert (await service.info(gid)).game.version == 2


async def test_a_restart_around_the_expiry_acts_once(
    service: Service, community: App, clock: FakeClock, reopen: Reopen
) -> None:
    """The first process claims the vote at hour 24 and dies before sending it; the next one offers the
    same claim again (same nonce) and plans no second vote."""
    await late_bea(service, community, clock)
    clock.advance(24 * 3600)
    claimed = await community.reminders.run_due(clock.now_ms())
    assert [a.kind for a in claimed] == ["vote_open"]
    clock.advance(60)
    second = await reopen("second")
    await second.reminders.resume()
    again = await second.reminders.run_due(clock.now_ms())
    assert [(a.id, a.nonce) for a in again] == [(claimed[0].id, claimed[0].nonce)]
    await confirm(second, again)
    got = await run_until(second, clock, 20, 1)
    assert [a.kind for _, a in got if a.kind == "vote_open"] == []


async def test_two_processes_at_the_expiry_act_once(
    service: Service, community: App, clock: FakeClock, reopen: Reopen
) -> None:
    """Two processes pass at the same moment (on PostgreSQL, two stores on one database): one vote."""
    await late_bea(service, community, clock, timeout_policy="ai_move")
    other = await reopen("other")
    clock.advance(24 * 3600)
    mine, theirs = await asyncio.gather(
        community.reminders.run_due(clock.now_ms()), other.reminders.run_due(clock.now_ms())
    )
    assert len({a.id for a in [*mine, *theirs] if a.kind == "ai_move"}) == 1


async def test_given_time_moves_the_moment_and_once_a_day(service: Service, community: App, clock: FakeClock) -> None:
    """At hour 20 Ana gives Bea 10 hours: Bea's bank runs out at hour 34, not 24. A second gift within the day
    is refused with a sentence and changes nothing; a day later Ana may give again."""
    gid = await late_bea(service, community, clock, timeout_policy="ai_move")
    await run_until(community, clock, 20, 1)
    info, seat, ms = await community.clocks.give_time(gid, ANA, BEA, 10)
    assert (seat, ms) == (1, 10 * 3_600_000)
    with pytest.raises(CommunityError) as refused:
        await community.clocks.give_time(gid, ANA, BEA, 5)
    assert refused.value.key == "community.error.give_time_daily"
    assert refused.value.params["again"] == clock.now_ms() + 24 * 3_600_000
    got = await run_until(community, clock, 20, 1)
    assert [(h + 20, a.kind) for h, a in got if a.kind == "ai_move"] == [(34.0, "ai_move")]
    del info


async def test_give_time_refusals(service: Service, community: App, clock: FakeClock) -> None:
    """No bank, not a player, oneself, too many hours: a sentence each, nothing recorded."""
    gid = await toy_game(service)
    with pytest.raises(CommunityError) as no_bank:
        await community.clocks.give_time(gid, ANA, BEA, 5)
    assert no_bank.value.key == "community.error.give_time_no_bank"
    await community.preferences.update_settings(GUILD, {"clock": "3d+1d"})
    for giver, to, hours, key in ((CEM, BEA, 5, "not_playing"), (ANA, ANA, 5, "not_opponent"), (ANA, BEA, 99, "hours")):
        with pytest.raises(CommunityError) as refused:
            await community.clocks.give_time(gid, giver, to, hours)
        assert refused.value.key == f"community.error.give_time_{key}"
    assert (await community.clocks.db.records(gid, GUILD, [ANA, BEA], 0)).gifts == []


async def test_mine_gives_the_moment_the_bank_runs_out(service: Service, community: App, clock: FakeClock) -> None:
    """`/game mine`'s deadline is the earlier one: Bea's bank (24 hours), not the 72-hour deadline."""
    start = clock.now_ms()
    await late_bea(service, community, clock)
    (entry,) = await community.reminders.mine(GUILD, BEA)
    assert entry.deadline == start + 24 * 3_600_000


async def test_a_game_older_than_the_records_starts_its_banks_full(
    service: Service, community: App, clock: FakeClock
) -> None:
    """A game played before the clocks kept records (its records gone here): its banks start full with its
    current turn, never charged for the turns before."""
    await community.preferences.update_settings(GUILD, DAY_BANK)
    gid = await toy_game(service)
    for card in (1, 2):
        clock.advance(20 * 3600)
        await bid(service, gid, ANA, card)
        await bid(service, gid, BEA, card)
    async with service._store.transaction() as db:
        await db.execute("DELETE FROM clock_turns WHERE game_id = ?", (gid,))
    clock.advance(5 * 3600)
    info = await service.info(gid)
    banks = await community.clocks.of_game(info, (await community.preferences.settings_for(gid)).time_control)
    assert [banks[s].bank_ms for s in (0, 1)] == [19 * 3_600_000, 19 * 3_600_000]


async def test_a_league_game_starts_with_the_league_time_control(
    service: Service, community: App, clock: FakeClock
) -> None:
    """A league with a time control: a game of its members takes it at its start (no game setting of its own),
    a game with its own keeps it, and a game with a player from outside the league has the server's."""
    await community.preferences.update_settings(GUILD, {"reminder_hours": 100})
    await rated_league(community, rated=False)
    league = await community.leagues.edit_league(GUILD, "Masters", clock="1d+12h")
    assert league.clock == "1d+12h"
    gid = await toy_game(service)
    await run(community, clock)
    assert (await community.preferences.settings_for(gid)).clock == "1d+12h"
    own = await toy_game(service, channel=2)
    await community.preferences.update_settings(GUILD, {"clock": "3d+1d"}, game_id=own)
    await run(community, clock)
    assert (await community.preferences.settings_for(own)).clock == "3d+1d"
    outside = await toy_game(service, channel=3, guest=CEM)
    await run(community, clock)
    assert (await community.preferences.settings_for(outside)).clock == "off"
    got = await run_until(community, clock, 25, 1)
    assert sorted((h, a.kind, a.game_id) for h, a in got if a.kind == "vote_open") == [
        (24.0, "vote_open", gid),
        (24.0, "vote_open", gid),
    ]
    with pytest.raises(CommunityError):
        await community.leagues.edit_league(GUILD, "Masters", clock="forever")
    assert (await community.leagues.edit_league(GUILD, "Masters", clock="off")).clock is None


async def banks(service: Service, community: App, gid: int) -> list[int]:
    info = await service.info(gid)
    control = (await community.preferences.settings_for(gid)).time_control
    found = await community.clocks.of_game(info, control)
    return [found[s].bank_ms // 3_600_000 for s in sorted(found)]


@pytest.mark.parametrize("recorded_start", [True, False])
async def test_an_undone_move_takes_its_time_back_too(
    service: Service, community: App, clock: FakeClock, recorded_start: bool
) -> None:
    """Ana bids at hour 1 (her turn over: +12 hours), proposes to take it back, and Bea accepts at hour 6:
    the banks are as if the bid had never been made, so Ana, awaited again, was thinking all along (24 - 8
    at hour 8, no increment), and Bea spent her own time meanwhile as before. Ana's bid again at hour 9 ends
    her turn once: 24 - 9 + 12. The same whether or not a pass of the loop recorded the start."""
    await community.preferences.update_settings(GUILD, DAY_BANK)
    gid = await toy_game(service)
    if recorded_start:
        await run(community, clock)
    clock.advance(3600)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    assert await banks(service, community, gid) == [24 - 1 + 12, 24 - 1]
    proposal = await community.undo.propose_undo(gid, ANA)
    clock.advance(5 * 3600)
    assert (await community.undo.answer_undo(gid, proposal.version, BEA, True)).status == "accepted"
    clock.advance(2 * 3600)
    await run(community, clock)
    assert await banks(service, community, gid) == [24 - 8, 24 - 8]
    clock.advance(3600)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    assert await banks(service, community, gid) == [24 - 9 + 12, 24 - 9]


async def test_an_undone_end_of_turn_is_not_charged_to_the_seat_it_made_wait(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Quadropolis, one seat at a time: the first player finishes their turn at hour 1, which makes the
    other wait; the first takes the last step back and the other agrees at hour 6. The other never had to
    play, so their bank is untouched; the first was thinking all along (24 - 8 at hour 8), and the
    increment of the turn taken back is gone."""
    await community.preferences.update_settings(GUILD, DAY_BANK)
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=9, kind="quadropolis", options={"mode": "classic"}, host_xid=ANA, host_name="Ana"
    )
    await service.join(info.id, BEA, NAMES[BEA])
    await service.start(info.id, ANA)
    gid, rules, users = info.id, games.rules("quadropolis"), (ANA, BEA)
    await run(community, clock)
    (first,) = (await service.info(gid)).awaiting
    other = 1 - first
    clock.advance(3600)
    for step in range(10):
        snap = await service.snapshot(gid)
        if rules.awaiting(snap.state) != {first}:
            break
        await service.move(gid, users[first], dict(rules.ai_move(snap.state, first, "greedy", step)))
    assert (await service.info(gid)).awaiting == {other}
    await run(community, clock)
    expected = {first: 24 - 1 + 12, other: 24}
    assert await banks(service, community, gid) == [expected[0], expected[1]]
    proposal = await community.undo.propose_undo(gid, users[first])
    clock.advance(5 * 3600)
    accepted = await community.undo.answer_undo(gid, proposal.version, users[other], True)
    assert accepted.status == "accepted" and (await service.info(gid)).awaiting == {first}
    clock.advance(2 * 3600)
    await run(community, clock)
    expected = {first: 24 - 8, other: 24}
    assert await banks(service, community, gid) == [expected[0], expected[1]]


async def test_a_game_starts_with_its_seasons_time_control(service: Service, community: App, clock: FakeClock) -> None:
    """Season 1 of a league runs with 1 day + 12 hours: a game of its members takes it. Season 2 starts with
    the league's control too, then the moderator makes it 3 days + 1 day: a game started now takes that,
    while season 1 keeps its own and the game of season 1 its own."""
    await community.preferences.update_settings(GUILD, {"reminder_hours": 100})
    await rated_league(community, rated=False)
    await community.leagues.edit_league(GUILD, "Masters", clock="1d+12h")
    first = await toy_game(service)
    await run(community, clock)
    assert (await community.preferences.settings_for(first)).clock == "1d+12h"
    clock.advance(3600)
    season = await community.leagues.new_season(GUILD, "Masters", 30)
    assert season.number == 2 and season.clock == "1d+12h"
    await community.leagues.edit_league(GUILD, "Masters", clock="3d+1d")
    league = await community.leagues.league(GUILD, "Masters")
    assert [(s.number, s.clock) for s in await community.leagues.db.seasons(league.id)] == [(1, "1d+12h"), (2, "3d+1d")]
    second = await toy_game(service, channel=2)
    await run(community, clock)
    assert (await community.preferences.settings_for(second)).clock == "3d+1d"
    assert (await community.preferences.settings_for(first)).clock == "1d+12h"
