"""Helpers shared by the community table modules: JSON encoding and forgetting ids inside JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.store.engine import Tx


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def drop_id(value: Any, user_xid: int) -> Any:
    """A JSON value without the user id: removed from every list, ``None`` where it was a value."""
    if isinstance(value, list):
        return [drop_id(v, user_xid) for v in value if not _is_id(v, user_xid)]
    if isinstance(value, dict):
        return {k: None if _is_id(v, user_xid) else drop_id(v, user_xid) for k, v in value.items()}
    return value


def _is_id(value: Any, user_xid: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == user_xid


async def rewrite_json(
    db: Tx, table: str, keys: Sequence[str], column: str, user_xid: int, change: Callable[[Any], Any]
) -> set[tuple[Any, ...]]:
    """Rewrite a JSON column in every row whose text mentions the user id; returns the keys of the
    rows changed.

    ``table``, ``keys`` and ``column`` are constants of the calling module, never user input.
    """
    key_list = ", ".join(keys)
    rows = await db.fetch_all(f"SELECT {key_list}, {column} FROM {table} WHERE {column} LIKE ?", (f"%{user_xid}%",))
    changed: set[tuple[Any, ...]] = set()
    where = " AND ".join(f"{k} = ?" for k in keys)
    for row in rows:
        before = json.loads(row[-1])
        after = change(before)
        if after != before:
            await db.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (dumps(after), *row[:-1]))
            changed.add(tuple(row[:-1]))
    return changed


async def count(db: Tx, sql: str, params: Sequence[Any]) -> int:
    """Rows a statement changed (never negative)."""
    return await db.execute(sql, tuple(params))
