"""Short labels for moves, shared by the Discord presenters and the terminal (no Discord here).

A game may declare a labeller (``bot/games/<kind>.py``); otherwise the catalogue key
``<game>.move.<kind>`` is used with the move's fields, and at last the move's fields themselves.
"""

from __future__ import annotations

from typing import Any

from bot import games
from bot.i18n import t
from bot.rules.core import GameError

LABEL_LIMIT = 80


def move_label(game: str, move: dict[str, Any], view: games.View, locale: str = "en") -> str:
    try:
        special = games.get(game).labeller
    except GameError:
        special = None
    text = special(move, view, locale) if special is not None else None
    if text is None:
        key = f"{game}.move.{move.get('kind')}"
        params = {k: v for k, v in move.items() if k not in ("kind", "at")}
        text = t(key, locale, **params)
        if text == key:
            text = " ".join([str(move.get("kind", "?"))] + [f"{k} {v}" for k, v in params.items()])
    return text[:LABEL_LIMIT]
