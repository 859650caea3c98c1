"""The only writer: lobby, turns, permissions, AI seats, timers. No Discord here.

Every method takes plain ids and returns plain result objects; refusals are :mod:`bot.errors`
exceptions carrying a message id. Each move is one store transaction that checks the version it was
computed from, under a per-game lock, so a double click or a burst of concurrent submissions plays
exactly once.

The service's parts: :mod:`~bot.service.model` (the objects it returns, its clock), :mod:`~bot.service.base`
(the store, locks, caches, applying a move), :mod:`~bot.service.lobby`, :mod:`~bot.service.play` (moves, AI
seats, timers, what a restart tells), :mod:`~bot.service.ending` (undo, resign, abandon, pause, forget-me),
:mod:`~bot.service.reads` (what the front-ends and features read) and :mod:`~bot.service.service`
(:class:`Service`, all of them). This module only re-exports their names.
"""

from bot.service.model import (
    FORGOTTEN_NAME,
    STATE_CACHE_SIZE,
    VIEW_CACHE_SIZE,
    Clock,
    GameInfo,
    MoveOutcome,
    Snapshot,
    SystemClock,
    choices_token,
    forfeit_result,
    named,
)
from bot.service.service import Service

__all__ = [
    "FORGOTTEN_NAME",
    "STATE_CACHE_SIZE",
    "VIEW_CACHE_SIZE",
    "Clock",
    "GameInfo",
    "MoveOutcome",
    "Service",
    "Snapshot",
    "SystemClock",
    "choices_token",
    "forfeit_result",
    "named",
]
