"""Short labels for moves, shared by the Discord presenters and the terminal (no Discord here).

A game may declare a labeller (``bot/games/<kind>.py``); otherwise the catalogue key
``<game>.move.<kind>`` is used with the move's fields, and at last the move's fields themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import games
from bot.i18n import t
from bot.rules.core import GameError

LABEL_LIMIT = 80
"""Discord's limit for a button's label; a select option allows 100 (pass ``limit``)."""
ELLIPSIS = "…"


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in "…" when shortened: after the last whole word that
    fits, and inside a word only when the first word alone is longer than the limit. The one way every
    label and Discord text is shortened (``cogs.limits.cut`` is this)."""
    if len(text) <= limit:
        return text
    if limit <= 0:
        return ""
    room = limit - 1
    head = text[:room]
    if not text[room].isspace() and not head[-1:].isspace():  # the cut falls inside a word: drop it
        words = head.rstrip()
        gap = max(words.rfind(" "), words.rfind("\n"), words.rfind("\t"))
        whole = words[:gap].rstrip().rstrip(",;:·–—-(").rstrip() if gap > 0 else ""
        head = whole or head  # a single word longer than the limit is cut where it must be
    return head.rstrip().rstrip(",;:·–—-(").rstrip() + ELLIPSIS


def move_label(
    game: str, move: Mapping[str, Any], view: games.View, locale: str = "en", limit: int = LABEL_LIMIT
) -> str:
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
    return shorten(text, limit)
