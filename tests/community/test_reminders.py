"""The reminder loop with an injected clock: timing, back-off, snooze, away, quiet hours, caps,
notices, and restarts that neither lose nor repeat a reminder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.community.base import HOUR_MS
from bot.composition import App
from bot.service import Service
from tests.community.conftest import ANA, BEA, GUILD, bid, confirm, run, run_until, toy_game
from tests.conftest import FakeClock

NO_DEADLINE = {"deadline_hours": 0}


def reminders(got: list[tuple[float, Any]], kind: str = "reminder") -> list[tuple[float, int, int]]:
    return [(h, a.user_xid, a.params.get("nth", 0)) for h, a in got if a.kind == kind]


async def bea_awaited(service: Service, community: App, clock: FakeClock) -> int:
    """A toy game where Ana has bid and only Bea is awaited (her turn began now)."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await run(community, clock)
    return gid


async def test_reminders_fire_on_time_and_back_off(service: Service, community: App, clock: FakeClock) -> None:
    """Reminders come 12 h after the turn began, then 24 h and 48 h after the previous; no fourth."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    await bea_awaited(service, community, clock)
    got = await run_until(community, clock, 200, 1)
    assert reminders(got) == [(12.0, BEA, 1), (36.0, BEA, 2), (84.0, BEA, 3)]
    first = next(a for _, a in got if a.kind == "reminder")
    assert first.channel_xid == 1 and first.guild_xid == GUILD and first.params["deadline"] is None


async def test_reminder_interval_and_backoff_follow_settings(
    service: Service, community: App, clock: FakeClock
) -> None:
    """A game's own interval (4 h) and the server's back-off (x1.5) and maximum (4) are obeyed."""
    await community.preferences.update_settings(GUILD, {"deadline_hours": 0, "backoff": 1.5, "max_reminders": 4})
    gid = await bea_awaited(service, community, clock)
    await community.preferences.update_settings(GUILD, {"reminder_hours": 4}, game_id=gid)
    got = await run_until(community, clock, 60, 0.5)
    assert [h for h, _, _ in reminders(got)] == [4.0, 10.0, 19.0, 32.5]


async def test_a_move_restarts_the_clock_and_stops_reminders(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Once Bea moves her reminders stop; the next turn's reminders count from the new turn."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    gid = await bea_awaited(service, community, clock)
    got = await run_until(community, clock, 13, 1)
    assert reminders(got) == [(12.0, BEA, 1)]
    await bid(service, gid, BEA, 1)  # round revealed: both awaited again, clocks start now
    got = await run_until(community, clock, 24, 1)
    assert sorted(reminders(got)) == [(12.0, ANA, 1), (12.0, BEA, 1)]


async def test_snooze_delays_reminders_not_deadlines(service: Service, community: App, clock: FakeClock) -> None:
    """Snoozed for 20 h at hour 11, the first reminder comes at hour 31; the deadline does not move."""
    await community.preferences.update_settings(GUILD, {"deadline_hours": 40, "timeout_policy": "ai_move"})
    gid = await bea_awaited(service, community, clock)
    await run_until(community, clock, 11, 1)
    count, until = await community.reminders.snooze(BEA, 20, game_id=gid)
    assert count == 1 and until == clock.now_ms() + 20 * HOUR_MS
    got = await run_until(community, clock, 30, 1)
    assert reminders(got) == [(20.0, BEA, 1)]
    assert [(h, a.kind) for h, a in got if a.kind == "ai_move"] == [(29.0, "ai_move")]


async def test_snooze_with_nothing_waiting_is_a_sentence(service: Service, community: App) -> None:
    """Snoozing when no game waits for you is refused with a sentence."""
    from bot.community.base import CommunityError

    with pytest.raises(CommunityError) as err:
        await community.reminders.snooze(BEA, 5, guild_xid=GUILD)
    assert err.value.key == "community.error.nothing_to_snooze"


async def test_away_stops_reminders_and_pauses_the_deadline(service: Service, community: App, clock: FakeClock) -> None:
    """Away for 2 days from hour 10: no reminder meanwhile; the 72 h deadline moves to hour 120."""
    await community.preferences.update_settings(GUILD, {"timeout_policy": "ai_move", "max_reminders": 10})
    await bea_awaited(service, community, clock)
    await run_until(community, clock, 10, 1)
    until, paused = await community.reminders.set_away(GUILD, BEA, 2)
    assert paused and until == clock.now_ms() + 48 * HOUR_MS
    got = await run_until(community, clock, 115, 1)
    times = [h + 10 for h, _, _ in reminders(got)]
    assert times and all(not 10 <= t < 58 for t in times)
    assert times[0] == 58.0  # the overdue reminder comes when she is back
    assert [h + 10 for h, a in got if a.kind == "ai_move"] == [120.0]


async def test_a_turn_that_begins_while_away_waits_for_the_return(
    service: Service, community: App, clock: FakeClock
) -> None:
    """Bea went away for 2 days (deadlines paused) before the round was revealed: her new turn's 72 h deadline
    counts from her return (hour 120), Ana's from the reveal (hour 72); Bea gets no reminder while away."""
    await community.preferences.update_settings(GUILD, {"timeout_policy": "ai_move", "max_reminders": 10})
    gid = await toy_game(service)
    await run(community, clock)
    until, paused = await community.reminders.set_away(GUILD, BEA, 2)
    assert paused and until == clock.now_ms() + 48 * HOUR_MS
    await bid(service, gid, ANA, 3)
    await bid(service, gid, BEA, 1)  # round revealed: both turns begin now, Bea's while she is away
    got = await run_until(community, clock, 125, 1)
    assert [(h, a.seat) for h, a in got if a.kind == "ai_move"] == [(72.0, 0), (120.0, 1)]
    assert all(h >= 48 for h, user, _ in reminders(got) if user == BEA)


