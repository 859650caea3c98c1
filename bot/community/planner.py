"""The reminder loop's planner (pure): one wait, its context and a moment in, what is owed and when to look
again out (:func:`plan_wait`). The loop that reads the waits, claims the actions and writes the plans is
:mod:`bot.community.reminders`, which re-exports these names."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.community.base import ACTING_RETRY_MS, ACTING_STATES, DAY_MS, MINUTE_MS
from bot.community.settings import Prefs, Settings, quiet_until
from bot.community.votes import deadline_at
from bot.store.community.reminders import WaitRow

MAX_REMINDER_GAP_MS = 7 * DAY_MS
"""Back-off never spaces two reminders further apart than this."""


@dataclass(frozen=True)
class WaitContext:
    """Everything besides the wait row that decides what is due."""

    settings: Settings
    prefs: Prefs
    version: int
    """The game's version now."""
    away_until: int | None = None
    """The player is on vacation on this server until then (None: not away)."""
    recent_reminders: tuple[int, ...] = ()
    """When reminders went to this player on this server in the last 24 hours."""
    voters: tuple[int, ...] = ()
    """The other human players (who vote at the deadline)."""
    can_ai: bool = True
    """The game has an AI that can play the move."""
    mention_last: bool = True
    """Whether "you are the last to choose" needs our mention (the turn message does not do it)."""
    bank_expires_at: int | None = None
    """When the seat's time bank runs (or ran) out this turn, not yet acted on (None: no bank, or paused)."""
    bank_left_ms: int | None = None
    """What is left in the seat's bank now (None: the game has no bank)."""
    rated: bool = False
    """The game counts in a rated league (policy ``forfeit`` applies; elsewhere it is a vote)."""


@dataclass(frozen=True)
class Plan:
    actions: tuple[tuple[str, dict[str, Any]], ...]
    updates: dict[str, Any]
    due_at: int | None
    opens_vote: dict[str, Any] | None = None


def next_reminder_at(wait: WaitRow, settings: Settings) -> int:
    """When the next reminder is owed before quiet hours, snooze, away and caps: the first one
    ``reminder_hours`` after the turn began, each next one ``backoff`` times further apart."""
    base = wait.last_reminder_at if wait.last_reminder_at is not None else wait.since
    gap = min(settings.reminder_ms * settings.backoff**wait.reminders_sent, MAX_REMINDER_GAP_MS)
    return base + int(gap)


def turn_deadline(wait: WaitRow, ctx: WaitContext, settings: Settings) -> int | None:
    """The earlier of the per-move deadline and the moment the seat's bank runs out (issue 41); like a
    deadline, a bank only runs out against a player when someone else is waiting."""
    deadline = deadline_at(wait, settings, bool(ctx.voters))
    if ctx.bank_expires_at is None or not ctx.voters:
        return deadline
    return ctx.bank_expires_at if deadline is None else min(deadline, ctx.bank_expires_at)


def effective_policy(settings: Settings, ctx: WaitContext) -> str:
    """What happens at this game's deadline: ``forfeit`` only in a rated league's game (elsewhere a
    vote), and nothing without an AI to play the move."""
    policy = settings.timeout_policy
    if policy == "forfeit" and not ctx.rated:
        policy = "vote"
    return policy if ctx.can_ai else "none"


