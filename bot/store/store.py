"""The open database with every table of the games (:class:`Store`), and the base of the sibling modules
that own tables of their own (:class:`TableStore`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.store.games import GameTables
from bot.store.moves import MoveLog


class Store(GameTables, MoveLog):
    """An open database. Create with :meth:`open`; all methods are coroutines."""


class TableStore:
    """Base of the sibling modules of this package that own tables of their own (community,
    campaigns): reads through the open :class:`Store`, writes in ``self.store.transaction()``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return await self.store.fetch_one(sql, params)

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await self.store.fetch_all(sql, params)

    async def _write_one(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """One statement that is a whole write of this store's own tables (never ``games`` or ``seats``, whose
        kept rows the open store looks after): on PostgreSQL one round trip, no ``BEGIN``/``COMMIT``; on SQLite a
        writer's transaction like any other. Returns its ``RETURNING`` rows."""
        return await self.store.connection.write_one(sql, tuple(params))
