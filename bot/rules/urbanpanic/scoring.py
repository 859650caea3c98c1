"""Final scoring of one city (spec section 10, steps 1–3 and 6) and of a whole table (steps 4–7).

Breakdown categories (every key always present; they sum to the total):

- ``residents``, ``jobs``, ``ecology``, ``income``, ``satisfaction``: the five track values after
  step 1 (unreachable tiles lose their gains) and step 3 (jobs cut back to residents, income
  lowered by the same amount). Values below −5 are possible here (D-4, D-28).
- ``empty_plots``: −1 per plot empty after step 1 (step 2).
- ``unemployment``: −3 per resident without a job when residents exceed jobs (step 3). When jobs
  exceed residents the correction is already in ``jobs`` and ``income``, and this is 0.
- ``goals``: +10 per goal card achieved (advanced, step 4).
- ``bonus``: +5 to the party finisher (party, step 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules.urbanpanic import goals, tiles
from bot.rules.urbanpanic.tiles import KINDS, PLOT_COUNT, TRACKS, Tracks

CATEGORIES = (*TRACKS, "empty_plots", "unemployment", "goals", "bonus")
UNEMPLOYMENT_FACTOR = 3
FINISHER_BONUS = 5
"""Party variant: points for the player who turned the hourglass (spec 12)."""


@dataclass(frozen=True)
class CityScore:
    """Steps 1–3 for one city, with everything a scoring sheet shows."""

    tracks_played: Tracks
    """Track values when play ended."""
    removed: tuple[tuple[int, str], ...]
    """Unreachable tiles taken off in step 1, as (square, code), in reading order."""
    after_removal: Tracks
    board: tuple[str | None, ...]
    """The board after step 1."""
    empty: int
    unemployment: int
    """The step-3 penalty (≥ 0): 3 per resident without a job."""
    jobs_cut: int
    """Step 3 when jobs exceed residents: how far jobs and income moved back (≥ 0)."""
    final: Tracks
    """Track values after steps 1 and 3: the ones that are summed."""

    @property
    def base(self) -> int:
        """Steps 1–3 and 6 without goals or bonus."""
        return sum(self.final) - self.empty - self.unemployment

    def counts(self) -> dict[str, int]:
        """Tiles of each type on the board after step 1."""
        out = dict.fromkeys(tiles.TYPE_ORDER, 0)
        for code in self.board:
            if code is not None:
                out[KINDS[code].type] += 1
        return out

    def breakdown(self, goals: int = 0, bonus: int = 0) -> dict[str, int]:
        out = dict(zip(TRACKS, self.final))
        out["empty_plots"] = -self.empty
        out["unemployment"] = -self.unemployment
        out["goals"] = goals
        out["bonus"] = bonus
        return out

    def details(self) -> dict[str, Any]:
        """A JSON-able scoring sheet (spec 13: removed tiles, corrections, penalties)."""
        return {
            "tracks_played": list(self.tracks_played),
            "removed": [
                {"plot": tiles.square_name(i), "tile": code, "lost": list(KINDS[code].gains)}
                for i, code in self.removed
            ],
            "tracks_after_removal": list(self.after_removal),
            "empty_plots": self.empty,
            "unemployment_penalty": self.unemployment,
            "jobs_cut": self.jobs_cut,
            "tracks_final": list(self.final),
            "base": self.base,
        }


def score_city(board: Sequence[str | None], tracks: Sequence[int]) -> CityScore:
    """Steps 1–3 of spec section 10 for a board (25 squares) and the tracks at the end of play."""
    played: Tracks = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4])
    linked = tiles.reachable(board)
    removed = tuple((i, code) for i in tiles.PLOTS if (code := board[i]) is not None and i not in linked)
    after = played
    for _, code in removed:
        after = tiles.add(after, KINDS[code].gains, -1)
    kept = tuple(None if i not in linked else board[i] for i in tiles.SQUARES)
    empty = PLOT_COUNT - len(linked)
    r, j, e, inc, s = after
    penalty = cut = 0
    if r > j:
        penalty = UNEMPLOYMENT_FACTOR * (r - j)
    elif j > r:
        cut = j - r
        inc -= cut
        j = r
    return CityScore(played, removed, after, kept, empty, penalty, cut, (r, j, e, inc, s))


def quick_score(board: Sequence[str | None], tracks: Sequence[int], linked: set[int] | None = None) -> int:
    """``score_city(board, tracks).base`` without building the sheet.

    ``linked`` may pass in ``tiles.reachable(board)`` when the caller already has it.
    """
    if linked is None:
        linked = tiles.reachable(board)
    lost = tiles.ZERO
    for i in tiles.PLOTS:
        code = board[i]
        if code is not None and i not in linked:
            lost = tiles.add(lost, KINDS[code].gains)
    return quick_base(tracks, lost, len(linked))


def quick_base(tracks: Sequence[int], lost: Sequence[int], linked: int) -> int:
    """``score_city(board, tracks).base`` from what the board's network decides (the AI's hot path): ``lost``,
    the sum of the unreachable tiles' gains (step 1), and ``linked``, how many tiles reach the centre."""
    r, j, e, inc, s = (
        tracks[0] - lost[0],
        tracks[1] - lost[1],
        tracks[2] - lost[2],
        tracks[3] - lost[3],
        tracks[4] - lost[4],
    )
    total = r + j + e + inc + s - (PLOT_COUNT - linked)
    if r > j:
        total -= UNEMPLOYMENT_FACTOR * (r - j)
    elif j > r:
        total -= 2 * (j - r)  # jobs cut back to residents and income lowered by the same amount
    return total


@dataclass(frozen=True)
class TableScore:
    """Every seat's scoring: city sheets, goals won, bonus, totals, tie-break values."""

    cities: tuple[CityScore, ...]
    goals_won: tuple[tuple[str, ...], ...]
    bonus: tuple[int, ...]
    totals: tuple[int, ...] = field(default=())

    def breakdowns(self) -> list[dict[str, int]]:
        return [
            c.breakdown(goals=tiles.GOAL_POINTS * len(g), bonus=b)
            for c, g, b in zip(self.cities, self.goals_won, self.bonus)
        ]


def score_table(
    boards: Sequence[Sequence[str | None]],
    tracks: Sequence[Sequence[int]],
    goal_ids: Sequence[str] = (),
    first_finisher: int | None = None,
    finisher_bonus: bool = False,
) -> TableScore:
    """Steps 1–6 for every seat. ``finisher_bonus``: the party game's +5 to ``first_finisher``."""
    cities = tuple(score_city(b, t) for b, t in zip(boards, tracks))
    won = goals.evaluate(goal_ids, cities, first_finisher)
    bonus = tuple(FINISHER_BONUS if finisher_bonus and seat == first_finisher else 0 for seat in range(len(cities)))
    totals = tuple(c.base + tiles.GOAL_POINTS * len(g) + b for c, g, b in zip(cities, won, bonus))
    return TableScore(cities, won, bonus, totals)
