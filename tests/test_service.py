"""The store and the service: lobby, turns, versions, concurrency, durability."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot import errors, store
from bot.service import Service
from bot.store.counters import COUNTERS

HOST, BEA, CEM = 101, 202, 303


async def new_toy(service: Service, channel: int = 1) -> int:
    info = await service.create_game(
        guild_xid=9, channel_xid=channel, kind="toy", options={}, host_xid=HOST, host_name="Ana"
    )
    return info.id


async def started_toy(service: Service, channel: int = 1) -> int:
    gid = await new_toy(service, channel)
    await service.join(gid, BEA, "Bea")
    await service.start(gid, HOST)
    return gid


async def test_migrations_set_user_version(db: store.Store) -> None:
    """A new database is brought to the newest schema version with WAL on."""
    assert await db.schema_version() == store.migrations()[-1][0]
    assert await db.integrity_check() == "ok"


async def test_one_live_game_per_channel(service: Service) -> None:
    """/game new in a busy channel is refused and names the game already there."""
    gid = await new_toy(service)
    with pytest.raises(errors.ChannelBusy) as err:
        await new_toy(service)
    assert err.value.params["game"] == gid
    await new_toy(service, channel=2)  # another channel is fine


async def test_join_twice_and_full_lobby(service: Service) -> None:
    """Joining twice is refused; a full lobby refuses a third player."""
    gid = await new_toy(service)
    with pytest.raises(errors.AlreadyJoined):
        await service.join(gid, HOST, "Ana")
    await service.join(gid, BEA, "Bea")
    with pytest.raises(errors.LobbyFull):
        await service.join(gid, CEM, "Cem")
    assert [s.name for s in (await service.info(gid)).seats] == ["Ana", "Bea"]


async def test_only_host_starts_and_seat_count_checked(service: Service) -> None:
    """A non-host cannot start; the host cannot start with too few players."""
    gid = await new_toy(service)
    with pytest.raises(errors.SeatCount):
        await service.start(gid, HOST)
    await service.join(gid, BEA, "Bea")
    with pytest.raises(errors.NotHost):
        await service.start(gid, BEA)
    info = await service.start(gid, HOST)
    assert info.game.status == "active" and info.awaiting == {0, 1}
    with pytest.raises(errors.NotInLobby):
        await service.join(gid, CEM, "Cem")


async def test_leave_renumbers_and_passes_host(service: Service) -> None:
    """When the host leaves a lobby the next player becomes host; seats stay 0..n-1."""
    gid = await new_toy(service)
    await service.join(gid, BEA, "Bea")
    info = await service.leave(gid, HOST)
    assert [(s.seat, s.name) for s in info.seats] == [(0, "Bea")]
    assert info.game.host_xid == BEA
    info = await service.leave(gid, BEA)
    assert info.game.status == "abandoned"


async def test_move_flow_and_result(service: Service) -> None:
    """Moves advance the version; the last one finishes the game with ranks."""
    gid = await started_toy(service)
    for a, b in ((3, 1), (2, 2), (1, 3)):
        await service.move(gid, HOST, {"kind": "bid", "card": a})
        out = await service.move(gid, BEA, {"kind": "bid", "card": b})
    assert out.finished and out.version == 6
    assert out.result is not None
    assert [s["rank"] for s in out.result["seats"]] == [1, 1] or out.result["decided_by"] != "shared"
    info = await service.info(gid)
    assert info.game.status == "finished"
    with pytest.raises(errors.GameOver):
        await service.move(gid, HOST, {"kind": "bid", "card": 1})


async def test_wrong_player_and_illegal_move_change_nothing(service: Service, db: store.Store) -> None:
    """A stranger, an unknown card and a malformed move are refused; the version stays."""
    gid = await started_toy(service)
    with pytest.raises(errors.NotInGame):
        await service.move(gid, CEM, {"kind": "bid", "card": 1})
    with pytest.raises(errors.IllegalMove):
        await service.move(gid, HOST, {"kind": "bid", "card": 7})
    with pytest.raises(errors.IllegalMove):
        await service.move(gid, HOST, {"nonsense": True})
    assert (await db.get_game(gid)).version == 0  # type: ignore[union-attr]
    assert await db.moves(gid) == []


async def test_stale_version_refused(service: Service) -> None:
    """A button computed for an older version is refused and changes nothing."""
    gid = await started_toy(service)
    await service.move(gid, HOST, {"kind": "bid", "card": 1}, expected_version=0)
    with pytest.raises(errors.StaleAction):
        await service.move(gid, BEA, {"kind": "bid", "card": 1}, expected_version=0)


async def test_concurrent_submissions_apply_exactly_once(service: Service, db: store.Store) -> None:
    """Twenty simultaneous clicks of the same turn: one applied, the others told why."""
    gid = await started_toy(service)
    results = await asyncio.gather(
        *(service.move(gid, HOST, {"kind": "bid", "card": 2}, expected_version=0) for _ in range(20)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, errors.GameError)]
    assert len(applied) == 1 and len(refused) == 19
    assert {type(r) for r in refused} == {errors.StaleAction}
    assert len(await db.moves(gid)) == 1


async def test_concurrent_without_version_still_once(service: Service, db: store.Store) -> None:
    """Even without a version, a second identical submission is refused (not your turn)."""
    gid = await started_toy(service)
    results = await asyncio.gather(
        *(service.move(gid, HOST, {"kind": "bid", "card": 2}) for _ in range(10)), return_exceptions=True
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, errors.NotYourTurn) for r in results if isinstance(r, BaseException))
    assert len(await db.moves(gid)) == 1


async def test_replay_rebuilds_every_snapshot(service: Service, db: store.Store) -> None:
    """The move log alone reproduces the snapshot (state JSON) of the current version."""
    gid = await started_toy(service)
    await service.move(gid, HOST, {"kind": "bid", "card": 3})
    await service.move(gid, BEA, {"kind": "bid", "card": 1})
    snap = await db.snapshot(gid)
    fresh = Service(db, service.clock)
    replayed = await fresh.snapshot(gid, version=1)
    assert replayed.version == 1 and replayed.state.pending == (3, None)
    from bot.testing.toygame import RULES

    game = await db.get_game(gid)
    assert game is not None and snap is not None
    assert RULES.to_json(await fresh._replay(game, game.version)) == snap[1]


async def test_ai_seat_plays(service: Service) -> None:
    """An AI seat moves when awaited, deterministically from the game's seed."""
    info = await service.create_game(
        guild_xid=9, channel_xid=5, kind="toy", options={}, host_xid=HOST, host_name="Ana", ai_seats=1
    )
    assert info.seats[1].is_ai and info.seats[1].name.startswith("AI")
    await service.start(info.id, HOST)
    out = await service.play_ai(info.id)
    assert out is not None and out.seat == 1 and out.move == {"kind": "bid", "card": 3}
    assert await service.play_ai(info.id) is None  # the human is awaited now


