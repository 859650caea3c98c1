"""Urban Panic through the Discord harness: turns by step buttons, the party game's races and clock.

Everything goes through the real bot object and the fake Discord: slash commands, clicks and selects
as real INTERACTION_CREATE payloads, and assertions on exactly what Discord would receive.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from bot.i18n import t
from bot.rules.urbanpanic.state import census, manifest_census
from cogs.games.urbanpanic import PRESENTER, ROUTE_PREFIX, parse_step, relative_time, tile_name
from render import pictures
from tests.discord.conftest import Harness, answer

PNG = b"\x89PNG\r\n\x1a\n"
CODE = re.compile(r"\b[A-Z]{3}-[NESW]{1,4}\b")


SEED = 20_240_611
"""Every game here is dealt from this seed, so each run plays the same games."""


@pytest.fixture
async def h(harness: Harness) -> Harness:
    """The harness, whose bot has the Urban Panic route (its cog registers it when added)."""
    assert ROUTE_PREFIX in harness.bot.component_routes
    harness.service._seed_source = lambda: SEED
    return harness


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
async def start(h: Harness, variant: str, humans: list[str], ai: int = 0, level: str = "greedy") -> int:
    options: dict[str, Any] = {"game": "urbanpanic", "mode": variant, "ai_players": ai, "user": humans[0]}
    if ai:
        options["ai_level"] = level
    lobby = await h.fake.slash("game", "new", **options)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    for user in humans[1:]:
        await (await h.fake.click(lobby, f"lobby:{gid}:join", user=user)).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=humans[0])).response()
    await h.settle()
    return gid


async def turn_message(h: Harness, gid: int) -> Any:
    info = await h.service.info(gid)
    return next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)


def move_of(custom_id: str) -> dict[str, Any] | None:
    if not custom_id.startswith("mv:"):
        return None
    move: dict[str, Any] = json.loads(custom_id.split(":", 4)[4])
    return move


def step_of(custom_id: str) -> str | None:
    return parse_step(custom_id).name if custom_id.startswith(f"{ROUTE_PREFIX}:") else None


async def click(h: Harness, source: Any, custom_id: str, user: str) -> Any:
    handle = await h.fake.click(source, custom_id, user=user)
    await handle.response()
    await h.settle()
    return handle


def public_sent_since(h: Harness, mark: int) -> list[Any]:
    """Every non-ephemeral thing the bot sent (posts, edits, replies) after ``mark``."""
    return [s for s in h.fake.sent[mark:] if not s.ephemeral]


def text_of(sent: Any) -> str:
    return json.dumps([sent.content, sent.embeds, sent.components], ensure_ascii=False)


def shown(code: str) -> str:
    """A tile as an English reader sees it ("office ↑→↓←"): messages never carry its code."""
    return tile_name(code, "en")


# ---------------------------------------------------------------------------------------------
# Turn games
# ---------------------------------------------------------------------------------------------
def pick(custom_ids: list[str], view: dict[str, Any]) -> str:
    """A simple player: the Architect first, then Planner as long as possible, then End turn."""
    moves = {cid: move_of(cid) for cid in custom_ids}
    steps = {cid: step_of(cid) for cid in custom_ids}
    kinds = {cid: (m or {}).get("kind") for cid, m in moves.items()}
    for wanted in ("architect", "planner"):
        if wanted == "architect" and view["architect_done"]:
            continue
        found = [cid for cid, k in kinds.items() if k == wanted]
        if found:
            return found[0]
    planner_steps = [cid for cid, s in steps.items() if s == "p"]
    if planner_steps:
        return planner_steps[0]
    ends = [cid for cid, k in kinds.items() if k == "end_turn"]
    if ends:
        return ends[0]
    others = [cid for cid in custom_ids if moves[cid] is not None or steps[cid] is not None]
    assert others, custom_ids
    return others[0]


async def play_human_turn(h: Harness, gid: int, user: str, seat: int) -> int:
    """Play one whole turn by clicks, starting on the public turn message; returns the clicks."""
    source: Any = await turn_message(h, gid)
    custom_ids = source.custom_ids()
    clicks = 0
    while True:
        view = (await h.service.snapshot(gid)).view(seat)
        cid = pick(custom_ids, view)
        handle = await click(h, source, cid, user)
        clicks += 1
        assert clicks < 40, "a turn should not need this many clicks"
        if (move_of(cid) or {}).get("kind") == "end_turn":
            return clicks
        menus = [s for s in handle.sent if s.custom_ids]
        assert menus, [str(s) for s in handle.sent]
        assert all(s.ephemeral for s in menus), "the next step of a turn is private"
        source = menus[-1]
        custom_ids = source.custom_ids


async def test_basic_game_one_human_one_ai_to_the_end(h: Harness) -> None:
    """A whole basic game by components: one channel message per turn, every step private."""
    gid = await start(h, "basic", ["alice"], ai=1)
    alice = h.fake.user("alice").id
    info = await h.service.info(gid)
    seat = info.seat_of(alice).seat
    lobby_and_status = {info.game.lobby_message_xid}
    clicks = 0
    while (info := await h.service.info(gid)).game.status == "active":
        assert info.awaiting == {seat}, "the AI plays its turns by itself"
        turn = await turn_message(h, gid)
        assert f"<@{alice}>" in turn.content and turn.custom_ids()
        clicks += await play_human_turn(h, gid, "alice", seat)
    assert info.game.status == "finished"
    lobby_and_status.add(info.game.status_message_xid)
    view = (await h.service.snapshot(gid)).view(None)
    story = t("end.recap", "en", game=gid)  # the story follows the game: it is not a turn
    posts = [m for m in h.channel_messages() if m.id not in lobby_and_status and m.content != story]
    assert len(posts) == view["turn"] + 1, "the first turn message, then one message per finished turn"
    assert "is over" in posts[-1].content
    # Each finished turn is told in its first line ("… ended the turn.", or the whole turn in one
    # line — "alice's turn: took …, built …." — once the cog asks the presenter for summaries).
    told = [m.content.splitlines()[0] for m in posts[1:]]
    assert all("ended the turn" in line or "'s turn: " in line for line in told), told
    if pictures.get(PRESENTER.kind) is not None:
        assert all(m.attachments and m.attachments[0].data.startswith(PNG) for m in posts)
    assert clicks > 10


# ---------------------------------------------------------------------------------------------
# Party game
# ---------------------------------------------------------------------------------------------
class Secrets:
    """Tiles drawn face down by the test's players and not yet placed: they must stay private.

    A drawn tile whose code is also face up somewhere (a city, the open table) cannot be told apart
    by its code, so only the others are checked; ``strict`` counts the checks that meant something.
    """

    def __init__(self, h: Harness, gid: int) -> None:
        self.h, self.gid = h, gid
        self.drawn: dict[int, tuple[str, int]] = {}  # seat -> (code, sent index at the draw)
        self.strict = 0

    async def state(self) -> Any:
        return (await self.h.service.snapshot(self.gid)).state

    async def note_draw(self, seat: int, mark: int) -> str:
        hand = (await self.state()).players[seat].hand
        assert hand is not None
        self.drawn[seat] = (hand, mark)
        return str(hand)

    def forget(self, seat: int) -> None:
        self.drawn.pop(seat, None)

    async def check(self) -> None:
        state = await self.state()
        public = set(state.open_table) | set(state.discard)
        for p in state.players:
            public |= {c for c in p.board if c is not None}
        for seat, (code, mark) in self.drawn.items():
            assert state.players[seat].hand == code
            if code in public:
                continue
            self.strict += 1
            leaks = [str(s) for s in public_sent_since(self.h, mark) if code in text_of(s) or shown(code) in text_of(s)]
            assert not leaks, f"{code} in a hand was shown in the channel: {leaks}"


async def open_choices(h: Harness, gid: int, user: str) -> Any:
    """Click "Open my choices" on the turn message; returns the private reply."""
    turn = await turn_message(h, gid)
    open_id = next(c for c in turn.custom_ids() if c.startswith("open:"))
    handle = await click(h, turn, open_id, user)
    reply = await handle.response()
    assert reply.ephemeral and reply.custom_ids
    return reply


def text_of_channel(h: Harness, before: int | None = None) -> str:
    """All channel messages' current texts (those older than message ``before`` if given)."""
    return json.dumps(
        [[m.content, m.embeds, m.components] for m in h.channel_messages() if before is None or m.id < before]
    )


