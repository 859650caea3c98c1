"""The state of a Quadropolis game: plain dataclasses that round-trip through JSON exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.rules.core import Cell
from bot.rules.quadropolis.scoring import Building, Grid
from bot.rules.quadropolis.tiles import MODE_RULES, ModeRules, kind_of

PHASE_TAKE = "take"
PHASE_BUILD = "build"
PHASE_OVER = "over"


@dataclass
class PlayerState:
    """One player's city and counters.

    ``city[r][c]`` is the stack of tile ids on that square, bottom first (empty list: no building).
    ``architects`` (Classic) are the values not yet used this round. Where the inhabitants and
    energy go is not part of the state: the engine places them at the end (spec 7, D-24).
    """

    city: list[list[list[str]]]
    inhabitants: int = 0
    energy: int = 0
    architects: list[int] = field(default_factory=list)

    def clone(self) -> PlayerState:
        return PlayerState(
            city=[[list(stack) for stack in row] for row in self.city],
            inhabitants=self.inhabitants,
            energy=self.energy,
            architects=list(self.architects),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "city": [[list(stack) for stack in row] for row in self.city],
            "inhabitants": self.inhabitants,
            "energy": self.energy,
            "architects": list(self.architects),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerState:
        """Reads saved games too; their ``off`` list (buildings once kept idle by hand) is dropped (D-24)."""
        return cls(
            city=[[[str(t) for t in stack] for stack in row] for row in data["city"]],
            inhabitants=int(data["inhabitants"]),
            energy=int(data["energy"]),
            architects=[int(v) for v in data["architects"]],
        )


@dataclass
class QuadState:
    """A whole game.

    The site is 25 squares in reading order (``None``: empty); ``face_down[i]`` says the tile there
    was never turned up (it stays hidden and cannot be taken, D-2). ``slots`` maps a used slot to
    ``[architect value, seat]``. ``pool[v-1]`` counts Expert architects of value v still free.
    ``turn`` counts the turns already taken this round; the player to act is
    ``(first + turn) % players``. ``pending`` is the tile taken this turn, waiting to be built or
    discarded with architect ``pending_architect``. ``discarded`` and ``returned`` (site leftovers
    sent back to the box at the end of each round) keep every tile accounted for.
    """

    mode: str
    players: int
    seed: int
    round: int
    first: int
    mayor: int
    turn: int
    phase: str
    site: list[str | None]
    face_down: list[bool]
    slots: dict[str, list[int]]
    pool: list[int]
    urbanist: Cell | None
    pending: str | None
    pending_architect: int
    seats: list[PlayerState]
    discarded: list[str] = field(default_factory=list)
    returned: list[str] = field(default_factory=list)

    @property
    def rules(self) -> ModeRules:
        return MODE_RULES[self.mode]

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return (self.first + self.turn) % self.players

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER

    def clone(self) -> QuadState:
        return QuadState(
            mode=self.mode,
            players=self.players,
            seed=self.seed,
            round=self.round,
            first=self.first,
            mayor=self.mayor,
            turn=self.turn,
            phase=self.phase,
            site=list(self.site),
            face_down=list(self.face_down),
            slots={k: list(v) for k, v in self.slots.items()},
            pool=list(self.pool),
            urbanist=self.urbanist,
            pending=self.pending,
            pending_architect=self.pending_architect,
            seats=[p.clone() for p in self.seats],
            discarded=list(self.discarded),
            returned=list(self.returned),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "players": self.players,
            "seed": self.seed,
            "round": self.round,
            "first": self.first,
            "mayor": self.mayor,
            "turn": self.turn,
            "phase": self.phase,
            "site": list(self.site),
            "face_down": list(self.face_down),
            "slots": {k: list(v) for k, v in sorted(self.slots.items())},
            "pool": list(self.pool),
            "urbanist": None if self.urbanist is None else list(self.urbanist),
            "pending": self.pending,
            "pending_architect": self.pending_architect,
            "seats": [p.to_json() for p in self.seats],
            "discarded": list(self.discarded),
            "returned": list(self.returned),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> QuadState:
        urbanist = data["urbanist"]
        return cls(
            mode=str(data["mode"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            round=int(data["round"]),
            first=int(data["first"]),
            mayor=int(data["mayor"]),
            turn=int(data["turn"]),
            phase=str(data["phase"]),
            site=[None if t is None else str(t) for t in data["site"]],
            face_down=[bool(v) for v in data["face_down"]],
            slots={str(k): [int(x) for x in v] for k, v in data["slots"].items()},
            pool=[int(v) for v in data["pool"]],
            urbanist=None if urbanist is None else (int(urbanist[0]), int(urbanist[1])),
            pending=None if data["pending"] is None else str(data["pending"]),
            pending_architect=int(data["pending_architect"]),
            seats=[PlayerState.from_json(p) for p in data["seats"]],
            discarded=[str(t) for t in data["discarded"]],
            returned=[str(t) for t in data["returned"]],
        )


def building_of(stack: list[str]) -> Building | None:
    """The building a stack of tiles forms (its top floor's type, its height, printed VP)."""
    if not stack:
        return None
    kind = kind_of(stack[-1])
    return Building(kind.code, len(stack), kind.vp)


def grid_of(player: PlayerState) -> Grid:
    """A player's city as the scorer sees it."""
    return tuple(tuple(building_of(stack) for stack in row) for row in player.city)
