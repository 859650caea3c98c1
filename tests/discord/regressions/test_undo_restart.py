"""Regression: an undo bumps the version but is never 'settled': after a restart the bot announces the
previous (older) move again as if it had just been played."""

from cogs.app import CityBot
from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import first_option, play_turn, start


async def test_restart_after_undo_announces_nothing_old(harness: Harness) -> None:
    """After an undo and a restart, no older move is announced again."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=1)
    names = {h.fake.user("alice").id: "alice"}
    # play until it is alice's turn again after at least one move each
    await play_turn(h, gid, names)
    await h.settle()
    while 0 not in (await h.service.info(gid)).awaiting:
        await h.settle()
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    cid, value, _ = first_option(turn)
    await (await h.fake.select(turn, cid, [value], user="alice")).response()  # alice's take
    await h.settle()
    await (await h.fake.slash("game", "undo", user="alice")).response()
    await h.settle()
    g = (await h.service.info(gid)).game
    assert g.settled_version == g.version, "the board after the undo was announced and recorded"
    before = len(h.channel_messages())
    await h.bot.close()
    bot = CityBot(h.bot.settings, clock=h.clock)
    try:
        await bot.login(h.fake.token)
        h.fake.use_client(bot)
        await h.settle()
        new = h.channel_messages()[before:]
        assert not new, "nothing happened while the bot was down, yet it posts an old move again"
    finally:
        await bot.close()
