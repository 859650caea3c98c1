"""Undo by agreement of every other human, bounded by the game; followers."""

from __future__ import annotations

import pytest

from bot import errors
from bot.community.base import CommunityError
from bot.composition import App
from bot.service import Service
from tests.community.conftest import ANA, BEA, CEM, GUILD, bid, run, toy_game
from tests.conftest import FakeClock


async def test_undo_needs_the_others_consent(service: Service, community: App) -> None:
    """Ana proposes; the move stays until Bea accepts; then it is taken back and Ana is awaited."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    proposal = await community.undo.propose_undo(gid, ANA)
    assert not proposal.done and proposal.voters == [BEA] and proposal.move == {"kind": "bid", "card": 3}
    assert proposal.summary[0] == "toy.committed" and proposal.summary[1]["player"] == "Ana"
    assert (await service.info(gid)).awaiting == {1}
    answer = await community.undo.answer_undo(gid, proposal.version, BEA, True)
    assert answer.status == "accepted"
    info = await service.info(gid)
    assert info.awaiting == {0, 1} and await service._store.moves(gid) == []
    assert set((await community.reminders.db.waits_for_game(gid)).keys()) == {0, 1}


async def test_undo_refused_keeps_the_move(service: Service, community: App) -> None:
    """One refusal ends the proposal; the move stands; later clicks are refused."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 3)
    proposal = await community.undo.propose_undo(gid, ANA)
    answer = await community.undo.answer_undo(gid, proposal.version, BEA, False)
    assert answer.status == "refused"
    assert len(await service._store.moves(gid)) == 1
    with pytest.raises(CommunityError) as err:
        await community.undo.answer_undo(gid, proposal.version, BEA, True)
    assert err.value.key == "community.error.undo_over"


async def test_undo_expires_when_the_game_moves_on(service: Service, community: App, clock: FakeClock) -> None:
    """A proposal about version 1 is void once the game is at version 2; its message is closed."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 2)
    proposal = await community.undo.propose_undo(gid, ANA)
    await community.undo.set_undo_message(gid, proposal.version, 1, 777)
    await bid(service, gid, BEA, 1)
    actions = await run(community, clock)
    assert [(a.kind, a.params["message_xid"]) for a in actions if a.kind == "undo_expired"] == [("undo_expired", 777)]
    with pytest.raises(CommunityError) as err:
        await community.undo.answer_undo(gid, proposal.version, BEA, True)
    assert err.value.key == "community.error.undo_over"


async def test_undo_refused_after_a_reveal(service: Service, community: App) -> None:
    """Bea's bid revealed both bids: it cannot be taken back (the rules say it revealed information)."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 2)
    await bid(service, gid, BEA, 1)
    with pytest.raises(errors.NotAllowed) as err:
        await community.undo.propose_undo(gid, BEA)
    assert err.value.key == "error.undo_reveals"


async def test_only_the_last_mover_may_propose(service: Service, community: App) -> None:
    """Bea has not moved, a stranger is not in the game: both refused; one proposal at a time."""
    gid = await toy_game(service)
    await bid(service, gid, ANA, 2)
    with pytest.raises(errors.NotAllowed):
        await community.undo.propose_undo(gid, BEA)
    with pytest.raises(errors.NotInGame):
        await community.undo.propose_undo(gid, CEM)
    proposal = await community.undo.propose_undo(gid, ANA)
    with pytest.raises(CommunityError) as err:
        await community.undo.propose_undo(gid, ANA)
    assert err.value.key == "community.error.undo_pending"
    with pytest.raises(CommunityError) as err:
        await community.undo.answer_undo(gid, proposal.version, CEM, True)
    assert err.value.key == "community.error.not_asked"


async def test_undo_against_the_ai_needs_nobody(service: Service, community: App) -> None:
    """With no other human, the move is taken back at once."""
    info = await service.create_game(
        guild_xid=GUILD, channel_xid=4, kind="toy", options={}, host_xid=ANA, host_name="Ana", ai_seats=1
    )
    await service.start(info.id, ANA)
    await bid(service, info.id, ANA, 1)
    proposal = await community.undo.propose_undo(info.id, ANA)
    assert proposal.done and await service._store.moves(info.id) == []


async def test_follow_and_unfollow(service: Service, community: App) -> None:
    """A spectator follows a game and is among its mentions; unfollowing removes them."""
    gid = await toy_game(service)
    info = await community.followers.follow(GUILD, gid, CEM)
    assert await community.followers.followers(info) == [CEM]
    with pytest.raises(CommunityError):
        await community.followers.follow(GUILD, gid, CEM)
    await community.followers.unfollow(GUILD, gid, CEM)
    assert await community.followers.followers(info) == []
    with pytest.raises(CommunityError):
        await community.followers.unfollow(GUILD, gid, CEM)


async def test_follow_checks_the_server(service: Service, community: App) -> None:
    """A game of another server is unknown here."""
    gid = await toy_game(service, guild=77)
    with pytest.raises(errors.UnknownGame):
        await community.followers.follow(GUILD, gid, CEM)
