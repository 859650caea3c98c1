"""At Discord's limits (issue 14): every answer is visible and within what Discord accepts.

Big fixtures are built through the service and the store, not by clicking: 100 followers, 30
waiting games, 20 seven-player games with 32-character names, a 1,000-member league. Each request
the bot sends is checked against Discord's documented limits (content 2,000, embed description
4,096, embed totals 6,000, at most 100 mentioned ids) and must be accepted.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from bot.i18n import t
from bot.testing.fakediscord import payloads as P
from cogs import limits
from cogs.common import shown_name
from tests.discord.conftest import Harness, answer
from tests.discord.test_play_toy import bid, start_toy

LONG = "Ω" + "x" * 2498 + "!"
"""A 2,500-character typed input."""
NAME32 = "N" * 31 + "~"


def body_of(rec: Any) -> dict[str, Any] | None:
    body = rec.json
    if not isinstance(body, dict):
        return None
    if "type" in body and isinstance(body.get("data"), dict):  # an interaction callback
        return dict(body["data"])
    return body


def embed_total(embed: dict[str, Any]) -> int:
    return (
        len(embed.get("title") or "")
        + len(embed.get("description") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or [])
        + len((embed.get("footer") or {}).get("text") or "")
        + len((embed.get("author") or {}).get("name") or "")
    )


def assert_within_limits(h: Harness, since: int) -> None:
    """Every message the bot sent since ``since`` was accepted and is within Discord's limits."""
    checked = 0
    for rec in h.fake.requests[since:]:
        sends = "/messages" in rec.path or "/callback" in rec.path or "/webhooks/" in rec.path
        if rec.method not in ("POST", "PATCH") or not sends:
            continue
        if rec.switch is None:
            assert rec.status is not None and rec.status < 400, f"{rec}: {rec.response}"
        body = body_of(rec)
        if body is None:
            continue
        checked += 1
        assert len(body.get("content") or "") <= limits.CONTENT, rec
        embeds = body.get("embeds") or []
        for embed in embeds:
            assert len(embed.get("description") or "") <= limits.EMBED_DESCRIPTION, rec
        assert sum(embed_total(e) for e in embeds) <= limits.EMBED_TOTAL, rec
        mentioned = (body.get("allowed_mentions") or {}).get("users") or []
        assert len(mentioned) <= limits.MENTION_IDS, rec
    assert checked, "no message was sent"


async def visible(h: Harness, *path: str, user: str = "alice", **options: Any) -> Any:
    """Run a slash command and return its visible answer (after a deferral, the follow-up)."""
    handle = await h.fake.slash(*path, user=user, **options)
    await answer(handle)
    await h.settle()
    shown = [s for s in handle.sent if s.content or s.embeds or s.files]
    assert shown, f"no visible answer to {path}"
    return shown[-1]


def uid(h: Harness, name: str) -> int:
    return int(h.fake.user(name).id)


# -- followers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [100, 350])
async def test_a_game_with_many_followers_plays_a_full_turn(harness: Harness, count: int) -> None:
    """Followers are pinged in their own messages (≤ 100 ids, ≤ 2,000 characters each), never in the
    turn message's mention list; past the cap the rest are counted, not pinged."""
    h = harness
    gid = await start_toy(h)
    followers = [900_000_000_000_000_000 + i for i in range(count)]
    for user in followers:
        await h.bot.app.followers.db.follow(gid, user, 0)
    mark = len(h.fake.requests)
    before = len(h.channel_messages())
    await bid(h, gid, "alice", 1)
    await bid(h, gid, "bob", 2)
    info = await h.service.info(gid)
    assert info.game.version == 2
    new = h.channel_messages()[before:]
    turn = next(m for m in new if m.id == info.game.turn_message_xid)
    assert "revealed" in turn.content.lower(), "the turn is told"
    assert turn.components, "with its controls"
    assert "<@9000" not in turn.content
    pinged = [m for m in new if "<@9000" in m.content]
    tags = [tag for m in pinged for tag in m.content.split() if tag.startswith("<@9000")]
    shown = min(count, limits.FOLLOWER_PINGS)
    assert sorted(tags) == sorted(f"<@{u}>" for u in followers[:shown])
    if count > limits.FOLLOWER_PINGS:
        assert t("turn.followers_more", "en", n=count - shown) in pinged[-1].content
    assert_within_limits(h, mark)
    turn_posts = [
        r
        for r in h.fake.requests[mark:]
        if r.method == "POST" and r.path.endswith("/messages") and isinstance(r.json, dict) and r.json.get("components")
    ]
    assert turn_posts and all(len((r.json.get("allowed_mentions") or {}).get("users") or []) <= 2 for r in turn_posts)


# -- long lists ---------------------------------------------------------------------------------------


async def test_game_mine_with_30_waiting_games(harness: Harness) -> None:
    h = harness
    guild = h.fake.world.guild_id
    alice, bob = uid(h, "alice"), uid(h, "bob")
    for i in range(30):
        info = await h.service.create_game(
            guild_xid=guild,
            channel_xid=700_000_000_000_000_000 + i,
            kind="toy",
            options={},
            host_xid=alice,
            host_name="alice",
            locale="en",
        )
        await h.service.join(info.id, bob, "bob")
        await h.service.start(info.id, alice)
    reminders: Any = h.bot.get_cog("RemindersCog")
    reminders.kick_delay = None
    await reminders.tick()  # the waits of the new games
    await h.bot.app.reminders.snooze(bob, 5.0, guild_xid=guild)
    mark = len(h.fake.requests)
    sent = await visible(h, "game", "mine", user="bob")
    description = sent.embeds[0]["description"]
    assert "Games waiting for you (30)" in sent.embeds[0]["title"]
    assert description.count("discord.com/channels") >= 10
    assert "more" in description.splitlines()[-1]
    assert_within_limits(h, mark)