async def test_away_without_pause_keeps_the_deadline(service: Service, community: App, clock: FakeClock) -> None:
    """On a server where away does not pause deadlines, only reminders stop."""
    await community.preferences.update_settings(GUILD, {"timeout_policy": "ai_move", "away_pauses_deadlines": False})
    await bea_awaited(service, community, clock)
    until, paused = await community.reminders.set_away(GUILD, BEA, 5)
    assert not paused and until is not None
    got = await run_until(community, clock, 80, 1)
    assert reminders(got) == []
    assert [h for h, a in got if a.kind == "ai_move"] == [72.0]


async def test_coming_back_early_credits_only_the_time_away(service: Service, community: App, clock: FakeClock) -> None:
    """Away at hour 0 for 10 days, back at hour 30: the deadline is hour 72 + 30."""
    await community.preferences.update_settings(GUILD, {"timeout_policy": "ai_move"})
    await bea_awaited(service, community, clock)
    await community.reminders.set_away(GUILD, BEA, 10)
    await run_until(community, clock, 30, 1)
    await community.reminders.set_away(GUILD, BEA, 0)
    got = await run_until(community, clock, 80, 1)
    assert [h + 30 for h, a in got if a.kind == "ai_move"] == [102.0]


async def test_away_is_limited_by_the_server(service: Service, community: App) -> None:
    """A vacation longer than the server allows is refused; so is coming back when not away."""
    from bot.community.base import CommunityError

    await community.preferences.update_settings(GUILD, {"away_max_days": 7})
    with pytest.raises(CommunityError) as err:
        await community.reminders.set_away(GUILD, BEA, 8)
    assert err.value.params == {"days": 7}
    with pytest.raises(CommunityError):
        await community.reminders.set_away(GUILD, BEA, 0)


