"""Quadropolis's moves as :mod:`bot.rules.quadropolis.engine` offers them, one ``TypedDict`` per shape (the
module docstring there lists them); :func:`bot.rules.core.is_kind` tells them apart."""

from typing import Literal, NotRequired, TypedDict


class QuadTake(TypedDict):
    """Place an architect of ``architect`` (its number) in ``slot`` (``L1``..``B5``) and take what it points at."""

    kind: Literal["take"]
    architect: int
    slot: str


class QuadBuild(TypedDict):
    """Build the taken tile on ``square`` (``B3``), on ``floor`` when it stacks on a tower or an office."""

    kind: Literal["build"]
    square: str
    floor: NotRequired[int]


class QuadDiscard(TypedDict):
    """Discard the taken tile."""

    kind: Literal["discard"]


QuadMove = QuadTake | QuadBuild | QuadDiscard
"""Every move of Quadropolis."""