async def seven_player_games(h: Harness, count: int, *, finished: bool) -> list[int]:
    guild = h.fake.world.guild_id
    channel = h.fake.channel("games").id
    made = []
    for i in range(count):
        info = await h.service.create_game(
            guild_xid=guild,
            channel_xid=channel if finished else 710_000_000_000_000_000 + i,
            kind="btc",
            options={},
            host_xid=1000 + i * 10,
            host_name=NAME32,
            locale="en",
        )
        for seat in range(1, 7):
            await h.service.join(info.id, 1000 + i * 10 + seat, NAME32)
        if finished:
            await h.service.abandon(info.id, 1000 + i * 10, is_admin=True)
        made.append(info.id)
    return made


async def test_game_list_with_20_seven_player_games(harness: Harness) -> None:
    h = harness
    made = await seven_player_games(h, 20, finished=False)
    assert len((await h.service.info(made[0])).seats) == 7
    mark = len(h.fake.requests)
    sent = await visible(h, "game", "list", user="bob")
    description = sent.embeds[0]["description"]
    assert f"#{made[-1]}" in description and shown_name(NAME32) in description
    assert "more" in description.splitlines()[-1]
    assert_within_limits(h, mark)


async def test_game_history_with_20_seven_player_games(harness: Harness) -> None:
    h = harness
    made = await seven_player_games(h, 20, finished=True)
    mark = len(h.fake.requests)
    sent = await visible(h, "game", "history", user="bob")
    description = sent.embeds[0]["description"]
    assert f"#{made[-1]}" in description and shown_name(NAME32) in description
    assert "more" in description.splitlines()[-1]
    assert_within_limits(h, mark)


# -- typed text ---------------------------------------------------------------------------------------


async def quadropolis_here(h: Harness) -> int:
    info = await h.service.create_game(
        guild_xid=h.fake.world.guild_id,
        channel_xid=h.fake.channel("games").id,
        kind="quadropolis",
        options={},
        host_xid=uid(h, "alice"),
        host_name="alice",
        locale="en",
    )
    await h.service.join(info.id, uid(h, "bob"), "bob")
    await h.service.start(info.id, uid(h, "alice"))
    return info.id


ECHOING = [
    (("quadropolis", "take"), {"choice": LONG}),
    (("quadropolis", "place"), {"square": LONG}),
    (("game", "notify"), {"timezone": LONG}),
    (("game", "notify"), {"quiet": LONG}),
    (("league", "join"), {"name": LONG}),
    (("league", "table"), {"name": LONG}),
    (("game", "new"), {"game": "toy", "mode": LONG}),
    (("game", "new"), {"game": "toy", "ai_level": LONG, "ai_players": 1}),
]


@pytest.mark.parametrize(
    ("path", "options"),
    ECHOING,
    ids=[" ".join(p) + " " + next(iter(o)) if "game" not in o else " ".join(p) + " " + list(o)[1] for p, o in ECHOING],
)
async def test_a_2500_character_input_gets_a_short_private_refusal(
    harness: Harness, path: tuple[str, ...], options: dict[str, Any]
) -> None:
    h = harness
    if path[0] == "quadropolis":
        await quadropolis_here(h)
    mark = len(h.fake.requests)
    sent = await visible(h, *path, **options)
    content = sent.content or ""
    assert sent.ephemeral
    assert limits.quote(LONG) in content, content
    assert LONG[:100] not in content
    assert len(content) < 600
    assert_within_limits(h, mark)


# -- the league table ---------------------------------------------------------------------------------


async def test_a_1000_member_league_table(harness: Harness) -> None:
    """The table is paged: 25 rows a page in the embed and in the picture (bounded height), privately."""
    h = harness
    leagues = h.bot.app.leagues
    league = await leagues.create_league(h.fake.world.guild_id, "Big", "toy", created_by=uid(h, "mona"))
    async with h.service._store.transaction() as db:
        await db.executemany(
            "INSERT INTO community_league_members (league_id, user_xid, name, joined_at) VALUES (?, ?, ?, 0)",
            [(league.id, 800_000_000_000_000_000 + i, f"{NAME32[:28]}{i:04d}") for i in range(1000)],
        )
    mark = len(h.fake.requests)
    first = await visible(h, "league", "table", name="Big")
    last = await visible(h, "league", "table", name="Big", page=40)
    for sent, page in ((first, 1), (last, 40)):
        assert sent.ephemeral
        embed = sent.embeds[0]
        assert f"page {page} of 40" in embed["footer"]["text"]
        assert len(embed["description"].splitlines()) <= limits.LIST_ROWS + 1
        _, height = Image.open(io.BytesIO(sent.pngs[0])).size
        assert height < 2000
    assert "1000." in last.embeds[0]["description"] and "976." in last.embeds[0]["description"]
    assert_within_limits(h, mark)


async def test_league_table_refusal_is_private(harness: Harness) -> None:
    h = harness
    sent = await visible(h, "league", "table", name="Nowhere")
    assert sent.ephemeral and "Nowhere" in (sent.content or "")
    callback = [s for s in h.fake.requests if s.path.endswith("/callback")][-1]
    assert json.loads(json.dumps(callback.json))["data"]["flags"] & P.FLAG_EPHEMERAL
