"""Game rows and seat lists kept in memory between reads, for a database only this process writes.

A busy bot reads a game's row and seats a dozen times per click (the service, the turn flow, the
status, the reminders...), and every read is a trip to the SQLite connection's thread. A SQLite file
has one process (:func:`bot.store.lock_database`), and every write of ``games`` and ``seats`` goes
through :class:`bot.store.Store`, which tells this cache before and after each one
(:meth:`RowCache.changing`). So a row read once stays true until the store itself changes it.

PostgreSQL may be shared by several processes (shards): there the store keeps no cache.

Correctness with reads and writes interleaved on the event loop:

- a write drops the game's entries when it starts and again once its transaction is over
  (committed or rolled back), so a value read in between (possibly the open transaction's own) is
  never kept past it;
- a read remembers the game's generation when it starts and keeps its result only if no write of
  that game started or ended meanwhile.

Generations are kept only for games with a read under way, and at most :data:`LIMIT` games are
cached (the least recently used go first), so memory does not grow with the number of games.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LIMIT = 4096
"""Games whose row and seats are kept at most."""


class RowCache:
    """Rows by game id (``"game"`` and ``"seats"``), with the bookkeeping described above."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._rows: OrderedDict[tuple[str, int], Any] = OrderedDict()
        self._reading: dict[int, int] = {}
        """game id -> reads under way."""
        self._generation: dict[int, int] = {}
        """game id -> writes started or ended while a read of it was under way."""
        self._epoch = 0
        """Bumped by :meth:`forget_all`: a read under way then keeps nothing."""
        self.hits = 0
        self.misses = 0

    def get(self, kind: str, game_id: int) -> Any:
        """The kept value, or None."""
        value = self._rows.get((kind, game_id))
        if value is None:
            self.misses += 1
            return None
        self._rows.move_to_end((kind, game_id))
        self.hits += 1
        return value

    @contextmanager
    def reading(self, game_id: int) -> Iterator[list[Any]]:
        """Around a read of ``game_id``: put ``(kind, value)`` in the yielded list to keep it, which
        happens only if nothing changed the game meanwhile."""
        with self._watching(game_id) as start:
            kept: list[Any] = []
            yield kept
            self._keep(game_id, kept, start)

    @contextmanager
    def changing(self, *game_ids: int, seats: bool = True) -> Iterator[None]:
        """Around a write of these games (its whole transaction); ``seats=False``: of their rows only."""
        kinds = ("game", "seats") if seats else ("game",)
        self._forget(game_ids, kinds)
        try:
            yield
        finally:
            self._forget(game_ids, kinds)

    @contextmanager
    def rewriting(self, game_id: int) -> Iterator[list[Any]]:
        """:meth:`changing` around a write of one game's row that returns the row it leaves (``RETURNING``): put
        ``("game", row)`` in the yielded list to keep it, which happens only if no other write of the game started
        or ended meanwhile (this write's own two changes are expected)."""
        with self._watching(game_id) as (epoch, generation):
            kept: list[Any] = []
            with self.changing(game_id, seats=False):
                yield kept
            self._keep(game_id, kept, (epoch, generation + 2))

    @contextmanager
    def _watching(self, game_id: int) -> Iterator[tuple[int, int]]:
        """Counts a read or rewrite of ``game_id`` in progress (its changes are counted meanwhile); yields the
        cache's epoch and the game's count of changes as it starts."""
        self._reading[game_id] = self._reading.get(game_id, 0) + 1
        try:
            yield self._epoch, self._generation.get(game_id, 0)
        finally:
            left = self._reading[game_id] - 1
            if left:
                self._reading[game_id] = left
            else:
                del self._reading[game_id]
                self._generation.pop(game_id, None)

    def _keep(self, game_id: int, kept: list[Any], expected: tuple[int, int]) -> None:
        """Keeps what a read put in ``kept`` if the epoch and the game's changes are as ``expected``."""
        if kept and (self._epoch, self._generation.get(game_id, 0)) == expected:
            for kind, value in kept:
                self._put(kind, game_id, value)

    @contextmanager
    def changing_all(self) -> Iterator[None]:
        """Around a write that may touch any game."""
        self.forget_all()
        try:
            yield
        finally:
            self.forget_all()

    def forget_all(self) -> None:
        self._epoch += 1
        self._rows.clear()

    def _forget(self, game_ids: tuple[int, ...], kinds: tuple[str, ...]) -> None:
        for game_id in game_ids:
            for kind in kinds:
                self._rows.pop((kind, game_id), None)
            if game_id in self._reading:
                self._generation[game_id] = self._generation.get(game_id, 0) + 1

    def _put(self, kind: str, game_id: int, value: Any) -> None:
        self._rows[(kind, game_id)] = value
        self._rows.move_to_end((kind, game_id))
        while len(self._rows) > 2 * self.limit:
            self._rows.popitem(last=False)
