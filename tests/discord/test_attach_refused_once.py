"""A missing Attach Files permission costs one refused request, not one a post (issue 36, point 12).

Every refusal counts toward Discord's invalid-request limit (10,000 in 10 minutes bans the bot's address).
Once a picture was refused in a channel and the text went without it, the bot posts there without pictures
at once, until Discord says the bot's permissions may have changed (a role's, the channel's or the bot
member's update) or an interaction there shows Attach Files allowed."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from bot.i18n import t
from bot.testing.fakediscord import payloads as P
from cogs import presenters
from tests.discord.conftest import Harness, answer

CHANNEL = "no-files"
NO_ATTACH = t("error.no_attach", "en")


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def pictured(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game drawn: every turn post and the end carry a picture."""
    toy = presenters.get("toy")
    monkeypatch.setattr(toy, "render_turn", lambda *args, **kwargs: png())
    monkeypatch.setattr(toy, "render_end", lambda *args, **kwargs: png())


async def start_toy(h: Harness) -> int:
    lobby = await h.fake.slash("game", "new", game="toy", user="alice", channel=CHANNEL)
    await answer(lobby)
    await h.settle()
    gid = (await h.service.game_in_channel(h.fake.channel(CHANNEL).id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    return gid


async def bid(h: Harness, gid: int, user: str, card: int) -> None:
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages(CHANNEL) if m.id == info.game.turn_message_xid)
    opened = await h.fake.click(
        turn, next(c["custom_id"] for row in turn.components for c in row["components"]), user=user
    )
    private = await answer(opened)
    button = next(c for c in private.custom_ids if json.loads(c.split(":", 4)[4])["card"] == card)
    await (await h.fake.click(opened, button, user=user)).response()
    await h.settle()


async def play_round(h: Harness, gid: int, a: int, b: int) -> None:
    await bid(h, gid, "alice", a)
    await bid(h, gid, "bob", b)


def posts(h: Harness) -> list[Any]:
    return h.fake.requests_matching(f"POST /channels/{h.fake.channel(CHANNEL).id}/messages")


def refused(h: Harness) -> list[Any]:
    found = [r for r in posts(h) if r.status == 403]
    assert all(r.files for r in found), "only pictures are refused: the text always goes"
    return found


@pytest.mark.usefixtures("pictured")
async def test_attach_files_is_refused_once_until_a_permission_update(harness: Harness) -> None:
    h = harness
    gid = await start_toy(h)
    await play_round(h, gid, 3, 1)
    turns = [m for m in h.channel_messages(CHANNEL) if NO_ATTACH in (m.content or "")]
    assert len(turns) == 2, "two turn posts, each saying why its picture is missing"
    assert len(refused(h)) == 1, "the second post went without its picture at once"
    # A role update: the bot's permissions may have changed, so the next post tries its picture again.
    everyone = h.fake.world.role(h.fake.world.guild_id)
    await h.fake.dispatch(
        "GUILD_ROLE_UPDATE", {"guild_id": str(h.fake.world.guild_id), "role": P.role_payload(everyone)}
    )
    await play_round(h, gid, 1, 2)
    assert len(refused(h)) == 2, "tried again after the role update, and refused again (nothing changed)"
    # Attach Files granted in the channel, and Discord says the channel changed: the end has its picture.
    channel = h.fake.channel(CHANNEL)
    channel.overwrites = [o for o in channel.overwrites if not int(o["deny"]) & P.ATTACH_FILES]
    await h.fake.dispatch("CHANNEL_UPDATE", P.channel_payload(h.fake.world, channel))
    await play_round(h, gid, 2, 3)
    assert (await h.service.info(gid)).game.status == "finished"
    ending = next(m for m in h.channel_messages(CHANNEL) if "is over" in (m.content or ""))
    assert ending.attachments and NO_ATTACH not in (ending.content or "")
    assert len(refused(h)) == 2


@pytest.mark.usefixtures("pictured")
async def test_an_interaction_that_shows_attach_files_allowed_brings_the_pictures_back(harness: Harness) -> None:
    """No gateway event (say, a role given to the bot without the members intent): the next click there
    carries the bot's permissions in that channel (``app_permissions``), and they allow Attach Files now."""
    h = harness
    gid = await start_toy(h)
    await play_round(h, gid, 3, 1)
    assert len(refused(h)) == 1, "the clicks there showed Attach Files still missing"
    channel = h.fake.channel(CHANNEL)
    channel.overwrites = [o for o in channel.overwrites if not int(o["deny"]) & P.ATTACH_FILES]
    await play_round(h, gid, 1, 2)
    turn = next(
        m
        for m in h.channel_messages(CHANNEL)
        if "3 against 1" not in (m.content or "") and "Bids revealed" in (m.content or "")
    )
    assert turn.attachments and NO_ATTACH not in (turn.content or "")
    assert len(refused(h)) == 1
