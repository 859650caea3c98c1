"""Urban Panic's turn helpers, pure and small, shared by the rules (:mod:`bot.rules.urbanpanic.engine`,
:mod:`bot.rules.urbanpanic.actions`) and the AIs: whether a tile may be placed, whether the Architect is still
owed and possible (rule 8.2), what a Spy leaves (D-10), and who acts now.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.state import State
from bot.rules.urbanpanic.tiles import KINDS, RESERVE_SIZE


def placeable(tracks: Sequence[int], code: str) -> bool:
    """Whether adding the tile's row keeps ecology, income and satisfaction at −5 or above."""
    d = KINDS[code].deltas
    f = tiles.FLOOR
    return tracks[2] + d[2] >= f and tracks[3] + d[3] >= f and tracks[4] + d[4] >= f


def can_build(tracks: Sequence[int], reserve: Sequence[str], empty_plots: int) -> bool:
    """A legal Planner placement exists: an empty plot and a reserve tile within the floor."""
    return empty_plots > 0 and any(placeable(tracks, code) for code in reserve)


def ach(faceup: bool, reserve: Sequence[str], tracks: Sequence[int], empty_plots: int, points: int) -> bool:
    """ACH of spec 8.2: an Architect can still be performed this turn."""
    if not faceup:
        return False
    if len(reserve) < RESERVE_SIZE:
        return points >= 1
    return points >= 2 and can_build(tracks, reserve, empty_plots)


def swap_in_reserve(reserve: Sequence[str], out: str, back: str) -> list[str]:
    """The reserve after ``out`` leaves it and ``back`` takes its place."""
    res = list(reserve)
    res[res.index(out)] = back
    return res


def without(reserve: Sequence[str], code: str) -> list[str]:
    res = list(reserve)
    res.remove(code)
    return res


class Turn:
    """What rule 8.2 needs about the current player, computed once per question."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.player = state.players[state.current]
        self.faceup = any(s is not None for s in state.slots)
        self.empty = tiles.PLOT_COUNT - self.player.tiles_on_board()
        self.owed = not state.architect_done and ach(
            self.faceup, self.player.reserve, self.player.tracks, self.empty, state.points
        )
        """The Architect is still owed and still possible: further actions must keep it possible."""
        self.spied = spied(state)
        """A Spy was used this turn: only the Architect (if possible) and END_TURN remain (D-10)."""

    def keeps_architect(
        self, reserve: Sequence[str], tracks: Sequence[int], empty: int, cost: int, faceup: bool | None = None
    ) -> bool:
        """Rule 8.2.1 for an action costing ``cost`` that leaves this reserve, tracks and plots."""
        if not self.owed:
            return True
        return ach(self.faceup if faceup is None else faceup, reserve, tracks, empty, self.state.points - cost)


def spied(state: State) -> bool:
    """Whether the current player used the Spy this turn (11.2, D-10: then only the Architect and
    END_TURN remain, even for a stuck player)."""
    return any(entry.get("kind") == "spy" for entry in state.turn_log)


def architect_owed(state: State) -> bool:
    """Whether the current player still owes the Architect and can still take it (spec 8.2)."""
    return not state.over and not state.party and Turn(state).owed


def awaiting(state: State) -> frozenset[int]:
    """The current player; in the party game every seat whose city is not full."""
    if state.over:
        return frozenset()
    if state.party:
        return frozenset(seat for seat, p in enumerate(state.players) if p.tiles_on_board() < tiles.PLOT_COUNT)
    return frozenset({state.current})
