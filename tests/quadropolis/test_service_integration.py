"""A Quadropolis game through the real service: lobby, human moves, AI moves, summaries, result."""

from __future__ import annotations

import pytest

from bot import errors, i18n
from bot.service import Service

HOST = 101


async def test_full_game_through_the_service(service: Service) -> None:
    """A human (playing the first listed move) and a greedy AI finish an Expert game."""
    info = await service.create_game(
        guild_xid=9,
        channel_xid=77,
        kind="quadropolis",
        options={"mode": "expert"},
        host_xid=HOST,
        host_name="Ana",
        ai_seats=1,
        ai_level="greedy",
    )
    gid = info.id
    await service.start(gid, HOST)
    summaries = []
    for _ in range(400):
        outcome = await service.play_ai(gid)
        if outcome is None:
            _, _, moves = await service.legal_moves(gid, HOST)
            if not moves:
                break
            assert all(m["kind"] in ("take", "build", "discard") for m in moves)
            outcome = await service.move(gid, HOST, moves[0])
        summaries.append(i18n.t(outcome.summary[0], "en", **outcome.summary[1]))
        if outcome.finished:
            break
    assert outcome.finished and outcome.result is not None
    assert len(outcome.result["seats"]) == 2
    assert all("{" not in text for text in summaries)
    assert any(text.startswith("Ana ") for text in summaries)
    snapshot = await service.snapshot(gid)
    assert snapshot is not None


async def test_a_forged_allocate_through_the_service_is_a_sentence_and_stores_nothing(service: Service) -> None:
    """A hand-made "keep the building idle" move from the player whose turn it is: the service answers
    with the rules' sentence; the version, the move log and the stored game stay as they were."""
    info = await service.create_game(
        guild_xid=9,
        channel_xid=78,
        kind="quadropolis",
        options={"mode": "classic"},
        host_xid=HOST,
        host_name="Ana",
        ai_seats=1,
        ai_level="random",
    )
    gid = info.id
    await service.start(gid, HOST)
    for _ in range(6):  # a few turns in, with a building in Ana's city
        while await service.play_ai(gid) is not None:
            pass
        _, _, moves = await service.legal_moves(gid, HOST)
        await service.move(gid, HOST, next((m for m in moves if m["kind"] == "build"), moves[0]))
    while await service.play_ai(gid) is not None:
        pass
    before = await service.info(gid)
    state_before = (await service.snapshot(gid)).state
    for to in ("off", "auto"):
        with pytest.raises(errors.IllegalMove) as refused:
            await service.move(gid, HOST, {"kind": "allocate", "square": "A1", "to": to})
        assert i18n.t(refused.value.key, "en", **refused.value.params).startswith("You do not place inhabitants")
    after = await service.info(gid)
    assert after.game.version == before.game.version and after.awaiting == before.awaiting
    assert len(await service._store.moves(gid)) == before.game.version
    assert (await service.snapshot(gid)).state == state_before
