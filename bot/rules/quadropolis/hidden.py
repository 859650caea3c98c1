"""What a Quadropolis seat cannot see, dealt again (the after-game analysis, :mod:`bot.analysis`).

Hidden from everyone: the order of every later round's site (the round's set is printed in the rules, its
shuffle is not) and where this round's face-down tiles lie (their set is known, D-2: they are never taken).
A determinization keeps everything on the table and deals both again from the seed, so it depends on what the
seat saw and the seed alone. A seat remembers nothing the table does not show, so nothing is kept.
"""

from __future__ import annotations

from bot.rules import core
from bot.rules.quadropolis.state import QuadState


def determinize(state: QuadState, seed: int) -> QuadState:
    """``state`` with later rounds dealt from a new seed and this round's face-down tiles moved at random."""
    out = state.clone()
    out.seed = core.derive_seed(seed, "quadropolis", "later rounds")
    down = [i for i, hidden in enumerate(state.face_down) if hidden and state.site[i] is not None]
    tiles = core.shuffled(sorted(str(state.site[i]) for i in down), seed, "quadropolis", "face down")
    for index, tile in zip(down, tiles, strict=True):
        out.site[index] = tile
    return out
