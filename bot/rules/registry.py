"""Which games exist. Each game package exposes ``RULES``; this maps kinds to them lazily."""

from __future__ import annotations

import importlib
from typing import Any

from bot.rules.core import GameRules, IllegalMove

GAME_MODULES: dict[str, str] = {
    "quadropolis": "bot.rules.quadropolis.rules",
    "btc": "bot.rules.btc.rules",
    "urbanpanic": "bot.rules.urbanpanic.rules",
}
"""Game kind -> module holding ``RULES``. Tests register extra games with :func:`register`."""

_extra: dict[str, GameRules[Any]] = {}


def register(rules: GameRules[Any]) -> None:
    """Add a game at run time (the tests' toy game)."""
    _extra[rules.kind] = rules


def available() -> list[str]:
    """Kinds whose rules can be imported now, in a stable order."""
    out = []
    for kind, module in GAME_MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError:  # a game not shipped in this build
            continue
        out.append(kind)
    return out + sorted(_extra)


def get(kind: str) -> GameRules[Any]:
    """The rules of a game kind, or IllegalMove naming the unknown game."""
    if kind in _extra:
        return _extra[kind]
    module = GAME_MODULES.get(kind)
    if module is None:
        raise IllegalMove("error.unknown_game", game=kind)
    try:
        return importlib.import_module(module).RULES  # type: ignore[no-any-return]
    except ModuleNotFoundError:
        raise IllegalMove("error.unknown_game", game=kind) from None
