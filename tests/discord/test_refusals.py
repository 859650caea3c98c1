"""An action counts only when Discord took it: for every state-changing slash command and component,
Discord refuses the acknowledgement (the fake's ``unknown_interaction()``, as when the 3 seconds
were missed) and the database is found as it was. The same action, accepted, then changes it, so a
case that could not fail (an action refused for another reason) fails.

The cases are checked against the bot's own command tree and component router: a new command or
component kind without a case here, or on the read-only list, fails
:func:`test_every_handler_has_a_case`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.web.links import Links
from cogs import ids
from cogs.community.reminders import RemindersCog
from cogs.community.undo import undo_id
from cogs.games.urbanpanic import STEP_ARGS
from tests.discord.conftest import Harness, answer
from tests.discord.test_play_toy import bid, start_toy
from tests.discord.test_quadropolis import start as start_quadropolis
from tests.discord.test_urbanpanic import find, open_choices
from tests.discord.test_urbanpanic import start as start_urbanpanic

Act = Callable[[], Awaitable[Any]]
Dump = dict[str, list[str]]

READ_ONLY_COMMANDS = {
    "game list",
    "game rules",
    "game tiles",
    "game mine",
    "game history",
    "game replay",
    "game export",
    "league list",
    "btc campaign status",
    "quadropolis city",
    "quadropolis board",
    # They acknowledge first all the same: they count a finished game the season missed.
    "league table",
    "league player",
}
"""Commands that change nothing (the reason is in ARCHITECTURE.md, "Acknowledging an interaction")."""
READ_ONLY_COMPONENTS = {"open", "rules", "up:p", "up:e", "up:eb", "up:er", "up:s"}
SAME_DOOR = {
    "up:t": "up:d",
    "up:ts": "up:d",
    "undo:no": "undo:yes",
    "cvote:move": "cvote:takeover",
    "cvote:wait": "cvote:takeover",
}
"""Components that go through the same handler as a covered one, with another argument."""


def uid(h: Harness, name: str) -> int:
    return int(h.fake.user(name).id)


def channel(h: Harness) -> int:
    return int(h.fake.channel("games").id)


async def dump(h: Harness) -> Dump:
    """Every row of every table, as text, in a stable order."""
    store = h.service._store
    tables = [r[0] for r in await store.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {
        table: sorted(repr(tuple(row)) for row in await store.fetch_all(f'SELECT * FROM "{table}"')) for table in tables
    }


def slash(h: Harness, *path: str, **options: Any) -> Act:
    async def act() -> Any:
        return await h.fake.slash(*path, **options)

    return act


def click(h: Harness, message: Any, custom_id: str, user: str) -> Act:
    async def act() -> Any:
        return await h.fake.click(message, custom_id, user=user)

    return act


# -- worlds --------------------------------------------------------------------------------------------
async def toy_lobby(h: Harness, *guests: str) -> tuple[Any, int]:
    lobby = await h.fake.slash("game", "new", game="toy", user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(channel(h))).id
    for guest in guests:
        await h.service.join(gid, uid(h, guest), guest)
    return lobby, gid


def reminders(h: Harness) -> RemindersCog:
    cog = h.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)  # cogs are added as classes: found by their type
    cog.kick_delay = None  # passes run when the test says so
    return cog


async def with_league(h: Harness, *members: str) -> None:
    leagues = h.bot.app.leagues
    await leagues.create_league(h.fake.world.guild_id, "Bids", "toy", created_by=uid(h, "mona"))
    for member in members:
        await leagues.join_league(h.fake.world.guild_id, "Bids", uid(h, member), member)


async def with_campaign(h: Harness) -> None:
    await h.bot.app.campaigns.start(
        uid(h, "alice"), length=3, difficulty=2, mode="simple", guild_xid=h.fake.world.guild_id
    )


async def campaign_at_bonus(h: Harness) -> int:
    """Alice's first campaign game, played by the service to its bonus step."""
    await with_campaign(h)
    _, info = await h.bot.app.campaigns.open_next(
        uid(h, "alice"), "alice", guild_xid=h.fake.world.guild_id, channel_xid=channel(h)
    )
    await h.service.start(info.id, uid(h, "alice"))
    for _ in range(200):
        if (await h.service.snapshot(info.id)).state.phase == "bonus":
            return info.id
        _, _, moves, _ = await h.service.choices(info.id, uid(h, "alice"))
        await h.service.move(info.id, uid(h, "alice"), moves[0])
    raise AssertionError("no bonus step")


