"""From weighed decisions to what a player sees: misses by size, the accuracy, the turning points.

A game's thresholds and accuracy scale are data: ``analysis.json`` in its rules package (``small``,
``medium``, ``large``: the least loss, in the game's points of expected margin, of each size of miss;
``scale``), read through the rules object, so this room names no game. The accuracy of a seat is
``100 * mean(exp(-loss / scale))`` over its decisions: 100 for a game of best moves, 37 for one where every
move lost ``scale`` points, near 0 for a game of large misses; a mean over moves (as Lichess's accuracy), so
one blunder costs its share and not the whole game.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from bot.analysis.model import MISSES, MoveLoss, PlayerSummary, TurningPoint
from bot.rules.core import GameRules

DEFAULT = {"small": 1.0, "medium": 3.0, "large": 6.0, "scale": 4.0}
"""A game without an ``analysis.json`` of its own."""
TURNING_POINTS = 3


@cache
def _data(package: str) -> dict[str, Any]:
    try:
        text = resources.files(package).joinpath("analysis.json").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return data


def data(rules: GameRules[Any]) -> dict[str, Any]:
    """The game's ``analysis.json`` (in its rules package; empty without one)."""
    return _data(type(rules).__module__.rpartition(".")[0])


def thresholds(rules: GameRules[Any]) -> dict[str, float]:
    """The game's ``small``, ``medium``, ``large`` and ``scale`` (:data:`DEFAULT` without its own)."""
    own = data(rules)
    return {key: float(own.get(key, value)) for key, value in DEFAULT.items()}


def horizon(rules: GameRules[Any]) -> int | None:
    """How many moves a rollout plays before the game's provisional margin is read (None: to the end)."""
    value = data(rules).get("horizon")
    return None if value is None else int(value)


def miss(loss: float, limits: dict[str, float]) -> str:
    """The size of a miss ("" when the loss is below the small threshold)."""
    size = ""
    for name in MISSES:
        if loss >= limits[name]:
            size = name
    return size


def accuracy(losses: Sequence[float], scale: float) -> float:
    """``100 * mean(exp(-loss / scale))``, one decimal; 100 with no decision."""
    if not losses:
        return 100.0
    return round(100.0 * sum(math.exp(-loss / scale) for loss in losses) / len(losses), 1)


def players(moves: Sequence[MoveLoss], seats: int, limits: dict[str, float]) -> tuple[PlayerSummary, ...]:
    out = []
    for seat in range(seats):
        losses = [m.loss for m in moves if m.seat == seat]
        counts = {name: sum(1 for m in moves if m.seat == seat and m.miss == name) for name in MISSES}
        average = round(sum(losses) / len(losses), 2) if losses else 0.0
        out.append(PlayerSummary(seat, len(losses), average, accuracy(losses, limits["scale"]), counts))
    return tuple(out)


def turning_points(moves: Sequence[MoveLoss], most: int = TURNING_POINTS) -> tuple[TurningPoint, ...]:
    """The ``most`` moves where a seat's expected margin (its played move's value) moved most since its
    previous decision, biggest first (ties: the earlier move)."""
    last: dict[int, float] = {}
    swings: list[TurningPoint] = []
    for m in moves:
        if m.seat in last:
            before = last[m.seat]
            swings.append(TurningPoint(m.number, m.seat, before, m.played, round(m.played - before, 2)))
        last[m.seat] = m.played
    swings.sort(key=lambda p: (-abs(p.swing), p.number))
    return tuple(swings[:most])