async def test_ai_seats_are_named_in_the_game_language(service: Service) -> None:
    """AI seats take their names (number and level) from the catalogue in the game's language, and take
    the new language's names when the host changes it; a player's name is never touched."""
    info = await service.create_game(
        guild_xid=9,
        channel_xid=6,
        kind="quadropolis",
        options={},
        host_xid=HOST,
        host_name="Ana",
        ai_seats=2,
        ai_level="strong",
        locale="ru",
    )
    assert [s.name for s in info.seats] == ["Ana", "ИИ 1 – сильный", "ИИ 2 – сильный"]
    info = await service.add_ai(info.id, HOST, "greedy")
    assert info.seats[3].name == "ИИ 3 – жадный"
    await service.set_locale(info.id, "pl")
    info = await service.info(info.id)
    assert [s.name for s in info.seats] == ["Ana", "AI 1 – silny", "AI 2 – silny", "AI 3 – zachłanny"]
    await service.set_locale(info.id, "es")
    assert [s.name for s in (await service.info(info.id)).seats][1:] == [
        "IA 1 – fuerte",
        "IA 2 – fuerte",
        "IA 3 – codiciosa",
    ]


async def test_resign_in_two_player_game_ends_it(service: Service) -> None:
    """With one player left standing the game ends and they win by forfeit."""
    gid = await started_toy(service)
    info = await service.resign(gid, BEA)
    assert info.game.status == "finished"
    assert info.game.result is not None and info.game.result["decided_by"] == "forfeit"
    assert [s["rank"] for s in info.game.result["seats"]] == [1, 2]


async def test_abandon_permissions(service: Service) -> None:
    """Only the host or a server manager may abandon a game."""
    gid = await started_toy(service)
    with pytest.raises(errors.NotAllowed):
        await service.abandon(gid, BEA, is_admin=False)
    info = await service.abandon(gid, CEM, is_admin=True)
    assert info.game.status == "abandoned"
    await new_toy(service)  # the channel is free again


async def test_bad_options_are_sentences(service: Service) -> None:
    """An unknown option value is refused with the choices named."""
    with pytest.raises(errors.IllegalMove) as err:
        await service.create_game(
            guild_xid=9, channel_xid=3, kind="toy", options={"speed": "warp"}, host_xid=HOST, host_name="Ana"
        )
    assert "normal" in str(err.value)
    with pytest.raises(errors.IllegalMove):
        await service.create_game(guild_xid=9, channel_xid=3, kind="chess", options={}, host_xid=HOST, host_name="Ana")


