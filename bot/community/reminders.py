"""The reminder loop: every awaited human seat's wait, reminders and notices, vacations and snooze,
and the deadline (what happens then is :mod:`bot.community.votes`).

Every awaited human seat of an active game has a *wait* row in the store (since when, reminders
sent, snooze, time credited, deadline state, and ``due_at``: the next moment anything may be due).
One pass of the loop is :meth:`Reminders.run_due` ``(now_ms, limit)``; each of its stages reads at
most ``limit`` rows through an index, so a pass over a quiet database is one indexed query per stage
whatever the number of games stored. A pass returns :class:`Action` rows (mentions, DMs, votes to
post, AI moves to play) for the Discord layer to carry out.

Exactly once: every action is **recorded in the store before it is sent** (an outbox row, "claimed",
written in the same transaction as the wait's new state) and **confirmed after** (:meth:`mark_sent`).
A restart therefore never forgets a reminder (its claim is in the store) and never plans the same
reminder twice (the wait already counts it). A claim is a lease (owner and ``lease_until``): one that
was never confirmed, because its process stopped between recording and confirming, is taken over by
any process once the lease ran out, *with the same nonce*; Discord refuses to create a second message
with a nonce it has just seen, so the retry is not a duplicate either. Several processes on one
database plan each wait once too: a plan is written only if the wait is still as it was read. AI
moves are guarded by the seat's turn (``since_version``) instead of a nonce: an AI move for a turn
that is already over is skipped.

Time comes from ``service.clock`` (epoch ms, UTC). Time the bot was down is credited to every open
wait at start-up (:meth:`Reminders.resume`), so it never counts against a player.

What one wait owes at a moment is decided by the pure planner, :mod:`bot.community.planner`; the player's
commands to the loop (snooze, away, the games waiting for them) are :class:`bot.community.waiting.PlayerWaits`,
which :class:`Reminders` extends. The names of both are re-exported here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot import errors, games
from bot.community.base import ACTING_RETRY_MS, ACTING_STATES, DAY_MS, DEFAULT_BATCH, MINUTE_MS, Action, new_outbox
from bot.community.clocks import Clocks
from bot.community.planner import MAX_REMINDER_GAP_MS as MAX_REMINDER_GAP_MS
from bot.community.planner import Plan as Plan
from bot.community.planner import WaitContext as WaitContext
from bot.community.planner import next_reminder_at as next_reminder_at
from bot.community.planner import plan_wait as plan_wait
from bot.community.settings import PassCache, Preferences
from bot.community.votes import Votes
from bot.community.waiting import MineEntry as MineEntry
from bot.community.waiting import PlayerWaits as PlayerWaits
from bot.service import GameInfo, MoveOutcome, Service
from bot.store import LEASE_MS
from bot.store.community import outbox as outbox_store
from bot.store.community import reminders as wait_store
from bot.store.community.outbox import OutboxStore
from bot.store.community.reminders import WaitRow, WaitStore
from bot.store.community.votes import VoteRow

log = logging.getLogger(__name__)

CLAIM_TIMEOUT_MS = LEASE_MS
"""A claim not confirmed after this long (its lease ran out) is offered again, by any process (same nonce);
the store's ``lease_ms`` when ``LEASE_SECONDS`` sets it."""
MAX_ATTEMPTS = 3
"""An action offered this many times without confirmation is given up (status 'failed')."""
DOWNTIME_GRACE_MS = 2 * MINUTE_MS
"""A heartbeat gap longer than this at start-up is downtime, credited to every open wait."""

META_HEARTBEAT = "heartbeat"
META_WATERMARK = "reconcile_watermark"
META_INSTALLED = "installed_at"


async def _never_rated(info: GameInfo) -> bool:
    del info
    return False


# -- the loop ----------------------------------------------------------------------------------