async def test_quiet_hours_hold_reminders_until_they_end(service: Service, community: App, clock: FakeClock) -> None:
    """Quiet 20:00-08:00 in Budapest (19:00-07:00 UTC in January): the 20:00 UTC reminder waits
    until 07:00 UTC the next morning (hour 23 of the turn, which began at 08:00 UTC)."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    await community.preferences.set_prefs(BEA, timezone_name="Europe/Budapest", quiet="20:00-08:00")
    await bea_awaited(service, community, clock)
    got = await run_until(community, clock, 30, 0.25)
    assert reminders(got) == [(23.0, BEA, 1)]


async def test_daily_cap_across_games(service: Service, community: App, clock: FakeClock) -> None:
    """Two games waiting on Bea, hourly reminders, a cap of 3 a day: 3 reminders in 24 h, not 20."""
    await community.preferences.update_settings(
        GUILD, {"deadline_hours": 0, "reminder_hours": 1, "backoff": 1, "max_reminders": 10, "daily_reminder_cap": 3}
    )
    for channel in (1, 2):
        gid = await toy_game(service, channel=channel)
        await bid(service, gid, ANA, 2)
    await run(community, clock)
    got = await run_until(community, clock, 24, 0.25)
    assert len(reminders(got)) == 3
    later = await run_until(community, clock, 24, 0.25)
    assert len(reminders(later)) == 3


async def test_dm_reminders_and_turn_notices_are_opt_in(service: Service, community: App, clock: FakeClock) -> None:
    """A player who opted in gets a DM on each new turn and a DM copy of each reminder."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    await community.preferences.set_prefs(BEA, dm_reminders=True, dm_turns=True)
    gid = await toy_game(service)
    first = await run(community, clock)
    assert sorted((a.kind, a.user_xid) for a in first) == [("turn_dm", BEA)]
    await bid(service, gid, ANA, 1)
    got = await run_until(community, clock, 13, 1)
    assert [(a.kind, a.user_xid) for _, a in got] == [("last", BEA), ("reminder", BEA), ("reminder_dm", BEA)]


async def test_last_to_choose_mention(service: Service, community: App, clock: FakeClock) -> None:
    """When one of two simultaneous players has chosen, the other is mentioned once as the last."""
    gid = await toy_game(service)
    await run(community, clock)
    await bid(service, gid, BEA, 2)
    actions = await run(community, clock)
    assert [(a.kind, a.user_xid) for a in actions] == [("last", ANA)]
    assert await run(community, clock) == []


async def test_last_to_choose_left_to_the_turn_message(service: Service, community: App, clock: FakeClock) -> None:
    """Where the turn message already mentions the remaining player, no second mention is made."""
    community.reminders.mention_covered = lambda kind: True
    gid = await toy_game(service)
    await bid(service, gid, BEA, 2)
    assert await run(community, clock) == []


async def test_waits_follow_game_end_and_resignation(service: Service, community: App, clock: FakeClock) -> None:
    """A finished game owes nobody anything: its waits are gone, no reminder follows."""
    gid = await bea_awaited(service, community, clock)
    await service.resign(gid, BEA)
    assert await community.reminders.db.waits_for_game(gid) == {}
    got = await run_until(community, clock, 30, 1)
    assert got == []


async def test_mine_lists_every_game_waiting_on_me(service: Service, community: App, clock: FakeClock) -> None:
    """/game mine: the games where I am awaited, longest waiting first, with the deadline."""
    g1 = await toy_game(service, channel=1)
    clock.advance(3600)
    g2 = await toy_game(service, channel=2)
    await bid(service, g2, BEA, 1)  # Bea no longer owes game 2
    await run(community, clock)
    mine = await community.reminders.mine(GUILD, BEA)
    assert [e.info.id for e in mine] == [g1]
    ana = await community.reminders.mine(GUILD, ANA)
    assert [e.info.id for e in ana] == [g1, g2]
    assert ana[0].deadline == ana[0].since + 72 * HOUR_MS


# --- restarts -----------------------------------------------------------------------------------

Reopen = Callable[[str], Any]


