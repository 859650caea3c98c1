"""A lobby whose host asked to be forgotten passes the host role on and can still start."""

from tests.discord.conftest import Harness


async def test_forgotten_host_passes_the_lobby_on(harness: Harness) -> None:
    """The next player becomes host: Start works, the lobby is not stuck."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="toy", user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.slash("game", "forget-me", confirm=True, user="alice")).wait_sent(2)
    await h.settle()
    info = await h.service.info(gid)
    assert info.game.host_xid == h.fake.user("bob").id
    assert [s.name for s in info.seats] == ["Bob"]
    joined = await h.fake.click(lobby, f"lobby:{gid}:join", user="carol")
    await joined.response()
    start = await h.fake.click(lobby, f"lobby:{gid}:start", user="bob")
    await start.response()
    await h.settle()
    assert (await h.service.info(gid)).game.status == "active"
