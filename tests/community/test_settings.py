"""Settings layered server -> game, player preferences, quiet hours and the planner's arithmetic."""

from __future__ import annotations

import pytest

from bot.community.base import HOUR_MS, CommunityError
from bot.community.reminders import WaitContext, next_reminder_at, plan_wait
from bot.community.settings import Prefs, Settings, merge_settings, parse_quiet, quiet_until, zone
from bot.composition import App
from bot.service import Service
from bot.store.community.reminders import WaitRow
from tests.community.conftest import BEA, GUILD, toy_game

T0 = 1_800_000_000_000  # 2027-01-15 08:00 UTC


def wait(**kw: object) -> WaitRow:
    base: dict[str, object] = {
        "game_id": 1,
        "seat": 1,
        "guild_xid": GUILD,
        "channel_xid": 5,
        "user_xid": BEA,
        "since": T0,
        "since_version": 1,
    }
    base.update(kw)
    return WaitRow(**base)  # type: ignore[arg-type]


async def test_game_overrides_server_overrides_defaults(service: Service, community: App) -> None:
    """A game's reminder interval beats the server's, which beats the default; server-only keys
    cannot be set per game."""
    gid = await toy_game(service)
    assert (await community.preferences.settings_for(gid)).reminder_hours == Settings().reminder_hours
    await community.preferences.update_settings(GUILD, {"reminder_hours": 6, "timeout_policy": "ai_move"})
    await community.preferences.update_settings(GUILD, {"reminder_hours": 2}, game_id=gid)
    s = await community.preferences.settings_for(gid)
    assert (s.reminder_hours, s.timeout_policy) == (2.0, "ai_move")
    with pytest.raises(CommunityError) as err:
        await community.preferences.update_settings(GUILD, {"max_reminders": 9}, game_id=gid)
    assert err.value.key == "community.error.server_only"


async def test_server_limits_are_enforced(service: Service, community: App) -> None:
    """Below the server's shortest reminder interval, or out of range: refused with the range."""
    gid = await toy_game(service)
    await community.preferences.update_settings(GUILD, {"min_reminder_hours": 6})
    with pytest.raises(CommunityError) as err:
        await community.preferences.update_settings(GUILD, {"reminder_hours": 3}, game_id=gid)
    assert err.value.key == "community.error.reminder_too_often" and err.value.params == {"hours": "6"}
    with pytest.raises(CommunityError) as err:
        await community.preferences.update_settings(GUILD, {"deadline_hours": 99999})
    assert err.value.key == "community.error.bad_number"
    with pytest.raises(CommunityError) as err:
        await community.preferences.update_settings(GUILD, {"timeout_policy": "coin"})
    assert err.value.key == "community.error.bad_choice"


def test_stored_settings_that_no_longer_validate_are_ignored() -> None:
    """A bad stored value falls back to the default instead of breaking the loop."""
    assert merge_settings({"reminder_hours": "soon", "nonsense": 1}).reminder_hours == 12.0


def test_quiet_hours_parse() -> None:
    """ "22-7", "22:30-07:15" and "off" are understood; nonsense is a sentence."""
    assert parse_quiet("22-7") == (22 * 60, 7 * 60)
    assert parse_quiet("22:30-07:15") == (22 * 60 + 30, 7 * 60 + 15)
    assert parse_quiet("off") is None
    for bad in ("25-7", "noon", "7-7"):
        with pytest.raises(CommunityError):
            parse_quiet(bad)


def test_zones() -> None:
    """IANA names and fixed offsets are accepted; unknown zones are a sentence."""
    assert zone("UTC+2").utcoffset(None).total_seconds() == 7200  # type: ignore[union-attr]
    assert zone("-03:30").utcoffset(None).total_seconds() == -12600  # type: ignore[union-attr]
    zone("America/New_York")
    with pytest.raises(CommunityError):
        zone("Mars/Olympus")


def test_quiet_until_wraps_midnight_in_the_players_zone() -> None:
    """Quiet 22:00-07:00 in New York (UTC-5 in January): 03:00 UTC is 22:00 there, quiet until
    12:00 UTC; 13:00 UTC is not quiet."""
    prefs = Prefs(timezone="America/New_York", quiet_start=22 * 60, quiet_end=7 * 60)
    at_3 = T0 + 19 * HOUR_MS  # 2027-01-16 03:00 UTC
    assert quiet_until(at_3, prefs) == T0 + 28 * HOUR_MS
    assert quiet_until(T0 + 29 * HOUR_MS, prefs) is None


def test_backoff_arithmetic() -> None:
    """12 h, then 24 h, 48 h after the previous reminder; the gap never exceeds a week."""
    s = Settings()
    assert next_reminder_at(wait(), s) == T0 + 12 * HOUR_MS
    assert next_reminder_at(wait(reminders_sent=2, last_reminder_at=T0), s) == T0 + 48 * HOUR_MS
    big = Settings(reminder_hours=100, backoff=4)
    assert next_reminder_at(wait(reminders_sent=3, last_reminder_at=T0), big) == T0 + 7 * 24 * HOUR_MS


def test_plan_reminder_in_quiet_hours_waits() -> None:
    """A reminder owed during quiet hours is not sent; the wait looks again when they end."""
    prefs = Prefs(quiet_start=19 * 60, quiet_end=7 * 60)
    ctx = WaitContext(settings=Settings(deadline_hours=0), prefs=prefs, version=1)
    plan = plan_wait(wait(), ctx, T0 + 12 * HOUR_MS)  # 20:00 UTC
    assert plan.actions == () and plan.due_at == T0 + 23 * HOUR_MS


def test_plan_deadline_needs_another_human_and_an_ai() -> None:
    """No other human: no deadline at all; a game without AI only announces it; else a vote opens."""
    s = Settings(deadline_hours=1)
    now = T0 + 2 * HOUR_MS
    plan = plan_wait(wait(), WaitContext(settings=s, prefs=Prefs(), version=1), now)
    assert [k for k, _ in plan.actions] == []
    plan = plan_wait(wait(), WaitContext(settings=s, prefs=Prefs(), version=1, voters=(7,), can_ai=False), now)
    assert [k for k, _ in plan.actions] == ["deadline_passed"]
    plan = plan_wait(wait(), WaitContext(settings=s, prefs=Prefs(), version=1, voters=(7,)), now)
    assert [k for k, _ in plan.actions] == ["vote_open"] and plan.updates["deadline_state"] == "voting"


async def test_prefs_round_trip(community: App) -> None:
    """Preferences are stored per player and read back."""
    prefs = await community.preferences.set_prefs(BEA, timezone_name="Europe/Warsaw", quiet="23-8", dm_turns=True)
    assert prefs.quiet_text() == "23:00-08:00"
    assert await community.preferences.prefs(BEA) == prefs
    with pytest.raises(CommunityError):
        await community.preferences.set_prefs(BEA, timezone_name="Nowhere/Land")
