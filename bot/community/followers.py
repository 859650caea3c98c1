"""Following a game: spectators are mentioned on its turns and at its end."""

from __future__ import annotations

from bot import errors, store
from bot.community.base import CommunityError, Feature
from bot.service import GameInfo, MoveOutcome, Service
from bot.store.community import followers as follower_store
from bot.store.community.followers import FollowerStore


class Followers(Feature):
    """Followers over the service."""

    personal_columns = follower_store.PERSONAL_COLUMNS

    def __init__(self, service: Service, db: FollowerStore) -> None:
        super().__init__(service)
        self.db = db

    async def follow(self, guild_xid: int | None, game_id: int, user_xid: int) -> GameInfo:
        info = await self.guild_game(guild_xid, game_id)
        if info.game.status not in store.LIVE_STATUSES:
            raise errors.GameOver()
        if not await self.db.follow(game_id, user_xid, self.now):
            raise CommunityError("community.error.already_following", game=game_id)
        return info

    async def unfollow(self, guild_xid: int | None, game_id: int, user_xid: int) -> GameInfo:
        info = await self.guild_game(guild_xid, game_id)
        if not await self.db.unfollow(game_id, user_xid):
            raise CommunityError("community.error.not_following", game=game_id)
        return info

    async def followers(self, info: GameInfo, finished: bool = False, outcome: MoveOutcome | None = None) -> list[int]:
        """Mention provider: a game's followers, on its turns and at its end; those the move's own statement read
        when ``outcome`` (the move the turn post tells) has them (``MoveOutcome.followers``), else read."""
        del finished
        if outcome is not None and outcome.info.id == info.id and outcome.followers is not None:
            return list(outcome.followers)
        return await self.db.followers(info.id)

    async def forget_user(self, user_xid: int) -> int:
        return await self.db.forget_user(user_xid)
