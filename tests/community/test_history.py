"""History, replay of every turn from the move log, and export in the format local replay reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot import errors, games
from bot.community.base import CommunityError
from bot.composition import App
from bot.local import replay as local_replay
from bot.service import MoveOutcome, Service
from tests.community.conftest import ANA, BEA, GUILD, bid, toy_game


def dumps(state_json: Any) -> str:
    return json.dumps(state_json, separators=(",", ":"), sort_keys=True)


async def stored_snapshot_text(service: Service, game_id: int) -> str:
    row = await service._store.fetch_one("SELECT state FROM snapshots WHERE game_id = ?", (game_id,))
    assert row is not None
    return str(row[0])


async def play_recording(service: Service, game_id: int, play: Any) -> list[str]:
    """Play a game through ``play``; the stored snapshot text after every move (index 0: set-up)."""
    texts = [await stored_snapshot_text(service, game_id)]

    async def record(outcome: MoveOutcome) -> None:
        texts.append(await stored_snapshot_text(service, outcome.info.id))

    service.move_listeners.append(record)
    try:
        await play()
    finally:
        service.move_listeners.remove(record)
    return texts


async def check_every_turn(community: App, game_id: int, texts: list[str]) -> None:
    info = await community.service.info(game_id)
    rules = games.rules(info.game.kind)
    for turn, text in enumerate(texts):
        frame = await community.history.replay(GUILD, game_id, turn)
        assert dumps(rules.to_json(frame.state)) == text, f"turn {turn}"
    assert [dumps(s) for s in await community.history.replay_states(game_id)] == texts


async def test_replay_reproduces_every_snapshot_toy(service: Service, community: App) -> None:
    """Each turn of a finished toy game replayed from the log equals its stored snapshot, byte for byte."""
    gid = await toy_game(service)

    async def play() -> None:
        for a, b in ((3, 1), (1, 2), (2, 3)):
            await bid(service, gid, ANA, a)
            await bid(service, gid, BEA, b)

    texts = await play_recording(service, gid, play)
    assert len(texts) == 7 and (await service.info(gid)).game.status == "finished"
    await check_every_turn(community, gid, texts)


async def test_replay_reproduces_every_snapshot_urban_panic(service: Service, community: App) -> None:
    """A whole Urban Panic game between two AIs: every turn replays to its stored snapshot exactly."""
    info = await service.create_game(
        guild_xid=GUILD,
        channel_xid=7,
        kind="urbanpanic",
        options={},
        host_xid=ANA,
        host_name="Ana",
        ai_seats=1,
        ai_level="greedy",
    )
    await service.start(info.id, ANA)
    await service._store.update_seat(info.id, 0, ai_level="random")  # Ana's seat: the random AI

    async def play() -> None:
        while await service.play_ai(info.id) is not None:
            pass

    texts = await play_recording(service, info.id, play)
    assert (await service.info(info.id)).game.status == "finished" and len(texts) > 50
    await check_every_turn(community, info.id, texts)


async def test_replay_frame_describes_the_move(service: Service, community: App) -> None:
    """A frame names the turn, the seat that moved and the public summary of that move."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    await bid(service, gid, BEA, 1)
    frame = await community.history.replay(GUILD, gid, 2)
    assert (frame.turn, frame.turns, frame.seat) == (2, 2, 1)
    assert frame.summary == ("toy.revealed", {"player": "Bea", "seat": 1, "a": 3, "b": 1})
    assert frame.view["revealed"] == [[3, 1]] and frame.view["hand"] is None
    first = await community.history.replay(GUILD, gid, 0)
    assert first.summary is None and first.seat is None
    with pytest.raises(CommunityError) as err:
        await community.history.replay(GUILD, gid, 3)
    assert err.value.params == {"turns": 2}
    with pytest.raises(errors.UnknownGame):
        await community.history.replay(GUILD + 1, gid, 1)


async def test_export_loads_in_local_replay(
    service: Service, community: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """/game export of a finished game: the fields local replay reads; it replays to the end."""
    gid = await toy_game(service)
    for a, b in ((3, 1), (1, 2), (2, 3)):
        await bid(service, gid, ANA, a)
        await bid(service, gid, BEA, b)
    data = await community.history.export(GUILD, gid)
    assert {"game", "options", "seed", "seats", "moves", "result"} <= set(data)
    assert data["game"] == "toy" and [s["name"] for s in data["seats"]] == ["Ana", "Bea"]
    assert [m["version"] for m in data["moves"]] == [1, 2, 3, 4, 5, 6]
    assert all(set(m) >= {"version", "seat", "move"} for m in data["moves"])
    assert data["result"] == (await service.info(gid)).game.result
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert local_replay(str(path), str(tmp_path / "out")) == 0
    assert "Bids revealed" in capsys.readouterr().out
    rules = games.rules("toy")
    state = rules.setup(data["options"], len(data["seats"]), data["seed"])
    for m in data["moves"]:
        state = rules.apply(state, m["seat"], m["move"])
    assert rules.result(state).to_json() == data["result"]


async def test_export_of_a_live_game_is_refused(service: Service, community: App) -> None:
    """A game in play is not exported (its seed would reveal hidden information)."""
    gid = await toy_game(service)
    with pytest.raises(CommunityError) as err:
        await community.history.export(GUILD, gid)
    assert err.value.key == "community.error.export_live"


async def test_export_skips_taken_back_moves(service: Service, community: App) -> None:
    """A move taken back is not in the export; the log's versions still only move forward."""
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=4, kind="toy", options={}, host_xid=ANA, host_name="Ana", ai_seats=1
    )
    await service.start(info.id, ANA)
    await bid(service, info.id, ANA, 1)
    await community.undo.propose_undo(info.id, ANA)
    await bid(service, info.id, ANA, 3)
    await service.resign(info.id, ANA)
    data = await community.history.export(GUILD, info.id)
    assert [(m["version"], m["move"]["card"]) for m in data["moves"]] == [(3, 3)]


async def test_history_by_channel_and_player(service: Service, community: App) -> None:
    """Finished games of a channel, or of a player on the server, newest first."""
    g1 = await toy_game(service, channel=1)
    await service.resign(g1, BEA)
    g2 = await toy_game(service, channel=2, guest=303)
    await service.abandon(g2, ANA, is_admin=False)
    g3 = await toy_game(service, channel=1)
    assert [i.id for i in await community.history.history(GUILD, channel_xid=1)] == [g1]
    assert [i.id for i in await community.history.history(GUILD, user_xid=ANA)] == [g2, g1]
    assert [i.id for i in await community.history.history(GUILD, user_xid=BEA)] == [g1]
    del g3
