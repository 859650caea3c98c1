"""Giving up a solo game does not rank the player first."""

from tests.discord.conftest import Harness


async def test_solo_resign_is_a_loss(harness: Harness) -> None:
    """Resigning a solo Between Two Cities game: nobody wins, and the channel says so."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="btc", mode="solo_simple", user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    await (await h.fake.slash("game", "resign", user="alice")).response()
    await h.settle()
    info = await h.service.info(gid)
    assert info.game.result is not None and info.game.result["seats"][0]["rank"] != 1
    assert info.game.result["details"]["gave_up"] is True
