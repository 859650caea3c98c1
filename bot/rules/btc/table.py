"""Between Two Cities' table: the modes and their constants, the stages of a game (``STAGES``), who sits where and
builds which city, tile and city names as terms, and drawing tiles from the stacks. The lowest floor of the game's
engine (:mod:`bot.rules.btc.engine` re-exports it)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from bot.rules import core
from bot.rules.btc import automa, scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.state import BtcState, City

STANDARD = "standard"
TWO_PLAYER = "two_player"
SOLO_SIMPLE = "solo_simple"
SOLO_FULL = "solo_full"
MODES: tuple[str, ...] = (STANDARD, TWO_PLAYER, SOLO_SIMPLE, SOLO_FULL)
SOLO_MODES = frozenset({SOLO_SIMPLE, SOLO_FULL})

HAND_SINGLES = 7
HAND_DUPLEXES = 3
SIMPLE_HAND = 3
SOLO_PLAYERS = 3
LEFT_CITY, AUTOMACITY, RIGHT_CITY = 0, automa.AUTOMACITY, 2
"""Solo cities: the Left City (you and Autommaso), Automacity, the Right City (you and Automarta)."""

CAMPAIGN_LENGTHS = ("3", "6")
TYPE_LETTERS = "SFTOPH"
"""Campaign bonus types by letter, in reference order (shops … houses)."""
LETTER_CATEGORY: dict[str, str] = dict(zip(TYPE_LETTERS, scoring.CATEGORIES, strict=True))
NO_TYPES = "-"


def type_subsets() -> tuple[str, ...]:
    out = [NO_TYPES]
    for n in range(1, len(TYPE_LETTERS) + 1):
        out += ["".join(c) for c in itertools.combinations(TYPE_LETTERS, n)]
    return tuple(out)


TIEBREAK_NAMES: tuple[str, ...] = (
    "score",
    "btc.tiebreak.higher",
    "btc.tiebreak.shops",
    "btc.tiebreak.factories",
    "btc.tiebreak.taverns",
    "btc.tiebreak.offices",
    "btc.tiebreak.parks",
    "btc.tiebreak.houses",
)
"""``decided_by`` names: the final score, the higher city (8.8 first tie-breaker), then building
counts type by type (second tie-breaker). The 2-player game skips the higher city (section 9)."""


@dataclass(frozen=True)
class Stage:
    """One round (2-player: half round) of a mode.

    ``passing``: +1 hands go left, -1 right, 0 no passing. ``units``: solo Full duplex batches,
    solo Simple repetitions (0 when the hands decide).
    """

    round: int
    part: str
    duplex: bool
    passing: int
    units: int = 0


STAGES: dict[str, tuple[Stage, ...]] = {
    STANDARD: (Stage(1, "", False, 1), Stage(2, "", True, 0), Stage(3, "", False, -1)),
    TWO_PLAYER: (
        Stage(1, "a", False, 1),
        Stage(1, "b", False, 1),
        Stage(2, "a", True, 0),
        Stage(2, "b", True, 0),
        Stage(3, "a", False, -1),
        Stage(3, "b", False, -1),
    ),
    SOLO_FULL: (Stage(1, "", False, 1), Stage(2, "", True, 0, 2), Stage(3, "", False, -1)),
    SOLO_SIMPLE: (Stage(1, "", False, 0, 3), Stage(2, "", True, 0, 1), Stage(3, "", False, 0, 3)),
}


# ---------------------------------------------------------------------------------------------
# Table geometry: who sits where, who builds which city
# ---------------------------------------------------------------------------------------------


def is_solo(state: BtcState) -> bool:
    return state.mode in SOLO_MODES


def stage_of(state: BtcState) -> Stage:
    stages = STAGES[state.mode]
    return stages[min(state.stage, len(stages) - 1)]


def cities_of(state: BtcState, player: int) -> tuple[int, int]:
    """(left city, right city) of a player (section 3; 2-player: their own two cities)."""
    if state.mode == TWO_PLAYER:
        return (2 * player, 2 * player + 1)
    pos = state.order.index(player)
    return (pos, (pos - 1) % len(state.order))


def giver(state: BtcState, player: int, passing: int) -> int:
    """The player whose hand ``player`` receives when hands pass in direction ``passing``."""
    if state.mode == TWO_PLAYER:
        return 1 - player
    pos = state.order.index(player)
    return state.order[(pos - passing) % len(state.order)]


def partner(state: BtcState, player: int, city: int) -> int | None:
    """The other human builder of a shared city (3-7 players only), else None."""
    if state.mode != STANDARD:
        return None
    others = [b for b in state.cities[city].builders if b != player]
    return others[0] if others else None


def factory_counts(state: BtcState) -> list[int]:
    """Factory cells of every city (only placed tiles count, D-15)."""
    return [sum(1 for f in c.faces() if T.face_type(f) == "factory") for c in state.cities]


def kind_of(state: BtcState, tile: int) -> T.TileKind:
    return T.KINDS[state.tiles[tile]]


def face_term(code: str) -> core.Term:
    """A tile face as a term (``btc.tile.<face>``: "shop", "drink tavern")."""
    return core.term(f"btc.tile.{code.lower()}")


def tile_name(state: BtcState, tile: int) -> core.Term:
    """A tile as players call it, as a term: "shop", "office and shop duplex"."""
    faces = kind_of(state, tile).faces
    if len(faces) == 1:
        return face_term(faces[0])
    return core.term("btc.tile.duplex", a=face_term(faces[0]), b=face_term(faces[1]))


def city_term(name: str) -> core.Term:
    """A city's display name (``cities.json``) as a term: ``btc.city.<name in snake case>``."""
    return core.term("btc.city." + re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_"))


def automa_term(player: int) -> core.Term:
    """A solo Automa's name (``cities.json``, player 1 or 2) as a term, ``btc.automa.name.<name>``: each
    language writes it in its own script."""
    return core.term("btc.automa.name." + T.AUTOMA_NAMES[player - 1].lower())


def city_name(state: BtcState, city: int) -> core.Term:
    return city_term(state.cities[city].name)


def _city_label(state: BtcState, city: int) -> core.Term | str:
    """A city's name, or the number given when there is no such city."""
    return city_name(state, city) if 0 <= city < len(state.cities) else str(city)


def _draw(state: BtcState, duplex: bool, n: int) -> list[int]:
    if duplex:
        start = state.next_duplex
        state.next_duplex += n
        assert state.next_duplex <= len(state.tiles), "the duplex stack is always sufficient (2.5)"
    else:
        start = state.next_single
        state.next_single += n
        assert state.next_single <= len(T.SINGLE_POOL), "the bag is always sufficient (2.5)"
    return list(range(start, start + n))


def _place_loose(city: City, state: BtcState, tile: int) -> None:
    """Add a tile to Automacity (no geometry, 10.2)."""
    kind = kind_of(state, tile)
    if kind.shape == T.SINGLE:
        city.loose.append((kind.faces[0], tile, 0))
    else:
        city.loose.extend((face, tile, i + 1) for i, face in enumerate(kind.faces))
