"""A move's sentence names its players as text, never as Discord markdown or a mention, in every game:
``**Bob**`` is not bold, ``@everyone`` is not highlighted and ``<@&role>`` is no role pill, in the turn
posts, the private confirmations and every other body the bot sends (issue 36, point 10).

The service names the seats as typed (the web page and the terminal read the same sentences); the
Discord front-end escapes them (:func:`cogs.common.shown_params`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cogs.common import shown_name
from tests.discord import test_btc, test_play_toy, test_quadropolis, test_urbanpanic
from tests.discord.conftest import Harness, answer

ROLE = "<@&123456789012345678>"
HOSTILE = {"bold": "**Bob** @everyone", "pill": ROLE}
"""Two players whose display names are markdown and mentions (each within Discord's 32 characters)."""
RAW = ("**Bob**", "@everyone", ROLE)


def add_players(h: Harness) -> list[str]:
    for user, name in HOSTILE.items():
        h.fake.world.add_user(user, roles=[], global_name=name)
    return list(HOSTILE)


def texts(value: Any) -> Iterator[str]:
    """Every string in a sent body (content, embeds, at any depth)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)


def bodies(h: Harness) -> list[str]:
    """The text of everything the bot sent: posts, edits, interaction answers (ephemeral ones too)."""
    return [text for sent in h.fake.sent for text in texts([sent.data.get("content"), sent.data.get("embeds")]) if text]


def assert_names_are_text(h: Harness, told: str, names: list[str] | None = None) -> None:
    """No body carries a raw name; the sentences that tell moves (``told`` in them) carry the shown ones."""
    sent = bodies(h)
    for body in sent:
        for raw in RAW:
            assert raw not in body, (raw, body)
    moves = [body for body in sent if told in body]
    assert moves, sent
    for name in HOSTILE.values() if names is None else names:
        assert any(shown_name(name) in body for body in moves), (name, moves)


async def test_quadropolis_move_lines_show_names_as_text(harness: Harness) -> None:
    h = harness
    users = add_players(h)
    gid = await test_quadropolis.start(h, "classic", users, ai=0)
    by_id = {h.fake.user(u).id: u for u in users}
    for _ in range(4):
        await test_quadropolis.play_turn(h, gid, by_id)
    assert_names_are_text(h, " built ")


async def test_btc_move_lines_show_names_as_text(harness: Harness) -> None:
    h = harness
    users = [*add_players(h), "carol"]
    gid = await test_btc.start(h, users)
    for _ in range(3):
        for user in users:
            await test_btc.act(h, gid, user)
    assert_names_are_text(h, "has chosen")


async def test_urbanpanic_move_lines_show_names_as_text(harness: Harness) -> None:
    h = harness
    h.service._seed_source = lambda: test_urbanpanic.SEED
    users = add_players(h)
    gid = await test_urbanpanic.start(h, "basic", users)
    for _ in range(2):
        info = await h.service.info(gid)
        seat = next(iter(info.awaiting))
        user = next(u for u in users if h.fake.user(u).id == info.seats[seat].user_xid)
        await test_urbanpanic.play_human_turn(h, gid, user, seat)
    assert_names_are_text(h, "turn:")


async def test_undo_proposal_and_replay_show_names_as_text(harness: Harness) -> None:
    """The other doors that tell a move: /game undo's public proposal and /game replay."""
    h = harness
    users = add_players(h)
    lobby = await h.fake.slash("game", "new", game="toy", user=users[0])
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user=users[1])).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=users[0])).response()
    await h.settle()
    await test_play_toy.bid(h, gid, users[0], 3)
    await answer(await h.fake.slash("game", "replay", game=gid, turn=1, user=users[1]))
    await answer(await h.fake.slash("game", "undo", user=users[0]))
    await h.settle()
    assert_names_are_text(h, "has bid", names=[HOSTILE[users[0]]])
    told = [s for s in h.fake.sent if "has bid" in (s.content or "")]
    assert any(not s.ephemeral for s in told), "the undo proposal is public and names the move"
    assert any("after move 1" in (s.content or "") for s in told), "the replay names the move"


async def test_league_names_and_echoed_names_are_text(harness: Harness) -> None:
    """A league's name (typed by whoever made it) and a typed name a refusal repeats are text, like a
    player's: the list, join, leave and table answers, and "no league named …"."""
    h = harness
    from tests.discord.test_bounds import uid, visible

    hostile = "**Top** @everyone"
    await h.bot.app.leagues.create_league(h.fake.world.guild_id, hostile, "toy", created_by=uid(h, "mona"))
    await visible(h, "league", "list")
    await visible(h, "league", "join", name=hostile)
    await visible(h, "league", "table", name=hostile)
    await visible(h, "league", "leave", name=hostile)
    await visible(h, "league", "join", name="||secret|| <@&123456789012345678>")
    sent = bodies(h)
    for body in sent:
        for raw in ("**Top**", "@everyone", "||secret||", ROLE):
            assert raw not in body, (raw, body)
    assert sum(shown_name(hostile) in body for body in sent) >= 3, sent
