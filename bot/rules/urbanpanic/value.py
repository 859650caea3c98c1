"""The greedy level's worth of a city, which the strong level's search starts from too.

A position is worth its score if the game ended now (spec 10 steps 1–3) plus a little for every
empty plot the road network from the centre already reaches (room to grow) and minus a little for
tracks near the −5 floor.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.scoring import quick_score

FRONTIER_WEIGHT = 0.35
"""Value of one empty plot that the road network already reaches."""
FLOOR_MARGIN = 2
"""Tracks within this distance of the floor cost FLOOR_WEIGHT per step."""
FLOOR_WEIGHT = 0.5


def evaluate(board: Sequence[str | None], tracks: Sequence[int], floor: bool = True) -> float:
    """The greedy player's worth of a city: score now, room to grow, distance from the floor
    (``floor=False`` in the party game, which has no floor)."""
    linked, frontier = tiles.reach(board)
    value: float = quick_score(board, tracks, linked) + FRONTIER_WEIGHT * len(frontier)
    if not floor:
        return value
    for v in tracks[2:]:
        if v < tiles.FLOOR + FLOOR_MARGIN:
            value -= FLOOR_WEIGHT * (tiles.FLOOR + FLOOR_MARGIN - v)
    return value
