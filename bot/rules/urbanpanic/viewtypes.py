"""The shape of an Urban Panic view, as :meth:`UrbanPanicRules.view` builds it (for type checkers).

Renderers, presenters and labels read views through these types; ``tests/urbanpanic/test_viewtypes.py``
checks at run time that real views have exactly these keys, so the types cannot drift from the code.

No ``from __future__ import annotations`` here: ``NotRequired`` must stay visible to ``TypedDict`` at
run time (the test reads ``__required_keys__``).
"""

from typing import Literal, NotRequired, TypedDict, final

Variant = Literal["basic", "advanced", "party"]
EndReason = Literal["", "full_city", "stack", "stalemate", "all_finished", "timer", "cap"]
ActionKind = Literal["architect", "planner", "engineer_board", "engineer_reserve", "mayor", "spy"]


@final
class UpCentre(TypedDict):
    """The centre square (C3), never built on."""

    centre: Literal[True]


@final
class UpPlot(TypedDict):
    """A built plot; ``reachable``: linked to the centre by roads."""

    plot: str
    tile: str
    type: str
    passages: str
    reachable: bool


UpCell = UpPlot | UpCentre | None
"""A grid cell: a built plot, the centre, or None for an empty plot."""


class UpPlayer(TypedDict):
    """A city. Turn games show its ``reserve``; the party game its ``hand`` (``"hidden"`` when it is
    another player's tile, None when empty)."""

    seat: int
    grid: list[list[UpCell]]
    tiles: int
    empty_plots: int
    reachable: int
    tracks: list[int]
    finisher: bool
    hand: NotRequired[str | None]
    reserve: NotRequired[list[str]]


class UpTileType(TypedDict):
    id: str
    letter: str
    name: str
    deltas: list[int]


class UpLegend(TypedDict):
    tracks: list[str]
    letters: list[str]
    floor: int
    types: list[UpTileType]


class UpGoal(TypedDict):
    id: str
    title_key: str


class UpMainBoard(TypedDict):
    """Turn games: the four face-up slots, the stack's size and the discard pile."""

    slots: list[str | None]
    stack: int
    discard: list[str]


class UpParty(TypedDict):
    pool: int
    open_table: list[str]
    deadline: int | None
    timer_running: bool


class UpAction(TypedDict):
    """One action of a turn as the turn log keeps it: its kind and the public facts it names."""

    kind: ActionKind
    slot: NotRequired[int]
    plot: NotRequired[str]
    other: NotRequired[str]
    victim: NotRequired[int]
    tile: NotRequired[str | None]
    other_tile: NotRequired[str | None]
    removed: NotRequired[str | None]


class UpPreviousTurn(TypedDict):
    seat: int
    turn: int
    actions: list[UpAction]


class UpRemoved(TypedDict):
    """A tile taken off at scoring (spec 13) and the track gains it loses."""

    plot: str
    tile: str
    lost: list[int]


class UpSeatDetails(TypedDict):
    """The scoring sheet of a city (``CityScore.details``), its goals and whether it finished first."""

    tracks_played: list[int]
    removed: list[UpRemoved]
    tracks_after_removal: list[int]
    empty_plots: int
    unemployment_penalty: int
    jobs_cut: int
    tracks_final: list[int]
    base: int
    goals_won: list[str]
    finisher: bool


class UpSeatResult(TypedDict):
    """``core.SeatResult.to_json()`` of an Urban Panic seat."""

    seat: int
    total: int
    breakdown: dict[str, int]
    rank: int
    tiebreak: list[int]
    details: UpSeatDetails


class UpResultDetails(TypedDict):
    end_reason: EndReason
    over: bool
    goals: list[str]


class UpResult(TypedDict):
    """``core.Result.to_json()`` of an Urban Panic game."""

    seats: list[UpSeatResult]
    decided_by: str
    details: UpResultDetails


class UpView(TypedDict):
    """What a seat (None: a spectator) sees of an Urban Panic game.

    Turn games carry ``main_board``, ``points``, the Architect flags, ``last_turn``, ``turn_log`` and
    ``previous_turn``; the party game carries ``party``. ``current`` is None in the party game and
    once the game is over.
    """

    kind: Literal["urbanpanic"]
    variant: Variant
    viewer: int | None
    seats: int
    over: bool
    end_reason: EndReason
    turn: int
    legend: UpLegend
    players: list[UpPlayer]
    goals: list[UpGoal]
    first_finisher: int | None
    result: UpResult | None
    current: int | None
    party: NotRequired[UpParty]
    main_board: NotRequired[UpMainBoard]
    points: NotRequired[int]
    architect_done: NotRequired[bool]
    architect_owed: NotRequired[bool]
    last_turn: NotRequired[bool]
    turn_log: NotRequired[list[UpAction]]
    previous_turn: NotRequired[UpPreviousTurn | None]
