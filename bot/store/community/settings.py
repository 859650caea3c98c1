"""Server and game settings and player preferences (tables community_settings, community_players)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.store import POSTGRES, TableStore
from bot.store.community.common import dumps

PERSONAL_COLUMNS = ("community_players.user_xid",)
"""Columns of this module's tables that hold a player's id (settings are keyed by server or game)."""


class SettingsStore(TableStore):
    """Settings and preferences of one open :class:`bot.store.Store`."""

    async def settings(self, scope: str, scope_id: int) -> dict[str, Any]:
        row = await self._one("SELECT data FROM community_settings WHERE scope = ? AND scope_id = ?", (scope, scope_id))
        return dict(json.loads(row[0])) if row else {}

    async def game_settings(self, guild_xid: int, game_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the server's settings, the game's own overrides) in one statement: what :meth:`settings` reads for
        each scope, read together (the turn post, the status and the reminders read both for every move)."""
        rows = await self._all(
            "SELECT scope, data FROM community_settings"
            " WHERE (scope = 'guild' AND scope_id = ?) OR (scope = 'game' AND scope_id = ?)",
            (guild_xid, game_id),
        )
        found = {str(scope): dict(json.loads(data)) for scope, data in rows}
        return found.get("guild", {}), found.get("game", {})

    async def set_settings(self, scope: str, scope_id: int, data: Mapping[str, Any]) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_settings (scope, scope_id, data) VALUES (?, ?, ?)"
                " ON CONFLICT (scope, scope_id) DO UPDATE SET data = excluded.data",
                (scope, scope_id, dumps(data)),
            )

    async def prefs(self, user_xid: int) -> dict[str, Any]:
        row = await self._one("SELECT data FROM community_players WHERE user_xid = ?", (user_xid,))
        return dict(json.loads(row[0])) if row else {}

    async def set_prefs(self, user_xid: int, data: Mapping[str, Any]) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO community_players (user_xid, data) VALUES (?, ?)"
                " ON CONFLICT (user_xid) DO UPDATE SET data = excluded.data",
                (user_xid, dumps(data)),
            )

    async def users_with_flag(self, name: str) -> list[int]:
        """Players whose preferences hold ``name`` set to true (a notice waiting for them, say)."""
        if self.store.dialect == POSTGRES:  # the one statement the two engines spell differently
            rows = await self._all(
                "SELECT user_xid FROM community_players WHERE (data::jsonb -> ?) IN ('true'::jsonb, '1'::jsonb)",
                (name,),
            )
        else:
            rows = await self._all(
                "SELECT user_xid FROM community_players WHERE json_extract(data, ?) = 1", (f"$.{name}",)
            )
        return [int(row[0]) for row in rows]

    async def forget_user(self, user_xid: int) -> int:
        """Forget a player's preferences (time zone, quiet hours, DM choices). Returns rows deleted."""
        async with self.store.transaction() as db:
            return await db.execute("DELETE FROM community_players WHERE user_xid = ?", (user_xid,))
