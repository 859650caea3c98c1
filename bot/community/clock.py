"""Correspondence clocks (issue 41), pure: each seat's time bank at an instant, computed from committed
timestamps only, never from a ticking counter, so a restart, a second process or a late announcement
gives the same figures.

A :class:`TimeControl` gives every seat ``bank_ms`` at the game's start. While a seat is awaited (a turn
record says so) and not paused (a vacation that pauses deadlines, or time the bot was down), its bank
runs down; in a simultaneous phase every awaited seat spends its own bank at once. A move after which
the seat is no longer awaited (its turn is over) adds ``increment_ms``, up to ``cap_ms``; a step of a
turn (the seat is still awaited after it) adds nothing. Time given by another player is added as given
(the cap bounds the increments only), and so is a host's or moderator's correction (``/game settings
bank_player: bank_hours:``), which may also take time away. A bank never goes below zero: the moment it reaches zero is
``ran_out_at``, and what happens then is the game's timeout policy (:mod:`bot.community.reminders`).

Events at one instant are taken in this order: the time up to that instant is spent first, then moves,
then turn changes, gifts and pauses. So a move committed 1 ms before the bank runs out counts.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

HOUR_MS = 3_600_000


@dataclass(frozen=True)
class TimeControl:
    """A game's bank: what each seat starts with, what a finished turn adds, and the most it may hold."""

    bank_ms: int
    increment_ms: int = 0
    cap_ms: int = 0
    """0: no cap."""

    @property
    def on(self) -> bool:
        return self.bank_ms > 0

    @classmethod
    def from_hours(cls, bank: float, increment: float = 0, cap: float = 0) -> TimeControl:
        return cls(int(bank * HOUR_MS), int(increment * HOUR_MS), int(cap * HOUR_MS))


OFF = TimeControl(0)
DAY_MS = 24 * HOUR_MS
PRESETS: dict[str, TimeControl] = {
    "off": OFF,
    "3d+1d": TimeControl(3 * DAY_MS, DAY_MS, 7 * DAY_MS),
    "1d+12h": TimeControl(DAY_MS, 12 * HOUR_MS, 3 * DAY_MS),
}
"""The time controls a game or a server chooses from (the ``clock`` setting): no bank; 3 days, plus 1 day a
finished turn, at most 7 days; 1 day, plus 12 hours a finished turn, at most 3 days."""


@dataclass(frozen=True)
class Turn:
    """From ``at`` (after the game's version ``version``), ``seats`` are awaited."""

    version: int
    at: int
    seats: frozenset[int]


@dataclass(frozen=True)
class Move:
    """A live move of the log: its seat, version and committed time."""

    seat: int
    version: int
    at: int


@dataclass(frozen=True)
class Pause:
    """No bank runs for ``seat`` (None: for every seat) from ``start`` until ``end`` (None: still paused)."""

    seat: int | None
    start: int
    end: int | None = None


@dataclass(frozen=True)
class Gift:
    """``ms`` added to ``seat``'s bank at ``at`` (``/game give-time``)."""

    seat: int
    at: int
    ms: int


@dataclass(frozen=True)
class Correction:
    """A host or moderator added ``ms`` to ``seat``'s bank at ``at`` (negative: took it away; a bank taken
    below zero is empty, and ran out at that instant)."""

    seat: int
    at: int
    ms: int


@dataclass(frozen=True)
class History:
    """Everything the clocks are computed from, all committed timestamps."""

    start: int
    """When the game started: every bank is full then."""
    turns: tuple[Turn, ...] = ()
    moves: tuple[Move, ...] = ()
    pauses: tuple[Pause, ...] = ()
    gifts: tuple[Gift, ...] = ()
    corrections: tuple[Correction, ...] = ()
    frozen_at: int | None = None
    """The game was paused (its channel deleted) then: no bank runs after it."""


@dataclass(frozen=True)
class SeatClock:
    seat: int
    bank_ms: int
    """What is left at the instant asked."""
    running: bool
    """Awaited and not paused at that instant: the bank is going down."""
    ran_out_at: int | None = None
    """The last moment the bank reached zero, if it did (and has not been refilled since)."""

    def expires_at(self, at: int) -> int | None:
        """When this bank runs (or ran) out, seen from ``at``; None while it is not running."""
        if self.ran_out_at is not None:
            return self.ran_out_at
        return at + self.bank_ms if self.running else None