def plan_wait(wait: WaitRow, ctx: WaitContext, now: int) -> Plan:
    """Decide, for one awaited player at ``now``, what is owed and when to look again.

    Order: one-off notices ("last to choose", "your turn" DM), the deadline, then a reminder.
    Reminders respect snooze, away, the server's caps and the player's quiet hours (a reminder due
    in quiet hours waits for their end). The turn notice waits for quiet hours to end too.
    """
    s = ctx.settings
    actions: list[tuple[str, dict[str, Any]]] = []
    updates: dict[str, Any] = {}
    later: list[int] = []
    away = ctx.away_until is not None and ctx.away_until > now
    opens_vote: dict[str, Any] | None = None

    if wait.last_notice:
        if ctx.mention_last and not away:
            actions.append(("last", {}))
        updates["last_notice"] = 0
    if wait.turn_notice:
        if not ctx.prefs.dm_turns or away:
            updates["turn_notice"] = 0
        else:
            quiet = quiet_until(now, ctx.prefs)
            if quiet is None:
                actions.append(("turn_dm", {}))
                updates["turn_notice"] = 0
            else:
                later.append(quiet)

    deadline = turn_deadline(wait, ctx, s)
    state = wait.deadline_state
    if state in ACTING_STATES:
        retry = (wait.state_at or now) + ACTING_RETRY_MS
        if retry <= now:
            actions.append(
                (
                    "ai_move",
                    {"take_over": state == "taking_over", "reason": "retry", "since_version": wait.since_version},
                )
            )
            updates["state_at"] = now
            later.append(now + ACTING_RETRY_MS)
        else:
            later.append(retry)
    elif state == "pending" and deadline is not None:
        if deadline <= now:
            policy = effective_policy(s, ctx)
            if policy == "forfeit":
                actions.append(("forfeit", {"since_version": wait.since_version, "since": wait.since}))
                updates.update(deadline_state="done", state_at=now)
            elif policy == "vote":
                closes = now + s.vote_ms
                opens_vote = {"version": ctx.version, "voters": list(ctx.voters), "closes_at": closes}
                actions.append(
                    (
                        "vote_open",
                        {"version": ctx.version, "voters": list(ctx.voters), "closes_at": closes, "since": wait.since},
                    )
                )
                updates.update(deadline_state="voting", state_at=now, vote_version=ctx.version)
            elif policy in ("ai_move", "ai_takeover"):
                take_over = policy == "ai_takeover"
                actions.append(
                    ("ai_move", {"take_over": take_over, "reason": "deadline", "since_version": wait.since_version})
                )
                updates.update(deadline_state="taking_over" if take_over else "acting", state_at=now)
                later.append(now + ACTING_RETRY_MS)
            else:
                actions.append(("deadline_passed", {"since": wait.since, "no_ai": not ctx.can_ai}))
                updates.update(deadline_state="done", state_at=now)
        else:
            later.append(deadline)

    sent = wait.reminders_sent
    if sent < s.max_reminders:
        owed = next_reminder_at(wait, s)
        if wait.snoozed_until is not None:
            owed = max(owed, wait.snoozed_until)
        if away and ctx.away_until is not None:
            owed = max(owed, ctx.away_until)
        recent = sorted(t for t in ctx.recent_reminders if t > now - DAY_MS)
        if len(recent) >= s.daily_reminder_cap:
            owed = max(owed, recent[-s.daily_reminder_cap] + DAY_MS)
        if owed <= now:
            quiet = quiet_until(now, ctx.prefs)
            if quiet is not None:
                later.append(quiet)
            else:
                voting = updates.get("deadline_state", state) == "voting"
                params = {
                    "nth": sent + 1,
                    "since": wait.since,
                    "deadline": None if voting else turn_deadline(wait, ctx, s),
                    "policy": effective_policy(s, ctx),
                    "voting": voting,
                }
                if ctx.bank_left_ms is not None:
                    params["bank_left"] = ctx.bank_left_ms
                actions.append(("reminder", params))
                if ctx.prefs.dm_reminders:
                    actions.append(("reminder_dm", dict(params)))
                updates.update(reminders_sent=sent + 1, last_reminder_at=now)
                if sent + 1 < s.max_reminders:
                    later.append(next_reminder_at(replace(wait, reminders_sent=sent + 1, last_reminder_at=now), s))
        else:
            later.append(owed)

    due = min(later) if later else None
    if due is not None and due <= now:
        due = now + MINUTE_MS
    updates["due_at"] = due
    return Plan(tuple(actions), updates, due, opens_vote)
