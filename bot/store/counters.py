"""What the store asks of its database, counted: cheap enough (a few integer additions per statement) to stay on
in production, read by the load bench (:mod:`bot.benches.load`) to report the figures per move.

One :data:`COUNTERS` per process (both engines add to it):

- ``round_trips``: waits for the database. PostgreSQL: each message exchange with the server (a statement,
  ``BEGIN``, ``COMMIT``, a connection's reset when it goes back to the pool); SQLite: each trip to the
  connection's thread (aiosqlite), which is what costs the event loop a wake-up there.
- ``statements``: SQL statements of the bot (``BEGIN``, ``COMMIT``, savepoints and resets not included).
- ``transactions``: writers' transactions (on SQLite several share one commit: ``commits``).
- ``commits``: ``COMMIT`` sent (PostgreSQL: one per transaction; a single-statement write commits itself).
- ``acquisitions``: connections taken from PostgreSQL's pool (SQLite has one connection: none).
- ``notifies``: moves announced with ``NOTIFY`` (PostgreSQL).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class StoreCounters:
    """The running totals of this process (see the module docstring)."""

    round_trips: int = 0
    statements: int = 0
    transactions: int = 0
    commits: int = 0
    acquisitions: int = 0
    notifies: int = 0

    def snapshot(self) -> dict[str, int]:
        """The totals so far, as a plain dict (subtract two of them for a window)."""
        return asdict(self)


COUNTERS = StoreCounters()
"""This process's counters."""


def per_unit(before: dict[str, int], after: dict[str, int], units: int) -> dict[str, float]:
    """Each counter's growth from ``before`` to ``after`` divided by ``units`` (moves), to two decimals."""
    count = max(1, units)
    return {name: round((after.get(name, 0) - before.get(name, 0)) / count, 2) for name in after}