class Reminders(PlayerWaits):
    """The reminder loop over the service: waits follow the games, passes plan and claim actions."""

    personal_columns = wait_store.PERSONAL_COLUMNS + outbox_store.PERSONAL_COLUMNS

    def __init__(
        self,
        service: Service,
        preferences: Preferences,
        votes: Votes,
        waits: WaitStore,
        outbox: OutboxStore,
        *,
        boot: str,
        clocks: Clocks,
    ) -> None:
        super().__init__(service)
        self.clocks = clocks
        """The players' time banks (issue 41): their turn records, and a bank that runs out is a deadline."""
        self.rated: Callable[[GameInfo], Awaitable[bool]] = _never_rated
        """game -> whether it counts in a rated league (the composition root sets the leagues' answer)."""
        self.preferences = preferences
        self.votes = votes
        self.db = waits
        self.outbox = outbox
        self.boot = boot
        """Identifies this process run: claims of another run are offered again at once."""
        self._installed: int | None = None
        self.stopping = False
        """A graceful stop began (:mod:`bot.drain`): passes claim nothing more."""
        self.mention_covered: Callable[[str], bool] = lambda kind: False
        """kind -> True when the game's turn message already mentions the last player to choose."""

    # -- listeners ---------------------------------------------------------------------------
    async def on_move(self, outcome: MoveOutcome) -> None:
        """After every committed move: the waits of the game follow its turn."""
        await self.sync_game(outcome.info.id, outcome=outcome)

    async def on_end(self, info: GameInfo) -> None:
        """A game ended (any path): nobody is awaited any more; open votes about it close."""
        await self._close_game(info)

    async def _close_game(self, info: GameInfo) -> None:
        cancelled = await self.db.replace_waits(info.id, keep=(), upserts=(), at=self.now)
        await self.votes.claim_closed(info, cancelled, "ended")

    # -- waits follow the game ---------------------------------------------------------------
    async def sync_game(self, game_id: int, outcome: MoveOutcome | None = None) -> None:
        """Make the game's waits match who is awaited now.

        A seat's wait (its turn clock) restarts when the seat has moved since it began; a seat that stays awaited
        while others move keeps its clock (simultaneous turns). With ``outcome`` (a move just committed, its listeners
        under the game's lock) the acting seat is known and the game is as the move left it (not read again); without
        it (a reconcile, a start, an undo) the move log says whether the seat moved. A vacation: read by the write.
        """
        now = self.now
        if outcome is not None and outcome.info.id == game_id:
            info = outcome.info
        else:
            try:
                info = await self.service.info(game_id)
            except errors.UnknownGame:
                return
        if info.game.status != "active" or info.game.channel_xid is None or info.game.paused_at is not None:
            await self._close_game(info)  # over, or paused (its channel was deleted): nothing is owed
            return
        changed = outcome is None or info.game.awaiting_since == info.game.updated_at
        turn = self.clocks.turn_record(info, changed=changed)  # written with the waits (one statement on PostgreSQL)
        existing = await self.db.waits_for_game(game_id)
        if not existing and info.game.version <= 1:
            await self.clocks.adopt_league_clock(info)  # a game that just started: its league's time control
        humans = {s.seat: s for s in info.seats if s.seat in info.awaiting and s.user_xid is not None and not s.is_ai}
        last_one = (
            outcome is not None
            and outcome.seat >= 0
            and len(info.awaiting) == 1
            and outcome.seat not in info.awaiting
            and not outcome.newly_awaited
            and not self.mention_covered(info.game.kind)
        )
        keep: list[int] = []
        upserts: list[WaitRow] = []
        paused: list[int] = []  # new waits: paused from their start if the player is away
        for seat, row in humans.items():
            assert row.user_xid is not None
            old = existing.get(seat)
            since = now
            restart = old is None or old.user_xid != row.user_xid
            if old is not None and not restart:
                if outcome is not None:
                    restart = outcome.seat == seat
                else:
                    last = await self.db.last_move_of_seat(game_id, seat)
                    if last is not None and last[0] > old.since_version:
                        restart, since = True, last[1]
            elif outcome is None:
                since = max(info.game.awaiting_since or now, await self._installed_at())
                last = await self.db.last_move_of_seat(game_id, seat)
                if last is not None:
                    since = max(since, last[1])
            if restart:
                paused.append(seat)
                upserts.append(
                    WaitRow(
                        game_id=game_id,
                        seat=seat,
                        guild_xid=info.game.guild_xid,
                        channel_xid=info.game.channel_xid,
                        user_xid=row.user_xid,
                        since=since,
                        since_version=info.game.version,
                        turn_notice=1,
                        last_notice=int(last_one),
                        due_at=now,
                    )
                )
            elif last_one and old is not None:
                upserts.append(replace(old, last_notice=1, due_at=now))
            else:
                keep.append(seat)
        if not upserts and set(keep) == set(existing):
            if turn is not None:  # the waits stay as they are (a reconcile after the listener synced them)
                await self.clocks.db.write_turn(turn)
            return
        cancelled = await self.db.replace_waits(
            game_id, keep=keep, upserts=upserts, at=now, turn=turn, away_pauses=paused
        )
        await self.votes.claim_closed(info, cancelled, "moved")

    async def _installed_at(self) -> int:
        if self._installed is None:
            text = await self.db.meta(META_INSTALLED)
            self._installed = int(text) if text is not None else 0
        return self._installed

    # -- the loop ----------------------------------------------------------------------------
    async def resume(self, now: int | None = None) -> int:
        """At start-up: credit the time since the last heartbeat (the bot was down) to every open
        wait and vote, so downtime never counts against a player. Returns the downtime credited (ms)."""
        now = self.now if now is None else now
        beat_text = await self.db.meta(META_HEARTBEAT)
        credited = 0
        if beat_text is None and await self.db.meta(META_INSTALLED) is None:
            # First start with these features: games already waiting start their clocks now.
            await self.db.set_meta(META_INSTALLED, str(now))
        if beat_text is not None:
            beat = int(beat_text)
            if now - beat > DOWNTIME_GRACE_MS:
                await self.db.credit_downtime(beat, now)
                credited = now - beat
                log.info("bot was down %.1f minutes; credited to open waits", credited / MINUTE_MS)
        await self.heartbeat(now)
        return credited

    async def heartbeat(self, now: int | None = None) -> None:
        await self.db.set_meta(META_HEARTBEAT, str(self.now if now is None else now))

    async def run_due(self, now_ms: int | None = None, limit: int = DEFAULT_BATCH) -> list[Action]:
        """One pass of the reminder loop: what to send now (each action already recorded).

        Stages, each reading at most ``limit`` rows through an index: games whose awaited set
        changed (reconcile, for starts, undos and anything a listener missed); vacations that
        ended; votes that closed; waits that are due; then actions queued by listeners and claims
        never confirmed (an earlier run's, or this run's after a timeout). The caller sends
        every action and confirms it with :meth:`mark_sent` (or :meth:`mark_skipped` /
        :meth:`mark_failed`); AI moves go through :meth:`execute_ai`.
        """
        if self.stopping:
            return []
        now = self.now if now_ms is None else now_ms
        actions: list[Action] = []
        await self._reconcile(limit)
        for away in await self.db.expired_aways(now, limit):
            await self.db.end_away(away.guild_xid, away.user_xid, away.until)
        for vote in await self.votes.db.due_votes(now, limit):
            actions += await self.votes.close(vote, now)
        cache = PassCache()
        for wait in await self.db.due_waits(now, limit):
            try:
                actions += await self._process_wait(wait, now, cache)
            except Exception:
                log.exception("wait %s/%s failed", wait.game_id, wait.seat)
                await self.db.update_wait(wait.game_id, wait.seat, due_at=now + ACTING_RETRY_MS)
        actions += await self.outbox.take_due(
            self.boot, now, limit, max_attempts=MAX_ATTEMPTS, lease_ms=self.service.lease_ms
        )
        await self.heartbeat(now)
        return actions

    async def _reconcile(self, limit: int) -> None:
        mark = await self.db.meta(META_WATERMARK) or "0:0"
        at_text, _, id_text = mark.partition(":")
        after_at, after_id = int(at_text), int(id_text or 0)
        stamps = await self.db.changed_games(after_at, after_id, limit)
        for stamp in stamps:
            await self.sync_game(stamp.id)
        if stamps:
            await self.db.set_meta(META_WATERMARK, f"{stamps[-1].awaiting_since}:{stamps[-1].id}")

    async def _process_wait(self, wait: WaitRow, now: int, cache: PassCache) -> list[Action]:
        try:
            info = await self.service.info(wait.game_id)
        except errors.UnknownGame:
            await self.db.delete_waits(wait.game_id)
            return []
        seat = info.seats[wait.seat] if wait.seat < len(info.seats) else None
        if (
            info.game.status != "active"
            or info.game.paused_at is not None
            or seat is None
            or seat.is_ai
            or seat.user_xid != wait.user_xid
            or wait.seat not in info.awaiting
        ):
            await self.sync_game(wait.game_id)
            return []
        settings = await self.preferences.of_game(info.game, cache)
        prefs = await self.preferences.prefs(wait.user_xid, cache)
        guild = info.game.guild_xid or 0
        away = await self.db.away(guild, wait.user_xid)
        recent = await self.outbox.recent_reminders(info.game.guild_xid, wait.user_xid, now - DAY_MS)
        voters = tuple(s.user_xid for s in info.seats if s.user_xid is not None and not s.is_ai and s.seat != wait.seat)
        rules = games.rules(info.game.kind)
        bank_at, bank_left = await self.clocks.turn_bank(info, wait, settings.time_control, now)
        ctx = WaitContext(
            settings=settings,
            prefs=prefs,
            version=info.game.version,
            away_until=away.until if away is not None else None,
            recent_reminders=tuple(recent),
            voters=voters,
            can_ai=bool(rules.ai_levels),
            mention_last=not self.mention_covered(info.game.kind),
            bank_expires_at=bank_at,
            bank_left_ms=bank_left,
            rated=settings.timeout_policy == "forfeit" and await self.rated(info),
        )
        plan = plan_wait(wait, ctx, now)
        claims = [new_outbox(kind, info, wait.seat, wait.user_xid, params) for kind, params in plan.actions]
        vote = None
        if plan.opens_vote is not None:
            vote = VoteRow(
                game_id=wait.game_id,
                version=plan.opens_vote["version"],
                seat=wait.seat,
                user_xid=wait.user_xid,
                voters=list(plan.opens_vote["voters"]),
                opened_at=now,
                closes_at=plan.opens_vote["closes_at"],
                status="open",
                decision=None,
                message_xid=None,
            )
        rows = await self.db.apply_plan(
            wait.game_id,
            wait.seat,
            expect=(wait.since_version, wait.due_at),
            updates=plan.updates,
            claims=claims,
            at=now,
            boot=self.boot,
            open_vote=vote,
        )
        return rows or []

    async def execute_forfeit(self, action: Action) -> GameInfo | None:
        """Carry out a ``forfeit`` action: the late player resigns (the AI plays the seat on; in a two-player
        game the other wins). Skipped (None) if that turn is over; done again after a restart it finds the
        seat resigned already and only the announcement is left. Not confirmed here: the post confirms it."""
        assert action.kind == "forfeit" and action.game_id is not None and action.seat is not None
        info = await self.service.info(action.game_id)
        seat = info.seats[action.seat] if action.seat < len(info.seats) else None
        if seat is None or seat.user_xid is None or seat.user_xid != action.user_xid:
            await self.mark_skipped(action.id)
            return None
        if seat.resigned:
            return info
        wait = await self.db.wait(action.game_id, action.seat)
        if wait is None or wait.since_version != action.params.get("since_version") or info.game.status != "active":
            await self.mark_skipped(action.id)
            return None
        return await self.service.resign(action.game_id, seat.user_xid)

    async def hand_over(self) -> int:
        """A graceful stop: this run's claims not yet confirmed end now, so another process (or the next
        start) sends them at once, with their nonces; how many."""
        return await self.outbox.hand_over(self.boot)

    async def mark_sent(self, action_id: int, message_xid: int | None = None) -> bool:
        """Confirm an action was carried out (after sending). Votes remember their message."""
        row = await self.outbox.outbox(action_id)
        done = await self.outbox.finish_outbox(action_id, status="sent", at=self.now, message_xid=message_xid)
        if (
            done
            and row is not None
            and message_xid is not None
            and row.kind == "vote_open"
            and row.game_id is not None
            and row.seat is not None
        ):
            await self.votes.db.set_vote_message(row.game_id, int(row.params["version"]), row.seat, message_xid)
        return done

    async def mark_skipped(self, action_id: int) -> bool:
        """Nothing needed doing after all (the game moved on); recorded so it is not offered again."""
        return await self.outbox.finish_outbox(action_id, status="skipped", at=self.now)

    async def mark_failed(self, action_id: int) -> bool:
        """Discord refused for good (no access, DMs closed); recorded so it is not offered again."""
        return await self.outbox.finish_outbox(action_id, status="failed", at=self.now)

    async def execute_ai(self, action: Action) -> MoveOutcome | None:
        """Carry out an ``ai_move`` action: the AI plays the late seat's move (and keeps the seat
        for a take-over). Skipped (None) if that turn is already over. Confirms the action."""
        assert action.kind == "ai_move" and action.game_id is not None and action.seat is not None
        wait = await self.db.wait(action.game_id, action.seat)
        if (
            wait is None
            or wait.since_version != action.params.get("since_version")
            or wait.deadline_state not in ACTING_STATES
        ):
            await self.mark_skipped(action.id)
            return None
        since = action.params.get("since_version")
        outcome = await self.service.play_for(
            action.game_id,
            action.seat,
            take_over=bool(action.params.get("take_over")),
            unless_moved_since=int(since) if since is not None else None,
        )
        if outcome is None:
            await self.mark_skipped(action.id)
            await self.sync_game(action.game_id)
            return None
        await self.mark_sent(action.id)
        return outcome

    # -- privacy -----------------------------------------------------------------------------
    async def forget_user(self, user_xid: int) -> int:
        """Forget a player's waits and vacations, and their id in the outbox."""
        return await self.db.forget_user(user_xid) + await self.outbox.forget_user(user_xid, self.now)
