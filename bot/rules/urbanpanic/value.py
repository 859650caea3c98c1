"""The greedy level's worth of a city, which the strong level's search starts from too, and the one planner
both levels place tiles with (:class:`Gains`).

A position is worth its score if the game ended now (spec 10 steps 1–3) plus a little for every
empty plot the road network from the centre already reaches (room to grow) and minus a little for
tracks near the −5 floor.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.scoring import quick_score
from bot.rules.urbanpanic.tiles import KINDS

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


DELTAS = {code: k.deltas for code, k in KINDS.items()}
"""Each tile code's effect on the tracks."""


class Gains:
    """What placing a tile is worth on one board: every legal placement's gain in :func:`evaluate` over the board
    as it stands, cached per tile code (one decision's planner, for the greedy and the strong level)."""

    def __init__(self, board: Sequence[str | None], tracks: Sequence[int], floor: bool = True) -> None:
        self.board = list(board)
        self.tracks = tuple(tracks)
        self.floor = floor
        self.base = evaluate(self.board, self.tracks, floor)
        self.empties = [i for i in tiles.PLOTS if self.board[i] is None]
        self._ranked: dict[str, list[tuple[float, int]]] = {}

    def ranked(self, code: str) -> list[tuple[float, int]]:
        """(gain, square) of every legal placement of ``code``, best first (the lower square first on a tie)."""
        hit = self._ranked.get(code)
        if hit is not None:
            return hit
        out: list[tuple[float, int]] = []
        after = tiles.add(self.tracks, DELTAS[code])
        if not self.floor or tiles.floor_breach(after) is None:
            board = self.board
            for i in self.empties:
                board[i] = code
                out.append((evaluate(board, after, self.floor) - self.base, i))
                board[i] = None
        out.sort(key=lambda gi: (-gi[0], gi[1]))
        self._ranked[code] = out
        return out

    def placement(self, code: str) -> tuple[float, int]:
        """(gain, square) of the best placement of ``code``; (−inf, −1) when it cannot be placed."""
        ranked = self.ranked(code)
        return ranked[0] if ranked else (float("-inf"), -1)

    def best(self, code: str) -> float:
        """The gain of the best placement of ``code``; −inf when it cannot be placed."""
        return self.placement(code)[0]
