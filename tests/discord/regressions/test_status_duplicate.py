"""A passing Discord error while editing the status message does not post a second one."""

from tests.discord.conftest import Harness
from tests.discord.test_play_toy import bid, start_toy


async def test_transient_edit_error_keeps_one_status_message(harness: Harness) -> None:
    """One 503 on the status edit: the same status message stays and is updated by the next move."""
    h = harness
    gid = await start_toy(h)
    first = (await h.service.info(gid)).game.status_message_xid
    h.fake.fail(f"PATCH /channels/*/messages/{first}", status=503, times=1)
    await bid(h, gid, "alice", 3)
    info = await h.service.info(gid)
    assert info.game.status_message_xid == first
    statuses = [m for m in h.channel_messages() if m.embeds and "Waiting" in (m.embeds[0].get("description") or "")]
    assert len(statuses) == 1
