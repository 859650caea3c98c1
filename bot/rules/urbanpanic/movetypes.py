"""Urban Panic's moves as :mod:`bot.rules.urbanpanic.engine` offers them, one ``TypedDict`` per shape (the
module docstring there lists them); :func:`bot.rules.core.is_kind` tells them apart.
Every shape may carry ``at`` (epoch ms, for the party game's timer): the service stamps each move it applies."""

from typing import Literal, NotRequired, TypedDict


class UpArchitect(TypedDict):
    """Take the face-up tile of ``slot`` (1..4) into the reserve."""

    kind: Literal["architect"]
    slot: int
    at: NotRequired[int]


class UpPlanner(TypedDict):
    """Build the reserve's ``tile`` on the empty ``plot``."""

    kind: Literal["planner"]
    tile: str
    plot: str
    at: NotRequired[int]


class UpEngineerBoard(TypedDict):
    """Swap two built plots."""

    kind: Literal["engineer_board"]
    plot: str
    other: str
    at: NotRequired[int]


class UpEngineerReserve(TypedDict):
    """Swap a built ``plot`` with the reserve's ``tile``."""

    kind: Literal["engineer_reserve"]
    plot: str
    tile: str
    at: NotRequired[int]


class UpMayor(TypedDict):
    """Refresh the face-up tiles."""

    kind: Literal["mayor"]
    at: NotRequired[int]


class UpSpy(TypedDict):
    """Build ``tile`` from the reserve of seat ``victim`` on the empty ``plot``."""

    kind: Literal["spy"]
    victim: int
    tile: str
    plot: str
    at: NotRequired[int]


class UpEndTurn(TypedDict):
    """End the turn."""

    kind: Literal["end_turn"]
    at: NotRequired[int]


class UpDraw(TypedDict):
    """Party: draw a fresh tile."""

    kind: Literal["draw"]
    at: NotRequired[int]


class UpTake(TypedDict):
    """Party: take ``tile`` from the open table."""

    kind: Literal["take"]
    tile: str
    at: NotRequired[int]


class UpPlace(TypedDict):
    """Party: build the tile in hand on the empty ``plot``."""

    kind: Literal["place"]
    plot: str
    at: NotRequired[int]


class UpDrop(TypedDict):
    """Party: put the tile in hand on the open table."""

    kind: Literal["drop"]
    at: NotRequired[int]


class UpTimeout(TypedDict):
    """Party: time is up (played by the system seat)."""

    kind: Literal["timeout"]
    at: NotRequired[int]


UpMove = (
    UpArchitect
    | UpPlanner
    | UpEngineerBoard
    | UpEngineerReserve
    | UpMayor
    | UpSpy
    | UpEndTurn
    | UpDraw
    | UpTake
    | UpPlace
    | UpDrop
    | UpTimeout
)
"""Every move of Urban Panic."""