@dataclass
class _Seat:
    bank: int
    ran_out_at: int | None = None
    paused: int = 0
    """How many pauses cover the seat now."""


@dataclass
class _Walk:
    control: TimeControl
    seats: dict[int, _Seat] = field(default_factory=dict)
    awaited: frozenset[int] = frozenset()
    everyone_paused: int = 0

    def seat(self, n: int) -> _Seat:
        if n not in self.seats:
            self.seats[n] = _Seat(self.control.bank_ms)
        return self.seats[n]

    def spend(self, t0: int, t1: int) -> None:
        if t1 <= t0 or self.everyone_paused:
            return
        for n in self.awaited:
            s = self.seat(n)
            if s.paused or s.bank <= 0:
                continue
            if s.bank <= t1 - t0:
                s.ran_out_at = t0 + s.bank
                s.bank = 0
            else:
                s.bank -= t1 - t0

    def add(self, n: int, ms: int, *, capped: bool, at: int) -> None:
        s = self.seat(n)
        bank = s.bank + ms
        if capped and self.control.cap_ms > 0:
            bank = max(s.bank, min(bank, self.control.cap_ms))
        if bank <= 0:  # a correction took away all that was left (or more): empty from now
            if s.bank > 0:
                s.ran_out_at = at
            bank = 0
        s.bank = bank
        if bank > 0:
            s.ran_out_at = None


# Order of events at one instant (after the time up to it is spent).
_MOVE, _TURN, _GIFT, _PAUSE_END, _PAUSE_START = range(5)


def clocks(control: TimeControl, history: History, seats: Iterable[int], at: int) -> dict[int, SeatClock]:
    """Each seat's clock at ``at`` (epoch ms), from the history's records up to ``at``."""
    walk = _Walk(control)
    for n in seats:
        walk.seat(n)
    end = at if history.frozen_at is None else min(at, history.frozen_at)
    turns = sorted(history.turns, key=lambda t: t.version)
    versions = [t.version for t in turns]
    events: list[tuple[int, int, int, object]] = []
    start = history.start
    for i, turn in enumerate(turns):
        start = max(start, turn.at)
        events.append((start, _TURN, i, turn))
    for move in history.moves:
        if move.seat >= 0 and _ends_turn(turns, versions, move):
            events.append((move.at, _MOVE, move.version, move))
    for gift in history.gifts:
        events.append((gift.at, _GIFT, 0, gift))
    for correction in history.corrections:
        events.append((correction.at, _GIFT, 1, correction))
    for k, pause in enumerate(history.pauses):
        events.append((pause.start, _PAUSE_START, k, pause))
        if pause.end is not None:
            events.append((pause.end, _PAUSE_END, k, pause))
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    now = history.start
    for when, kind, _order, item in events:
        if when > end:
            break
        when = max(when, history.start)
        walk.spend(now, when)
        now = max(now, when)
        if kind == _MOVE:
            assert isinstance(item, Move)
            walk.add(item.seat, control.increment_ms, capped=True, at=when)
        elif kind == _TURN:
            assert isinstance(item, Turn)
            walk.awaited = item.seats
        elif kind == _GIFT:
            assert isinstance(item, Gift | Correction)
            walk.add(item.seat, item.ms, capped=False, at=when)
        else:
            assert isinstance(item, Pause)
            step = 1 if kind == _PAUSE_START else -1
            if item.seat is None:
                walk.everyone_paused += step
            else:
                walk.seat(item.seat).paused += step
    walk.spend(now, end)
    frozen = history.frozen_at is not None and history.frozen_at <= at
    return {
        n: SeatClock(
            seat=n,
            bank_ms=s.bank,
            running=(not frozen and not walk.everyone_paused and not s.paused and n in walk.awaited and s.bank > 0),
            ran_out_at=s.ran_out_at,
        )
        for n, s in sorted(walk.seats.items())
    }


def _ends_turn(turns: list[Turn], versions: list[int], move: Move) -> bool:
    """Whether the move ended its seat's turn: the seat was awaited before it, and the awaited seats
    changed with it (a record at its very version that differs from the one before). A step of a
    turn leaves the awaited seats as they were; the last choice of a simultaneous round starts the
    next round, where the seat is awaited again, and still ends its turn."""
    i = bisect_right(versions, move.version) - 1
    if i < 0 or turns[i].version != move.version:
        return False
    before = turns[i - 1].seats if i > 0 else frozenset()
    return move.seat in before and turns[i].seats != before
