"""Between Two Cities's moves as :mod:`bot.rules.btc.engine` offers them, one ``TypedDict`` per shape (the
module docstring there lists them); :func:`bot.rules.core.is_kind` tells them apart."""

from typing import Literal, NotRequired, TypedDict


class BtcChoosePair(TypedDict):
    """Rounds 1 and 3: the secret choice of two tiles of the hand, in hand order."""

    kind: Literal["choose"]
    tiles: list[int]


class BtcChooseDuplexes(TypedDict):
    """Round 2: the duplex for the left city and the one for the right city."""

    kind: Literal["choose"]
    left: int
    right: int


class BtcPlace(TypedDict):
    """Place a revealed tile in ``city``, anchored at ``cell`` (``D4``)."""

    kind: Literal["place"]
    tile: int
    city: int
    cell: str


class BtcTurned(TypedDict):
    """A duplex that fits nowhere the right way up, laid along the other axis."""

    kind: Literal["turned"]
    tile: int
    city: int
    cell: str


class BtcYouFirst(TypedDict):
    """Ask the partner to place first in a shared ``city``."""

    kind: Literal["you_first"]
    city: int


class BtcAssign(TypedDict):
    """Solo: the tiles for the left and the right city (Simple: ``auto``, the one for Automacity)."""

    kind: Literal["assign"]
    left: int
    right: int
    auto: NotRequired[int]


class BtcBonus(TypedDict):
    """Solo campaign: the bonus of ``type`` (``parks``) for ``city``."""

    kind: Literal["bonus"]
    type: str
    city: int


BtcMove = BtcChoosePair | BtcChooseDuplexes | BtcPlace | BtcTurned | BtcYouFirst | BtcAssign | BtcBonus
"""Every move of Between Two Cities."""
