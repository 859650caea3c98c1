"""The web pages' signing key kept in the database (table ``web_secret`` of migration 011): generated once,
on the first start without ``WEB_SECRET``, and the same for every process sharing the database."""

from __future__ import annotations

import secrets
import time

from bot.store import Store

KEY_BYTES = 32


async def secret(store: Store) -> bytes:
    """The stored key; made and stored first if there is none. Two processes starting together both
    insert-if-absent, and both read back the one row that won."""
    row = await store.fetch_one("SELECT secret FROM web_secret WHERE id = 1")
    if row is None:
        async with store.transaction() as db:
            await db.execute(
                "INSERT INTO web_secret (id, secret, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING",
                (secrets.token_hex(KEY_BYTES), int(time.time() * 1000)),
            )
        row = await store.fetch_one("SELECT secret FROM web_secret WHERE id = 1")
    return bytes.fromhex(str(row[0]))
