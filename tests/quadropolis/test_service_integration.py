"""A Quadropolis game through the real service: lobby, human moves, AI moves, summaries, result."""

from __future__ import annotations

from bot import i18n
from bot.service import Service

HOST = 101


async def test_full_game_through_the_service(service: Service) -> None:
    """A human (playing the first listed move) and a greedy AI finish an Expert game."""
    info = await service.create_game(guild_xid=9, channel_xid=77, kind="quadropolis",
                                     options={"mode": "expert"}, host_xid=HOST, host_name="Ana",
                                     ai_seats=1, ai_level="greedy")
    gid = info.id
    await service.start(gid, HOST)
    summaries = []
    for _ in range(400):
        outcome = await service.play_ai(gid)
        if outcome is None:
            _, _, moves = await service.legal_moves(gid, HOST)
            if not moves:
                break
            play = [m for m in moves if m["kind"] != "allocate"]
            outcome = await service.move(gid, HOST, play[0])
        summaries.append(i18n.t(outcome.summary[0], "en", **outcome.summary[1]))
        if outcome.finished:
            break
    assert outcome.finished and outcome.result is not None
    assert len(outcome.result["seats"]) == 2
    assert all("{" not in text for text in summaries)
    assert any(text.startswith("Ana ") for text in summaries)
    snapshot = await service.snapshot(gid)
    assert snapshot is not None
