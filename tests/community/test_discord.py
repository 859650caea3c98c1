"""The community commands, buttons and reminder loop through discord.py and the fake Discord."""

from __future__ import annotations

import json
from typing import Any

from bot.community.base import HOUR_MS
from cogs.community.reminders import RemindersCog
from cogs.community.undo import parse_undo_id, undo_id
from cogs.community.votes import parse_vote_id, vote_id
from tests.community.conftest import Harness
from tests.discord.conftest import answer as shown
from tests.discord.test_play_toy import bid, start_toy


def cog(h: Harness) -> RemindersCog:
    found: Any = h.bot.get_cog("RemindersCog")  # loaded as an extension: its own module object
    assert type(found).__name__ == "RemindersCog"
    found.kick_delay = None  # passes run when the test says so
    return found  # type: ignore[no-any-return]


def texts(h: Harness, channel: str = "games") -> list[str]:
    return [m.content or "" for m in h.channel_messages(channel)]


async def slash(h: Harness, *path: str, user: str = "alice", **options: Any) -> Any:
    """Run a slash command; what it finally sent (the follow-up of a deferred answer)."""
    handle = await h.fake.slash(*path, user=user, **options)
    await handle.response()
    await h.settle()
    return handle.sent[-1]


def uid(h: Harness, name: str) -> int:
    return int(h.fake.user(name).id)


async def test_subcommands_are_registered(harness: Harness) -> None:
    """/game has the community subcommands and /league exists, as synced to Discord."""
    cog(harness)
    commands = {c["name"]: c for c in harness.fake.commands()}
    sub = {o["name"] for o in commands["game"]["options"]}
    assert {
        "snooze",
        "away",
        "mine",
        "notify",
        "settings",
        "history",
        "replay",
        "export",
        "undo",
        "follow",
        "unfollow",
        "new",
    } <= sub
    assert {o["name"] for o in commands["league"]["options"]} >= {"create", "join", "table", "player"}


async def test_reminder_mentions_the_late_player(harness: Harness) -> None:
    """Alice bids; Bob is mentioned once as the last to choose, then reminded 12 h later."""
    h = harness
    c = cog(h)
    gid = await start_toy(h)
    await c.tick()
    await bid(h, gid, "alice", 3)
    await c.tick()
    bob = f"<@{uid(h, 'bob')}>"
    assert any(bob in t and "last to choose" in t for t in texts(h))
    h.clock.advance(12 * 3600)
    actions = await c.tick()
    assert [a.kind for a in actions] == ["reminder"]
    reminder = texts(h)[-1]
    assert bob in reminder and f"game #{gid}" in reminder and "<t:" in reminder
    row = await c.reminders.outbox.outbox(actions[0].id)
    assert row is not None and row.status == "sent" and row.message_xid == h.channel_messages()[-1].id
    h.clock.advance(3600)
    assert await c.tick() == []


async def test_dm_reminder_and_closed_dms(harness: Harness) -> None:
    """Bob opted in to DMs: he gets the reminder by DM too; Quinn's closed DMs are marked failed."""
    h = harness
    c = cog(h)
    sent = await slash(h, "game", "notify", user="bob", dm=True, quiet="off", timezone="UTC")
    assert sent.ephemeral and "Reminders by DM: yes" in (sent.content or "")
    gid = await start_toy(h)
    await c.tick()
    await bid(h, gid, "alice", 1)
    h.clock.advance(12 * 3600)
    await c.tick()
    dms = h.fake.dms("bob")
    assert dms and f"Game #{gid}" in dms[-1].content and "discord.com/channels/" in dms[-1].content


async def test_timeout_vote_by_buttons(harness: Harness) -> None:
    """A one-hour deadline set by a moderator; the vote posts three buttons; Alice's "take over"
    decides: the vote message closes and the AI plays Bob's move and keeps his seat."""
    h = harness
    c = cog(h)
    sent = await slash(h, "game", "settings", user="mona", server=True, deadline_hours=1.0)
    assert not sent.ephemeral and "saved" in (sent.content or "")
    gid = await start_toy(h)
    await c.tick()
    await bid(h, gid, "alice", 2)
    h.clock.advance(3600)
    await c.tick()
    vote = h.channel_messages()[-1]
    assert len(vote.custom_ids()) == 3 and "what should happen" in vote.content
    takeover = next(i for i in vote.custom_ids() if i.endswith(":takeover"))
    stranger = await h.fake.click(vote, takeover, user="carol")
    assert "Only the other players" in ((await shown(stranger)).content or "")
    click = await h.fake.click(vote, takeover, user="alice")
    answer = await shown(click)
    await h.settle()
    assert answer.ephemeral and "counted" in (answer.content or "")
    info = await h.service.info(gid)
    moves = await h.service._store.moves(gid)
    assert info.seats[1].is_ai and moves[1].seat == 1 and moves[1].actor_xid is None
    vote = next(m for m in h.channel_messages() if m.id == vote.id)
    assert "vote is over" in vote.content and vote.custom_ids() == []
    assert any("ran out of time" in t for t in texts(h))


