"""What the analysis of a game is: frozen dataclasses, JSON-able through ``to_json`` (see :mod:`bot.analysis`)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

MISSES = ("small", "medium", "large")
"""The sizes of a miss, smallest first (each game's thresholds: ``thresholds.json``)."""


@dataclass(frozen=True)
class Budget:
    """How much work one decision gets: ``samples`` determinizations (what the seat could not see, dealt
    again) times ``rollouts`` games played out from each, for every candidate move."""

    samples: int = 2
    rollouts: int = 1

    def __post_init__(self) -> None:
        if self.samples < 1 or self.rollouts < 1:
            raise ValueError("a budget needs at least one sample and one rollout")

    def times(self, factor: int) -> Budget:
        """This budget with ``factor`` times the samples."""
        return Budget(self.samples * factor, self.rollouts)


@dataclass(frozen=True)
class MoveLoss:
    """One decision weighed: ``number`` is the move's place in the log (1 = the first move).

    ``played`` and ``best`` are expected final score margins over the best opponent (points) for the seat,
    as it could see the game; ``loss`` = best - played, never negative. ``best_said`` is the rules' own
    sentence of the best move (``describe``: message id and parameters, seats as ``$seat`` references)."""

    number: int
    seat: int
    move: dict[str, Any]
    played: float
    best: float
    loss: float
    best_move: dict[str, Any]
    best_said: tuple[str, dict[str, Any]]
    candidates: int
    legal: int
    miss: str = ""


@dataclass(frozen=True)
class PlayerSummary:
    """A seat's decisions in one figure each: the average loss, the misses by size, the accuracy (0-100)."""

    seat: int
    decisions: int
    average_loss: float
    accuracy: float
    misses: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TurningPoint:
    """A move after which a seat's expected margin moved most: ``before`` is what the seat could expect at
    its previous decision, ``after`` at this one's played move."""

    number: int
    seat: int
    before: float
    after: float
    swing: float


@dataclass(frozen=True)
class GameAnalysis:
    """A finished game weighed: every decision, every seat's summary, the turning points."""

    kind: str
    seats: int
    budget: Budget
    policy: str
    moves: tuple[MoveLoss, ...]
    players: tuple[PlayerSummary, ...]
    turning_points: tuple[TurningPoint, ...]

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain JSON data (tuples as lists)."""
        data: dict[str, Any] = json.loads(json.dumps(asdict(self)))
        return data
