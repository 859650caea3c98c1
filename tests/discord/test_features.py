"""The running bot gets its features from the composition root, and /game forget-me reaches them
all (issue 12)."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import Harness, answer
from tests.test_composition import assert_subscribed_once


async def test_the_bot_gets_its_features_from_the_root(harness: Harness) -> None:
    """The running bot: one App, its features subscribed once, and the cogs hold those objects."""
    app = harness.bot.app
    assert_subscribed_once(app)
    btc: Any = harness.bot.get_cog("BtcCog")
    leagues: Any = harness.bot.get_cog("LeaguesCog")
    loop: Any = harness.bot.get_cog("RemindersCog")
    assert btc.campaigns is app.campaigns and leagues.leagues is app.leagues and loop.reminders is app.reminders


async def test_forget_me_forgets_the_campaign(harness: Harness) -> None:
    """The privacy bug of issue 12: /game forget-me answered "0 records changed" and kept the
    player's Between Two Cities campaign, visible to others. Now the campaign is gone, others'
    /btc campaign status finds nothing, and the count says what changed."""
    h = harness
    alice = h.fake.user("alice").id
    started = await answer(
        await h.fake.slash("btc", "campaign", "start", length=3, difficulty=2, mode="simple", user="alice")
    )
    assert "Campaign started" in (started.content or "")
    await h.bot.app.preferences.set_prefs(alice, dm_turns=True)
    done = await h.fake.slash("game", "forget-me", confirm=True, user="alice")
    text = " ".join(s.content or "" for s in await done.wait_sent(2))
    assert "I forgot you (2 records changed)" in text, text
    assert await h.bot.app.campaigns.db.latest(alice) is None
    seen = await (await h.fake.slash("btc", "campaign", "status", user="bob", player=alice)).response()
    assert "has never played a campaign" in (seen.content or "") and not seen.embeds
