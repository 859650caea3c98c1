"""Correspondence clocks over the store (issue 41): the turn records kept as games move, and each seat's
bank of a game now, computed by the pure :mod:`bot.community.clock` from the records and the move log."""

from __future__ import annotations

from bot import games
from bot.community.base import DAY_MS, Feature
from bot.community.clock import Gift, History, Move, Pause, SeatClock, TimeControl, Turn, clocks
from bot.service import GameInfo, Service
from bot.store.community.clocks import ClockStore
from bot.store.community.reminders import WaitRow


class Clocks(Feature):
    """The clocks' records and figures. It keeps no player's id of its own (a vacation's record is the
    reminder loop's, forgotten with it), so forget-me has nothing to do here."""

    def __init__(self, service: Service, db: ClockStore) -> None:
        super().__init__(service)
        self.db = db

    async def forget_user(self, user_xid: int) -> int:
        del user_xid
        return 0

    async def record(self, info: GameInfo, *, changed: bool = True) -> None:
        """Keep who is awaited now, from when (the game's ``awaiting_since``, a committed time)."""
        if info.game.status != "active" or not changed:
            return
        at = info.game.awaiting_since or info.game.updated_at
        await self.db.record_turn(info.id, info.game.version, at, info.awaiting)

    async def history(self, info: GameInfo) -> History:
        g = info.game
        start = g.started_at or g.created_at
        seats_of: dict[int, list[int]] = {}
        for s in info.seats:
            if s.user_xid is not None:
                seats_of.setdefault(s.user_xid, []).append(s.seat)
        rec = await self.db.records(g.id, g.guild_xid, seats_of, start)
        turns = [Turn(v, at, seats) for v, at, seats in rec.turns]
        if not turns or turns[0].version > 0:
            # Nobody recorded the start (its first move came before a loop pass): who was awaited then is
            # the rules' setup, the very one the service made; it is kept for the next time.
            first = frozenset(
                games.rules(g.kind).awaiting(games.rules(g.kind).setup(g.options, len(info.seats), g.seed))
            )
            await self.db.record_turn(g.id, 0, start, first)
            turns.insert(0, Turn(0, start, first))
        pauses = [Pause(seat, since, ended) for user, since, ended in rec.aways for seat in seats_of.get(user, [])]
        pauses += [Pause(None, since, until) for since, until in rec.downtime]
        return History(
            start=start,
            turns=tuple(turns),
            moves=tuple(Move(seat, version, at) for seat, version, at in rec.moves),
            pauses=tuple(pauses),
            gifts=tuple(Gift(seat, at, ms) for seat, at, ms, _ in rec.gifts),
            frozen_at=g.paused_at,
        )

    async def of_game(self, info: GameInfo, control: TimeControl, at: int | None = None) -> dict[int, SeatClock]:
        """Every seat's clock at ``at`` (now by default); empty when the game has no bank."""
        if not control.on or info.game.status != "active":
            return {}
        return clocks(control, await self.history(info), [s.seat for s in info.seats], self.now if at is None else at)

    async def turn_bank(
        self, info: GameInfo, wait: WaitRow, control: TimeControl, now: int
    ) -> tuple[int | None, int | None]:
        """For the reminder loop: when the awaited seat's bank runs (or ran) out this turn and was not
        acted on yet, and what is left now; (None, None) without a bank. A bank that ran out before a
        vote gave more time (the wait's last change) is not acted on again."""
        seat = (await self.of_game(info, control, now)).get(wait.seat)
        if seat is None:
            return None, None
        expires = seat.expires_at(now)
        if expires is not None:
            expires = max(expires, wait.since)
            if wait.state_at is not None and expires <= wait.state_at:
                expires = None
        return expires, seat.bank_ms


GIFT_EVERY_MS = DAY_MS
"""A player gives time to the same opponent at most once in this long."""
