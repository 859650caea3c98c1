"""What an Urban Panic seat cannot see, dealt again (the after-game analysis, :mod:`bot.analysis`).

Only the order of the face-down stack is hidden in the turn games (spec 13); in the party game the pool's
order and the tiles in other players' hands (:func:`bot.rules.urbanpanic.strong.unseen`). A determinization
deals the tiles the seat has not seen again: first one into each other hand that holds a tile, then the rest as
the stack, in a seeded order. Their set is the box minus what the seat saw, so the result depends on nothing
hidden. Everything a seat may know is on the table, so nothing is remembered between moves.
"""

from __future__ import annotations

from bot.rules import core
from bot.rules.urbanpanic.state import State
from bot.rules.urbanpanic.strong import unseen


def determinize(state: State, seat: int, seed: int) -> State:
    """``state`` with the unseen tiles dealt again (see the module's docstring)."""
    out = state.copy()
    dealt = core.shuffled(unseen(state, seat), seed, "urbanpanic", "unseen")
    for index, player in enumerate(out.players):
        if index != seat and player.hand is not None:
            player.hand = dealt.pop()
    assert len(dealt) == len(state.stack), "the unseen tiles are the stack and the others' hands"
    out.stack = dealt
    return out
