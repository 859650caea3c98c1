"""Regression: /quadropolis take is played even when Discord refused its acknowledgement (the player
was shown "The application did not respond"), unlike a button click (move_click)."""

from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import start


async def test_typed_move_is_not_played_when_discord_refused_its_ack(harness: Harness) -> None:
    """/quadropolis take whose acknowledgement Discord refused does not count."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=1)
    while 0 not in (await h.service.info(gid)).awaiting:
        await h.settle()
    _, _, moves, _ = await h.service.choices(gid, h.fake.user("alice").id)
    take = next(m for m in moves if m["kind"] == "take")
    before = (await h.service.info(gid)).game.version
    h.fake.unknown_interaction()
    await h.fake.slash("quadropolis", "take", choice=f"{take['architect']} {take['slot']}", user="alice")
    await h.settle()
    after = (await h.service.info(gid)).game.version
    assert after == before, "the command Discord reported as failed was played anyway"
