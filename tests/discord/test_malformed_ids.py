"""A custom_id whose numbers are not plain, short ASCII digits is "I could not read that button", never a crash."""

from __future__ import annotations

import logging

import pytest

from bot.i18n import t
from tests.discord.conftest import Harness

MALFORMED = [
    "lobby:²:join",  # a Unicode digit: isdigit() is true, int() is not
    "lobby:١٢:join",  # Arabic-Indic digits
    "lobby:12345678901234567890:join",  # 20 digits: past SQLite's 64-bit integers
    "open:1:99999999999999999999",
    'mv:1:0:abcd1234:{"kind":"bid","card":1}'.replace("1:0", "1:٠"),
    "up:99999999999999999999:0:a",
    "cvote:1:²:0:move",
    "undo:12345678901234567890:1:yes",
    "rules:quadropolis:turn:٣",
]


@pytest.mark.parametrize("custom_id", MALFORMED)
async def test_a_malformed_id_is_refused_with_a_sentence(
    harness: Harness, custom_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The player reads the forged-button sentence; the log carries no traceback."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="toy", user="alice")
    sent = await lobby.response()
    caplog.set_level(logging.INFO)
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    click = h.fake.make_click(sent, f"lobby:{gid}:join", user="bob")
    click.payload["data"]["custom_id"] = custom_id  # tampered with on the way
    await h.fake.deliver(click)
    reply = await click.response()
    assert reply.ephemeral and reply.content == t("error.forged", "en")
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"
