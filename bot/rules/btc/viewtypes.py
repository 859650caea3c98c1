"""The shape of a Between Two Cities view, as :func:`bot.rules.btc.views.view` builds it (for type checkers).

Renderers, presenters and labels read views through these types; ``tests/btc/test_viewtypes.py``
checks at run time that real views have exactly these keys, so the types cannot drift from the code.

No ``from __future__ import annotations`` here: ``NotRequired`` must stay visible to ``TypedDict`` at
run time (the test reads ``__required_keys__``).
"""

from typing import Literal, NotRequired, TypedDict

from bot.rules.core import Term

Mode = Literal["standard", "two_player", "solo_simple", "solo_full"]
Phase = Literal["play", "assign", "place", "bonus", "over"]
Part = Literal["", "a", "b"]
Orientation = Literal["horizontal", "vertical"]


class BtcTile(TypedDict):
    """A tile a viewer may see."""

    id: int
    kind: str
    faces: list[str]
    orientation: Orientation | None
    name: Term


class BtcPlaceTile(BtcTile):
    """A revealed tile its chooser must place (``city`` None: the chooser decides which)."""

    city: int | None


BtcIncoming = TypedDict(
    "BtcIncoming",
    {"id": int, "kind": str, "faces": list[str], "orientation": Orientation | None, "name": Term, "from": int},
)
"""A revealed or assigned tile bound for a city: a tile and ``from``, who brings it (functional form:
``from`` is a keyword)."""


class BtcCell(TypedDict):
    """A built cell of a grid city; ``half`` 0 for a single tile, 1/2 for a duplex's faces."""

    face: str
    type: str
    token: str
    tile: int
    half: int
    duplex: str | None
    other: str | None


class BtcLoose(TypedDict):
    """A face in Automacity's pile (no grid)."""

    face: str
    tile: int
    half: int


class BtcCity(TypedDict):
    city: int
    name: Term
    builders: list[int]
    grid: bool
    size: int
    buildings: dict[str, int]
    factories: int
    per_factory: int
    scores: dict[str, int]
    modifier: int
    total: int
    incoming: list[BtcIncoming]
    cells: NotRequired[dict[str, BtcCell]]
    rows: NotRequired[list[str]]
    origin: NotRequired[str | None]
    open: NotRequired[list[str]]
    loose: NotRequired[list[BtcLoose]]


class BtcPlayer(TypedDict):
    player: int
    seat: int | None
    automa: Term | None
    left_city: int
    right_city: int
    hand_size: int
    committed: bool
    passing: int
    to_place: list[BtcPlaceTile]
    placed_cities: list[int]
    you_first: list[int]
    position: NotRequired[int]
    left_neighbour: NotRequired[int]
    right_neighbour: NotRequired[int]
    hand: NotRequired[list[BtcTile]]


class BtcYou(TypedDict):
    """The viewer's own secrets: its hand and its committed, unrevealed choice."""

    seat: int
    hand: list[BtcTile]
    choice: list[BtcTile]
    to_place: list[BtcPlaceTile]
    can_choose: bool


class BtcSupply(TypedDict):
    singles: int
    duplexes: int
    discarded: int


class BtcAutomaStep(TypedDict):
    """One Automa turn of solo Full: the card drawn, the tile shared and the tile kept."""

    round: int
    turn: int
    automa: int
    card: str
    shared: int
    shared_tile: str
    shared_by: str
    shared_city: int
    automacity: int
    automacity_tile: str
    automacity_by: str


class BtcAutoma(TypedDict):
    names: list[Term]
    log: list[BtcAutomaStep]
    cards_left: int


class BtcCampaignSummary(TypedDict):
    """What the campaign record keeps of a solo campaign game (10.10)."""

    length: int
    game: int
    won: bool
    campaign_points: int
    used_before: list[str]
    bonus_type: str | None
    bonus_city: int | None
    bonus: int
    total: int
    used_after: NotRequired[list[str]]


class BtcCampaign(TypedDict):
    length: int
    game: int
    used_before: list[str]
    bonus_choices: list[list[str | int]]
    """``[category, city]`` pairs the end-of-campaign bonus may take."""
    summary: BtcCampaignSummary | None


class BtcCityScore(TypedDict):
    """A city's points per category (``scoring.CATEGORIES``), its modifier and total, in seat details."""

    shops: int
    factories: int
    taverns: int
    offices: int
    parks: int
    houses: int
    modifier: int
    total: int


class BtcSeatCities(TypedDict):
    left: BtcCityScore
    right: BtcCityScore


class BtcSeatDetails(TypedDict):
    left_city: int
    right_city: int
    lower_city: int
    cities: BtcSeatCities
    higher: int
    buildings: dict[str, int]
    campaign: NotRequired[BtcCampaignSummary]


class BtcSeatResult(TypedDict):
    """``core.SeatResult.to_json()`` of a Between Two Cities seat."""

    seat: int
    total: int
    breakdown: dict[str, int]
    rank: int
    tiebreak: list[int]
    details: BtcSeatDetails


class BtcAutomaResult(BtcSeatResult):
    """An Automa's place in a solo game's ranking."""

    name: Term


class BtcResultCity(TypedDict):
    city: int
    name: Term
    categories: dict[str, int]
    modifier: int
    total: int


class BtcResultDetails(TypedDict):
    cities: list[BtcResultCity]
    over: bool
    automas: NotRequired[list[BtcAutomaResult]]
    difficulty: NotRequired[int]


class BtcResult(TypedDict):
    """``core.Result.to_json()`` of a Between Two Cities game (solo: only seat 0)."""

    seats: list[BtcSeatResult]
    decided_by: str
    details: BtcResultDetails


class BtcView(TypedDict):
    """What a seat (None: a spectator) sees of a Between Two Cities game."""

    game: Literal["btc"]
    mode: Mode
    round: int
    part: Part
    turn: int
    phase: Phase
    seat: int | None
    awaiting: list[int]
    players: list[BtcPlayer]
    cities: list[BtcCity]
    you: BtcYou | None
    supply: BtcSupply
    automa: BtcAutoma | None
    result: BtcResult | None
    difficulty: NotRequired[int]
    campaign: NotRequired[BtcCampaign]
