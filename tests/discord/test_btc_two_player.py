"""Between Two Cities for two humans (the official variant, spec section 9) by clicks in Discord."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import Harness
from tests.discord.test_btc_solo import PNG, Player

MAX_ROUNDS = 120
STAGES = {(1, "a"), (1, "b"), (2, "a"), (2, "b"), (3, "a"), (3, "b")}


async def test_two_player_game_by_clicks(harness: Harness) -> None:
    """Two humans play a whole 2-player game by clicks: both choose at once every turn, each round
    is played twice (1a-3b), each builds two 16-cell cities alone, and the end posts the picture and
    both players ranked by the sum of their cities."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="btc", mode="two_player", user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    info = await h.service.info(gid)
    assert [s.is_ai for s in info.seats] == [False, False]
    assert info.awaiting == frozenset({0, 1}), "both choose at once"
    turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    assert all(f"<@{s.user_xid}>" in turn.content for s in info.seats)
    players = {s.seat: Player(h, gid, "alice" if s.user_xid == h.fake.user("alice").id else "bob") for s in info.seats}
    stages: set[tuple[int, str]] = set()
    both_awaited = 0
    for _ in range(MAX_ROUNDS):
        info = await h.service.info(gid)
        if info.game.status != "active":
            break
        view = (await h.service.snapshot(gid)).view(None)
        stages.add((view["round"], view["part"]))
        both_awaited += info.awaiting == frozenset({0, 1})
        acted = False
        for seat in sorted(info.awaiting):
            before = (await h.service.info(gid)).game.version
            move = await players[seat].act()
            if move is not None:
                assert (await h.service.info(gid)).game.version == before + 1, f"{move} was not played"
                acted = True
        assert acted
    else:
        raise AssertionError("the game did not end")
    info = await h.service.info(gid)
    assert info.game.status == "finished"
    assert stages == STAGES
    assert both_awaited >= 6
    final = (await h.service.snapshot(gid)).view(None)
    assert final["mode"] == "two_player" and len(final["cities"]) == 4
    assert all(city["size"] == 16 for city in final["cities"])
    assert all(len(city["builders"]) == 1 for city in final["cities"]), "no shared cities"
    result = info.game.result
    assert result is not None and len(result["seats"]) == 2
    totals = {c["city"]: c["total"] for c in result["details"]["cities"]}
    for seat in result["seats"]:
        d: dict[str, Any] = seat["details"]
        assert seat["total"] == totals[d["left_city"]] + totals[d["right_city"]], "2-player: the sum"
    end = [m for m in h.channel_messages() if "is over" in (m.content or "")]
    assert len(end) == 1 and end[0].attachments and end[0].attachments[0].data.startswith(PNG)
    for seat in result["seats"]:
        user_xid = info.seats[seat["seat"]].user_xid
        assert f"{seat['rank']}. <@{user_xid}> — {seat['total']} points" in end[0].content
