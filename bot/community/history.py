"""Finished games of a channel or a player, the board after any move (replay), and a whole game as
JSON (export), all rebuilt from the move log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import errors, export, games
from bot.community.base import CommunityError, Feature
from bot.games import View
from bot.service import GameInfo, named


@dataclass(frozen=True)
class ReplayFrame:
    info: GameInfo
    turn: int
    """How many (live) moves have been played in this frame (0: the set-up)."""
    turns: int
    version: int
    state: Any
    view: View
    seat: int | None
    """The seat that made the frame's last move (None at the set-up or for a system move)."""
    summary: tuple[str, dict[str, Any]] | None


class History(Feature):
    """History, replay and export over the service (no table of its own: games, seats and moves
    are the service's, and the service forgets a player there)."""

    async def history(
        self, guild_xid: int, *, channel_xid: int | None = None, user_xid: int | None = None, limit: int = 15
    ) -> list[GameInfo]:
        """Finished and abandoned games of a channel or a player on the server, newest first."""
        games = await self.service.game_rows(
            guild_xid=guild_xid,
            statuses=("finished", "abandoned"),
            channel_xid=channel_xid,
            user_xid=user_xid,
            limit=limit,
        )
        return [await self.service.info(g.id) for g in games]

    async def replay(self, guild_xid: int | None, game_id: int, turn: int | None = None) -> ReplayFrame:
        """The public board after ``turn`` moves (default: the last), rebuilt from the move log."""
        info = await self.guild_game(guild_xid, game_id)
        if info.game.status == "lobby":
            raise errors.NotInLobby("error.not_started")
        moves = await self.service.move_rows(game_id)
        turns = len(moves)
        if turn is None:
            turn = turns
        if not 0 <= turn <= turns:
            raise CommunityError("community.error.bad_turn", turns=turns)
        version = moves[turn - 1].version if turn else 0
        snap = await self.service.snapshot(game_id, version)
        summary = None
        seat: int | None = None
        if turn:
            row = moves[turn - 1]
            seat = row.seat if row.seat >= 0 else None
            rules = games.rules(info.game.kind)
            before_version = moves[turn - 2].version if turn > 1 else 0
            before = (await self.service.snapshot(game_id, before_version)).state
            key, params = rules.describe(before, row.seat, row.move, snap.state)
            summary = (key, named(info, row.seat, params))
        return ReplayFrame(info, turn, turns, version, snap.state, snap.view(None), seat, summary)

    async def replay_states(self, game_id: int) -> list[dict[str, Any]]:
        """The state JSON after each live move (index 0: the set-up), rebuilt from the log alone."""
        info = await self.service.info(game_id)
        rules = games.rules(info.game.kind)
        state = rules.setup(info.game.options, len(info.seats), info.game.seed)
        out = [rules.to_json(state)]
        for row in await self.service.move_rows(game_id):
            state = rules.apply(state, row.seat, row.move)
            out.append(rules.to_json(state))
        return out

    async def export(self, guild_xid: int | None, game_id: int) -> dict[str, Any]:
        """The whole game as JSON, in the format ``python -m bot local --replay FILE`` reads.

        Finished and abandoned games only: the seed and log of a game in play would reveal its
        hidden information (tile order, other hands).
        """
        info = await self.guild_game(guild_xid, game_id)
        if info.game.status not in ("finished", "abandoned"):
            raise CommunityError("community.error.export_live")
        return export.write(info.game, info.seats, await self.service.move_rows(game_id))

    async def forget_user(self, user_xid: int) -> int:
        """Nothing of its own to forget."""
        del user_xid
        return 0