def find(custom_ids: list[str], kind: str) -> str:
    step = {"draw": "d", "take": "t"}.get(kind)
    for cid in custom_ids:
        if (move_of(cid) or {}).get("kind") == kind or (step is not None and step_of(cid) == step):
            return cid
    raise AssertionError(f"no {kind} among {custom_ids}")


async def test_party_race_for_one_open_tile(h: Harness) -> None:
    """Three players grab the same open tile at once: exactly one gets it, the others are told."""
    gid = await start(h, "party", ["alice", "bob", "carol", "dave"])
    seats = {u: (await h.service.info(gid)).seat_of(h.fake.user(u).id).seat for u in ("alice", "bob", "carol", "dave")}
    secrets = Secrets(h, gid)
    menu = await open_choices(h, gid, "alice")
    assert "hand is empty" in menu.content
    mark = len(h.fake.sent)
    drew = await click(h, menu, find(menu.custom_ids, "draw"), "alice")
    tile = await secrets.note_draw(seats["alice"], mark)
    await secrets.check()
    hand_menu = [s for s in drew.sent if s.custom_ids][-1]
    assert hand_menu.ephemeral and shown(tile) in hand_menu.content
    await click(h, hand_menu, find(hand_menu.custom_ids, "drop"), "alice")
    secrets.forget(seats["alice"])
    assert (await secrets.state()).open_table == [tile]

    menus = {u: await open_choices(h, gid, u) for u in ("bob", "carol", "dave")}
    take = {u: next(c for c in m.custom_ids if c.endswith(f".{tile}")) for u, m in menus.items()}
    handles = await asyncio.gather(*(h.fake.click(menus[u], take[u], user=u) for u in menus))
    for handle in handles:
        await handle.response()
    await h.settle()

    state = await secrets.state()
    holders = [u for u in menus if state.players[seats[u]].hand == tile]
    assert len(holders) == 1 and state.open_table == []
    assert census(state) == manifest_census(), "nothing lost or doubled"
    told = {u: " ".join(s.content or "" for s in handle.sent) for u, handle in zip(menus, handles) if u not in holders}
    assert len(told) == 2 and all("Someone took that tile first." in text for text in told.values())
    assert all(s.ephemeral for handle in handles for s in handle.sent if s.content)
    winner = holders[0]
    assert any(shown(tile) in (s.content or "") for s in handles[list(menus).index(winner)].sent if s.ephemeral)


