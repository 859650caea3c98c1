"""Display names are text, never markdown or mentions: a name ``**Bartholomew**`` is not bold, ``||x||``
hides nothing and a role mention in a name is no role pill, wherever the bot writes a name."""

from __future__ import annotations

import json

from cogs.common import shown_name
from tests.discord.conftest import Harness, answer

ROLE = "<@&123456789012345678>"
NAMES = {"bart": "**Bartholomew**", "sneaky": f"||x|| {ROLE}"}


def test_shown_name_escapes_markdown_and_mentions() -> None:
    assert shown_name("**Bartholomew**") == r"\*\*Bartholomew\*\*"
    assert shown_name("||x||") == r"\|\|x\|\|"
    assert "<@&1" not in shown_name(ROLE) and "123456789012345678" in shown_name(ROLE)
    assert "@everyone" not in shown_name("@everyone")
    assert shown_name("Ann_Marie") == r"Ann\_Marie" and shown_name("Zoë") == "Zoë"


async def test_names_in_lobby_list_and_status_are_plain_text(harness: Harness) -> None:
    h = harness
    for user, name in NAMES.items():
        h.fake.world.add_user(user, roles=[], global_name=name)
    lobby = await h.fake.slash("game", "new", game="toy", user="bart")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    joined = await h.fake.click(lobby, f"lobby:{gid}:join", user="sneaky")
    shown_lobby = json.dumps((await joined.response()).embeds, ensure_ascii=False)
    listed = json.dumps((await answer(await h.fake.slash("game", "list", user="bart"))).embeds, ensure_ascii=False)
    await answer(await h.fake.click(lobby, f"lobby:{gid}:start", user="bart"))
    await h.settle()
    info = await h.service.info(gid)
    assert [s.name for s in info.seats] == list(NAMES.values())  # kept as they are; escaped where shown
    status = next(m for m in h.channel_messages() if m.id == info.game.status_message_xid)
    shown_status = json.dumps(status.embeds, ensure_ascii=False)
    for text in (shown_lobby, listed, shown_status):
        for name in NAMES.values():
            assert json.dumps(shown_name(name), ensure_ascii=False)[1:-1] in text, (name, text)
        assert "**Bartholomew**" not in text and "||x||" not in text and ROLE not in text, text
