"""Results and ranks: a game's end as one :class:`SeatResult` per seat, ranked by total then tie-breaks
(standard competition ranks, "1224"), with what decided first place. Re-exported by :mod:`bot.rules.core`,
the game protocol, whose ``GameRules.result`` returns a :class:`Result`.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeatResult:
    """One seat's final result.

    ``breakdown`` maps a category id to points (the categories sum to ``total``); ``tiebreak`` is
    the tuple compared after ``total`` (higher is better); ``rank`` starts at 1 and is shared by
    seats that stay tied after every tie-break.
    """

    seat: int
    total: int
    breakdown: dict[str, int]
    rank: int
    tiebreak: tuple[int, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "rank": self.rank,
            "tiebreak": list(self.tiebreak),
            "details": self.details,
        }


@dataclass(frozen=True)
class Result:
    """The end of a game: one SeatResult per seat, in seat order.

    ``decided_by`` names what separated the winner from the runner-up: ``"score"``, a tie-break id
    (``"tiebreak.resources"``…), or ``"shared"`` when the first place is shared.
    """

    seats: tuple[SeatResult, ...]
    decided_by: str = "score"
    details: dict[str, Any] = field(default_factory=dict)
    rivals: tuple[int, ...] = ()
    """The totals of the places at the table that rank against the seats but are not seats (a solo game's
    automated opponents): the after-game analysis weighs a seat's margin over them too."""

    def winners(self) -> list[int]:
        return [s.seat for s in self.seats if s.rank == 1]

    def to_json(self) -> dict[str, Any]:
        return {"seats": [s.to_json() for s in self.seats], "decided_by": self.decided_by, "details": self.details}


def competition_ranks(keys: Sequence[Sequence[int]]) -> list[int]:
    """Standard competition ranks ("1224") for comparable keys, higher key is better."""
    order = sorted(range(len(keys)), key=lambda i: tuple(keys[i]), reverse=True)
    ranks = [0] * len(keys)
    for pos, i in enumerate(order):
        if pos and tuple(keys[order[pos - 1]]) == tuple(keys[i]):
            ranks[i] = ranks[order[pos - 1]]
        else:
            ranks[i] = pos + 1
    return ranks


def deciding_factor(keys: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """Which component of the keys separated first place from second.

    ``names[0]`` names the total (usually ``"score"``), ``names[i]`` the i-th tie-break. Returns
    ``"shared"`` when the best two keys are equal, ``names[0]`` with a single seat.
    """
    if len(keys) < 2:
        return names[0]
    best = sorted((tuple(k) for k in keys), reverse=True)
    a, b = best[0], best[1]
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return names[i] if i < len(names) else names[-1]
    return "shared"


def build_result(
    totals: Sequence[int],
    breakdowns: Sequence[dict[str, int]],
    tiebreaks: Sequence[Sequence[int]] | None = None,
    names: Sequence[str] = ("score",),
    details: Sequence[dict[str, Any]] | None = None,
) -> Result:
    """Rank seats by total then tie-breaks and wrap them in a :class:`Result`."""
    n = len(totals)
    tbs = [tuple(t) for t in tiebreaks] if tiebreaks is not None else [()] * n
    keys = [(totals[i], *tbs[i]) for i in range(n)]
    ranks = competition_ranks(keys)
    seats = tuple(
        SeatResult(
            seat=i,
            total=totals[i],
            breakdown=dict(breakdowns[i]),
            rank=ranks[i],
            tiebreak=tbs[i],
            details=dict(details[i]) if details else {},
        )
        for i in range(n)
    )
    return Result(seats=seats, decided_by=deciding_factor(keys, names))
