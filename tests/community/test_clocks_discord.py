"""Correspondence clocks (issue 41) through discord.py and the fake Discord: choosing a time control."""

from __future__ import annotations

import json

import pytest

from bot.community.base import CommunityError
from bot.community.settings import check_setting, merge_settings
from tests.community.conftest import Harness
from tests.community.test_discord import cog, slash


async def test_a_server_default_and_a_game_of_its_own(harness: Harness) -> None:
    """A moderator sets the server's time control; a game opened with `clock:` keeps its own; `/game
    settings` shows each; only the host or a moderator changes a game's."""
    h = harness
    cog(h)
    sent = await slash(h, "game", "settings", user="mona", server=True, clock="3d+1d")
    assert not sent.ephemeral and "saved" in (sent.content or "")
    assert "3 days, plus 1 day a finished turn, at most 7 days" in json.dumps(sent.embeds)
    lobby = await h.fake.slash("game", "new", game="toy", user="alice", clock="1d+12h")
    await lobby.response()
    await h.settle()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    assert (await h.bot.app.preferences.settings_for(gid)).clock == "1d+12h"
    shown = await slash(h, "game", "settings", user="bob")
    assert "1 day, plus 12 hours a finished turn, at most 3 days" in json.dumps(shown.embeds)
    refused = await slash(h, "game", "settings", user="bob", clock="off")
    assert "Only the host" in (refused.content or "")
    assert (await h.bot.app.preferences.settings_for(gid)).clock == "1d+12h"
    changed = await slash(h, "game", "settings", user="alice", clock="off")
    assert f"game #{gid}" in (changed.content or "") and "Time bank: none" in json.dumps(changed.embeds)


async def test_the_choice_in_polish(harness: Harness) -> None:
    """The settings speak the asker's language: the time bank in Polish."""
    h = harness
    cog(h)
    h.fake.user("mona").locale = "pl"
    sent = await slash(h, "game", "settings", user="mona", server=True, clock="1d+12h")
    assert "Pula czasu" in json.dumps(sent.embeds, ensure_ascii=False)
    assert "12 godzin za każdą zakończoną turę" in json.dumps(sent.embeds, ensure_ascii=False)


def test_a_time_control_is_a_checked_setting() -> None:
    """An unknown time control is refused with a sentence; a preset gives its bank."""
    with pytest.raises(CommunityError):
        check_setting("clock", "forever")
    assert merge_settings({"clock": "3d+1d"}).time_control.bank_ms == 3 * 24 * 3_600_000
    assert merge_settings({"clock": "3d+1d"}, {"clock": "off"}).time_control.on is False
