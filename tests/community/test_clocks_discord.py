"""Correspondence clocks (issue 41) through discord.py and the fake Discord: choosing a time control."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.community.base import CommunityError
from bot.community.settings import check_setting, merge_settings
from tests.community.conftest import Harness
from tests.community.test_discord import cog, slash
from tests.discord.test_play_toy import bid, start_toy


async def test_a_server_default_and_a_game_of_its_own(harness: Harness) -> None:
    """A moderator sets the server's time control; a game opened with `clock:` keeps its own; `/game
    settings` shows each; only the host or a moderator changes a game's."""
    h = harness
    cog(h)
    sent = await slash(h, "game", "settings", user="mona", server=True, clock="3d+1d")
    assert not sent.ephemeral and "saved" in (sent.content or "")
    assert "3 days, plus 1 day a finished turn, at most 7 days" in json.dumps(sent.embeds)
    lobby = await h.fake.slash("game", "new", game="toy", user="alice", clock="1d+12h")
    await lobby.response()
    await h.settle()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    assert (await h.bot.app.preferences.settings_for(gid)).clock == "1d+12h"
    shown = await slash(h, "game", "settings", user="bob")
    assert "1 day, plus 12 hours a finished turn, at most 3 days" in json.dumps(shown.embeds)
    refused = await slash(h, "game", "settings", user="bob", clock="off")
    assert "Only the host" in (refused.content or "")
    assert (await h.bot.app.preferences.settings_for(gid)).clock == "1d+12h"
    changed = await slash(h, "game", "settings", user="alice", clock="off")
    assert f"game #{gid}" in (changed.content or "") and "Time bank: none" in json.dumps(changed.embeds)


async def test_the_choice_in_polish(harness: Harness) -> None:
    """The settings speak the asker's language: the time bank in Polish."""
    h = harness
    cog(h)
    h.fake.user("mona").locale = "pl"
    sent = await slash(h, "game", "settings", user="mona", server=True, clock="1d+12h")
    assert "Pula czasu" in json.dumps(sent.embeds, ensure_ascii=False)
    assert "12 godzin za każdą zakończoną turę" in json.dumps(sent.embeds, ensure_ascii=False)


def test_a_time_control_is_a_checked_setting() -> None:
    """An unknown time control is refused with a sentence; a preset gives its bank."""
    with pytest.raises(CommunityError):
        check_setting("clock", "forever")
    assert merge_settings({"clock": "3d+1d"}).time_control.bank_ms == 3 * 24 * 3_600_000
    assert merge_settings({"clock": "3d+1d"}, {"clock": "off"}).time_control.on is False


async def clock_game(h: Harness, clock: str = "1d+12h") -> int:
    """A toy game with a time bank; Alice bids at once, so Bob is the one awaited."""
    await slash(h, "game", "settings", user="mona", server=True, clock=clock, reminder_hours=12.0)
    gid = await start_toy(h)
    await cog(h).tick()
    await bid(h, gid, "alice", 3)
    await cog(h).tick()
    return gid


async def status_embeds(h: Harness) -> list[object]:
    handle = await h.fake.slash("game", "status", user="carol")
    await handle.response()
    await h.settle()
    return [e for m in handle.sent for e in m.embeds]


async def test_the_turn_post_and_the_status_show_the_banks(harness: Harness) -> None:
    """The turn post shows both banks counting down to a Discord timestamp (both choose at once: 24 hours
    each, running out 24 hours after the start). After Alice's bid, `/game status` shows her bank resting at
    24 + 12 hours and Bob's still running."""
    h = harness
    start = h.clock.now_ms()
    gid = await clock_game(h)
    when = f"<t:{(start + 24 * 3_600_000) // 1000}:R>"
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    assert f"⏳ Alice: 24 hours in the bank, runs out {when}\n⏳ Bob: 24 hours in the bank, runs out {when}" in (
        turn.content
    )
    h.clock.advance(3 * 3600)
    status = json.dumps(await status_embeds(h), ensure_ascii=False)
    assert "⏳ Alice: 36 hours in the bank" in status
    assert f"⏳ Bob: 21 hours in the bank, runs out {when}" in status


async def test_a_turn_post_and_its_status_share_one_reading_of_the_banks(harness: Harness) -> None:
    """Bob's bid ends the round: the new turn post and the status message it updates show the same banks, read
    and computed once for both (issue 42: the banks are several readings of the database)."""
    h = harness
    gid = await clock_game(h)
    clocks = h.bot.app.clocks
    computed = 0
    of_game = clocks.of_game

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal computed
        computed += 1
        return await of_game(*args, **kwargs)

    clocks.of_game = counted  # type: ignore[method-assign]
    try:
        await bid(h, gid, "bob", 1)
    finally:
        clocks.of_game = of_game  # type: ignore[method-assign]
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    status = next(m for m in h.channel_messages() if m.id == info.game.status_message_xid)
    banks = [line for line in (turn.content or "").split("\n") if line.startswith("⏳")]
    assert len(banks) == 2 and all(line in json.dumps(status.embeds, ensure_ascii=False) for line in banks)
    assert computed == 1


async def test_the_reminder_says_what_is_left(harness: Harness) -> None:
    """Bob's reminder, in the channel and by DM (he asked for them), says what his bank has left."""
    h = harness
    await slash(h, "game", "notify", user="bob", dm=True, quiet="off", timezone="UTC")
    await clock_game(h)
    h.clock.advance(12 * 3600)
    await cog(h).tick()
    reminder = h.channel_messages()[-1].content
    assert "Your time bank: 12 hours left." in reminder
    assert "Your time bank: 12 hours left." in h.fake.dms("bob")[-1].content


async def test_the_banks_in_polish(harness: Harness) -> None:
    """A game in Polish: the turn post's banks, and the reminder, in Polish."""
    h = harness
    h.fake.world.guild_locale = "pl"
    h.fake.user("carol").locale = "pl"  # who asks for the status
    gid = await clock_game(h)
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    assert "⏳ Bob: w puli 24 godziny, skończy się <t:" in turn.content
    assert "⏳ Alice: w puli 36 godzin" in json.dumps(await status_embeds(h), ensure_ascii=False)
    h.clock.advance(13 * 3600)
    await cog(h).tick()
    assert "Twoja pula czasu: 11 godzin." in h.channel_messages()[-1].content


async def test_give_time_by_command_once_a_day(harness: Harness) -> None:
    """Alice gives Bob 10 hours: said in public, and the status shows his bank grown; a second gift the same
    day gets a private sentence with the moment she may give again."""
    h = harness
    gid = await clock_game(h)
    sent = await slash(h, "game", "give-time", user="alice", player="bob", hours=10)
    bob, alice = h.fake.user("bob").id, h.fake.user("alice").id
    assert not sent.ephemeral
    assert f"<@{alice}> gave <@{bob}> 10 hours more in their time bank (game #{gid})." in (sent.content or "")
    assert "⏳ Bob: 34 hours in the bank" in json.dumps(await status_embeds(h), ensure_ascii=False)
    again = await slash(h, "game", "give-time", user="alice", player="bob", hours=5)
    day = (h.clock.now_ms() + 24 * 3_600_000) // 1000
    assert again.ephemeral and f"you can again <t:{day}:R>" in (again.content or "")
    refused = await slash(h, "game", "give-time", user="carol", player="bob", hours=5)
    assert refused.ephemeral and "Only a player of this game" in (refused.content or "")


async def test_a_forfeit_is_told_in_the_channel(harness: Harness) -> None:
    """A rated league's game with policy forfeit: Bob's bank runs out, the channel is told once that he
    forfeits, and the two-player game is over."""
    h = harness
    await slash(h, "game", "settings", user="mona", server=True, timeout_policy="forfeit")
    gid = await clock_game(h)
    info = await h.service.info(gid)
    leagues = h.bot.app.leagues
    await leagues.create_league(info.game.guild_xid, "Masters", "toy", rated=True)
    for seat in info.seats:
        assert seat.user_xid is not None
        await leagues.join_league(info.game.guild_xid, "Masters", seat.user_xid, seat.name)
    h.clock.advance(24 * 3600)
    await cog(h).tick()
    await h.settle()
    told = [m.content for m in h.channel_messages() if "forfeits" in (m.content or "")]
    assert told == [f"<@{h.fake.user('bob').id}> ran out of time in game #{gid} and forfeits it."]
    after = await h.service.info(gid)
    assert after.seats[1].resigned and after.game.status == "finished"
    h.clock.advance(3600)
    await cog(h).tick()
    assert len([m for m in h.channel_messages() if "forfeits" in (m.content or "")]) == 1


async def test_the_host_or_a_moderator_corrects_a_bank(harness: Harness) -> None:
    """`/game settings bank_player: bank_hours:`: Bob, neither host nor moderator, is refused and nothing
    changes; Mona (a moderator) adds 5 hours to Bob's bank and Alice (the host) takes 10 away, each told in
    public with who did it and what is left, and the status shows the corrected bank. Half a correction, or
    one for someone who is not a player, gets a sentence."""
    h = harness
    gid = await clock_game(h)
    bob, mona, alice = (h.fake.user(n).id for n in ("bob", "mona", "alice"))
    refused = await slash(h, "game", "settings", user="bob", bank_player="bob", bank_hours=48)
    assert refused.ephemeral and "Only the host or someone who can manage this server" in (refused.content or "")
    assert "⏳ Bob: 24 hours in the bank, runs out" in json.dumps(await status_embeds(h), ensure_ascii=False)
    added = await slash(h, "game", "settings", user="mona", bank_player="bob", bank_hours=5)
    assert not added.ephemeral
    assert added.content == f"<@{mona}> added 5 hours to <@{bob}>'s time bank (game #{gid}): 29 hours in it now."
    h.clock.advance(3600)
    taken = await slash(h, "game", "settings", user="alice", bank_player="bob", bank_hours=-10)
    assert taken.content == f"<@{alice}> took 10 hours from <@{bob}>'s time bank (game #{gid}): 18 hours in it now."
    runs_out = f"<t:{(h.clock.now_ms() + 18 * 3_600_000) // 1000}:R>"
    assert f"⏳ Bob: 18 hours in the bank, runs out {runs_out}" in json.dumps(
        await status_embeds(h), ensure_ascii=False
    )
    half = await slash(h, "game", "settings", user="mona", bank_hours=5)
    assert half.ephemeral and "name both the player and the hours" in (half.content or "")
    stranger = await slash(h, "game", "settings", user="mona", bank_player="carol", bank_hours=5)
    assert stranger.ephemeral and "Only the time bank of a human player" in (stranger.content or "")
    nothing = await slash(h, "game", "settings", user="mona", bank_player="bob", bank_hours=0)
    assert nothing.ephemeral and "between 1 and 720 hours" in (nothing.content or "")
    assert "⏳ Bob: 18 hours in the bank" in json.dumps(await status_embeds(h), ensure_ascii=False)
    await slash(h, "game", "settings", user="alice", clock="off")
    no_bank = await slash(h, "game", "settings", user="mona", bank_player="bob", bank_hours=5)
    assert no_bank.ephemeral and "no time bank to correct" in (no_bank.content or "")


async def test_a_correction_that_empties_the_bank_applies_the_timeout_at_once(harness: Harness) -> None:
    """Mona takes more than Bob has: his bank is empty from that instant, and the next pass of the reminder
    loop applies the game's timeout policy (a forfeit in a rated league's game) without waiting."""
    h = harness
    await slash(h, "game", "settings", user="mona", server=True, timeout_policy="forfeit")
    gid = await clock_game(h)
    info = await h.service.info(gid)
    leagues = h.bot.app.leagues
    await leagues.create_league(info.game.guild_xid, "Masters", "toy", rated=True)
    for seat in info.seats:
        assert seat.user_xid is not None
        await leagues.join_league(info.game.guild_xid, "Masters", seat.user_xid, seat.name)
    emptied = await slash(h, "game", "settings", user="mona", bank_player="bob", bank_hours=-100)
    assert "0 minutes in it now" in (emptied.content or "")
    await cog(h).tick()
    await h.settle()
    assert (await h.service.info(gid)).seats[1].resigned


async def test_a_correction_in_hungarian(harness: Harness) -> None:
    """A game in Hungarian: the channel is told of the correction in Hungarian, whoever asked."""
    h = harness
    h.fake.world.guild_locale = "hu"
    gid = await clock_game(h)
    bob, mona = h.fake.user("bob").id, h.fake.user("mona").id
    added = await slash(h, "game", "settings", user="mona", bank_player="bob", bank_hours=2)
    assert added.content == f"<@{mona}> 2 óra időt adott <@{bob}> időkeretéhez (#{gid} játék): most 26 óra van benne."


async def test_a_league_games_first_turn_post_shows_the_banks(harness: Harness) -> None:
    """Alice and Bob are in a league whose games have a time bank: the very first turn post of their game,
    before any pass of the reminder loop, already shows both banks (the game took the league's time control
    as it started)."""
    h = harness
    cog(h)
    leagues = h.bot.app.leagues
    guild = h.fake.world.guild_id
    await leagues.create_league(guild, "Masters", "toy")
    for name in ("alice", "bob"):
        await leagues.join_league(guild, "Masters", h.fake.user(name).id, name.title())
    await leagues.edit_league(guild, "Masters", clock="1d+12h")
    start = h.clock.now_ms()
    gid = await start_toy(h)
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    when = f"<t:{(start + 24 * 3_600_000) // 1000}:R>"
    assert f"⏳ Alice: 24 hours in the bank, runs out {when}\n⏳ Bob: 24 hours in the bank, runs out {when}" in (
        turn.content
    )


async def test_a_new_season_says_its_time_control(harness: Harness) -> None:
    """`/league season` in a league with a time control: the new season takes it, and the channel is told so
    (in Spanish for a Spanish-speaking moderator); `/league edit clock:` then changes the running season's and
    the next one's, the first season keeping its own."""
    h = harness
    cog(h)
    guild = h.fake.world.guild_id
    await h.bot.app.leagues.create_league(guild, "Masters", "toy")
    await h.bot.app.leagues.edit_league(guild, "Masters", clock="3d+1d")
    sent = await slash(h, "league", "season", user="mona", name="Masters", days=30)
    assert "Season 2 of Masters has started" in (sent.content or "")
    assert "Its games start with a time bank: 3 days, plus 1 day a finished turn, at most 7 days." in (
        sent.content or ""
    )
    h.fake.user("mona").locale = "es-ES"
    await slash(h, "league", "edit", user="mona", name="Masters", clock="1d+12h")
    sent = await slash(h, "league", "season", user="mona", name="Masters", days=30)
    assert "Sus partidas empiezan con reserva de tiempo: 1 día, más 12 horas" in (sent.content or "")
    league = await h.bot.app.leagues.league(guild, "Masters")
    assert [s.clock for s in await h.bot.app.leagues.db.seasons(league.id)] == ["3d+1d", "1d+12h", "1d+12h"]
