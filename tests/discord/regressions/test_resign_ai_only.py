"""When the last human resigns, the game ends instead of the AIs playing it out in the channel."""

from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import start


async def test_last_human_resigning_ends_the_game(harness: Harness) -> None:
    """One human, two AIs: resigning finishes the game by forfeit with a few posts, not fifty."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=2)
    before = len(h.channel_messages())
    await (await h.fake.slash("game", "resign", user="alice")).response()
    await h.settle(limit=60)
    info = await h.service.info(gid)
    assert info.game.status == "finished" and info.game.result is not None
    assert info.game.result["decided_by"] == "forfeit"
    assert [s["rank"] for s in info.game.result["seats"]] == [3, 1, 1]  # the AIs share first place
    assert len(h.channel_messages()[before:]) < 5
