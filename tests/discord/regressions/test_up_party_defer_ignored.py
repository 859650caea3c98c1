"""F (cogs/games/urbanpanic.py, outside the listed files): a party Draw whose acknowledgement Discord
refused (the player saw "This interaction failed") is still played - unlike move_click."""

from cogs.games.urbanpanic import ROUTE_PREFIX
from tests.discord.conftest import Harness
from tests.discord.test_urbanpanic import find, open_choices, start


async def test_party_draw_is_not_played_when_discord_refused_its_ack(harness: Harness) -> None:
    """A party Draw whose acknowledgement Discord refused does not count."""
    h = harness
    assert ROUTE_PREFIX in h.bot.component_routes  # Urban Panic's cog answers its clicks
    gid = await start(h, "party", ["alice", "bob"])
    menu = await open_choices(h, gid, "alice")
    before = (await h.service.info(gid)).game.version
    h.fake.unknown_interaction()  # Discord refuses the callback: the player sees a failure
    await h.fake.click(menu, find(menu.custom_ids, "draw"), user="alice")
    await h.settle()
    after = (await h.service.info(gid)).game.version
    assert after == before, "the click Discord reported as failed was played anyway"