async def test_party_timer_announced_enforced_and_hands_stay_private(h: Harness) -> None:
    """The AI fills its city: the hourglass shows as a relative time; after it, moves are refused
    and the timer ends the game with the +5 for the finisher; a hand never reaches the channel."""
    cog: Any = h.bot.get_cog("GameCog")
    cog.timer_loop.cancel()  # the test decides when the clock is looked at
    gid = await start(h, "party", ["alice"], ai=1)
    alice = h.fake.user("alice").id
    seat = (await h.service.info(gid)).seat_of(alice).seat
    ai_seat = 1 - seat
    state = (await h.service.snapshot(gid)).state
    assert state.first_finisher == ai_seat, "the AI built its whole city while alice looked on"
    deadline = state.timer_at + 60_000
    assert await h.service.deadline(gid) == deadline
    info = await h.service.info(gid)
    announcement = await turn_message(h, gid)
    assert "filled the city" in announcement.content and f"<@{alice}>" in announcement.content
    status = next(m for m in h.channel_messages() if m.id == info.game.status_message_xid)
    assert relative_time(deadline) in status.embeds[0]["description"]
    assert "sand runs out" in status.embeds[0]["description"]

    assert "filled the city" not in text_of_channel(h, before=announcement.id), "told once, when it happens"

    # Party choices are private: the turn message only opens them.
    assert all(c.startswith("open:") for c in announcement.custom_ids()), announcement.custom_ids()
    opened = await h.fake.click(announcement, announcement.custom_ids()[0], user="alice")
    private = await answer(opened)
    assert private.ephemeral
    # The AI drew the whole heap: alice takes from the open table (a select: it is long).
    select = next(c for c in private.custom_ids if step_of(c) == "ts")
    component = next(c for row in private.components for c in row["components"] if c.get("custom_id") == select)
    code = component["options"][0]["value"]
    took = await h.fake.select(opened, select, [code], user="alice")
    await took.response()
    await h.settle()
    hand_menu = [s for s in took.sent if s.custom_ids][-1]
    assert hand_menu.ephemeral and shown(code) in hand_menu.content and relative_time(deadline) in hand_menu.content
    assert (await h.service.snapshot(gid)).state.players[seat].hand == code
    status = next(m for m in h.channel_messages() if m.id == info.game.status_message_xid)
    assert "holding a tile" in status.embeds[0]["description"]

    h.clock.advance(61)
    late = await click(h, hand_menu, find(hand_menu.custom_ids, "place"), "alice")
    assert any("Time is up" in (s.content or "") for s in late.sent)
    assert (await h.service.info(gid)).game.status == "active", "only the clock ends the game"

    assert await cog.run_timers() == 1
    await h.settle()
    info = await h.service.info(gid)
    assert info.game.status == "finished"
    result = info.game.result
    assert result["details"]["end_reason"] == "timer"
    finisher = next(s for s in result["seats"] if s["seat"] == ai_seat)
    assert finisher["breakdown"]["bonus"] == 5
    assert next(s for s in result["seats"] if s["seat"] == seat)["breakdown"]["bonus"] == 0
    end = next(m for m in reversed(h.channel_messages()) if "is over" in (m.content or ""))
    assert "is over" in end.content and "Time is up" in end.content
    state = (await h.service.snapshot(gid)).state
    assert state.players[seat].hand is None and census(state) == manifest_census()


