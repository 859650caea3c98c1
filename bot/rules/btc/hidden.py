"""What a Between Two Cities seat cannot see, dealt again (the after-game analysis, :mod:`bot.analysis`).

Tiles are numbered by draw order and ``BtcState.tiles`` says each one's kind (see :mod:`.state`). A seat
knows the kind of every tile it has held (a hand passed on is remembered: :func:`observe`), every tile laid in a
city and every revealed choice; the kinds of all other numbers (the bag, the duplex stack, the others' hands)
are what it cannot see. A determinization deals those kinds again among those numbers (singles among singles,
duplexes among duplexes): their set is the box minus what the seat saw, so it depends on nothing else. The
others' unrevealed choices of the step under way are taken back into their hands, so they choose again, as
the seat could expect them to; the solo Automa deck's order is shuffled again.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules import core
from bot.rules.btc import tiles as T
from bot.rules.btc.state import BtcState
from bot.rules.btc.table import is_solo


def visible(state: BtcState, seat: int) -> set[int]:
    """The tile numbers whose kind ``seat`` sees in ``state``."""
    seen: set[int] = set()
    for city in state.cities:
        seen.update(spot[1] for spot in city.cells.values())
        seen.update(spot[1] for spot in city.loose)
    solo = is_solo(state)
    for index, player in enumerate(state.players):
        seen.update(p.tile for p in player.pending)
        if index == seat or solo:  # solo: every hand lies face up (10.2)
            seen.update(player.hand)
            seen.update(player.choice)
            seen.update(player.outgoing)
    seen.update(p.tile for p in state.under)
    return seen


def observe(state: BtcState, seat: int, known: Iterable[int] | None) -> list[int]:
    """Every tile number ``seat`` has seen, ``state`` included, sorted."""
    return sorted(visible(state, seat).union(known or ()))


def determinize(state: BtcState, seat: int, known: Iterable[int] | None, seed: int) -> BtcState:
    """``state`` as ``seat`` could take it to be (see the module's docstring)."""
    out = state.clone()
    if not is_solo(out):
        for index, player in enumerate(out.players):
            if index != seat and player.choice:
                player.hand = sorted([*player.choice, *player.outgoing])
                player.choice, player.outgoing = [], []
    seen = visible(state, seat).union(known or ())
    kinds = list(out.tiles)
    singles = len(T.SINGLE_POOL)
    for label, numbers in (
        ("singles", [n for n in range(singles) if n not in seen]),
        ("duplexes", [n for n in range(singles, len(kinds)) if n not in seen]),
    ):
        dealt = core.shuffled(sorted(kinds[n] for n in numbers), seed, "btc", "unseen", label)
        for number, kind in zip(numbers, dealt, strict=True):
            kinds[number] = kind
    out.tiles = tuple(kinds)
    out.deck = core.shuffled(sorted(out.deck), seed, "btc", "automa deck")
    return out