async def quadropolis_turn(h: Harness) -> int:
    gid = await start_quadropolis(h, "classic", ["alice"], ai=1)
    for _ in range(50):
        if 0 in (await h.service.info(gid)).awaiting:
            return gid
        await h.settle()
    raise AssertionError("alice is never awaited")


async def turn_message(h: Harness, gid: int) -> Any:
    info = await h.service.info(gid)
    return next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)


# -- the cases: a world, then the action ---------------------------------------------------------------
def with_pages(h: Harness) -> None:
    """The bot with a public address for its pages: /game link and turn posts hand out sign-in links."""
    h.bot.web_links = Links("https://games.example.org", b"k" * 32)


async def game_link(h: Harness) -> Act:
    """/game link makes a single-use sign-in link (a row): only once Discord took the command."""
    with_pages(h)
    await start_toy(h)
    return slash(h, "game", "link", user="alice")


async def play_on_the_board(h: Harness) -> Act:
    """A turn post's "Play on the board": the clicker's own sign-in link, made once Discord took the click."""
    with_pages(h)
    gid = await start_toy(h)
    turn = await turn_message(h, gid)
    return click(h, turn, next(c for c in turn.custom_ids() if c.startswith("board:")), "alice")


async def game_new(h: Harness) -> Act:
    return slash(h, "game", "new", game="toy", user="alice")


async def game_join(h: Harness) -> Act:
    await toy_lobby(h)
    return slash(h, "game", "join", user="bob")


async def game_leave(h: Harness) -> Act:
    await toy_lobby(h, "bob")
    return slash(h, "game", "leave", user="bob")


async def game_start(h: Harness) -> Act:
    await toy_lobby(h, "bob")
    return slash(h, "game", "start", user="alice")


async def game_status(h: Harness) -> Act:
    await start_toy(h)
    return slash(h, "game", "status", user="alice")


async def game_abandon(h: Harness) -> Act:
    await start_toy(h)
    return slash(h, "game", "abandon", user="alice")


async def game_resign(h: Harness) -> Act:
    await start_toy(h)
    return slash(h, "game", "resign", user="bob")


async def game_forget_me(h: Harness) -> Act:
    await start_toy(h)
    return slash(h, "game", "forget-me", confirm=True, user="alice")


async def game_undo(h: Harness) -> Act:
    gid = await start_toy(h)
    await bid(h, gid, "alice", 3)
    return slash(h, "game", "undo", user="alice")


async def game_follow(h: Harness) -> Act:
    await start_toy(h)
    return slash(h, "game", "follow", user="carol")


async def game_unfollow(h: Harness) -> Act:
    gid = await start_toy(h)
    await h.bot.app.followers.follow(h.fake.world.guild_id, gid, uid(h, "carol"))
    return slash(h, "game", "unfollow", user="carol")


async def game_notify(h: Harness) -> Act:
    return slash(h, "game", "notify", dm=True, user="alice")


async def game_settings(h: Harness) -> Act:
    return slash(h, "game", "settings", server=True, deadline_hours=1.0, user="mona")


async def game_analysis(h: Harness) -> Act:
    """/game analysis of a finished game the server did not weigh by itself: queued once Discord took it."""
    await (await h.fake.slash("game", "settings", server=True, analysis="asked", user="mona")).response()
    await h.settle()
    gid = await start_toy(h)
    for card_a, card_b in ((3, 1), (1, 2), (2, 3)):
        await h.service.move(gid, uid(h, "alice"), {"kind": "bid", "card": card_a})
        await h.service.move(gid, uid(h, "bob"), {"kind": "bid", "card": card_b})
    assert (await h.service.game(gid)).status == "finished"
    return slash(h, "game", "analysis", game=gid, user="alice")


async def game_snooze(h: Harness) -> Act:
    await start_toy(h)
    await reminders(h).tick()
    return slash(h, "game", "snooze", hours=5.0, user="bob")


async def game_away(h: Harness) -> Act:
    return slash(h, "game", "away", days=3.0, user="bob")


async def game_give_time(h: Harness) -> Act:
    await (await slash(h, "game", "settings", server=True, clock="3d+1d", user="mona")()).response()
    await start_toy(h)
    return slash(h, "game", "give-time", player="bob", hours=5, user="alice")


async def league_create(h: Harness) -> Act:
    return slash(h, "league", "create", name="Bids", game="toy", user="mona")


async def league_join(h: Harness) -> Act:
    await with_league(h)
    return slash(h, "league", "join", name="Bids", user="alice")


async def league_leave(h: Harness) -> Act:
    await with_league(h, "alice")
    return slash(h, "league", "leave", name="Bids", user="alice")


