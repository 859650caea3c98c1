"""The greedy level's worth of a city, which the strong level's search starts from too, and the one planner
both levels place tiles with (:class:`Gains`).

A position is worth its score if the game ended now (spec 10 steps 1–3) plus a little for every
empty plot the road network from the centre already reaches (room to grow) and minus a little for
tracks near the −5 floor.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.scoring import quick_base
from bot.rules.urbanpanic.tiles import KINDS

FRONTIER_WEIGHT = 0.35
"""Value of one empty plot that the road network already reaches."""
FLOOR_MARGIN = 2
"""Tracks within this distance of the floor cost FLOOR_WEIGHT per step."""
FLOOR_WEIGHT = 0.5


def evaluate(board: Sequence[str | None], tracks: Sequence[int], floor: bool = True) -> float:
    """The greedy player's worth of a city: score now, room to grow, distance from the floor
    (``floor=False`` in the party game, which has no floor)."""
    lost, linked, frontier = network(board)
    value: float = quick_base(tracks, lost, linked) + FRONTIER_WEIGHT * frontier
    if not floor:
        return value
    for v in tracks[2:]:
        if v < tiles.FLOOR + FLOOR_MARGIN:
            value -= FLOOR_WEIGHT * (tiles.FLOOR + FLOOR_MARGIN - v)
    return value


GAINS = {code: k.gains for code, k in KINDS.items()}
"""Each tile code's gains: what scoring's step 1 takes back when the tile is not reached."""
NETWORK_CACHE = 1 << 14
"""Boards whose :func:`network` is kept (then the memo starts afresh): the planners weigh the same boards again
and again, from one decision to the next and in every rollout of an analysis. About 7 MB when full."""
_NETWORKS: dict[tuple[str | None, ...], tuple[tiles.Tracks, int, int]] = {}


def network(board: Sequence[str | None]) -> tuple[tiles.Tracks, int, int]:
    """What the road network decides of a city's worth: the sum of the gains of the tiles it does not reach
    (what scoring's step 1 takes back), how many tiles it reaches, and how many empty plots it faces.
    Remembered per board (:data:`NETWORK_CACHE`): it depends on the board alone."""
    key = tuple(board)
    hit = _NETWORKS.get(key)
    if hit is not None:
        return hit
    linked, frontier = tiles.reach_bits(board)
    r = j = e = inc = s = 0
    for i in tiles.PLOTS:
        code = board[i]
        if code is not None and not linked >> i & 1:
            g = GAINS[code]
            r, j, e, inc, s = r + g[0], j + g[1], e + g[2], inc + g[3], s + g[4]
    hit = (r, j, e, inc, s), linked.bit_count(), frontier.bit_count()
    if len(_NETWORKS) >= NETWORK_CACHE:
        _NETWORKS.clear()
    _NETWORKS[key] = hit
    return hit


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
        self.frontier = tiles.reach_bits(self.board)[1]
        """The empty plots the network faces: a tile placed on any other empty plot joins nothing and changes
        nothing of the network, so every such placement of one tile is worth the same."""
        self._ranked: dict[str, list[tuple[float, int]]] = {}

    def ranked(self, code: str) -> list[tuple[float, int]]:
        """(gain, square) of every legal placement of ``code``, best first (the lower square first on a tie)."""
        hit = self._ranked.get(code)
        if hit is not None:
            return hit
        out: list[tuple[float, int]] = []
        after = tiles.add(self.tracks, DELTAS[code])
        if not self.floor or tiles.floor_breach(after) is None:
            board, frontier = self.board, self.frontier
            apart: float | None = None
            for i in self.empties:
                if frontier >> i & 1 or apart is None:
                    board[i] = code
                    value = evaluate(board, after, self.floor)
                    board[i] = None
                    if not frontier >> i & 1:
                        apart = value
                else:
                    value = apart
                out.append((value - self.base, i))
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
