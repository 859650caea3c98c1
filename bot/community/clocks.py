"""Correspondence clocks over the store (issue 41): the turn records kept as games move, and each seat's
bank of a game now, computed by the pure :mod:`bot.community.clock` from the records and the move log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot import games
from bot.community.base import DAY_MS, HOUR_MS, CommunityError, Feature
from bot.community.clock import Correction, Gift, History, Move, Pause, SeatClock, TimeControl, Turn, clocks
from bot.community.settings import Preferences
from bot.service import GameInfo, Service
from bot.store import GameRow, SeatRow
from bot.store.community.clocks import ClockStore, turn_values
from bot.store.community.reminders import WaitRow, WaitStore


async def _no_league_clock(info: GameInfo) -> str | None:
    del info
    return None


class Clocks(Feature):
    """The clocks' records and figures. It keeps no player's id of its own (a vacation's record is the
    reminder loop's, forgotten with it), so forget-me has nothing to do here."""

    def __init__(self, service: Service, db: ClockStore, preferences: Preferences, waits: WaitStore) -> None:
        super().__init__(service)
        self.db = db
        self.preferences = preferences
        self.waits = waits
        """A gift plans the game's waits again (a bank that grew runs out later)."""
        self.league_clock: Callable[[GameInfo], Awaitable[str | None]] = _no_league_clock
        """game -> the time control of the running season of a league all its players belong to (the
        composition root sets it)."""

    async def adopt_league_clock(self, info: GameInfo) -> None:
        """A game that just started, whose players all belong to a league whose running season has a time
        control, and which has none of its own, takes the season's (the lobby door calls this before the first
        turn post is built; the reminder loop's first pass again, for a start that stopped halfway)."""
        clock = await self.league_clock(info)
        if clock is None or "clock" in await self.preferences.db.settings("game", info.id):
            return
        await self.preferences.update_settings(info.game.guild_xid or 0, {"clock": clock}, game_id=info.id)

    async def forget_user(self, user_xid: int) -> int:
        del user_xid
        return 0

    async def record(self, info: GameInfo, *, changed: bool = True) -> None:
        """Keep who is awaited now, from when (the game's ``awaiting_since``, a committed time)."""
        turn = self.turn_record(info, changed=changed)
        if turn is not None:
            await self.db.write_turn(turn)

    def turn_record(self, info: GameInfo, *, changed: bool = True) -> tuple[int, int, int, str] | None:
        """What :meth:`record` writes, as the parameters the waits' store writes it with (one statement with a
        move's waits on PostgreSQL, one transaction on SQLite); None when there is nothing to record."""
        if info.game.status != "active" or not changed:
            return None
        return turn_values(info.id, info.game.version, info.game.awaiting_since or info.game.updated_at, info.awaiting)

    async def history(self, info: GameInfo) -> History:
        g = info.game
        start = g.started_at or g.created_at
        seats_of: dict[int, list[int]] = {}
        for s in info.seats:
            if s.user_xid is not None:
                seats_of.setdefault(s.user_xid, []).append(s.seat)
        rec = await self.db.records(g.id, g.guild_xid, seats_of, start)
        turns = [Turn(v, at, seats) for v, at, seats in rec.turns]
        first = turns[0].version if turns else g.version
        if (not turns or first > 0) and not any(version < first for _, version, _ in rec.moves):
            # Nobody recorded the start (its first move came before a loop pass, or the records of the moves
            # since were taken back with them): no live move before the first record, so who was awaited
            # then is the rules' setup, the very one the service made; it is kept for the next time.
            rules = games.rules(g.kind)
            seats = frozenset(rules.awaiting(rules.setup(g.options, len(info.seats), g.seed)))
            await self.db.record_turn(g.id, 0, start, seats)
            turns.insert(0, Turn(0, start, seats))
        elif first > 0:
            # A game older than the records: its clocks start, full, with its first record.
            if not turns:
                turns = [Turn(g.version, g.awaiting_since or start, info.awaiting)]
            start = max(start, turns[0].at)
        pauses = [Pause(seat, since, ended) for user, since, ended in rec.aways for seat in seats_of.get(user, [])]
        pauses += [Pause(None, since, until) for since, until in rec.downtime]
        return History(
            start=start,
            turns=tuple(turns),
            moves=tuple(Move(seat, version, at) for seat, version, at in rec.moves),
            pauses=tuple(pauses),
            gifts=tuple(Gift(seat, at, ms) for seat, at, ms, _ in rec.gifts),
            corrections=tuple(Correction(seat, at, ms) for seat, at, ms in rec.corrections),
            frozen_at=g.paused_at,
        )

    async def mark(self, game: GameRow, seats: Sequence[SeatRow]) -> tuple[object, ...]:
        """What a cached page's banks depend on besides the game's version (one round trip): it changes with
        a gift, a correction, a vacation, the bot's downtime, a turn record, the time control or a pause."""
        users = [s.user_xid for s in seats if s.user_xid is not None]
        return (game.paused_at, *await self.db.mark(game.id, game.guild_xid, users))

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

    async def give_time(self, game_id: int, giver_xid: int, to_xid: int, hours: float) -> tuple[GameInfo, int, int]:
        """``/game give-time``: the giver's opponent gets ``hours`` more in their bank, at most once a day from
        the same giver. Returns (the game, the seat given to, the ms); CommunityError (a sentence) for a game
        without a bank, a giver or a player who is not an opponent in it, or a second gift within a day."""
        info = await self.service.info(game_id)
        if info.game.status != "active":
            raise CommunityError("community.error.give_time_over")
        if not (await self.preferences.of_game(info.game)).time_control.on:
            raise CommunityError("community.error.give_time_no_bank")
        giver, to = info.seat_of(giver_xid), info.seat_of(to_xid)
        if giver is None or giver.resigned:
            raise CommunityError("community.error.give_time_not_playing")
        if to is None or to.seat == giver.seat or to.is_ai:
            raise CommunityError("community.error.give_time_not_opponent")
        if not 0 < hours <= MAX_GIFT_HOURS:
            raise CommunityError("community.error.give_time_hours", most=MAX_GIFT_HOURS)
        ms, now = int(hours * HOUR_MS), self.now
        if not await self.db.give(game_id, giver.seat, to.seat, ms, at=now, day_ms=GIFT_EVERY_MS):
            last = await self.db.last_gift(game_id, giver.seat, to.seat) or now
            raise CommunityError("community.error.give_time_daily", again=last + GIFT_EVERY_MS)
        await self.waits.reschedule_game(game_id, now)
        return info, to.seat, ms

    async def correct(
        self, game_id: int, player_xid: int, hours: int, *, allowed: bool
    ) -> tuple[GameInfo, int, int, int]:
        """A host's or moderator's correction (``/game settings bank_player: bank_hours:``): ``hours`` added to
        the player's bank, or taken away when negative (a bank never goes below zero). ``allowed``: the asker
        is the game's host or may manage the server, which the front-end knows. Returns (the game, the seat,
        the ms added, the bank after); CommunityError (a sentence, nothing changed) for anyone else, a game
        without a bank, someone who is not a human player of it, or no hours at all, or too many."""
        info = await self.service.info(game_id)
        if not allowed:
            raise CommunityError("community.error.settings_host")
        if info.game.status != "active":
            raise CommunityError("community.error.correct_over")
        control = (await self.preferences.of_game(info.game)).time_control
        if not control.on:
            raise CommunityError("community.error.correct_no_bank")
        seat = info.seat_of(player_xid)
        if seat is None or seat.is_ai or seat.resigned:
            raise CommunityError("community.error.correct_not_player")
        if hours == 0 or abs(hours) > MAX_CORRECTION_HOURS:
            raise CommunityError("community.error.correct_hours", most=MAX_CORRECTION_HOURS)
        ms, now = hours * HOUR_MS, self.now
        await self.db.correct(game_id, seat.seat, ms, at=now)
        await self.waits.reschedule_game(game_id, now)
        bank = (await self.of_game(info, control, now)).get(seat.seat)
        return info, seat.seat, ms, bank.bank_ms if bank is not None else 0


GIFT_EVERY_MS = DAY_MS
"""A player gives time to the same opponent at most once in this long."""
MAX_GIFT_HOURS = 72
"""The most one gift may add."""
MAX_CORRECTION_HOURS = 720
"""The most one correction may add or take (30 days)."""