async def league_season(h: Harness) -> Act:
    await with_league(h)
    return slash(h, "league", "season", name="Bids", user="mona")


async def league_edit(h: Harness) -> Act:
    await with_league(h)
    return slash(h, "league", "edit", name="Bids", rated=True, user="mona")


async def campaign_start(h: Harness) -> Act:
    return slash(h, "btc", "campaign", "start", mode="simple", user="alice")


async def campaign_next(h: Harness) -> Act:
    await with_campaign(h)
    return slash(h, "btc", "campaign", "next", user="alice")


async def campaign_abandon(h: Harness) -> Act:
    await with_campaign(h)
    return slash(h, "btc", "campaign", "abandon", user="alice")


async def campaign_bonus(h: Harness) -> Act:
    gid = await campaign_at_bonus(h)
    _, _, moves, _ = await h.service.choices(gid, uid(h, "alice"))
    bonus = next(m for m in moves if m["kind"] == "bonus")
    return slash(h, "btc", "campaign", "bonus", choice=json.dumps(bonus), user="alice")


async def quadropolis_take(h: Harness) -> Act:
    gid = await quadropolis_turn(h)
    _, _, moves, _ = await h.service.choices(gid, uid(h, "alice"))
    take = next(m for m in moves if m["kind"] == "take")
    return slash(h, "quadropolis", "take", choice=f"{take['architect']} {take['slot']}", user="alice")


async def quadropolis_place(h: Harness) -> Act:
    gid = await quadropolis_turn(h)
    auto = await h.fake.autocomplete("quadropolis", "take", choice="", user="alice")
    await auto.response()
    take = next(json.loads(c["value"]) for c in auto.choices or [] if "takes nothing" not in c["name"])
    await h.bot.flow.after_move(await h.service.move(gid, uid(h, "alice"), take))
    await h.settle()
    _, _, moves, _ = await h.service.choices(gid, uid(h, "alice"))
    build = next(m for m in moves if m["kind"] in ("build", "discard"))
    return slash(h, "quadropolis", "place", square=build.get("square", "discard"), user="alice")


async def lobby_button(h: Harness, action: str, *guests: str, user: str = "alice") -> Act:
    lobby, gid = await toy_lobby(h, *guests)
    return click(h, lobby, ids.lobby(gid, action), user)


async def lobby_join(h: Harness) -> Act:
    return await lobby_button(h, "join", user="bob")


async def lobby_leave(h: Harness) -> Act:
    return await lobby_button(h, "leave", "bob", user="bob")


async def lobby_ai(h: Harness) -> Act:
    return await lobby_button(h, "ai")


async def lobby_start(h: Harness) -> Act:
    return await lobby_button(h, "start", "bob")


async def move_button(h: Harness) -> Act:
    gid = await start_toy(h)
    turn = await turn_message(h, gid)
    opened = await h.fake.click(turn, next(c for c in turn.custom_ids() if c.startswith("open:")), user="alice")
    menu = await answer(opened)
    return click(h, opened, next(c for c in menu.custom_ids if c.startswith("mv:")), "alice")


async def move_select(h: Harness) -> Act:
    gid = await quadropolis_turn(h)
    turn = await turn_message(h, gid)
    select = next(c for row in turn.components for c in row["components"] if c["type"] == 3)

    async def act() -> Any:
        return await h.fake.select(turn, select["custom_id"], [select["options"][0]["value"]], user="alice")

    return act


async def party_draw(h: Harness) -> Act:
    gid = await start_urbanpanic(h, "party", ["alice", "bob"])
    menu = await open_choices(h, gid, "alice")
    return click(h, menu, find(menu.custom_ids, "draw"), "alice")


async def undo_answer(h: Harness) -> Act:
    gid = await start_toy(h)
    await bid(h, gid, "alice", 3)
    proposal = await h.fake.slash("game", "undo", user="alice")
    await answer(proposal)
    await h.settle()
    return click(h, proposal, undo_id(gid, 1, True), "bob")


async def vote_button(h: Harness) -> Act:
    loop = reminders(h)
    await (await h.fake.slash("game", "settings", server=True, deadline_hours=1.0, user="mona")).response()
    await h.settle()
    gid = await start_toy(h)
    await loop.tick()
    await bid(h, gid, "alice", 2)
    h.clock.advance(3600)
    await loop.tick()
    await h.settle()
    vote = h.channel_messages()[-1]
    return click(h, vote, next(c for c in vote.custom_ids() if c.endswith(":takeover")), "alice")


