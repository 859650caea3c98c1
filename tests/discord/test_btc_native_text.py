"""A Between Two Cities solo game played by clicks on a Russian and on a Polish server: everything the player
reads in the channel and in their private replies (contents, embeds, button and menu labels, placeholders)
carries no English word of the catalogue, and in Russian no Latin letter past the game's title, grid
coordinates and the player's own name (issue 27: the Discord side of tests/test_native_text.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import games, i18n
from tests.discord.conftest import Harness
from tests.discord.test_btc_solo import MAX_STEPS, Player, new_solo
from tests.test_native_text import GRID, WORD, english_only_words

TEXT_KEYS = {"content", "title", "description", "label", "placeholder"}


def read(node: Any) -> list[str]:
    """The strings of a message a reader sees: content, embed texts, component labels and placeholders,
    option labels and descriptions (not custom ids or option values, which are the bot's own)."""
    out: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in TEXT_KEYS and isinstance(value, str):
                out.append(value)
            elif key == "fields":
                out += [f.get("name", "") + " " + f.get("value", "") for f in value]
            elif key in ("footer", "author"):
                out.append(str((value or {}).get("text") or (value or {}).get("name") or ""))
            elif key in ("embeds", "components", "options"):
                out += read(value)
    elif isinstance(node, list):
        for item in node:
            out += read(item)
    return out


def texts_of(h: Harness) -> list[str]:
    out: list[str] = []
    for message in h.fake.messages("games"):
        out += read({"content": message.content or "", "embeds": message.embeds, "components": message.components})
    return [text for text in out if text]


@pytest.mark.parametrize("lang", ["ru", "pl"])
async def test_a_solo_game_by_clicks_reads_in_the_servers_language(harness: Harness, lang: str) -> None:
    h = harness
    h.fake.world.guild_locale = lang
    h.fake.user("alice").locale = lang
    gid = await new_solo(h)
    alice = Player(h, gid, "alice")
    texts = texts_of(h)
    for _ in range(MAX_STEPS):
        if (await h.service.info(gid)).game.status != "active":
            break
        assert await alice.act() is not None
        texts += texts_of(h)  # every step: a status message is edited as the game goes on
    assert (await h.service.info(gid)).game.status == "finished"
    texts = sorted(set(texts + texts_of(h) + alice.summaries))
    assert len(texts) > 20
    english = english_only_words(lang)
    found = {w for text in texts for w in WORD.findall(text) if w.lower() in english}
    assert not found, f"English words in {lang}: {sorted(found)[:10]}"
    if lang == "ru":
        user = h.fake.user("alice")
        own = {user.global_name or "", user.username, i18n.t(games.get("btc").title_key, "ru")}
        latin = []
        for text in texts:
            rest = re.sub(r"<[@#][!&]?\d+>|</[^>]+>", " ", GRID.sub(" ", text))  # mentions, command links
            for word in own:
                rest = rest.replace(word, " ") if word else rest
            if re.search(r"[A-Za-z]", rest):
                latin.append(text)
        assert not latin, latin[:5]
