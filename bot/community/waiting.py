"""What a player asks of the reminder loop: no reminders for a while (snooze), away for some days (vacations,
which may pause deadlines), and the games on a server waiting for them (``mine``).

:class:`PlayerWaits` is the part of :class:`bot.community.reminders.Reminders` that answers these commands (the
loop is the rest of it); :mod:`bot.community.reminders` re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.community.base import DAY_MS, HOUR_MS, CommunityError, Feature
from bot.community.clocks import Clocks
from bot.community.settings import Preferences
from bot.community.votes import deadline_at
from bot.service import GameInfo
from bot.store.community.reminders import WaitStore


@dataclass(frozen=True)
class MineEntry:
    info: GameInfo
    seat: int
    since: int
    deadline: int | None
    snoozed_until: int | None


class PlayerWaits(Feature):
    """The player's commands over the waits of the reminder loop (its store, ``db``, and the preferences)."""

    preferences: Preferences
    db: WaitStore
    clocks: Clocks

    # -- player commands ---------------------------------------------------------------------
    async def snooze(
        self, user_xid: int, hours: float, *, game_id: int | None = None, guild_xid: int | None = None
    ) -> tuple[int, int]:
        """No reminders for ``hours`` in one game (or all the player's games on the server).
        Deadlines still run. Returns (waits snoozed, until)."""
        if not 0 < hours <= 24 * 7:
            raise CommunityError("community.error.snooze_range", high=24 * 7)
        until = self.now + int(hours * HOUR_MS)
        count = await self.db.snooze(user_xid, until, game_id=game_id, guild_xid=guild_xid)
        if count == 0:
            raise CommunityError("community.error.nothing_to_snooze")
        return count, until

    async def set_away(self, guild_xid: int, user_xid: int, days: float) -> tuple[int | None, bool]:
        """Go away for ``days`` (0: back now). Returns (until or None, deadlines paused)."""
        settings = await self.preferences.server_settings(guild_xid)
        now = self.now
        if days <= 0:
            if not await self.db.end_away(guild_xid, user_xid, now):
                raise CommunityError("community.error.not_away")
            return None, settings.away_pauses_deadlines
        if days > settings.away_max_days:
            raise CommunityError("community.error.away_too_long", days=settings.away_max_days)
        current = await self.db.away(guild_xid, user_xid)
        until = now + int(days * DAY_MS)
        if current is not None:
            if until - current.since > settings.away_max_days * DAY_MS:
                raise CommunityError("community.error.away_too_long", days=settings.away_max_days)
            await self.db.start_away(
                guild_xid, user_xid, since=current.since, until=until, pauses_deadlines=current.pauses_deadlines
            )
            return until, current.pauses_deadlines
        await self.db.start_away(
            guild_xid, user_xid, since=now, until=until, pauses_deadlines=settings.away_pauses_deadlines
        )
        return until, settings.away_pauses_deadlines

    async def mine(self, guild_xid: int, user_xid: int) -> list[MineEntry]:
        """Every game on the server waiting for this player, longest waiting first."""
        out = []
        for game in await self.service.game_rows(
            guild_xid=guild_xid, statuses=("active",), user_xid=user_xid, limit=200
        ):
            if game.paused_at is not None:
                continue  # its channel was deleted: it waits for nobody
            info = await self.service.info(game.id)
            seat = info.seat_of(user_xid)
            if seat is None or seat.is_ai or seat.seat not in info.awaiting:
                continue
            wait = await self.db.wait(game.id, seat.seat)
            settings = await self.preferences.of_game(info.game)
            others = any(s.user_xid is not None and not s.is_ai and s.seat != seat.seat for s in info.seats)
            since = wait.since if wait is not None else (game.awaiting_since or game.updated_at)
            deadline = deadline_at(wait, settings, others) if wait is not None else None
            if wait is not None and others:  # the bank, when it runs out first (issue 41)
                bank_at, _ = await self.clocks.turn_bank(info, wait, settings.time_control, self.now)
                if bank_at is not None:
                    deadline = bank_at if deadline is None else min(deadline, bank_at)
            if wait is not None and wait.deadline_state != "pending":
                deadline = None
            out.append(MineEntry(info, seat.seat, since, deadline, wait.snoozed_until if wait is not None else None))
        out.sort(key=lambda e: e.since)
        return out
