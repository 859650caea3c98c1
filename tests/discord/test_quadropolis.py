"""Quadropolis played through the Discord harness, every turn by components."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image

from tests.discord.conftest import Harness

PNG = b"\x89PNG\r\n\x1a\n"


async def start(h: Harness, mode: str, humans: list[str], ai: int) -> int:
    lobby = await h.fake.slash("game", "new", game="quadropolis", mode=mode, ai_players=ai, user=humans[0])
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    for user in humans[1:]:
        await (await h.fake.click(lobby, f"lobby:{gid}:join", user=user)).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=humans[0])).response()
    await h.settle()
    return gid


def first_option(message: Any) -> tuple[str, str, bool]:
    """(select id, value, takes a tile): the first option that takes a tile, else the first one."""
    found: list[tuple[str, str, bool]] = []
    for row in message.components:
        for comp in row["components"]:
            if comp["type"] == 3:
                for option in comp.get("options", []):
                    found.append((comp["custom_id"], option["value"], "takes nothing" not in option["label"]))
    assert found, f"no select on {message.content!r}"
    return next((f for f in found if f[2]), found[0])


async def play_turn(h: Harness, gid: int, names: dict[int, str]) -> str:
    """The awaited human takes the first offered tile and builds it on the first offered square."""
    info = await h.service.info(gid)
    seat = next(iter(info.awaiting))
    user = names[info.seats[seat].user_xid]
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    assert f"<@{info.seats[seat].user_xid}>" in turn.content
    custom_id, value, takes_tile = first_option(turn)
    took = await h.fake.select(turn, custom_id, [value], user=user)
    await took.response()
    await h.settle()
    if takes_tile:
        sent = await took.wait_sent(2)
        step = [s for s in sent if s.custom_ids]
        assert step and step[-1].ephemeral, [(s.kind, s.content) for s in sent]
        button = step[-1].custom_ids[0]
        assert json.loads(button.split(":", 4)[4])["kind"] in ("build", "discard")
        built = await h.fake.click(step[-1], button, user=user)
        await built.response()
        await h.settle()
    return user


async def test_two_player_classic_with_ai(harness: Harness) -> None:
    """A whole Classic game, one human against the AI; every turn posts a picture and a summary."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=1)
    names = {h.fake.user("alice").id: "alice"}
    turns = 0
    while (await h.service.info(gid)).game.status == "active":
        await play_turn(h, gid, names)
        turns += 1
        assert turns <= 40
    info = await h.service.info(gid)
    assert info.game.status == "finished" and turns == 16
    posted = h.channel_messages()
    summaries = [
        m.content
        for m in posted
        if any(w in (m.content or "") for w in (" built ", " raised the ", " discarded ", "nothing taken"))
    ]
    assert len(summaries) == 32  # every turn of both players is told in one sentence
    ending = [m for m in posted if "is over" in (m.content or "")]
    assert ending and ending[-1].attachments, "the end shows the cities and the score table"
    assert all(a.data.startswith(PNG) for m in posted for a in m.attachments if a.filename != "story.gif")
    for m in posted:
        for a in m.attachments:
            with Image.open(io.BytesIO(a.data)) as img:
                assert img.width >= 1000 and img.height >= 600, (m.content, img.size)


async def test_typed_fallback_take_and_place(harness: Harness) -> None:
    """/quadropolis take and place with autocomplete play a turn; a typo gets a sentence."""
    h = harness
    gid = await start(h, "classic", ["alice", "bob"], ai=0)
    info = await h.service.info(gid)
    user = "alice" if info.seats[next(iter(info.awaiting))].user_xid == h.fake.user("alice").id else "bob"
    other = "bob" if user == "alice" else "alice"
    auto = await h.fake.autocomplete("quadropolis", "take", choice="", user=user)
    await auto.response()
    choices = auto.choices or []
    assert choices and all("Architect" in c["name"] for c in choices)
    tile_choice = next(c for c in choices if "takes nothing" not in c["name"])
    wrong = await h.fake.slash("quadropolis", "take", choice=tile_choice["value"], user=other)
    assert "not your turn" in " ".join(s.content or "" for s in await wrong.wait_sent(2))
    typo = await h.fake.slash("quadropolis", "take", choice="9 Z9", user=user)
    assert "could not match" in " ".join(s.content or "" for s in await typo.wait_sent(2))
    took = await h.fake.slash("quadropolis", "take", choice=tile_choice["value"], user=user)
    await took.wait_sent(2)
    await h.settle()
    auto = await h.fake.autocomplete("quadropolis", "place", square="", user=user)
    await auto.response()
    squares = auto.choices or []
    assert squares and squares[-1]["name"] == "Discard"
    placed = await h.fake.slash("quadropolis", "place", square=squares[0]["name"].split()[0], user=user)
    await placed.wait_sent(2)
    await h.settle()
    after = await h.service.info(gid)
    assert after.game.version == 2 and after.awaiting != info.awaiting