WRITER = textwrap.dedent("""
    import asyncio, sys
    sys.path.insert(0, {root!r})
    from bot import store
    from bot import games
    from bot.service import Service
    from bot.testing.toygame import RULES
    games.register_rules(RULES)

    async def main():
        db = await store.Store.open({path!r})
        svc = Service(db)
        info = await svc.create_game(guild_xid=1, channel_xid=1, kind="toy", options={{}},
                                     host_xid=1, host_name="A")
        await svc.join(info.id, 2, "B")
        await svc.start(info.id, 1)
        n = 0
        for card in (1, 2, 3):
            for user in (1, 2):
                await svc.move(info.id, user, {{"kind": "bid", "card": card}})
                n += 1
                print("ACK", n, flush=True)
                if n == 3:
                    await asyncio.sleep(60)  # killed here, between moves

    asyncio.run(main())
""")


def test_kill_between_moves_loses_nothing_acknowledged(tmp_path: Path) -> None:
    """kill -9 between moves: every acknowledged move is in the reopened database, none twice."""
    path = tmp_path / "kill.sqlite3"
    root = str(Path(__file__).resolve().parents[1])
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER.format(root=root, path=str(path))], stdout=subprocess.PIPE, text=True
    )
    acked = 0
    assert proc.stdout is not None
    for line in proc.stdout:
        acked = int(line.split()[1])
        if acked == 3:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)

    async def check() -> None:
        db = await store.Store.open(path)
        try:
            assert await db.integrity_check() == "ok"
            moves = await db.moves(1)
            assert [m.version for m in moves] == [1, 2, 3]
            game = await db.get_game(1)
            assert game is not None and game.version == 3
            svc = Service(db)
            snap = await svc.snapshot(1)
            assert snap.state.revealed == ((1, 1),) and snap.state.pending == (2, None)
            out = await svc.move(1, 2, {"kind": "bid", "card": 2})  # the game resumes
            assert out.version == 4
        finally:
            await db.close()

    asyncio.run(check())


async def test_old_button_with_same_choices_still_counts(service: Service) -> None:
    """In a simultaneous turn, another player's commit does not make my unchanged choices stale."""
    gid = await started_toy(service)
    _, _, moves, token = await service.choices(gid, HOST)
    await service.move(gid, BEA, {"kind": "bid", "card": 1})  # version 0 -> 1
    out = await service.move(gid, HOST, moves[0], expected_version=0, token=token)
    assert out.version == 2


async def test_the_next_private_menu_comes_from_the_move_while_the_game_is_still_there(
    service: Service, db: store.Store
) -> None:
    """The menu after a reveal comes from the snapshot the move left, without reading the game again; once the game
    moved on (another bid), the same snapshot is not trusted: the menu is read as the game is now."""
    gid = await started_toy(service)
    await service.move(gid, HOST, {"kind": "bid", "card": 3})
    reveal = await service.move(gid, BEA, {"kind": "bid", "card": 1})  # round 2: both awaited
    assert reveal.snapshot is not None
    fresh = await service.private_choices(gid, BEA)
    before = COUNTERS.statements
    made = await service.private_choices(gid, BEA, reveal.snapshot)
    assert COUNTERS.statements == before, "the game was read again"
    assert made[:3] == fresh[:3] and made[3].version == reveal.version == 2
    await service.move(gid, HOST, {"kind": "bid", "card": 2})
    seat, moves, token, snap = await service.private_choices(gid, BEA, reveal.snapshot)
    assert snap.version == 3 and snap.info.awaiting == {1} and (seat, moves, token) == fresh[:3]
    await service.move(gid, BEA, moves[0], expected_version=2, token=token)  # still the same choices: obeyed
    assert (await db.get_game(gid)).version == 4  # type: ignore[union-attr]


async def test_double_click_of_an_old_button_is_stale(service: Service) -> None:
    """The same button clicked twice plays once, even when the choices token matches."""
    gid = await started_toy(service)
    _, _, moves, token = await service.choices(gid, HOST)
    await service.move(gid, HOST, moves[0], expected_version=0, token=token)
    with pytest.raises(errors.StaleAction):
        await service.move(gid, HOST, moves[1], expected_version=0, token=token)


async def test_changed_choices_make_old_button_stale(service: Service) -> None:
    """After a reveal my hand changed, so a button from before it is refused."""
    gid = await started_toy(service)
    _, _, moves, token = await service.choices(gid, BEA)
    await service.move(gid, HOST, {"kind": "bid", "card": 3})
    await service.move(gid, BEA, {"kind": "bid", "card": 1})  # reveal; round 2
    await service.move(gid, HOST, {"kind": "bid", "card": 2})
    with pytest.raises(errors.StaleAction):
        await service.move(gid, BEA, moves[1], expected_version=0, token=token)


