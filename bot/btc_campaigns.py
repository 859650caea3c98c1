"""Between Two Cities solo campaigns kept per player (spec 10.10, D-23, D-24), without Discord.

A campaign is 3 (or 6) solo games at one difficulty and one mode. Its record lives in the store
(:mod:`bot.store.btc_campaigns`): length, difficulty, mode, which game is next, the bonus types used so
far, the game open for it, and every counted game's result. The rules engine plays each game: the
next game is created through the :class:`~bot.service.Service` with the options ``campaign``,
``campaign_game`` and ``campaign_used``, so after its last placement the player chooses the bonus
(the ``bonus`` move), and the game's result carries the campaign summary (campaign points, won,
bonus type and points). When a campaign game ends, :meth:`Campaigns.on_end` (a service end
listener) counts it and moves the record on; after the last game the campaign is complete and its
outcome is its total of campaign points, compared with the player's earlier campaigns of the same
length, mode and difficulty (10.10: "compare with earlier campaigns").

How a campaign game that does not reach its bonus counts (the spec is silent; decided here):

- **Lobby closed before the game started** (the player left it, or ``/game abandon`` in the
  lobby): it does not count. No tile was seen; the campaign stays at that game and
  ``/btc campaign next`` opens it again.
- **Started, then abandoned or resigned**: the game counts as **played and lost** with **0
  campaign points**, and it uses up one bonus type for 0 points: the first type not used yet in
  the reference order (shops, factories, taverns, offices, parks, houses). Reason: a player must
  not be able to throw away a bad deal and be dealt again (that would make the campaign total
  meaningless to compare), and each game must still use exactly one type, which the rules'
  options require (``campaign_used`` holds ``campaign_game - 1`` types; a long campaign uses each
  of the six types exactly once).
- A game the AI finished for the player (a community deadline policy) counts as played, with the
  bonus the AI chose.
- **Abandoning the campaign** (``/btc campaign abandon``) ends it for good, with the games counted
  so far; a game of it still open is abandoned too and is not counted.

The end listener may be missed (the process stopped between the game's last move and the record):
:meth:`Campaigns.reconcile` counts such a game the next time the campaign is looked at, and
:meth:`Campaigns.resume` does it for every campaign at start-up. Counting is idempotent (the store
only moves a campaign on from the exact game it was at).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot import errors
from bot.community.base import Feature
from bot.rules.btc import engine as btc
from bot.service import GameInfo, Service
from bot.store import LIVE_STATUSES
from bot.store import btc_campaigns as campaign_store
from bot.store.btc_campaigns import CampaignGameRow, CampaignRow, CampaignRunning, CampaignStore

__all__ = [
    "CampaignError",
    "CampaignGameRow",
    "CampaignRow",
    "CampaignStatus",
    "Campaigns",
    "Recorded",
    "game_options",
    "is_campaign_game",
    "used_option",
]

log = logging.getLogger(__name__)

KIND = "btc"
LENGTHS = (3, 6)
DIFFICULTIES = range(1, 8)
MODES: dict[str, str] = {"simple": btc.SOLO_SIMPLE, "full": btc.SOLO_FULL}
"""Command words -> the rules' solo modes."""
PLAYED = "played"
FORFEIT = "forfeit"
FORFEIT_RANK = 3
"""A forfeited game ranks behind both Automas."""


class CampaignError(errors.GameError):
    """A refusal of a campaign command; the key is in ``bot/locales/en/btc_campaign.json``."""

    default_key = "btc.campaign.error.generic"


@dataclass(frozen=True)
class CampaignStatus:
    """A campaign as ``/btc campaign status`` shows it."""

    campaign: CampaignRow
    games: list[CampaignGameRow]
    open_game: GameInfo | None
    best_before: int | None
    """The best total of the player's earlier complete campaigns of the same kind (None: none)."""

    @property
    def used_types(self) -> list[str]:
        """Bonus types used so far, in the order they were used."""
        return [btc.LETTER_CATEGORY[x] for x in self.campaign.used]

    @property
    def types_left(self) -> list[str]:
        return [c for c in btc.LETTER_CATEGORY.values() if c not in self.used_types]


