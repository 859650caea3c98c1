"""What the turn flow talks to: the front-end's :class:`Announcer` (and :class:`SilentAnnouncer`, which tells
nobody), the store's :class:`WorkLeases`, and the lengths of its leases and looks."""

from __future__ import annotations

from typing import Any, Protocol

from bot.service import MoveOutcome

LEASE_MS = 60_000
"""How long a process holds a game's AI work without renewing it (it renews before every move), unless the
store says otherwise (``LEASE_SECONDS``: ``Store.lease_ms``)."""
TIMER_GRACE_MS = 15_000
"""A timer not fired this long after its deadline belongs to a dead process: another one fires it."""
SWEEP_MS = 5_000
"""How often :meth:`TurnFlow.take_over` looks for work left behind."""
SWEEP_BATCH = 100


class WorkLeases(Protocol):
    """The store's leases on a game's background work (:class:`bot.store.leases.LeaseStore`)."""

    async def take(self, name: str, owner: str, now: int, until: int, game_id: int | None = None) -> bool:
        """Take or renew ``name`` for ``owner`` until ``until``; False if another owner holds it."""

    async def release(self, name: str, owner: str) -> bool:
        """Drop ``owner``'s lease ``name``."""

    async def expired(self, prefix: str, now: int, limit: int) -> list[tuple[str, int | None]]:
        """(name, game id) of the leases starting with ``prefix`` whose time ran out."""

    async def hand_over(self, owner: str) -> int:
        """End every lease of ``owner`` now (its work is left for another process); how many."""


class Announcer(Protocol):
    """How a front-end tells people what happened. ``origin`` is the front-end's own handle on the
    player who acted (a Discord interaction), or None for moves nobody clicked (AI, timers, restarts)."""

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        """Tell the player who acted that their move counted."""

    async def next_step(self, origin: Any, game_id: int) -> None:
        """Give the player who acted their next private choices."""

    async def announce(
        self, game_id: int, outcome: MoveOutcome | None, locale: str, *, repost: bool = False
    ) -> str | None:
        """Post the turn (or the end of the game): returns None, or the catalogue id of what went wrong."""

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        """Bring the game's status up to date (who is awaited, the scores so far); ``outcome``: the move
        just told, whose snapshot may be reused."""


class SilentAnnouncer:
    """Tells nobody: the flow's announcer until a front-end takes over (the Discord game cog sets itself)."""

    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        return None

    async def next_step(self, origin: Any, game_id: int) -> None:
        return None

    async def announce(
        self, game_id: int, outcome: MoveOutcome | None, locale: str, *, repost: bool = False
    ) -> str | None:
        return None

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        return None
