"""The advanced variant's goal cards (spec 11.4, D-17, D-18).

Every card is judged after scoring steps 1–3, on the board left after removing unreachable tiles
and on the track values that are summed. "Highest" cards go to every player tied at the top; the
tile-count and district cards need at least one tile of the type; track cards take the highest value
whatever its sign; "all plots built" goes to everyone with 24 tiles after step 1; "first finished
city" goes to the player who fired trigger A (or, in the party game, the finisher).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.tiles import Tracks


class CityScore(Protocol):
    """What a card reads of a scored city (steps 1–3): :class:`bot.rules.urbanpanic.scoring.CityScore`
    is one. Stated here so the goals need not import the scoring, which imports them."""

    @property
    def board(self) -> tuple[str | None, ...]:
        """The board after step 1."""

    @property
    def empty(self) -> int:
        """Plots empty after step 1."""

    @property
    def final(self) -> Tracks:
        """Track values after steps 1 and 3."""

    def counts(self) -> dict[str, int]:
        """Tiles of each type on the board after step 1."""


def measure(goal_id: str, city: CityScore) -> int:
    """The quantity a card compares for one city (district size, tile count, track value, tiles)."""
    goal = tiles.GOALS[goal_id]
    if goal.kind == "district":
        groups = tiles.districts(city.board, goal.type)
        return max((len(g) for g in groups), default=0)
    if goal.kind == "count":
        return city.counts()[goal.type]
    if goal.kind == "track":
        return city.final[tiles.TRACKS.index(goal.track)]
    if goal.kind == "all_plots":
        return tiles.PLOT_COUNT - city.empty
    raise ValueError(f"goal {goal_id} is not measured per city")


def winners(goal_id: str, cities: Sequence[CityScore], first_finisher: int | None) -> list[int]:
    """Seats that score one card."""
    goal = tiles.GOALS[goal_id]
    if goal.kind == "first_finished":
        return [] if first_finisher is None else [first_finisher]
    values = [measure(goal_id, c) for c in cities]
    if goal.kind == "all_plots":
        return [seat for seat, v in enumerate(values) if v == tiles.PLOT_COUNT]
    best = max(values)
    if goal.kind in ("district", "count") and best <= 0:
        return []
    return [seat for seat, v in enumerate(values) if v == best]


def evaluate(
    goal_ids: Sequence[str], cities: Sequence[CityScore], first_finisher: int | None
) -> tuple[tuple[str, ...], ...]:
    """For each seat, the cards it scores (in the order the cards were dealt)."""
    won: list[list[str]] = [[] for _ in cities]
    for goal_id in goal_ids:
        for seat in winners(goal_id, cities, first_finisher):
            won[seat].append(goal_id)
    return tuple(tuple(w) for w in won)