async def test_city_and_board_pictures(harness: Harness) -> None:
    """/quadropolis city and board answer with pictures at any time."""
    h = harness
    await start(h, "expert", ["alice"], ai=1)
    city = await h.fake.slash("quadropolis", "city", user="alice")
    sent = [s for s in await city.wait_sent(2) if s.pngs]
    assert sent and sent[0].pngs[0].startswith(PNG)
    board = await h.fake.slash("quadropolis", "board", user="carol")
    sent = [s for s in await board.wait_sent(2) if s.pngs]
    assert sent and sent[0].pngs[0].startswith(PNG)


async def test_four_player_expert_humans_and_ai(harness: Harness) -> None:
    """A whole Expert game for four seats, two humans and two AI, every human turn by components."""
    h = harness
    gid = await start(h, "expert", ["alice", "bob"], ai=2)
    names = {h.fake.user("alice").id: "alice", h.fake.user("bob").id: "bob"}
    turns = 0
    while (await h.service.info(gid)).game.status == "active":
        await play_turn(h, gid, names)
        turns += 1
        assert turns <= 60
    info = await h.service.info(gid)
    assert info.game.status == "finished"
    result = info.game.result
    assert result is not None and sorted(s["rank"] for s in result["seats"])[0] == 1
    ending = [m for m in h.channel_messages() if "is over" in (m.content or "")]
    assert ending and ending[-1].attachments and ending[-1].attachments[0].data.startswith(PNG)
    for seat in info.seats:
        if seat.user_xid is not None:
            assert f"<@{seat.user_xid}>" in ending[-1].content


def offered_moves(message: Any) -> list[dict[str, Any]]:
    """Every move a message's buttons and select options carry."""
    moves = []
    for row in message.components:
        for comp in row["components"]:
            if comp["type"] == 3:
                moves += [json.loads(option["value"]) for option in comp.get("options", [])]
            elif str(comp.get("custom_id", "")).startswith("mv:"):
                moves.append(json.loads(comp["custom_id"].split(":", 4)[4]))
    return moves


async def test_no_idle_choice_offered_and_a_forged_one_is_refused(harness: Harness) -> None:
    """The turn menus offer only takes, builds and discards; a hand-made "keep idle" choice sent with the
    current menu (version and token) gets a sentence and the game does not move."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=1)
    names = {h.fake.user("alice").id: "alice"}
    for _ in range(3):
        info = await h.service.info(gid)
        turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
        kinds = {m["kind"] for m in offered_moves(turn)}
        assert kinds and kinds <= {"take", "build", "discard"}, kinds
        await play_turn(h, gid, names)
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    select = next(c for row in turn.components for c in row["components"] if c["type"] == 3)
    forged = h.fake.make_select(turn, select["custom_id"], [select["options"][0]["value"]], user="alice")
    forged.payload["data"]["values"] = [json.dumps({"kind": "allocate", "square": "A1", "to": "off"})]
    handle = await h.fake.deliver(forged)
    await h.settle()
    said = [(s.ephemeral, s.content or "") for s in await handle.wait_sent(2)]
    assert any(private and "You do not place inhabitants and energy yourself" in text for private, text in said), said
    after = await h.service.info(gid)
    assert after.game.version == info.game.version and after.awaiting == info.awaiting