async def test_undo_own_move_before_reveal(service: Service, db: store.Store) -> None:
    """A bid not yet revealed can be taken back; the log keeps it marked, replay skips it."""
    gid = await started_toy(service)
    await service.move(gid, HOST, {"kind": "bid", "card": 3})
    seat, move, version = await service.undo_preview(gid, HOST)
    assert (seat, move, version) == (0, {"kind": "bid", "card": 3}, 1)
    info = await service.undo(gid, HOST, version)
    assert info.game.version == 2 and info.awaiting == {0, 1}
    assert await db.moves(gid) == [] and len(await db.moves(gid, include_undone=True)) == 1
    out = await service.move(gid, HOST, {"kind": "bid", "card": 1})
    assert out.version == 3
    fresh = Service(db, service.clock)
    assert (await fresh.snapshot(gid)).state.pending == (1, None)


async def test_undo_refused_after_reveal_or_for_others(service: Service) -> None:
    """A move that revealed bids, or someone else's move, cannot be taken back."""
    gid = await started_toy(service)
    await service.move(gid, HOST, {"kind": "bid", "card": 3})
    with pytest.raises(errors.NotAllowed):
        await service.undo_preview(gid, BEA)
    await service.move(gid, BEA, {"kind": "bid", "card": 1})
    with pytest.raises(errors.NotAllowed) as err:
        await service.undo_preview(gid, BEA)
    assert err.value.key == "error.undo_reveals"


async def test_listeners_hear_moves_and_ends(service: Service) -> None:
    """Move and end listeners are called; a failing listener does not break the move."""
    heard: list[str] = []

    async def on_move(outcome: object) -> None:
        heard.append("move")
        raise RuntimeError("listener bug")

    async def on_end(info: object) -> None:
        heard.append("end")

    service.move_listeners.append(on_move)
    service.end_listeners.append(on_end)
    gid = await started_toy(service)
    await service.move(gid, HOST, {"kind": "bid", "card": 3})
    await service.abandon(gid, HOST, is_admin=False)
    assert heard == ["move", "end"]


async def test_play_for_a_late_human(service: Service) -> None:
    """At a deadline the AI can play one move for a human seat, or take the seat over."""
    gid = await started_toy(service)
    out = await service.play_for(gid, 1, take_over=True)
    assert out is not None and out.seat == 1
    assert (await service.info(gid)).seats[1].is_ai


async def test_play_for_skips_a_seat_that_just_moved(service: Service) -> None:
    """A deadline move for a player who moved a moment ago does nothing."""
    gid = await started_toy(service)
    await service.move(gid, BEA, {"kind": "bid", "card": 1})
    await service.move(gid, HOST, {"kind": "bid", "card": 1})  # reveal; both awaited again
    assert await service.play_for(gid, 1, unless_moved_since=0) is None
    assert await service.play_for(gid, 1, unless_moved_since=2) is not None


async def test_forget_user_keeps_games_playable(service: Service, db: store.Store) -> None:
    """A privacy request removes the user's id and name; the AI plays their seat on."""
    gid = await started_toy(service)
    forgotten: list[int] = []

    async def listener(user: int) -> int:
        forgotten.append(user)
        return 1

    service.forget_listeners.append(listener)
    changed = await service.forget_user(BEA)
    assert changed >= 2 and forgotten == [BEA]
    info = await service.info(gid)
    assert info.seats[1].user_xid is None and info.seats[1].is_ai and info.seats[1].name == "Former player"
    assert await service.play_ai(gid) is not None
    assert await db.list_games(user_xid=BEA) == []


async def test_ai_seats_named_by_an_older_catalogue_take_the_new_language(service: Service) -> None:
    """A game made before the AI seats' names changed form ("AI 2 (strong)") still renames them when the host
    changes its language; a player whose name holds a number is never touched."""
    info = await service.create_game(
        guild_xid=9,
        channel_xid=6,
        kind="quadropolis",
        options={},
        host_xid=HOST,
        host_name="Ana 2 strong",
        ai_seats=2,
        ai_level="strong",
    )
    for seat in info.seats[1:]:
        await service._store.update_seat(info.id, seat.seat, name=f"AI {seat.seat} (strong)")
    await service.set_locale(info.id, "pl")
    assert [s.name for s in (await service.info(info.id)).seats] == ["Ana 2 strong", "AI 1 – silny", "AI 2 – silny"]