async def test_party_safety_cap_ends_a_game_nobody_finishes(h: Harness) -> None:
    """The 15-minute cap runs from the first move, shows as a relative time and ends the game."""
    cog: Any = h.bot.get_cog("GameCog")
    cog.timer_loop.cancel()
    gid = await start(h, "party", ["alice", "bob"])
    menu = await open_choices(h, gid, "bob")
    await click(h, menu, find(menu.custom_ids, "draw"), "bob")
    cap = (await h.service.snapshot(gid)).state.first_at + 15 * 60_000
    assert await h.service.deadline(gid) == cap
    info = await h.service.info(gid)
    status = next(m for m in h.channel_messages() if m.id == info.game.status_message_xid)
    assert relative_time(cap) in status.embeds[0]["description"]
    h.clock.advance(15 * 60 - 1)
    assert await cog.run_timers() == 0
    h.clock.advance(1)
    assert await cog.run_timers() == 1
    await h.settle()
    info = await h.service.info(gid)
    assert info.game.status == "finished" and info.game.result["details"]["end_reason"] == "cap"
    assert all(s["breakdown"]["bonus"] == 0 for s in info.game.result["seats"])
    assert any("is over" in (m.content or "") for m in h.channel_messages())


async def test_party_hands_stay_private(h: Harness) -> None:
    """Two players draw and build for a while: no channel message, edit or reply ever shows a drawn
    tile before it is placed; each player sees their own hand privately."""
    gid = await start(h, "party", ["alice", "bob"])
    info = await h.service.info(gid)
    seats = {u: info.seat_of(h.fake.user(u).id).seat for u in ("alice", "bob")}
    secrets = Secrets(h, gid)
    menus = {u: await open_choices(h, gid, u) for u in seats}
    for round_ in range(6):
        for user, seat in seats.items():
            mark = len(h.fake.sent)
            drew = await click(h, menus[user], find(menus[user].custom_ids, "draw"), user)
            code = await secrets.note_draw(seat, mark)
            await secrets.check()
            hand_menu = [s for s in drew.sent if s.custom_ids][-1]
            assert hand_menu.ephemeral and shown(code) in hand_menu.content
            kind = "drop" if round_ == 3 else "place"
            done = await click(h, hand_menu, find(hand_menu.custom_ids, kind), user)
            secrets.forget(seat)
            menus[user] = [s for s in done.sent if s.custom_ids][-1]
        await secrets.check()
    assert secrets.strict >= 8, "most drawn codes were nowhere else in sight, so the check meant something"
    state = await secrets.state()
    assert [p.tiles_on_board() for p in state.players] == [5, 5] and len(state.open_table) == 2
    channel = text_of_channel(h)
    assert "drew a tile" not in channel, "draws are private steps: no channel post"


# ---------------------------------------------------------------------------------------------
# Steps: who may click, stale and forged ids, the Spy
# ---------------------------------------------------------------------------------------------
async def whose_turn(h: Harness, gid: int, users: list[str]) -> tuple[str, str, int]:
    """(the current player's name, the other one's, the current seat)."""
    info = await h.service.info(gid)
    seat = next(iter(info.awaiting))
    names = {h.fake.user(u).id: u for u in users}
    current = names[info.seats[seat].user_xid]
    return current, next(u for u in users if u != current), seat


