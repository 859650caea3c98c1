"""Forget-me reaches what the bot already posted, and the bytes on disk (issue 31), end to end: a
history of several games with pictures (a finished league game, a game in play, a lobby, a campaign
game) and a reminder, then /game forget-me, then the background edits, interrupted by a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot import games
from bot.rules.btc.rules import RULES as BTC
from cogs.app import CityBot
from render.common import record_text
from tests.discord.conftest import Harness

NAME = "Zyxwvut Privacyprobe"
"""Alice's display name here: unique, so a search for it is exact."""


def said(message: Any) -> str:
    """Everything a message shows as text: content, embeds, attachment names and alt texts."""
    files = [f"{a.filename} {getattr(a, 'description', None) or ''}" for a in message.attachments]
    return " ".join([message.content or "", json.dumps(message.embeds, ensure_ascii=False), *files])


def naming(h: Harness, user_xid: int) -> list[Any]:
    """The bot's messages everyone sees (every channel, ephemeral replies excluded) that name the user
    (by display name or by id, a mention included)."""
    return [
        m
        for m in h.fake.messages()
        if not m.ephemeral
        and m.channel_id not in h.fake.world.dm_channels.values()
        and (NAME in said(m) or str(user_xid) in said(m))
    ]


def disk_leaks(path: Path, user_xid: int) -> list[str]:
    needles = {"id": user_xid.to_bytes(8, "big", signed=True), "id text": str(user_xid).encode(), "name": NAME.encode()}
    found = []
    for part in (path, Path(f"{path}-wal")):
        data = part.read_bytes() if part.exists() else b""
        found += [f"{part.name}: {what}" for what, needle in needles.items() if needle in data]
    return found


async def play(h: Harness, gid: int, *, moves: int = 10_000) -> None:
    """The humans' moves are the rules' random AI, made through the service and told through the turn
    flow as a click would be; AI seats play themselves. At most ``moves`` human moves."""
    rules = games.rules((await h.service.info(gid)).game.kind)
    for step in range(moves):
        info = await h.service.info(gid)
        if info.game.status != "active":
            return
        humans = [s for s in sorted(info.awaiting) if info.seats[s].user_xid is not None]
        if not humans:
            await h.settle()
            continue
        seat = humans[0]
        snap = await h.service.snapshot(gid)
        outcome = await h.service.move(gid, info.seats[seat].user_xid, rules.ai_move(snap.state, seat, "random", step))
        await h.bot.flow.after_move(outcome)
        await h.settle()


async def new_game(h: Harness, channel: str, game: str, host: str = "alice", **options: Any) -> tuple[Any, int]:
    lobby = await h.fake.slash("game", "new", game=game, user=host, channel=channel, **options)
    await lobby.response()
    await h.settle()
    return lobby, (await h.service.game_in_channel(h.fake.channel(channel).id)).id


async def history(h: Harness) -> dict[str, int]:
    """Alice's history; returns the games by what they show."""
    app = h.bot.app
    alice, bob = h.fake.user("alice").id, h.fake.user("bob").id
    guild = h.fake.world.guild_id
    for name in ("table-2", "table-3", "table-4"):
        h.fake.world.add_channel(name)
    # A rated league of Quadropolis, and a finished game between its members: turn posts, end, recap.
    await app.leagues.create_league(guild, "Towers", "quadropolis", rated=True, created_by=bob)
    for user, shown in ((alice, NAME), (bob, "Bob")):
        await app.leagues.join_league(guild, "Towers", user, shown)
    lobby, league_game = await new_game(h, "games", "quadropolis", mode="classic")
    await (await h.fake.click(lobby, f"lobby:{league_game}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{league_game}:start", user="alice")).response()
    await h.settle()
    await play(h, league_game)
    assert (await h.service.info(league_game)).game.status == "finished"
    assert (await app.leagues.table(guild, "Towers")).games == 1
    # A game in play against the AI, left with Alice awaited; a reminder mentions her.
    lobby, live = await new_game(h, "table-2", "urbanpanic", mode="basic", ai_players=1, ai_level="greedy")
    await (await h.fake.click(lobby, f"lobby:{live}:start", user="alice")).response()
    await h.settle()
    await play(h, live, moves=2)
    assert alice in (await h.service.info(live)).awaited_users()
    h.clock.advance(13 * 3600)
    await h.bot.get_cog("RemindersCog").tick()  # type: ignore[union-attr]
    await h.settle()
    # A lobby Alice hosts, Bob joined.
    lobby, _ = await new_game(h, "table-3", "toy")
    toy = (await h.service.game_in_channel(h.fake.channel("table-3").id)).id
    await (await h.fake.click(lobby, f"lobby:{toy}:join", user="bob")).response()
    await h.settle()
    # A game Alice resigned from: the channel's line says so, with her mention.
    lobby, resigned = await new_game(h, "table-4", "toy")
    await (await h.fake.click(lobby, f"lobby:{resigned}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{resigned}:start", user="alice")).response()
    await h.settle()
    await (await h.fake.slash("game", "resign", user="alice", channel="table-4")).wait_sent(1)
    await h.settle()
    assert next(m for m in h.channel_messages("table-4") if f"<@{alice}>" in (m.content or ""))
    # A Between Two Cities campaign, its first game played to the end (the campaign's line names her).
    await (
        await h.fake.slash(
            "btc", "campaign", "start", length=3, difficulty=2, mode="simple", user="alice", channel="general"
        )
    ).response()
    opened = await h.fake.slash("btc", "campaign", "next", user="alice", channel="general")
    await opened.response()
    await h.settle()
    campaign = (await h.service.game_in_channel(h.fake.channel("general").id)).id
    await (await h.fake.click(opened, f"lobby:{campaign}:start", user="alice")).response()
    await h.settle()
    for step in range(500):
        snap = await h.service.snapshot(campaign)
        if snap.state.phase == "over":
            break
        outcome = await h.service.move(campaign, alice, BTC.ai_move(snap.state, 0, "random", step))
        await h.bot.flow.after_move(outcome)
        await h.settle()
    await h.fake.wait_until(
        lambda: next((m for m in h.channel_messages("general") if "campaign, game 1 of 3" in (m.content or "")), None),
        5,
        "the line",
    )
    return {"league": league_game, "live": live, "lobby": toy, "campaign": campaign}


