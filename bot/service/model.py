"""The plain objects the service returns (:class:`GameInfo`, :class:`MoveOutcome` with its :class:`Snapshot`),
its clock, and the small pure helpers the front-ends share (:func:`named`, :func:`choices_token`,
:func:`forfeit_result`)."""

from __future__ import annotations

import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import games, store
from bot.rules import core

FORGOTTEN_NAME = "Former player"
STATE_CACHE_SIZE = 256
"""How many games' current states stay parsed in memory (a cache; the store is the truth)."""
VIEW_CACHE_SIZE = 64
"""Views kept per service: a turn reads the same view for its picture, controls and status."""


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    """Wall-clock time in epoch milliseconds (UTC)."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class GameInfo:
    """A game with its seats, as the front-ends need it."""

    game: store.GameRow
    seats: tuple[store.SeatRow, ...]
    awaiting: frozenset[int] = frozenset()

    @property
    def id(self) -> int:
        return self.game.id

    def seat_of(self, user_xid: int) -> store.SeatRow | None:
        for s in self.seats:
            if s.user_xid == user_xid:
                return s
        return None

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "?"

    def awaited_users(self) -> list[int]:
        """Discord ids of the humans who must act now."""
        return [s.user_xid for s in self.seats if s.seat in self.awaiting and s.user_xid is not None and not s.is_ai]

    def awaited_ai(self) -> list[int]:
        return [s.seat for s in self.seats if s.seat in self.awaiting and s.is_ai]


def named(info: GameInfo, seat: int, params: Mapping[str, Any]) -> dict[str, Any]:
    """A move's description told with the players' names: ``player`` the acting seat's name ("-" for the
    game's own moves), and every seat the description refers to (:func:`bot.rules.core.seat_ref`) by its
    name. Every front-end tells a move through this."""
    return {"player": info.name(seat) if seat >= 0 else "-", **core.name_seats(dict(params), info.name)}


@dataclass(frozen=True)
class MoveOutcome:
    """What one applied move did."""

    info: GameInfo
    seat: int
    move: dict[str, Any]
    version: int
    summary: tuple[str, dict[str, Any]]
    finished: bool
    result: dict[str, Any] | None
    newly_awaited: frozenset[int] = field(default_factory=frozenset)
    snapshot: Snapshot | None = field(default=None, compare=False, repr=False)
    """The game right after the move (its state and cached views): front-ends need not re-read it."""
    older_undos_open: bool | None = None
    """Whether an undo proposal of an older version was open when the move was made, as the move's own statement
    read it (PostgreSQL); None when not read (SQLite): undo's listener then asks."""
    settings: tuple[dict[str, Any], dict[str, Any]] | None = field(default=None, compare=False, repr=False)
    """The server's and the game's settings as stored, read by the move's own statement (PostgreSQL): the turn post
    and the status after the move read them no more; None when not read (SQLite)."""
    followers: tuple[int, ...] | None = None
    """The game's followers, read by the move's own statement (PostgreSQL); None when not read (SQLite)."""

    @property
    def locale(self) -> str:
        """The language of the game's channel posts."""
        return self.info.game.locale


@dataclass(frozen=True)
class Snapshot:
    """A game at one version: its info, rules state and a view for one seat.

    Views are computed once per (game, version, seat) and shared (a view may search every
    city's best allocation): treat them as read-only.
    """

    info: GameInfo
    version: int
    state: Any
    views: OrderedDict[tuple[int, int, int | None], games.View] = field(
        default_factory=OrderedDict, compare=False, repr=False
    )

    def view(self, seat: int | None) -> games.View:
        key = (self.info.id, self.version, seat)
        cached = self.views.get(key)
        if cached is None:
            cached = self.views[key] = games.rules(self.info.game.kind).view(self.state, seat)
            while len(self.views) > VIEW_CACHE_SIZE:
                self.views.popitem(last=False)
        return cached


def choices_token(moves: list[core.Move]) -> str:
    """A short fingerprint of the choices a seat is offered (8 hex digits)."""
    text = json.dumps(moves, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def forfeit_result(seat_count: int, standing: list[int]) -> dict[str, Any]:
    """A result for a game ended by resignation: standing seats share first place, resigned seats
    come after them. With nobody standing (a solo game given up) nobody wins: every seat ranks
    second and the details say ``gave_up``."""
    seats = []
    for seat in range(seat_count):
        rank = 1 if seat in standing else len(standing) + 1 if standing else 2
        seats.append(
            {
                "seat": seat,
                "total": 0,
                "breakdown": {},
                "rank": rank,
                "tiebreak": [],
                "details": {"forfeit": seat not in standing},
            }
        )
    return {"seats": seats, "decided_by": "forfeit", "details": {"forfeit": True, "gave_up": not standing}}
