"""What every community feature shares: time units, the refusal error, the loop's actions (outbox
rows) and the :class:`Feature` base (the service, the clock, forgetting a player)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any, ClassVar

from bot import errors
from bot.service import GameInfo, Service
from bot.store.community.outbox import NewOutbox, OutboxRow

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS

DEFAULT_BATCH = 100
"""Rows each stage of one loop pass may read (the loop's bounded batch)."""
ACTING_RETRY_MS = 15 * MINUTE_MS
"""An AI move decided for a deadline that has not happened after this long is decided again."""
ACTING_STATES = ("acting", "taking_over")

Action = OutboxRow
"""What a pass asks the Discord layer to do: ``kind`` and ``params`` say what (see :data:`KINDS`)."""

KINDS = {
    "reminder": "mention the awaited player in the game's channel",
    "reminder_dm": "the same reminder by DM (the player opted in)",
    "turn_dm": "a DM: it is your turn (opt-in 'tell me when I am next')",
    "last": "mention the only player still to choose in a simultaneous turn",
    "vote_open": "post the timeout vote with its buttons, mentioning the voters",
    "vote_closed": "edit a vote message: the vote is over (params: decision)",
    "ai_move": "let the AI play the late seat's move (execute with Reminders.execute_ai)",
    "extended": "announce that the players gave the late player more time",
    "deadline_passed": "announce a deadline passed with nothing to do (no AI, or policy 'none')",
    "forfeit": "the late player of a rated league's game forfeits (execute with Reminders.execute_forfeit)",
    "undo_expired": "edit an undo proposal: the game moved on",
    "analysis_ready": "post a finished game's analysis summary in its channel (bot.community.analyses)",
}


class CommunityError(errors.GameError):
    """A refusal of a community command; the key is in ``bot/locales/en/community.json``."""

    default_key = "community.error.generic"


def new_outbox(
    kind: str, info: GameInfo, seat: int | None, user_xid: int | None, params: Mapping[str, Any]
) -> NewOutbox:
    """An action about a game, to be claimed (or queued) with a fresh nonce."""
    return NewOutbox(
        kind=kind,
        nonce=f"cb{secrets.token_hex(10)}",
        game_id=info.id,
        seat=seat,
        user_xid=user_xid,
        guild_xid=info.game.guild_xid,
        channel_xid=info.game.channel_xid,
        params=dict(params),
    )


class Feature:
    """A community feature over the :class:`bot.service.Service` (its store and clock)."""

    personal_columns: ClassVar[tuple[str, ...]] = ()
    """``table.column`` of every column this feature's tables keep a player's id or name in; its
    :meth:`forget_user` clears them (checked by the schema scan in the tests)."""

    def __init__(self, service: Service) -> None:
        self.service = service

    @property
    def now(self) -> int:
        return self.service.clock.now_ms()

    async def forget_user(self, user_xid: int) -> int:
        """A privacy request: clear or anonymise the player everywhere this feature keeps them;
        returns the records changed."""
        raise NotImplementedError

    async def guild_game(self, guild_xid: int | None, game_id: int) -> GameInfo:
        """A game of this server (UnknownGame for another server's)."""
        info = await self.service.info(game_id)
        if guild_xid is not None and info.game.guild_xid != guild_xid:
            raise errors.UnknownGame(game=game_id)
        return info
