"""The shape of a Quadropolis view, as :meth:`QuadropolisRules.view` builds it (for type checkers).

Renderers, presenters and labels read views through these types; ``tests/quadropolis/test_viewtypes.py``
checks at run time that real views have exactly these keys, so the types cannot drift from the code.

No ``from __future__ import annotations`` here: ``NotRequired`` must stay visible to ``TypedDict`` at
run time (the test reads ``__required_keys__``).
"""

from typing import Literal, NotRequired, TypedDict

from bot.rules.core import Term

Mode = Literal["classic", "expert"]
Phase = Literal["take", "build", "over"]
TileType = Literal["TOWER", "SHOP", "PUBLIC", "PARK", "FACTORY", "HARBOR", "OFFICE", "MONUMENT"]
SquareState = Literal["tile", "face_down", "empty"]


class QuadTile(TypedDict):
    """A face-up tile: what it is and what it gives."""

    id: str
    type: TileType
    code: str
    inhabitants: int
    energy: int
    vp: int
    mayor: bool
    absorbs: bool
    label: Term


class QuadSiteSquare(TypedDict):
    """A square of the construction site; ``tile`` only when ``state`` is ``"tile"`` (D-25)."""

    square: str
    row: int
    column: int
    state: SquareState
    tile: NotRequired[QuadTile]


class QuadSlot(TypedDict):
    """An architect standing in a slot of the site."""

    architect: int
    seat: int


class QuadUrbanist(TypedDict):
    square: str
    row: int
    column: int


class QuadSite(TypedDict):
    squares: list[list[QuadSiteSquare]]
    slots: dict[str, QuadSlot | None]
    open_slots: list[str]
    urbanist: QuadUrbanist | None


class QuadArchitects(TypedDict):
    """Expert: a shared pool (value as a string -> count left); Classic: each seat's unused values."""

    shared_pool: bool
    pool: dict[str, int] | None
    per_seat: list[list[int]] | None


class QuadDestination(TypedDict):
    square: str
    floor: int


class QuadPending(TypedDict):
    """The tile the current seat has taken and must build or discard."""

    seat: int
    tile: QuadTile
    architect: int
    destinations: list[QuadDestination]


class QuadBuilding(TypedDict):
    type: TileType
    code: str
    floors: int
    top: QuadTile
    vp: int
    cost_bearing: bool
    active: bool


class QuadCitySquare(TypedDict):
    square: str
    district: int
    field: int | None
    building: QuadBuilding | None


class QuadAllocation(TypedDict):
    inactive: list[str]
    customers: dict[str, int]
    absorbing_parks: list[str]


class QuadScore(TypedDict):
    """A city's score under its best allocation (final when the game is over)."""

    total: int
    categories: dict[str, int]
    """Points per scoring category (spec section 16, the nine ids of ``scoring.CATEGORIES``)."""
    inhabitants_on_buildings: int
    empty_squares: int
    unused_inhabitants: int
    unused_energy: int
    provisional: bool
    allocation: QuadAllocation


class QuadCity(TypedDict):
    seat: int
    rows: int
    columns: int
    inhabitants: int
    energy: int
    squares: list[list[QuadCitySquare]]
    score: QuadScore


class QuadTurn(TypedDict):
    seat: int | None
    phase: Phase
    number: int
    of: int


class QuadSeatDetails(TypedDict):
    inhabitants_on_buildings: int
    empty_squares: int
    provisional: bool


class QuadSeatResult(TypedDict):
    """``core.SeatResult.to_json()`` of a Quadropolis seat."""

    seat: int
    total: int
    breakdown: dict[str, int]
    rank: int
    tiebreak: list[int]
    details: QuadSeatDetails


class QuadResultDetails(TypedDict):
    """Quadropolis puts nothing in the result's own details."""


class QuadResult(TypedDict):
    """``core.Result.to_json()`` of a Quadropolis game."""

    seats: list[QuadSeatResult]
    decided_by: str
    details: QuadResultDetails


class QuadView(TypedDict):
    """What a seat (or a spectator) sees of a Quadropolis game: the same for everybody."""

    game: Literal["quadropolis"]
    mode: Mode
    players: int
    viewer: int | None
    round: int
    rounds: int
    first_player: int
    mayor: int
    turn: QuadTurn
    site: QuadSite
    architects: QuadArchitects
    pending: QuadPending | None
    cities: list[QuadCity]
    over: bool
    result: QuadResult | None
