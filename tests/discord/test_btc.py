"""Between Two Cities through the Discord harness: secret hands stay secret until the reveal."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.i18n import resolve
from cogs import presenters
from tests.discord.conftest import Harness, answer

PLAYERS = ["alice", "bob", "carol"]


async def start(h: Harness, players: list[str], mode: str = "standard", ai: int = 0) -> int:
    lobby = await h.fake.slash("game", "new", game="btc", mode=mode, ai_players=ai, user=players[0])
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    for user in players[1:]:
        await (await h.fake.click(lobby, f"lobby:{gid}:join", user=user)).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=players[0])).response()
    await h.settle()
    return gid


def public_text(h: Harness) -> str:
    return json.dumps([[m.content, m.embeds, m.components] for m in h.channel_messages()])


def open_button(h: Harness, message: Any) -> str:
    ids = [c["custom_id"] for row in message.components for c in row["components"]]
    assert len(ids) == 1 and ids[0].startswith("open:"), ids
    return ids[0]


async def act(h: Harness, gid: int, user: str) -> bool:
    """The user opens their choices and takes the first one offered; False if nothing to do."""
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    opened = await h.fake.click(turn, open_button(h, turn), user=user)
    private = await answer(opened)
    assert private.ephemeral
    selects = [c for row in private.components for c in row["components"] if c["type"] == 3]
    if not selects:
        return False
    choice = await h.fake.select(opened, selects[0]["custom_id"], [selects[0]["options"][0]["value"]], user=user)
    await choice.response()
    await h.settle()
    return True


async def test_three_players_hands_never_reach_the_channel(harness: Harness, monkeypatch: Any) -> None:
    """A whole 3-player game by clicks: channel pictures are drawn only from the spectator's view,
    and before the first reveal no tile of any hand is named in the channel."""
    h = harness
    drawn: dict[bytes, Any] = {}
    presenter = presenters.get("btc")
    original_turn, original_end = presenter.render_turn, presenter.render_end

    def spy_turn(view: dict[str, Any], seat: int | None, names: list[str], locale: str = "en") -> bytes | None:
        png = original_turn(view, seat, names, locale)
        if png is not None:
            drawn[png] = view.get("you")
        return png

    def spy_end(view: dict[str, Any], names: list[str], locale: str = "en") -> bytes | None:
        png = original_end(view, names, locale)
        if png is not None:
            drawn[png] = view.get("you")
        return png

    monkeypatch.setattr(presenter, "render_turn", spy_turn)
    monkeypatch.setattr(presenter, "render_end", spy_end)
    gid = await start(h, PLAYERS)
    hands: set[str] = set()
    for user in PLAYERS:
        info = await h.service.info(gid)
        seat = info.seat_of(h.fake.user(user).id)
        assert seat is not None
        view = (await h.service.snapshot(gid)).view(seat.seat)
        hands |= {resolve(tile["name"]) for tile in view["you"]["hand"]}  # in the game's English
    for user in PLAYERS[:2]:
        assert await act(h, gid, user)
        text = public_text(h).lower()
        leaked = [name for name in hands if re.search(rf"\b{re.escape(name.lower())}\b", text)]
        assert not leaked, "a hand tile was named publicly"
        assert "Waiting for" in text or "waiting for" in text
    steps = 0
    while (await h.service.info(gid)).game.status == "active":
        info = await h.service.info(gid)
        acted = False
        for seat in sorted(info.awaiting):
            user = next(u for u in PLAYERS if h.fake.user(u).id == info.seats[seat].user_xid)
            acted |= await act(h, gid, user)
        steps += 1
        assert acted and steps < 200
    info = await h.service.info(gid)
    assert info.game.status == "finished"
    for message in h.channel_messages():
        for attachment in message.attachments:
            if attachment.filename.startswith("story."):
                continue  # the end-of-game story is drawn from public views only (tests/story)
            assert drawn.get(attachment.data, "unknown") is None, "a public picture came from a private view"
    assert any("is over" in (m.content or "") for m in h.channel_messages())
    reveals = [m.content for m in h.channel_messages() if "Everyone reveals" in (m.content or "")]
    assert reveals and all("Alice:" in r and "seat 1" not in r for r in reveals), "reveals name the players"