async def test_forget_me_edits_the_bots_posts_and_leaves_no_bytes(harness: Harness) -> None:
    h = harness
    h.fake.user("alice").global_name = NAME
    alice = h.fake.user("alice").id
    played = await history(h)
    before = naming(h, alice)
    pictured = {m.id for m in before if m.attachments}
    assert len(before) > 30 and len(pictured) > 20, "the history names Alice, in texts and pictures"
    channels = ("games", "table-2", "table-3", "table-4", "general")
    assert {m.channel_id for m in before} == {h.fake.channel(c).id for c in channels}

    done = await h.fake.slash("game", "forget-me", confirm=True, user="alice")
    reply = " ".join(s.content or "" for s in await done.wait_sent(2))
    await h.settle()
    planned = await h.bot.app.erasure.db.edits()
    assert f"I will also edit the {len(planned)} messages I posted that name you" in reply, reply
    assert "What I cannot reach: messages other people wrote and their quotes of you" in reply
    assert {e.status for e in planned} == {"queued"} and len(planned) >= len(before)
    assert {e.kind for e in planned} == {"lobby", "status", "turn", "recap", "note"}, "the reminder is a note"
    edited_before = {m.id: len(m.edits) for m in h.fake.messages(include_deleted=True)}
    attachments_before = {a.id for m in h.fake.messages() for a in m.attachments}

    cog: Any = h.bot.get_cog("ErasureCog")
    with record_text() as drawn:
        first = await cog.tick(limit=3)
        assert len(first) == 3
        # A process killed mid-pass: two edits claimed and never made; then the bot restarts.
        dead = await h.bot.app.erasure.db.take_due("dead-run", h.clock.now_ms(), 2, max_attempts=5)
        assert len(dead) == 2
        settings = h.bot.settings
        await h.bot.close()
        restarted = h.bot = CityBot(settings, clock=h.clock)
        try:
            await restarted.login(h.fake.token)
            h.fake.use_client(restarted)
            cog = restarted.get_cog("ErasureCog")
            for _ in range(200):
                if not await cog.tick():
                    break
            await h.settle()
            assert await restarted.app.erasure.progress() == {"done": len(planned)}
            await checks(h, alice, played, planned, pictured, edited_before, attachments_before, drawn)
        finally:
            await restarted.close()


