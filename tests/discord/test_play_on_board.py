""" "Play on the board" and ``/game link``'s sign-in link (issue 38): shown only where pages have a public address
(``WEB_BASE_URL``), answered privately (the link is personal), single-use, bound to the clicker, opening that
game."""

from __future__ import annotations

import re

from bot.community.sessions import digest
from bot.i18n import t
from tests.discord.conftest import Harness, answer
from tests.discord.test_play_toy import start_toy
from tests.discord.test_weblinks import BASE, linked

__all__ = ["linked"]


async def turn_post(h: Harness, gid: int) -> object:
    info = await h.service.info(gid)
    return next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)


async def test_a_turn_post_offers_play_on_the_board_privately(linked: Harness) -> None:
    h = linked
    gid = await start_toy(h)
    turn = await turn_post(h, gid)
    button = next(c for c in turn.custom_ids() if c.startswith("board:"))  # type: ignore[attr-defined]
    assert button == f"board:{gid}"
    labels = [c.get("label") for row in turn.components for c in row["components"]]  # type: ignore[attr-defined]
    assert t("web.link.play_board", "en") in labels
    sent = await answer(await h.fake.click(turn, button, user="bob"))
    assert sent.ephemeral
    link = re.search(re.escape(BASE) + r"/signin/([A-Za-z0-9_-]+)\?lang=en", sent.content or "")
    assert link is not None, sent.content
    rows = await h.service._store.fetch_all(
        "SELECT user_xid, game_id, used_at FROM web_signins WHERE token_hash = ?", (digest(link[1]),)
    )
    assert [tuple(r) for r in rows] == [(int(h.fake.user("bob").id), gid, None)]
    assert link[1] not in repr(await h.service._store.fetch_all("SELECT * FROM web_signins"))


async def test_game_link_adds_the_askers_own_sign_in_link(linked: Harness) -> None:
    h = linked
    gid = await start_toy(h)
    sent = await answer(await h.fake.slash("game", "link", user="alice"))
    assert sent.ephemeral and f"{BASE}/signin/" in (sent.content or "")
    assert t("web.link.signin", "en", game=gid, url="").split(":")[0] in (sent.content or "")


async def test_without_a_public_address_there_is_no_button(harness: Harness) -> None:
    h = harness
    gid = await start_toy(h)
    turn = await turn_post(h, gid)
    assert not [c for c in turn.custom_ids() if c.startswith("board:")]  # type: ignore[attr-defined]
