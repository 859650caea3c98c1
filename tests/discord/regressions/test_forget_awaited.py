"""Regression: /game forget-me while the user is awaited: the AI takes the seat but nobody schedules
it."""

from tests.discord.conftest import Harness
from tests.discord.test_play_toy import start_toy


async def test_forget_me_while_awaited_lets_the_ai_move(harness: Harness) -> None:
    """Forgotten while awaited: the AI plays that seat at once instead of the game stalling."""
    h = harness
    gid = await start_toy(h)  # alice and bob both awaited (secret bids)
    before = await h.service.info(gid)
    assert before.awaiting == {0, 1}
    await (await h.fake.slash("game", "forget-me", confirm=True, user="alice")).response()
    await h.settle()
    info = await h.service.info(gid)
    # The seat is now an AI seat and is awaited, so the AI should bid for it.
    assert info.game.version == 1, "nobody played the forgotten seat: the game waits on it until a restart"