@dataclass(frozen=True)
class Case:
    world: Callable[[Harness], Awaitable[Act]]
    undone: bool = False
    """The answer is the change, taken back when Discord refused (else: acknowledged first); either way
    the database is as it was."""


COMMANDS: dict[str, Case] = {
    "game new": Case(game_new, undone=True),
    "game join": Case(game_join),
    "game leave": Case(game_leave),
    "game start": Case(game_start),
    "game status": Case(game_status),
    "game abandon": Case(game_abandon),
    "game resign": Case(game_resign),
    "game forget-me": Case(game_forget_me),
    "game undo": Case(game_undo),
    "game follow": Case(game_follow),
    "game unfollow": Case(game_unfollow),
    "game notify": Case(game_notify),
    "game settings": Case(game_settings),
    "game analysis": Case(game_analysis),
    "game snooze": Case(game_snooze),
    "game away": Case(game_away),
    "game give-time": Case(game_give_time),
    "league create": Case(league_create),
    "league join": Case(league_join),
    "league leave": Case(league_leave),
    "league season": Case(league_season),
    "league edit": Case(league_edit),
    "btc campaign start": Case(campaign_start),
    "btc campaign next": Case(campaign_next),
    "btc campaign abandon": Case(campaign_abandon),
    "btc campaign bonus": Case(campaign_bonus),
    "quadropolis take": Case(quadropolis_take),
    "quadropolis place": Case(quadropolis_place),
    "game link": Case(game_link),
}
COMPONENTS: dict[str, Case] = {
    "lobby:join": Case(lobby_join, undone=True),
    "lobby:leave": Case(lobby_leave),
    "lobby:ai": Case(lobby_ai),
    "lobby:start": Case(lobby_start),
    "mv": Case(move_button),
    "sel": Case(move_select),
    "up:d": Case(party_draw),
    "undo:yes": Case(undo_answer),
    "cvote:takeover": Case(vote_button),
    "board": Case(play_on_the_board),
}


def component_kinds(h: Harness) -> set[str]:
    """Every component kind the router answers: its own (lobby actions one by one) and every route's
    (with the arguments that choose a different action)."""
    kinds = {f"lobby:{a}" for a in ids.LOBBY_ACTIONS} | {k for k in ids.KINDS if k != "lobby"}
    for prefix in h.bot.component_routes:
        subkinds = {
            "up": [f"up:{step}" for step in STEP_ARGS],
            "undo": ["undo:yes", "undo:no"],
            "cvote": ["cvote:move", "cvote:takeover", "cvote:wait"],
        }.get(prefix, [prefix])
        kinds.update(subkinds)
    return kinds


async def test_every_handler_has_a_case(harness: Harness) -> None:
    """Each slash command of the tree and each component kind of the router is a case here or on the
    read-only list, and nothing here names a handler that no longer exists."""
    commands = {c.qualified_name for c in harness.bot.tree.walk_commands() if not hasattr(c, "commands")}
    assert commands - set(COMMANDS) - READ_ONLY_COMMANDS == set(), "state-changing commands need a case"
    assert set(COMMANDS) | READ_ONLY_COMMANDS <= commands
    kinds = component_kinds(harness)
    assert kinds - set(COMPONENTS) - READ_ONLY_COMPONENTS - set(SAME_DOOR) == set(), "components need a case"
    assert set(COMPONENTS) | READ_ONLY_COMPONENTS | set(SAME_DOOR) <= kinds
    assert set(SAME_DOOR.values()) <= set(COMPONENTS)


def changed_rows(before: Dump, after: Dump) -> dict[str, list[str]]:
    return {
        table: sorted(set(rows) ^ set(before.get(table, [])))
        for table, rows in after.items()
        if sorted(rows) != sorted(before.get(table, []))
    }


@pytest.mark.parametrize("name", [*COMMANDS, *COMPONENTS])
async def test_a_refused_acknowledgement_changes_nothing(harness: Harness, name: str) -> None:
    h = harness
    case = COMMANDS.get(name) or COMPONENTS[name]
    act = await case.world(h)
    await h.settle()
    before = await dump(h)
    h.clock.advance(1)  # a time stamp written by the refused action would show
    switch = h.fake.unknown_interaction()
    refused = await act()
    await h.settle()
    assert switch.hits and refused.callback is None, f"{name}: Discord was never asked"
    after = await dump(h)
    assert after == before, f"{name} was done although Discord refused it: {changed_rows(before, after)}"
    # The same action, accepted, does change the database: the refused one was refused for that alone.
    accepted = await act()
    await accepted.response()
    await h.settle()
    assert await dump(h) != after, f"{name} changes nothing even when Discord accepts it: not a case"
