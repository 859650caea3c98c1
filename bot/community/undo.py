"""Taking a move back by agreement ("/game undo"): the last mover proposes, every other human must
accept; the proposal expires when the game moves on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import errors, games
from bot.community.base import CommunityError, Feature, new_outbox
from bot.community.reminders import Reminders
from bot.service import GameInfo, MoveOutcome, Service, named
from bot.store.community import undo as undo_store
from bot.store.community.outbox import OutboxStore
from bot.store.community.undo import UndoRow, UndoStore


@dataclass(frozen=True)
class UndoProposal:
    game_id: int
    version: int
    seat: int
    move: dict[str, Any]
    voters: list[int]
    summary: tuple[str, dict[str, Any]]
    done: bool
    info: GameInfo | None = None


@dataclass(frozen=True)
class UndoAnswer:
    proposal: UndoRow
    status: str
    """open (waiting for others), accepted (taken back), refused."""
    answers: dict[int, bool]
    info: GameInfo | None = None


class Undo(Feature):
    """Undo proposals over the service; the reminder loop follows a game after a move is taken back."""

    personal_columns = undo_store.PERSONAL_COLUMNS

    def __init__(self, service: Service, reminders: Reminders, db: UndoStore, outbox: OutboxStore) -> None:
        super().__init__(service)
        self.reminders = reminders
        self.db = db
        self.outbox = outbox

    # -- listeners ---------------------------------------------------------------------------
    async def on_move(self, outcome: MoveOutcome) -> None:
        """After every committed move: older proposals expire (the game moved on). None to expire, as the move's
        own statement read (PostgreSQL): nothing asked of the database."""
        if outcome.older_undos_open is False:
            return
        await self._expire(outcome.info, outcome.version)

    async def on_end(self, info: GameInfo) -> None:
        """A game ended: every open proposal expires."""
        await self._expire(info, 1 << 62)

    async def _expire(self, info: GameInfo, below_version: int) -> None:
        expired = await self.db.expire_undos(info.id, below_version)
        claims = [
            new_outbox("undo_expired", info, None, None, {"version": u.version, "message_xid": u.message_xid})
            for u in expired
            if u.message_xid is not None
        ]
        if claims:
            await self.outbox.queue(claims, self.now)

    # -- commands and clicks -----------------------------------------------------------------
    async def propose_undo(self, game_id: int, user_xid: int) -> UndoProposal:
        """Propose taking back the player's own last move. With no other human to ask, it is taken
        back at once (``done``); else every other human must accept (:meth:`answer_undo`)."""
        seat, move, version = await self.service.undo_preview(game_id, user_xid)
        info = await self.service.info(game_id)
        summary = await self._describe_last(info)
        voters = [s.user_xid for s in info.seats if s.user_xid is not None and not s.is_ai and s.user_xid != user_xid]
        if not voters:
            info = await self.service.undo(game_id, user_xid, version)
            await self.reminders.sync_game(game_id)
            return UndoProposal(game_id, version, seat, move, [], summary, True, info)
        existing = await self.db.undo(game_id, version)
        if existing is not None:
            raise CommunityError("community.error.undo_pending")
        row = UndoRow(
            game_id=game_id,
            version=version,
            proposer_xid=user_xid,
            seat=seat,
            move=move,
            voters=voters,
            created_at=self.now,
            status="open",
            message_xid=None,
            channel_xid=info.game.channel_xid,
        )
        if not await self.db.create_undo(row):
            raise CommunityError("community.error.undo_pending")
        return UndoProposal(game_id, version, seat, move, voters, summary, False, info)

    async def _describe_last(self, info: GameInfo) -> tuple[str, dict[str, Any]]:
        moves = await self.service.move_rows(info.id)
        if not moves:
            return ("move.generic", {"player": "?"})
        last = moves[-1]
        rules = games.rules(info.game.kind)
        before = (await self.service.snapshot(info.id, last.version - 1)).state
        after = (await self.service.snapshot(info.id)).state
        key, params = rules.describe(before, last.seat, last.move, after)
        return key, named(info, last.seat, params)

    async def set_undo_message(self, game_id: int, version: int, channel_xid: int | None, message_xid: int) -> None:
        await self.db.set_undo_message(game_id, version, channel_xid, message_xid)

    async def answer_undo(self, game_id: int, version: int, voter_xid: int, accept: bool) -> UndoAnswer:
        """A click on an undo proposal. Any refusal ends it; the last acceptance takes the move back."""
        proposal = await self.db.undo(game_id, version)
        if proposal is None:
            raise CommunityError("community.error.no_undo")
        if proposal.status != "open":
            raise CommunityError("community.error.undo_over")
        info = await self.service.info(game_id)
        if info.game.version != version or info.game.status != "active":
            await self.db.set_undo_status(game_id, version, "expired")
            raise CommunityError("community.error.undo_expired")
        if voter_xid not in proposal.voters:
            raise CommunityError("community.error.not_asked")
        if not await self.db.answer_undo(game_id, version, voter_xid, accept, self.now):
            raise CommunityError("community.error.undo_over")
        answers = await self.db.undo_answers(game_id, version)
        if not accept:
            await self.db.set_undo_status(game_id, version, "refused")
            return UndoAnswer(proposal, "refused", answers, info)
        if not all(answers.get(v) for v in proposal.voters):
            return UndoAnswer(proposal, "open", answers, info)
        try:
            info = await self.service.undo(game_id, proposal.proposer_xid, version)
        except errors.GameError:
            await self.db.set_undo_status(game_id, version, "expired")
            raise
        await self.db.set_undo_status(game_id, version, "accepted")
        await self.reminders.sync_game(game_id)
        return UndoAnswer(proposal, "accepted", answers, info)

    # -- privacy -----------------------------------------------------------------------------
    async def forget_user(self, user_xid: int) -> int:
        """Forget a player in undo proposals; the messages of their open proposals say they expired."""
        claims = []
        for proposal in await self.db.proposed_by(user_xid):
            if proposal.status != "open" or proposal.message_xid is None:
                continue
            try:
                info = await self.service.info(proposal.game_id)
            except errors.GameError:
                continue
            claims.append(
                new_outbox(
                    "undo_expired", info, None, None, {"version": proposal.version, "message_xid": proposal.message_xid}
                )
            )
        changed = await self.db.forget_user(user_xid)
        if claims:
            await self.outbox.queue(claims, self.now)
        return changed
