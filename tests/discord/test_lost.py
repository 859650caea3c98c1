"""Permissions, deleted channels, closed DMs and archived threads (issue 14, parts 3 and 4)."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.testing.fakediscord import payloads as P
from tests.discord.conftest import Harness, answer
from tests.discord.test_bounds import quadropolis_here
from tests.discord.test_play_toy import start_toy


def uid(h: Harness, name: str) -> int:
    return int(h.fake.user(name).id)


async def visible(h: Harness, *path: str, user: str = "alice", **options: Any) -> Any:
    handle = await h.fake.slash(*path, user=user, **options)
    await answer(handle)
    await h.settle()
    shown = [s for s in handle.sent if s.content or s.embeds or s.files]
    assert shown, f"no visible answer to {path}"
    return shown[-1]


def deny_bot(h: Harness, channel: str, bits: int) -> None:
    """Deny the bot ``bits`` in a channel by a member overwrite."""
    h.fake.world.channel(channel).overwrites.append({"id": h.fake.world.bot_id, "type": 1, "allow": 0, "deny": bits})


# -- permissions ------------------------------------------------------------------------------------


async def test_game_new_names_the_missing_permissions(harness: Harness) -> None:
    h = harness
    h.fake.world.add_channel(
        "mute", overwrites=[{"id": h.fake.world.bot_id, "type": 1, "allow": 0, "deny": P.SEND_MESSAGES | P.EMBED_LINKS}]
    )
    sent = await visible(h, "game", "new", game="toy", channel="mute")
    text = sent.content or ""
    assert sent.ephemeral and "Send Messages" in text and "Embed Links" in text
    assert "Attach Files" not in text and "View Channel" not in text
    assert await h.service.list_games(h.fake.world.guild_id) == []
    # Without Attach Files the game can be played (without pictures): the lobby opens, with a warning.
    lobby = await h.fake.slash("game", "new", game="toy", channel="no-files")
    await answer(lobby)
    await h.settle()
    assert lobby.sent[0].embeds and not lobby.sent[0].ephemeral
    warnings = [s for s in lobby.sent if s.ephemeral and "Attach Files" in (s.content or "")]
    assert len(warnings) == 1 and "Send Messages" not in (warnings[0].content or "")
    fine = await h.fake.slash("game", "new", game="toy")
    await answer(fine)
    await h.settle()
    assert fine.sent[0].embeds and not any(s.ephemeral for s in fine.sent)


async def test_game_new_in_a_thread_names_send_messages_in_threads(harness: Harness) -> None:
    h = harness
    deny_bot(h, "games", P.SEND_MESSAGES_IN_THREADS)
    sent = await visible(h, "game", "new", game="toy", channel="table-1")
    assert "Send Messages in Threads" in (sent.content or "") and sent.ephemeral


async def test_a_post_refused_for_send_messages_says_send_messages(harness: Harness) -> None:
    """Once Send Messages is taken away, /game status names it (not Attach Files, though the board
    is a picture) and does not claim a repost."""
    h = harness
    await quadropolis_here(h)
    deny_bot(h, "games", P.SEND_MESSAGES)
    sent = await visible(h, "game", "status", user="bob")
    text = sent.content or ""
    assert "Send Messages" in text and "Attach Files" not in text
    assert "posted the board again" not in text
    assert sent.embeds, "the status itself is still shown"


async def test_status_says_posted_again_only_when_it_was(harness: Harness) -> None:
    h = harness
    gid = await start_toy(h)
    before = len(h.channel_messages())
    sent = await visible(h, "game", "status", user="bob")
    assert t("status.reposted", "en", game=gid) in (sent.content or "")
    assert len(h.channel_messages()) > before


# -- deleted channels -------------------------------------------------------------------------------


async def test_a_deleted_channel_pauses_its_game(harness: Harness) -> None:
    h = harness
    h.fake.world.add_channel("doomed")
    lobby = await h.fake.slash("game", "new", game="toy", user="alice", channel="doomed", ai_players=1)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("doomed").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    assert (await h.service.info(gid)).awaiting == {0}  # the AI has bid
    del h.fake.world.channels[h.fake.channel("doomed").id]
    outcome = await h.service.move(gid, uid(h, "alice"), {"kind": "bid", "card": 2})
    await h.bot.flow.after_move(outcome)  # the round is told: Discord answers 10003
    await h.settle()
    info = await h.service.info(gid)
    assert info.game.paused_at is not None and info.game.status == "active"
    assert 1 in info.awaiting and await h.service.play_ai(gid) is None  # the AI no longer plays it
    assert (await h.service.info(gid)).game.version == info.game.version
    assert await h.service.deadline(gid) is None
    assert any(f"Game #{gid}" in m.content and "paused" in m.content for m in h.fake.dms("alice"))
    listed = await visible(h, "game", "list", user="carol")
    assert f"#{gid}" in listed.embeds[0]["description"] and t("status.paused", "en") in listed.embeds[0]["description"]
    refused = await visible(h, "game", "abandon", user="carol", game=gid)
    assert "Only the host" in (refused.content or "")
    done = await visible(h, "game", "abandon", user="mona", game=gid)
    assert f"#{gid}" in (done.content or "")
    assert (await h.service.info(gid)).game.status == "abandoned"


async def test_a_paused_game_is_never_counted_in_a_league(harness: Harness) -> None:
    h = harness
    leagues = h.bot.app.leagues
    await leagues.create_league(h.fake.world.guild_id, "Bids", "toy", created_by=uid(h, "mona"))
    for user in ("alice", "bob"):
        await leagues.join_league(h.fake.world.guild_id, "Bids", uid(h, user), user)
    gid = await start_toy(h)
    await h.service.pause(gid)
    for a, b in ((3, 1), (1, 2), (2, 3)):
        await h.service.move(gid, uid(h, "alice"), {"kind": "bid", "card": a})
        await h.service.move(gid, uid(h, "bob"), {"kind": "bid", "card": b})
    assert (await h.service.info(gid)).game.status == "finished"
    table = await leagues.table(h.fake.world.guild_id, "Bids")
    assert table.games == 0


# -- closed DMs -------------------------------------------------------------------------------------


async def test_closed_dms_are_told_once_and_turned_off(harness: Harness) -> None:
    h = harness
    quinn = uid(h, "quinn")
    saved = await visible(h, "game", "notify", user="quinn", dm=True, turn_dm=True)
    assert "Reminders by DM: yes" in (saved.content or "")
    lobby = await h.fake.slash("game", "new", game="toy", user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="quinn")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    reminders: Any = h.bot.get_cog("RemindersCog")
    reminders.kick_delay = None
    await reminders.tick()
    h.clock.advance(12 * 3600)
    await reminders.tick()  # the DM to Quinn is refused (403 50007)
    prefs = await h.bot.app.preferences.prefs(quinn)
    assert not prefs.dm_reminders and not prefs.dm_turns
    handle = await h.fake.slash("game", "mine", user="quinn")
    await answer(handle)
    await h.settle()
    notice = t("community.notice.dms_closed", "en").split("(")[0]
    told = [s for s in handle.sent if notice in (s.content or "")]
    assert len(told) == 1 and told[0].ephemeral
    again = await h.fake.slash("game", "mine", user="quinn")
    await answer(again)
    await h.settle()
    assert not any(notice in (s.content or "") for s in again.sent)
    others = await h.fake.slash("game", "mine", user="alice")
    await answer(others)
    await h.settle()
    assert not any(notice in (s.content or "") for s in others.sent)


# -- archived threads -------------------------------------------------------------------------------


async def test_an_archived_thread_gets_its_status_posted_anew(harness: Harness) -> None:
    """Discord refuses edits in an archived thread (50083) until a new message unarchives it: the
    turn is posted first, and the status that cannot be edited is posted anew."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="toy", user="alice", channel="table-1")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("table-1").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    old_status = (await h.service.info(gid)).game.status_message_xid
    assert old_status is not None
    h.fake.fail("PATCH /channels/*/messages/*", status=400, code=50083, message="Thread is archived", times=50)
    mark = len(h.fake.requests)
    outcome = await h.service.move(gid, uid(h, "alice"), {"kind": "bid", "card": 1})
    await h.bot.flow.after_move(outcome)
    await h.settle()
    info = await h.service.info(gid)
    assert info.game.status_message_xid not in (None, old_status)
    status = next(m for m in h.channel_messages("table-1") if m.id == info.game.status_message_xid)
    assert status.embeds and f"#{gid}" in status.embeds[0]["title"]
    refused = [r for r in h.fake.requests[mark:] if r.switch is not None]
    assert refused, "the edit was tried and refused"
