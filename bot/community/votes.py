"""Deadlines and what happens at them: a vote of the other players (more time, the AI moves once, or the AI
takes the seat over), decided by majority or when the vote closes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.community.base import ACTING_RETRY_MS, Action, CommunityError, Feature, new_outbox
from bot.community.settings import Preferences, Settings
from bot.service import GameInfo, Service
from bot.store.community import votes as vote_store
from bot.store.community.outbox import NewOutbox, OutboxStore
from bot.store.community.reminders import WaitRow, WaitStore
from bot.store.community.votes import VoteRow, VoteStore

VOTE_CHOICES = ("move", "takeover", "wait")


def deadline_at(wait: WaitRow, settings: Settings, has_voters_or_ai: bool = True) -> int | None:
    """When the turn's deadline passes (None: no deadline, or paused while the player is away).

    Deadlines only apply when someone else is waiting: a game with no other human has none.
    """
    if settings.deadline_ms is None or wait.paused_since is not None or not has_voters_or_ai:
        return None
    return wait.since + settings.deadline_ms + wait.credit_ms


def tally(ballots: Mapping[int, str], voters: Sequence[int], *, final: bool) -> str | None:
    """The vote's decision: a choice backed by more than half of the voters decides at once; when
    the vote closes, the most-backed choice wins, and a tie or no ballot lets the AI play the move."""
    counts = Counter(c for v, c in ballots.items() if v in voters)
    for choice, n in counts.items():
        if n * 2 > len(voters):
            return choice
    if not final:
        return None
    if not counts:
        return "move"
    best = counts.most_common()
    if len(best) > 1 and best[0][1] == best[1][1]:
        return "move"
    return best[0][0]


@dataclass(frozen=True)
class VoteResult:
    vote: VoteRow
    ballots: dict[int, str]
    decision: str | None
    actions: list[Action]


class Votes(Feature):
    """Timeout votes over the service."""

    personal_columns = vote_store.PERSONAL_COLUMNS

    def __init__(
        self,
        service: Service,
        preferences: Preferences,
        db: VoteStore,
        waits: WaitStore,
        outbox: OutboxStore,
        *,
        boot: str,
    ) -> None:
        super().__init__(service)
        self.preferences = preferences
        self.db = db
        self.waits = waits
        self.outbox = outbox
        self.boot = boot

    async def claim_closed(self, info: GameInfo, votes: Iterable[VoteRow], decision: str) -> None:
        """Queue the edit of each vote message: the vote is over (the game moved on or ended)."""
        claims = [
            new_outbox(
                "vote_closed",
                info,
                v.seat,
                v.user_xid,
                {"version": v.version, "decision": decision, "message_xid": v.message_xid},
            )
            for v in votes
            if v.message_xid is not None
        ]
        if claims:
            await self.outbox.queue(claims, self.now)

    async def close(self, vote: VoteRow, now: int) -> list[Action]:
        wait = await self.waits.wait(vote.game_id, vote.seat)
        if wait is None or wait.vote_version != vote.version:
            if await self.db.cancel_vote(vote, "moved"):
                info = await self.service.info(vote.game_id)
                await self.claim_closed(info, [vote], "moved")
            return []
        ballots = await self.db.ballots(vote.game_id, vote.version, vote.seat)
        decision = tally(ballots, vote.voters, final=True) or "move"
        return await self._decide(vote, wait, decision, now)

    async def _decide(self, vote: VoteRow, wait: WaitRow, decision: str, now: int) -> list[Action]:
        info = await self.service.info(vote.game_id)
        settings = await self.preferences.of_game(info.game)
        claims: list[NewOutbox] = []
        if decision == "wait":
            credit = now - wait.since
            updates: dict[str, Any] = {
                "deadline_state": "pending",
                "state_at": now,
                "vote_version": None,
                "credit_ms": credit,
                "due_at": now,
            }
            new_deadline = deadline_at(replace(wait, credit_ms=credit, paused_since=None), settings)
            claims.append(new_outbox("extended", info, vote.seat, vote.user_xid, {"deadline": new_deadline}))
        else:
            take_over = decision == "takeover"
            updates = {
                "deadline_state": "taking_over" if take_over else "acting",
                "state_at": now,
                "due_at": now + ACTING_RETRY_MS,
            }
            claims.append(
                new_outbox(
                    "ai_move",
                    info,
                    vote.seat,
                    vote.user_xid,
                    {"take_over": take_over, "reason": "vote", "since_version": wait.since_version},
                )
            )
        claims.append(
            new_outbox(
                "vote_closed",
                info,
                vote.seat,
                vote.user_xid,
                {"version": vote.version, "decision": decision, "message_xid": vote.message_xid},
            )
        )
        rows = await self.db.decide_vote(
            vote, decision=decision, wait_updates=updates, claims=claims, at=now, boot=self.boot
        )
        return rows or []

    async def cast_vote(self, game_id: int, version: int, seat: int, voter_xid: int, choice: str) -> VoteResult:
        """A click on a timeout vote. Decides as soon as a choice has more than half the voters;
        the returned actions (AI move, more time, closing the vote message) are already recorded."""
        if choice not in VOTE_CHOICES:
            raise CommunityError("community.error.no_vote")
        vote = await self.db.vote(game_id, version, seat)
        if vote is None:
            raise CommunityError("community.error.no_vote")
        if vote.status != "open":
            raise CommunityError("community.error.vote_over")
        if voter_xid not in vote.voters:
            raise CommunityError("community.error.not_a_voter")
        wait = await self.waits.wait(game_id, seat)
        if wait is None or wait.vote_version != version:
            await self.db.cancel_vote(vote, "moved")
            raise CommunityError("community.error.vote_over")
        now = self.now
        if not await self.db.cast_ballot(game_id, version, seat, voter_xid, choice, now):
            raise CommunityError("community.error.vote_over")
        ballots = await self.db.ballots(game_id, version, seat)
        decision = tally(ballots, vote.voters, final=False)
        actions: list[Action] = []
        if decision is not None:
            actions = await self._decide(vote, wait, decision, now)
        return VoteResult(vote, ballots, decision, actions)

    async def forget_user(self, user_xid: int) -> int:
        return await self.db.forget_user(user_xid)
