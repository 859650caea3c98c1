"""Regression: /game abandon leaves the status message saying the game waits for a player."""

from tests.discord.conftest import Harness
from tests.discord.test_play_toy import start_toy


async def test_abandon_updates_status(harness: Harness) -> None:
    """After /game abandon the status message says the game was abandoned."""
    h = harness
    gid = await start_toy(h)
    await (await h.fake.slash("game", "abandon", user="alice")).response()
    await h.settle()
    info = await h.service.info(gid)
    status = next(m for m in h.fake.messages("games") if m.id == info.game.status_message_xid)
    text = status.embeds[0]["description"]
    assert "Waiting" not in text, "the status message still says the game waits for players"
