"""Every game's Discord presenter, listed once (a test keeps this in step with :data:`bot.games.GAMES`)."""

from __future__ import annotations

from typing import Any

from cogs.games import btc, quadropolis, urbanpanic
from cogs.presenters import Presenter

PRESENTERS: dict[str, Presenter[Any]] = {
    p.kind: p for p in (quadropolis.PRESENTER, btc.PRESENTER, urbanpanic.PRESENTER)
}
"""kind -> presenter."""