@dataclass(frozen=True)
class Recorded:
    """A campaign game just counted: the campaign after it, the game's row, and the game."""

    campaign: CampaignRow
    game: CampaignGameRow
    info: GameInfo
    best_before: int | None
    late: bool = False
    """Counted by a reconciliation (the end listener missed it), not as the game ended."""

    @property
    def complete(self) -> bool:
        return self.campaign.status == "complete"


def category_letter(category: str) -> str:
    for letter, cat in btc.LETTER_CATEGORY.items():
        if cat == category:
            return letter
    raise ValueError(category)


def used_option(used: str) -> str:
    """The rules' ``campaign_used`` value for letters in game order (reference order, or "-")."""
    return "".join(x for x in btc.TYPE_LETTERS if x in used) or btc.NO_TYPES


def game_options(campaign: CampaignRow) -> dict[str, str]:
    """The options of the campaign's next game."""
    return {
        "mode": campaign.mode,
        "difficulty": str(campaign.difficulty),
        "campaign": str(campaign.length),
        "campaign_game": str(campaign.next_game),
        "campaign_used": used_option(campaign.used),
    }


def is_campaign_game(options: Mapping[str, Any]) -> bool:
    return str(options.get("campaign", "off")) != "off"


class Campaigns(Feature):
    """Campaigns over a :class:`bot.service.Service` (its games and clock) and their own tables. Built, and
    subscribed to the service's game ends and privacy requests, once by :func:`bot.composition.compose`."""

    personal_columns = campaign_store.PERSONAL_COLUMNS

    def __init__(self, service: Service, db: CampaignStore) -> None:
        super().__init__(service)
        self.db = db
        self._locks: dict[int, asyncio.Lock] = {}
        self.recorded_listeners: list[Callable[[Recorded], Awaitable[None]]] = []
        """Called after a campaign game was counted (the Discord layer announces it)."""

    def _lock(self, user_xid: int) -> asyncio.Lock:
        lock = self._locks.get(user_xid)
        if lock is None:
            lock = self._locks[user_xid] = asyncio.Lock()
        return lock

    # -- commands ----------------------------------------------------------------------------
    async def start(
        self, user_xid: int, *, length: int, difficulty: int, mode: str, guild_xid: int | None = None
    ) -> CampaignRow:
        """A new campaign (game 1 next). ``mode``: ``simple`` / ``full`` (or the rules' solo modes)."""
        if length not in LENGTHS:
            raise CampaignError("btc.campaign.error.length", length=length)
        if difficulty not in DIFFICULTIES:
            raise CampaignError("btc.campaign.error.difficulty", difficulty=difficulty)
        rules_mode = MODES.get(mode, mode)
        if rules_mode not in MODES.values():
            raise CampaignError("btc.campaign.error.mode", mode=mode)
        async with self._lock(user_xid):
            running = await self.running(user_xid)
            if running is not None:
                raise CampaignError("btc.campaign.error.running", game=running.next_game, length=running.length)
            try:
                return await self.db.create(
                    user_xid=user_xid,
                    guild_xid=guild_xid,
                    length=length,
                    difficulty=difficulty,
                    mode=rules_mode,
                    at=self.now,
                )
            except CampaignRunning:
                raise CampaignError("btc.campaign.error.running", game=1, length=length) from None

    async def running(self, user_xid: int) -> CampaignRow | None:
        """The player's running campaign, with a game that ended unnoticed counted first."""
        campaign = await self.db.running(user_xid)
        if campaign is not None and campaign.game_id is not None:
            campaign = await self.reconcile(campaign)
        return campaign if campaign is not None and campaign.running else None

    async def status(self, user_xid: int) -> CampaignStatus:
        """The running campaign, else the last one that ended; CampaignError if there is none."""
        campaign = await self.running(user_xid) or await self.db.latest(user_xid)
        if campaign is None:
            raise CampaignError("btc.campaign.error.none")
        open_game = None
        if campaign.running and campaign.game_id is not None:
            open_game = await self.service.info(campaign.game_id)
        best = await self.db.best_total(
            user_xid, length=campaign.length, mode=campaign.mode, difficulty=campaign.difficulty, before_id=campaign.id
        )
        return CampaignStatus(campaign, await self.db.games(campaign.id), open_game, best)

    async def open_next(
        self, user_xid: int, name: str, *, guild_xid: int | None, channel_xid: int | None
    ) -> tuple[CampaignRow, GameInfo]:
        """Open the lobby of the campaign's next game in a channel, the player seated as host."""
        async with self._lock(user_xid):
            campaign = await self._require_running(user_xid)
            if campaign.game_id is not None:
                raise CampaignError(
                    "btc.campaign.error.game_open", game=campaign.game_id, channel=_channel(campaign.game_channel_xid)
                )
            info = await self.service.create_game(
                guild_xid=guild_xid,
                channel_xid=channel_xid,
                kind=KIND,
                options=game_options(campaign),
                host_xid=user_xid,
                host_name=name,
            )
            if not await self.db.attach_game(campaign.id, game_id=info.id, channel_xid=channel_xid, at=self.now):
                # Cannot happen under the lock unless the store changed under us: close the lobby.
                await self.service.abandon(info.id, user_xid, is_admin=True)
                raise CampaignError("btc.campaign.error.none")
            after = await self.db.get(campaign.id)
            assert after is not None
            return after, info

    async def abandon(self, user_xid: int) -> tuple[CampaignRow, GameInfo | None]:
        """End the running campaign for good; its open game (if live) is abandoned and not counted."""
        async with self._lock(user_xid):
            campaign = await self._require_running(user_xid)
            if not await self.db.abandon(campaign.id, at=self.now):
                raise CampaignError("btc.campaign.error.none")
            game: GameInfo | None = None
            if campaign.game_id is not None:
                try:
                    game = await self.service.abandon(campaign.game_id, user_xid, is_admin=True)
                except errors.GameError:
                    game = None  # it ended meanwhile; the campaign is over anyway
            after = await self.db.get(campaign.id)
            assert after is not None
            return after, game

    async def _require_running(self, user_xid: int) -> CampaignRow:
        campaign = await self.running(user_xid)
        if campaign is not None:
            return campaign
        latest = await self.db.latest(user_xid)
        if latest is not None and latest.status == "complete":
            raise CampaignError("btc.campaign.error.complete", total=latest.total, length=latest.length)
        raise CampaignError("btc.campaign.error.none")

    async def campaign_of_game(self, game_id: int) -> CampaignRow | None:
        """The running campaign a game is open for (None: not a campaign's open game)."""
        return await self.db.by_game(game_id)

    async def forget_user(self, user_xid: int) -> int:
        """Forget every campaign of a player, with its games (a privacy request); returns the
        records deleted."""
        return await self.db.forget_user(user_xid)

    # -- counting games ----------------------------------------------------------------------
    async def on_end(self, info: GameInfo) -> None:
        """A game ended by any path: if it is a campaign's open game, count it."""
        if info.game.kind != KIND or not is_campaign_game(info.game.options):
            return
        campaign = await self.db.by_game(info.id)
        if campaign is None:
            return
        await self._count(campaign, info)

    async def reconcile(self, campaign: CampaignRow) -> CampaignRow:
        """Count the campaign's open game if it ended without the listener hearing of it."""
        if not campaign.running or campaign.game_id is None:
            return campaign
        game = await self.service.find_game(campaign.game_id)
        if game is None:
            await self.db.detach_game(campaign.id, game_id=campaign.game_id, at=self.now)
        elif game.status not in LIVE_STATUSES:
            await self._count(campaign, await self.service.info(game.id), late=True)
        after = await self.db.get(campaign.id)
        assert after is not None
        return after

    async def resume(self) -> int:
        """At start-up: count every campaign game that ended while nobody listened. Returns how many
        campaigns moved on."""
        moved = 0
        for campaign in await self.db.with_open_game():
            try:
                after = await self.reconcile(campaign)
            except Exception:
                log.exception("campaign %s could not be reconciled", campaign.id)
                continue
            moved += after.game_id != campaign.game_id
        return moved

    async def _count(self, campaign: CampaignRow, info: GameInfo, *, late: bool = False) -> Recorded | None:
        game = info.game
        assert campaign.game_id == game.id
        owner = info.seats[0].user_xid if info.seats else None
        if owner != campaign.user_xid:
            # Not the owner's game any more (their data was forgotten, the seat handed on): never
            # credit it to the campaign; the campaign may open its game again.
            log.warning("game %s is not %s's campaign game; not counted", game.id, campaign.user_xid)
            await self.db.detach_game(campaign.id, game_id=game.id, at=self.now)
            return None
        if game.status == "abandoned" and game.started_at is None:
            await self.db.detach_game(campaign.id, game_id=game.id, at=self.now)
            return None
        summary = _summary(game.result)
        if game.status == "finished" and summary is not None and summary.get("bonus_type"):
            if int(summary.get("game", 0)) != campaign.next_game:
                log.warning(
                    "game %s was dealt as campaign game %s, the record is at %s",
                    game.id,
                    summary.get("game"),
                    campaign.next_game,
                )
            seat = (game.result or {})["seats"][0]
            row = await self.db.record_game(
                campaign.id,
                number=campaign.next_game,
                game_id=game.id,
                outcome=PLAYED,
                score=int(seat["total"]),
                rank=int(seat["rank"]),
                won=bool(summary["won"]),
                points=int(summary["campaign_points"]),
                bonus_type=str(summary["bonus_type"]),
                letter=category_letter(str(summary["bonus_type"])),
                bonus_city=summary.get("bonus_city"),
                bonus=int(summary["bonus"]),
                automas=_automas(game.result),
                at=self.now,
            )
        else:
            left = [x for x in btc.TYPE_LETTERS if x not in campaign.used]
            letter = left[0]
            row = await self.db.record_game(
                campaign.id,
                number=campaign.next_game,
                game_id=game.id,
                outcome=FORFEIT,
                score=0,
                rank=FORFEIT_RANK,
                won=False,
                points=0,
                bonus_type=btc.LETTER_CATEGORY[letter],
                letter=letter,
                bonus_city=None,
                bonus=0,
                automas=[],
                at=self.now,
            )
        if row is None:
            return None  # counted already (a listener and a reconciliation raced)
        games = await self.db.games(campaign.id)
        best = await self.db.best_total(
            row.user_xid, length=row.length, mode=row.mode, difficulty=row.difficulty, before_id=row.id
        )
        recorded = Recorded(row, games[-1], info, best, late)
        for listener in self.recorded_listeners:
            try:
                await listener(recorded)
            except Exception:
                log.exception("campaign listener %r failed", listener)
        return recorded


def _summary(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The rules' campaign summary of a finished game (None for a forfeit)."""
    if not result or not result.get("seats"):
        return None
    details = result["seats"][0].get("details") or {}
    summary = details.get("campaign")
    return dict(summary) if isinstance(summary, Mapping) else None


def _automas(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    automas = ((result or {}).get("details") or {}).get("automas") or []
    return [{"name": a.get("name"), "total": a.get("total"), "rank": a.get("rank")} for a in automas]


def _channel(channel_xid: int | None) -> str:
    return f"<#{channel_xid}>" if channel_xid is not None else "-"
