"""Forget-me reaches what the bot already posted (issue 31).

A privacy request (:meth:`bot.composition.App.forget`) runs in three steps:

1. **Plan**, before anything is forgotten (afterwards the seats no longer say whose they were): every
   message of the bot that names the player, as far as the database knows (the lobby, status message,
   turn posts and recap of each game they sat in or hosted, and the reminders, votes and undo
   proposals about them), becomes a ``planned`` row of ``privacy_edits``, at most :data:`MAX_EDITS` per
   request (what everyone sees first: lobbies, status messages, notes, then turn posts newest first).
   The rows hold where the messages are, never who asked.
2. The service and every feature **forget** the player; the plan is then **queued**. A forget that
   failed leaves its plan unqueued (pruned later): nothing is edited while the name is still there.
3. **Scrub**: the old bytes leave the disk (SQLite: zeroed as deleted, the WAL checkpointed and
   truncated; PostgreSQL: VACUUM of the tables that held the player).

The Discord layer's loop (``cogs/community/erasure.py``) then takes :data:`EDITS_PER_PASS` edits every
:data:`PASS_SECONDS` (within Discord's rate limit for edits in a channel), each claimed with a lease,
redraws the message from the game as it is now (a turn post: as it was at its version, replayed from
the move log, with today's anonymous names) and marks it done, so a restart resumes where it stopped and
no message is edited twice for one request. Messages the bot cannot edit are not reached: other
people's messages, their quotes of the player, and private (ephemeral) replies.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot import games, store
from bot.community.base import DAY_MS
from bot.service import Service, Snapshot, named
from bot.store.community.erasure import PRIORITY, EditRow, ErasureStore, PlannedEdit

__all__ = ["EDITS_PER_PASS", "MAX_EDITS", "PASS_SECONDS", "EditRow", "Erasure", "Forgotten", "TurnPost"]

MAX_EDITS = 1000
"""Edits one forget-me may plan (the per-user cap); the rest are counted and the player told."""
EDITS_PER_PASS = 4
PASS_SECONDS = 5.0
"""The loop's pace: four edits every five seconds stays under Discord's edit rate in a channel."""
MAX_ATTEMPTS = 5
"""An edit that failed for a passing reason this many times is given up."""
KEEP_MS = 7 * DAY_MS
"""Finished edits are kept this long (the loop's own record), then pruned."""


@dataclass(frozen=True)
class Forgotten:
    """What a forget-me did: rows changed, and the messages it will edit (and those over the cap)."""

    changed: int
    edits: int
    beyond: int = 0


@dataclass(frozen=True)
class TurnPost:
    """What a turn post showed, told again from the move log with the seats' names of today."""

    snapshot: Snapshot
    seat: int | None
    """Who moved (None: the game's first post)."""
    summary: tuple[str, dict[str, Any]] | None
    final: bool
    """The post of the game's end (its ranking and end picture)."""


def ordered(edits: Iterable[PlannedEdit]) -> list[PlannedEdit]:
    """One edit per message, the most visible first, newer turn posts before older ones."""
    unique: dict[int, PlannedEdit] = {}
    for edit in edits:
        unique.setdefault(edit.message_xid, edit)
    return sorted(unique.values(), key=lambda e: (PRIORITY[e.kind], -(e.version or 0), -e.message_xid))


class Erasure:
    """The plan, the queue and the loop's calls; the edits themselves are the Discord layer's."""

    def __init__(self, service: Service, db: ErasureStore, *, boot: str, cap: int = MAX_EDITS) -> None:
        self.service = service
        self.db = db
        self.boot = boot
        self.cap = cap
        self.kick: Callable[[], None] | None = None
        """Set by the Discord layer: start a pass soon (a request was queued)."""

    @property
    def now(self) -> int:
        return self.service.clock.now_ms()

    # -- recording the bot's posts ---------------------------------------------------------------
    def posts_of(self, game: store.GameRow, message_xids: Mapping[str, int | None]) -> list[store.PostRecord]:
        """Service recorder: a turn post's id is kept with the version it shows (recorded by the write of the
        game's message ids, :meth:`bot.service.Service.set_messages`)."""
        turn = message_xids.get("turn_message_xid")
        if turn is None or game.channel_xid is None:
            return []
        return [store.PostRecord("turn", game.channel_xid, turn, game.version)]

    async def record_post(self, game_id: int, kind: str, message_xid: int | None) -> None:
        """Keep the id of another post about a game in the game's channel: its ``recap``, or a ``line``
        that names its players (a forget-me turns it into a note)."""
        if message_xid is None:
            return
        game = await self.service.game(game_id)
        if game.channel_xid is not None:
            await self.db.record_post(game_id, kind, game.channel_xid, message_xid, game.version)

    # -- a request -------------------------------------------------------------------------------
    async def plan(self, user_xid: int) -> tuple[str, int, int]:
        """Before the player is forgotten: plan the edits of every message naming them. Returns the
        request's token, the edits planned and the messages over the cap."""
        request = secrets.token_hex(8)
        wanted = ordered(await self.db.messages_naming(user_xid))
        planned = await self.db.plan(request, wanted[: self.cap], self.now)
        return request, planned, max(0, len(wanted) - self.cap)

    async def queue(self, request: str) -> None:
        """The player is forgotten: the request's edits may be made."""
        if await self.db.queue(request) and self.kick is not None:
            self.kick()

    # -- the loop --------------------------------------------------------------------------------
    async def take(self, limit: int = EDITS_PER_PASS) -> list[EditRow]:
        """This pass's edits, claimed by this process."""
        return await self.db.take_due(
            self.boot, self.now, limit, max_attempts=MAX_ATTEMPTS, lease_ms=self.service.lease_ms
        )

    async def finish(self, edit: EditRow, status: str) -> bool:
        """``done``, ``gone`` (the message was deleted) or ``failed`` (refused for good)."""
        return await self.db.finish(edit.id, self.boot, status, self.now)

    async def retry(self, edit: EditRow) -> bool:
        return await self.db.retry(edit.id, self.boot)

    async def prune(self) -> int:
        return await self.db.prune(self.now - KEEP_MS)

    async def progress(self, request: str | None = None) -> dict[str, int]:
        return await self.db.progress(request)

    # -- what a post showed ------------------------------------------------------------------------
    async def turn_post(self, game_id: int, version: int) -> TurnPost:
        """A turn post at ``version`` told again: the game then (replayed from the move log), the move
        that made that version and its summary, with the names the seats have now."""
        now = await self.service.snapshot(game_id)
        info = now.info
        version = max(0, min(version, info.game.version))
        snap = now if version == info.game.version else await self.service.snapshot(game_id, version)
        moves = await self.service.move_rows(game_id, upto=version)
        last = moves[-1] if moves and moves[-1].version == version else None
        summary: tuple[str, dict[str, Any]] | None = None
        if last is not None:
            before = await self.service.snapshot(game_id, version - 1)
            key, params = games.rules(info.game.kind).describe(before.state, last.seat, last.move, snap.state)
            summary = (key, named(info, last.seat, params))
        final = info.game.status == "finished" and version == info.game.version
        return TurnPost(snap, None if last is None else last.seat, summary, final)
