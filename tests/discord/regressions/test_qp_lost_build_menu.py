"""Regression: Quadropolis, after a take the build buttons exist only in an ephemeral message. If it is
lost (dismissed, client reloaded), the public turn message only has the old take menus, which answer
"from an earlier turn ... use the newest message" - and that *is* the newest message."""

import json

from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import first_option, start


async def test_out_of_date_menu_offers_the_current_choices(harness: Harness) -> None:
    """A lost private build menu: the stale public menu answers with the build choices, not a dead end."""
    h = harness
    gid = await start(h, "classic", ["alice"], ai=1)
    while 0 not in (await h.service.info(gid)).awaiting:
        await h.settle()
    info = await h.service.info(gid)
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    cid, value, takes = first_option(turn)
    assert takes
    await (await h.fake.select(turn, cid, [value], user="alice")).response()
    await h.settle()
    info = await h.service.info(gid)
    assert 0 in info.awaiting  # alice must now build
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    selects = [c for row in turn.components for c in row["components"]]
    c = selects[0]
    again = await h.fake.select(turn, c["custom_id"], [c["options"][0]["value"]], user="alice")
    sent = await again.wait_sent(2)
    menus = [s for s in sent if s.custom_ids]
    assert menus and menus[-1].ephemeral, "the out-of-date menu answers with alice's current choices"
    kinds = {json.loads(c.split(":", 4)[4])["kind"] for c in menus[-1].custom_ids if c.startswith("mv:")}
    assert kinds <= {"build", "discard"} and "build" in kinds, kinds
    assert (await h.service.info(gid)).game.version == info.game.version, "nothing was played"