async def take_and_end(h: Harness, gid: int, user: str, architects: int) -> None:
    """Take ``architects`` tiles (first slot each time) and end the turn, all by clicks."""
    source: Any = await turn_message(h, gid)
    custom_ids = source.custom_ids()
    for _ in range(architects):
        handle = await click(h, source, find(custom_ids, "architect"), user)
        source = [s for s in handle.sent if s.custom_ids][-1]
        custom_ids = source.custom_ids
    await click(h, source, find(custom_ids, "end_turn"), user)


def said(handle: Any) -> str:
    return " ".join(s.content or "" for s in handle.sent)


async def forge(h: Harness, message: Any, real_id: str, forged_id: str, user: str) -> Any:
    """Click a button whose custom_id was tampered with on the way (Discord would let it through)."""
    handle = h.fake.make_click(message, real_id, user=user)
    handle.payload["data"]["custom_id"] = forged_id
    await h.fake.deliver(handle)
    await handle.response()
    await h.settle()
    return handle


async def test_steps_refuse_strangers_others_stale_and_forged_ids(h: Harness) -> None:
    """A step button answers only the current player, with the choices as they are now."""
    gid = await start(h, "basic", ["alice", "bob"])
    first, second, _ = await whose_turn(h, gid, ["alice", "bob"])
    await take_and_end(h, gid, first, 2)
    await take_and_end(h, gid, second, 1)
    assert (await whose_turn(h, gid, ["alice", "bob"]))[0] == first
    turn = await turn_message(h, gid)
    planner = next(c for c in turn.custom_ids() if step_of(c) == "p")

    assert "not playing" in said(await click(h, turn, planner, "carol"))
    assert "not your turn" in said(await click(h, turn, planner, second))
    assert "could not read that button" in said(await forge(h, turn, planner, f"up:{gid}:1:zz", first))
    gone = planner.replace(":p", ":p.AMU-NESW")
    assert "earlier turn" in said(await forge(h, turn, planner, gone, first))
    other_game = planner.replace(f"up:{gid}:", f"up:{gid + 7}:")
    assert "cannot find game" in said(await forge(h, turn, planner, other_game, first))
    version = (await h.service.info(gid)).game.version

    # An action makes the turn message's move buttons stale, but its step buttons still answer.
    took = await click(h, turn, find(turn.custom_ids(), "architect"), first)
    assert "2 action(s) left" in said(took) and (await h.service.info(gid)).game.version == version + 1
    again = await click(h, turn, find(turn.custom_ids(), "architect"), first)
    assert "earlier turn" in said(again)
    menu = await click(h, turn, planner, first)
    reply = await menu.response()
    assert reply.ephemeral and reply.custom_ids
    assert all((move_of(c) or {}).get("kind") == "planner" or step_of(c) == "p" for c in reply.custom_ids)
    assert all(f":{version + 1}:" in c for c in reply.custom_ids), "built from the game as it is now"
    fresh = await answer(await click(h, turn, f"open:{gid}:{version}", first))
    assert fresh.ephemeral and "2 action(s) left" in (fresh.content or "")
    assert any((move_of(c) or {}).get("kind") == "end_turn" and f":{version + 1}:" in c for c in fresh.custom_ids)


async def test_spy_in_the_advanced_game_by_clicks(h: Harness) -> None:
    """Spy… goes straight to the plots when one tile can be spied; the tile moves to the spy's city."""
    gid = await start(h, "advanced", ["alice", "bob"])
    first, second, first_seat = await whose_turn(h, gid, ["alice", "bob"])
    await take_and_end(h, gid, first, 1)
    state = (await h.service.snapshot(gid)).state
    target = state.players[first_seat].reserve[0]
    turn = await turn_message(h, gid)
    spy = next(c for c in turn.custom_ids() if step_of(c) == "s")
    menu = await click(h, turn, spy, second)
    plots = await menu.response()
    assert plots.ephemeral and shown(target) in (plots.content or "")
    assert len(plots.custom_ids) == 24 and all((move_of(c) or {}).get("kind") == "spy" for c in plots.custom_ids)
    built = await click(h, plots, find(plots.custom_ids, "spy"), second)
    assert f"sent the Spy for {shown(target)}" in said(built)
    state = (await h.service.snapshot(gid)).state
    assert state.players[first_seat].reserve == [] and target in state.players[1 - first_seat].board
    assert state.points == 1
