"""After a finished game of each kind the channel gets its story: the score chart and the growing cities."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot import games
from bot.i18n import t
from tests.discord.conftest import Harness

GIF_LIMIT = 8 * 1024 * 1024


async def play_to_the_end(h: Harness, game: str, ai: int, **options: Any) -> int:
    """Alice and ``ai`` AI seats; Alice's moves are the rules' own random AI, played through the service and
    told through the turn flow as a click would be."""
    lobby = await h.fake.slash("game", "new", game=game, ai_players=ai, ai_level="random", user="alice", **options)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    alice = h.fake.user("alice").id
    rules = games.rules(game)
    for step in range(2000):
        info = await h.service.info(gid)
        if info.game.status != "active":
            break
        seat = info.seat_of(alice)
        assert seat is not None
        if seat.seat not in info.awaiting:
            await h.settle()
            continue
        snap = await h.service.snapshot(gid)
        move = rules.ai_move(snap.state, seat.seat, "random", step)
        outcome = await h.service.move(gid, alice, move)
        await h.bot.flow.after_move(outcome)
        await h.settle()
    await h.settle()
    assert (await h.service.info(gid)).game.status == "finished"
    return gid


@pytest.mark.parametrize(
    ("game", "ai", "options"),
    [("quadropolis", 1, {"mode": "classic"}), ("btc", 2, {}), ("urbanpanic", 1, {"mode": "basic"})],
)
async def test_the_story_is_posted_after_the_end(harness: Harness, game: str, ai: int, options: dict[str, Any]) -> None:
    """The recap follows the end message: a chart at least 1,000 px wide and an animation under 8 MB."""
    h = harness
    gid = await play_to_the_end(h, game, ai, **options)
    posts = h.channel_messages()
    recap = [m for m in posts if m.content == t("end.recap", "en", game=gid)]
    assert len(recap) == 1, "told once"
    end = next(i for i, m in enumerate(posts) if t("end.title", "en", game=gid) in (m.content or ""))
    assert posts.index(recap[0]) > end, "after the end message"
    kinds = {}
    for attachment in recap[0].attachments:
        with Image.open(io.BytesIO(attachment.data)) as img:
            kinds[img.format] = (img.width, getattr(img, "n_frames", 1), len(attachment.data))
    assert set(kinds) == {"PNG", "GIF"}
    assert kinds["PNG"][0] >= 1000
    assert kinds["GIF"][1] > 1 and kinds["GIF"][2] < GIF_LIMIT


async def test_a_server_can_turn_the_animation_off(harness: Harness) -> None:
    """With recap_gif off, the recap is the chart alone."""
    h = harness
    settings = await h.fake.slash("game", "settings", server=True, recap_gif=False, user="mona")
    await settings.response()
    gid = await play_to_the_end(h, "quadropolis", 1, mode="classic")
    recap = next(m for m in h.channel_messages() if m.content == t("end.recap", "en", game=gid))
    assert [a.filename.rsplit(".", 1)[-1] for a in recap.attachments] == ["png"]
