"""Shared helpers: a campaign over the test service, and campaign games played to their bonus."""

from __future__ import annotations

from typing import Any

from bot.btc_campaigns import Campaigns
from bot.rules.btc.rules import RULES
from bot.service import Service

ALICE = 101
BOB = 202
CHANNEL = 900
GUILD = 1


async def open_and_start(campaigns: Campaigns, user: int = ALICE, channel: int = CHANNEL) -> int:
    """Open the campaign's next game and start it; returns the game id."""
    _, info = await campaigns.open_next(user, f"user{user}", guild_xid=GUILD, channel_xid=channel)
    await campaigns.service.start(info.id, user)
    return info.id


async def play_to_bonus(service: Service, game_id: int, user: int = ALICE, level: str = "greedy") -> Any:
    """The AI plays the human's seat until the campaign bonus is due; returns the state then."""
    for step in range(200):
        snap = await service.snapshot(game_id)
        if snap.state.phase in ("bonus", "over"):
            return snap.state
        move = RULES.ai_move(snap.state, 0, level, step)
        await service.move(game_id, user, move)
    raise AssertionError("the game did not reach its bonus")


async def bonus_moves(service: Service, game_id: int, user: int = ALICE) -> list[dict[str, Any]]:
    _, _, moves, _ = await service.choices(game_id, user)
    return [m for m in moves if m["kind"] == "bonus"]


async def play_game(
    campaigns: Campaigns, bonus_type: str | None = None, user: int = ALICE, level: str = "greedy"
) -> int:
    """Open, start and play the next campaign game, taking ``bonus_type`` (else the first offered)."""
    game_id = await open_and_start(campaigns, user)
    state = await play_to_bonus(campaigns.service, game_id, user, level)
    assert state.phase == "bonus"
    offered = await bonus_moves(campaigns.service, game_id, user)
    move = next(m for m in offered if bonus_type is None or m["type"] == bonus_type)
    await campaigns.service.move(game_id, user, move)
    return game_id