async def checks(
    h: Harness,
    alice: int,
    played: dict[str, int],
    planned: list[Any],
    pictured: set[int],
    edited_before: dict[int, int],
    attachments_before: set[int],
    drawn: Any,
) -> None:
    """After the background edits (see the test above)."""
    # What everyone sees names Alice nowhere: no text, embed, file name or alt text; every picture
    # that drew her name was replaced by one drawn again, and no drawn word is her name.
    assert [said(m)[:120] for m in naming(h, alice)] == []
    assert drawn.texts and not [d for d in drawn.texts if NAME in str(d)]
    assert "Former player" in " ".join(str(d) for d in drawn.texts)
    for message in h.fake.messages():
        if message.id in pictured:
            assert message.attachments and not {a.id for a in message.attachments} & attachments_before
    # Each message edited once, by one process, even across the restart and the dead run's claims.
    edits = {m.id: len(m.edits) - edited_before.get(m.id, 0) for m in h.fake.messages(include_deleted=True)}
    assert {e.message_xid for e in planned} == {m for m, n in edits.items() if n}
    assert set(edits.values()) <= {0, 1}
    # The game in play goes on with the AI in Alice's seat; the league table and the campaign forgot her.
    info = await h.service.info(played["live"])
    assert info.seats[0].user_xid is None and info.seats[0].name == "Former player"
    assert await h.bot.app.campaigns.db.latest(alice) is None
    table = await h.bot.app.leagues.table(h.fake.world.guild_id, "Towers")
    assert table.games == 1 and NAME not in repr(table) and str(alice) not in repr(table)
    # The bytes: neither the database file nor its write-ahead log holds her id or name.
    path = Path(h.bot.settings.database_path)
    assert disk_leaks(path, alice) == []


async def test_an_export_after_forget_me_replays_to_the_same_result(harness: Harness, tmp_path: Path) -> None:
    """An export made after forget-me names the seat by its anonymous name, holds nothing of the
    player, and replays (as ``python -m bot local --replay`` reads it) to the game's own result."""
    from bot.local import check_claims, read_export

    h = harness
    h.fake.user("alice").global_name = NAME
    alice = h.fake.user("alice").id
    lobby, gid = await new_game(h, "games", "quadropolis", mode="classic", ai_players=1, ai_level="greedy")
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    await play(h, gid)
    result = (await h.service.info(gid)).game.result
    assert result is not None
    await (await h.fake.slash("game", "forget-me", confirm=True, user="alice")).wait_sent(2)
    exported = await h.bot.app.history.export(h.fake.world.guild_id, gid)
    text = json.dumps(exported, ensure_ascii=False)
    assert NAME not in text and str(alice) not in text
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    rules, state, names, _, moves, claims = read_export(str(path))
    assert names[0] == "Former player"
    check_claims(str(path), rules, state, moves, claims)  # what it says of its end is what it replays to
    for seat, move in moves:
        state = rules.apply(state, seat, move)
    assert rules.is_over(state) and rules.result(state).to_json() == result


async def test_a_deleted_message_and_a_refused_edit(harness: Harness) -> None:
    """A message deleted meanwhile is recorded as gone (not tried again); an edit Discord refused
    once is made by a later pass; every other edit once."""
    h = harness
    h.fake.user("alice").global_name = NAME
    lobby, gid = await new_game(h, "games", "toy")
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    game = (await h.service.info(gid)).game
    assert game.lobby_message_xid and game.status_message_xid and game.turn_message_xid
    await (await h.fake.slash("game", "forget-me", confirm=True, user="alice")).wait_sent(2)
    await h.settle()
    h.fake.world.messages[game.lobby_message_xid].deleted = True
    channel = h.fake.channel("games").id
    h.fake.fail(f"PATCH /channels/{channel}/messages/{game.status_message_xid}", status=400, code=50035, times=1)
    cog: Any = h.bot.get_cog("ErasureCog")
    passes = [len(await cog.tick()) for _ in range(4)]
    assert passes[0] >= 3 and passes[-1] == 0
    edits = {e.message_xid: e for e in await h.bot.app.erasure.db.edits()}
    assert edits[game.lobby_message_xid].status == "gone"
    assert (edits[game.status_message_xid].status, edits[game.status_message_xid].attempts) == ("done", 2)
    assert {e.status for e in edits.values()} == {"done", "gone"}
    assert [said(m)[:80] for m in naming(h, h.fake.user("alice").id)] == []


def test_the_reply_says_what_is_edited_beyond_the_cap_and_out_of_reach_in_every_language() -> None:
    from bot.community.erasure import Forgotten
    from bot.i18n import t
    from cogs.community.erasure import forgotten_text

    for loc in ("en", "hu", "es", "ru", "pl"):
        text = forgotten_text(Forgotten(changed=7, edits=1000, beyond=23), loc)
        lines = text.split("\n")
        assert len(lines) == 4 and "1000" in lines[1] and "23" in lines[2], (loc, text)
        assert lines[3] == t("privacy.unreachable", loc)
        none = forgotten_text(Forgotten(changed=1, edits=0), loc).split("\n")
        assert none[1] == t("privacy.erasing_none", loc) and len(none) == 3