async def test_settings_permissions(harness: Harness) -> None:
    """Only server managers change server settings; the host may change their game's."""
    h = harness
    cog(h)
    refused = await slash(h, "game", "settings", user="bob", server=True, reminder_hours=2.0)
    assert refused.ephemeral and "manage this server" in (refused.content or "")
    gid = await start_toy(h)
    refused = await slash(h, "game", "settings", user="bob", reminder_hours=2.0)
    assert "Only the host" in (refused.content or "")
    ok = await slash(h, "game", "settings", user="alice", reminder_hours=2.0, timeout_policy="ai_move")
    assert f"game #{gid}" in (ok.content or "")
    shown = await slash(h, "game", "settings", user="bob")
    assert "the AI plays the move" in json.dumps(shown.embeds)


async def test_undo_by_agreement(harness: Harness) -> None:
    """/game undo posts a proposal with Accept/Refuse; Bob accepts and Alice's bid is taken back."""
    h = harness
    cog(h)
    gid = await start_toy(h)
    await bid(h, gid, "alice", 3)
    handle = await h.fake.slash("game", "undo", user="alice")
    proposal = await shown(handle)
    await h.settle()
    assert not proposal.ephemeral and f"<@{uid(h, 'bob')}>" in (proposal.content or "")
    assert proposal.custom_ids == [undo_id(gid, 1, True), undo_id(gid, 1, False)]
    wrong = await h.fake.click(handle, undo_id(gid, 1, True), user="carol")
    assert "Only the other players" in ((await shown(wrong)).content or "")
    yes = await h.fake.click(handle, undo_id(gid, 1, True), user="bob")
    edited = await shown(yes)
    await h.settle()
    assert "taken back" in (edited.content or "") and edited.custom_ids == []
    assert await h.service._store.moves(gid) == []
    assert (await h.service.info(gid)).awaiting == {0, 1}


async def test_player_commands(harness: Harness) -> None:
    """/game mine, snooze, away and follow answer with sentences; followers are mentioned on turns."""
    h = harness
    c = cog(h)
    gid = await start_toy(h)
    await c.tick()
    mine = await slash(h, "game", "mine", user="bob")
    assert f"#{gid}" in json.dumps(mine.embeds) and "discord.com/channels" in json.dumps(mine.embeds)
    snoozed = await slash(h, "game", "snooze", user="bob", hours=5.0)
    assert "No reminders until" in (snoozed.content or "")
    away = await slash(h, "game", "away", user="bob", days=3.0)
    assert "paused" in (away.content or "")
    back = await slash(h, "game", "away", user="bob", days=0.0)
    assert "Welcome back" in (back.content or "")
    follow = await slash(h, "game", "follow", user="carol")
    assert f"follow game #{gid}" in (follow.content or "")
    await bid(h, gid, "alice", 1)
    await bid(h, gid, "bob", 2)
    assert f"<@{uid(h, 'carol')}>" in texts(h)[-2] + texts(h)[-1]
    nothing = await slash(h, "game", "mine", user="dave")
    assert "No game" in (nothing.content or "")


async def test_history_replay_export_and_league(harness: Harness) -> None:
    """A finished game: in the history, replayable at any move, exported as JSON; a rated league
    counts it and shows its table as an embed and a picture."""
    h = harness
    cog(h)
    created = await slash(h, "league", "create", user="mona", name="Bids", game="toy", rated=True)
    assert "League Bids" in (created.content or "")
    refused = await slash(h, "league", "create", user="bob", name="Other", game="toy")
    assert "manage this server" in (refused.content or "")
    for user in ("alice", "bob"):
        joined = await slash(h, "league", "join", user=user, name="Bids")
        assert "joined Bids" in (joined.content or "")
    gid = await start_toy(h)
    for a, b in ((3, 1), (1, 2), (2, 3)):
        await bid(h, gid, "alice", a)
        await bid(h, gid, "bob", b)
    assert (await h.service.info(gid)).game.status == "finished"
    history = await slash(h, "game", "history")
    assert f"#{gid}" in json.dumps(history.embeds)
    replay = await slash(h, "game", "replay", game=gid, turn=2)
    assert "after move 2 of 6" in (replay.content or "") and "Bids revealed" in (replay.content or "")
    export = await slash(h, "game", "export", game=gid)
    data = json.loads(export.file(f"game-{gid}.json"))
    assert data["game"] == "toy" and len(data["moves"]) == 6
    typed = await h.fake.autocomplete("league", "table", name="bi", user="carol")
    await typed.response()
    assert [c["value"] for c in typed.choices or []] == ["Bids"]
    table = await slash(h, "league", "table", name="Bids")
    assert "Bids" in table.embeds[0]["title"] and "rating" in table.embeds[0]["description"]
    assert len(table.pngs) == 1
    profile = await slash(h, "league", "player", name="Bids", player="alice")
    assert "1 games" in json.dumps(profile.embeds) or "in 1 games" in json.dumps(profile.embeds)


def test_custom_ids_round_trip_and_forgeries() -> None:
    """Vote and undo ids parse back; malformed ones are ForgedId, never a crash."""
    import pytest

    from cogs.ids import ForgedId

    assert parse_vote_id(vote_id(5, 7, 1, "wait")) == (5, 7, 1, "wait")
    assert parse_undo_id(undo_id(5, 7, False)) == (5, 7, False)
    for bad in ("cvote:5:7:1:nuke", "cvote:x:7:1:move", "undo:5:7:maybe", "undo:5", "cvote:" + "9" * 30):
        with pytest.raises(ForgedId):
            parse_vote_id(bad) if bad.startswith("cvote") else parse_undo_id(bad)


def test_hours_constant() -> None:
    """The loop's notion of an hour is 3,600,000 ms (sanity for the tests above)."""
    assert HOUR_MS == 3_600_000
