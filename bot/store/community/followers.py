"""Followers of a game (table community_followers of migration 003)."""

from __future__ import annotations

from bot.store import TableStore

PERSONAL_COLUMNS = ("community_followers.user_xid",)
"""Columns of this module's table that hold a player's id."""


class FollowerStore(TableStore):
    """Followers of one open :class:`bot.store.Store`."""

    async def follow(self, game_id: int, user_xid: int, at: int) -> bool:
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "INSERT INTO community_followers (game_id, user_xid, since) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (game_id, user_xid, at),
                )
                > 0
            )

    async def unfollow(self, game_id: int, user_xid: int) -> bool:
        async with self.store.transaction() as db:
            return (
                await db.execute(
                    "DELETE FROM community_followers WHERE game_id = ? AND user_xid = ?", (game_id, user_xid)
                )
                > 0
            )

    async def followers(self, game_id: int) -> list[int]:
        rows = await self._all("SELECT user_xid FROM community_followers WHERE game_id = ? ORDER BY since", (game_id,))
        return [int(r[0]) for r in rows]

    async def forget_user(self, user_xid: int) -> int:
        """Forget every follow of a player. Returns rows deleted."""
        async with self.store.transaction() as db:
            return await db.execute("DELETE FROM community_followers WHERE user_xid = ?", (user_xid,))