async def test_restart_between_passes_loses_none_doubles_none(
    service: Service, community: App, clock: FakeClock, reopen: Reopen
) -> None:
    """Reminder 1 sent by the first process; a new process on the same file sends 2 and 3 once each."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    await bea_awaited(service, community, clock)
    first = await run_until(community, clock, 13, 1)
    assert reminders(first) == [(12.0, BEA, 1)]
    second = await reopen("second")
    await second.reminders.resume()
    got = await run_until(second, clock, 100, 1)
    assert reminders(got) == [(23.0, BEA, 2), (71.0, BEA, 3)]
    third = await reopen("third")
    await third.reminders.resume()
    assert reminders(await run_until(third, clock, 100, 1)) == []


async def test_restart_mid_send_offers_the_same_reminder_once(
    service: Service, community: App, clock: FakeClock, reopen: Reopen
) -> None:
    """A reminder recorded but not confirmed (the process died while sending) is offered again by
    the next process with the same id and nonce, exactly once; no new reminder is planned for it."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    await bea_awaited(service, community, clock)
    clock.advance(12 * 3600)
    claimed = await community.reminders.run_due(clock.now_ms())
    assert [a.kind for a in claimed] == ["reminder"]
    clock.advance(60)
    second = await reopen("second")
    await second.reminders.resume()
    again = await second.reminders.run_due(clock.now_ms())
    assert [(a.id, a.nonce, a.attempts) for a in again] == [(claimed[0].id, claimed[0].nonce, 2)]
    await confirm(second, again)
    clock.advance(60)
    assert await second.reminders.run_due(clock.now_ms()) == []
    row = await second.reminders.outbox.outbox(claimed[0].id)
    assert row is not None and row.status == "sent"


async def test_unconfirmed_claim_is_given_up_after_three_attempts(
    service: Service, community: App, clock: FakeClock
) -> None:
    """An action that keeps failing silently is offered three times, then marked failed."""
    await community.preferences.update_settings(GUILD, NO_DEADLINE)
    await bea_awaited(service, community, clock)
    clock.advance(12 * 3600)
    offered = [a.id for a in await community.reminders.run_due(clock.now_ms())]
    for _ in range(4):
        clock.advance(6 * 60)
        offered += [a.id for a in await community.reminders.run_due(clock.now_ms()) if a.kind == "reminder"]
    assert len(offered) == 3 and len(set(offered)) == 1
    row = await community.reminders.outbox.outbox(offered[0])
    assert row is not None and row.status == "failed"


async def test_downtime_never_counts_against_a_player(
    service: Service, community: App, clock: FakeClock, reopen: Reopen
) -> None:
    """The bot is down from hour 10 to hour 40: the 72 h deadline moves to hour 102."""
    await community.preferences.update_settings(GUILD, {"timeout_policy": "ai_move"})
    await bea_awaited(service, community, clock)
    await run_until(community, clock, 10, 1)
    clock.advance(30 * 3600)
    second = await reopen("second")
    assert await second.reminders.resume() == 30 * HOUR_MS
    got = await run_until(second, clock, 70, 1)
    assert [h + 40 for h, a in got if a.kind == "ai_move"] == [102.0]


async def test_reconcile_after_restart_finds_games_started_meanwhile(
    service: Service, clock: FakeClock, reopen: Reopen
) -> None:
    """Games started while no App listened get their waits from the first pass, in batches."""
    for channel in range(1, 8):
        await toy_game(service, channel=channel)
    fresh = await reopen("fresh")

    async def counted() -> int:
        return sum([len(await fresh.reminders.db.waits_for_game(g)) for g in range(1, 8)])

    await fresh.reminders.run_due(clock.now_ms(), limit=3)
    assert await counted() == 6  # three games, two seats each
    await fresh.reminders.run_due(clock.now_ms(), limit=3)
    await fresh.reminders.run_due(clock.now_ms(), limit=3)
    assert await counted() == 14


async def test_games_waiting_before_the_first_start_begin_their_clocks_then(
    service: Service, clock: FakeClock, reopen: Reopen
) -> None:
    """Installed on a bot with a game already waiting 5 days: no instant vote; the clocks start
    at the first start-up (reminder 12 h later, vote at 72 h)."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 1)
    clock.advance(5 * 24 * 3600)
    first = await reopen("first-start")
    await first.reminders.resume()
    await first.preferences.update_settings(GUILD, {"max_reminders": 1})
    assert await first.reminders.run_due(clock.now_ms()) == []
    got = await run_until(first, clock, 73, 1)
    assert [(h, a.kind) for h, a in got] == [(12.0, "reminder"), (72.0, "vote_open")]
