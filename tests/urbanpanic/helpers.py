"""Builders for Urban Panic test positions, and an independent reference scorer.

The reference scorer follows spec section 10 literally (passage letters, plot names, its own
breadth-first search) and shares no code with ``bot.rules.urbanpanic.scoring``, so tests that
compare the two check the engine against the spec rather than against itself.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from bot.rules.urbanpanic import tiles
from bot.rules.urbanpanic.calculator import parse_city
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.state import Player, State

EMPTY_ROW = "------ ------ ------ ------ ------"
DEFAULT_SLOTS = ["HOU-NS", "OFF-NESW", "FAC-NE", "PRK-SW"]
FILLER = ["PRK-NESW", "HOU-NESW", "OFF-NESW"]


def board(*rows: str) -> list[str | None]:
    """A board from the spec's 5 grid rows (row 1 first)."""
    return parse_city(list(rows))


def sq(name: str) -> int:
    index = tiles.square_index(name)
    assert index is not None
    return index


def board_with(tiles_at: dict[str, str]) -> list[str | None]:
    """An otherwise empty board with the given plots ("B2": "FAC-NE")."""
    b = tiles.empty_board()
    for name, code in tiles_at.items():
        b[sq(name)] = code
    return b


def full_board(empty: Sequence[str] = (), code: str = "PRK-NESW") -> list[str | None]:
    """Every plot holds a crossroads tile (all reachable) except the named empty plots."""
    b = tiles.empty_board()
    for i in tiles.PLOTS:
        if tiles.square_name(i) not in empty:
            b[i] = code
    return b


def stack_of(n: int) -> list[str]:
    return [FILLER[i % len(FILLER)] for i in range(n)]


def player(
    board: list[str | None] | None = None, tracks: Sequence[int] = (0, 0, 0, 0, 0), reserve: Sequence[str] = ()
) -> Player:
    return Player(list(board) if board is not None else tiles.empty_board(), list(tracks), list(reserve))


def turn_state(
    players: Sequence[Player] | None = None,
    *,
    seats: int = 2,
    variant: str = "basic",
    current: int = 0,
    points: int = 3,
    architect_done: bool = False,
    slots: Sequence[str | None] | None = None,
    stack: int | Sequence[str] = 20,
    **extra: Any,
) -> State:
    """A basic/advanced position; unspecified players are empty."""
    ps = list(players) if players is not None else []
    ps += [player() for _ in range(seats - len(ps))]
    return State(
        variant=variant,
        players=ps,
        stack=stack_of(stack) if isinstance(stack, int) else list(stack),
        slots=list(DEFAULT_SLOTS if slots is None else slots),
        current=current,
        points=points,
        architect_done=architect_done,
        **extra,
    )


def play(state: State, *moves: dict[str, Any]) -> State:
    """Apply moves for the current player, one after another."""
    for move in moves:
        state = RULES.apply(state, state.current, move)
    return state


def minimal_turn(state: State) -> State:
    """Architect on the first filled slot, then END_TURN."""
    slot = next(i for i, s in enumerate(state.slots) if s is not None) + 1
    return play(state, {"kind": "architect", "slot": slot}, {"kind": "end_turn"})


# ---------------------------------------------------------------------------------------------
# Reference scorer (spec 3.3, 3.4, 4.4, 10)
# ---------------------------------------------------------------------------------------------

LEGEND = {
    "HOU": (4, 0, 0, -2, -1),
    "OFF": (0, 2, 0, 2, -1),
    "AMU": (0, 1, -1, -1, 4),
    "FAC": (0, 3, -1, 3, 0),
    "POW": (0, 1, -2, 4, -1),
    "PRK": (0, 0, 3, -1, 1),
}
"""Spec 4.1, typed in again on purpose."""
STEP = {"N": (0, -1, "S"), "S": (0, 1, "N"), "E": (1, 0, "W"), "W": (-1, 0, "E")}


def ref_score(b: Sequence[str | None], tracks: Sequence[int]) -> dict[str, Any]:
    """Spec section 10 steps 1–3 and 6, written from the text."""
    names = {}
    for i in range(25):
        col, row = "ABCDE"[i % 5], i // 5 + 1
        names[f"{col}{row}"] = "CENTRE" if i == 12 else b[i]

    def sides(name: str) -> str:
        item = names[name]
        return "NESW" if item == "CENTRE" else item.split("-")[1]  # type: ignore[union-attr]

    seen = {"C3"}
    queue = deque(["C3"])
    while queue:
        here = queue.popleft()
        for side in sides(here):
            dx, dy, back = STEP[side]
            col = "ABCDE".find(here[0]) + dx
            row = int(here[1]) + dy
            if not (0 <= col < 5 and 1 <= row <= 5):
                continue
            there = f"{'ABCDE'[col]}{row}"
            if there in seen or names[there] is None or back not in sides(there):
                continue
            seen.add(there)
            queue.append(there)
    r, j, e, inc, s = tracks
    kept = 0
    for name, item in names.items():
        if item is None or item == "CENTRE":
            continue
        if name in seen:
            kept += 1
            continue
        row = LEGEND[item.split("-")[0]]
        r, j, e, inc, s = (v - max(d, 0) for v, d in zip((r, j, e, inc, s), row))
    empty = 24 - kept
    penalty = 0
    if r > j:
        penalty = 3 * (r - j)
    elif j > r:
        inc -= j - r
        j = r
    return {
        "final": (r, j, e, inc, s),
        "empty": empty,
        "unemployment": penalty,
        "score": r + j + e + inc + s - empty - penalty,
        "reachable": sorted(seen - {"C3"}),
    }


def ref_tracks(b: Sequence[str | None]) -> tuple[int, ...]:
    """Σ legend over the tiles of a board."""
    total = [0] * 5
    for code in b:
        if code is not None:
            for k, d in enumerate(LEGEND[code.split("-")[0]]):
                total[k] += d
    return tuple(total)
