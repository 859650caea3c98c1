"""Asynchronous play for communities (issue 5), without Discord: reminders, deadlines, votes, away,
snooze, undo proposals, followers, history and export, leagues and ratings.

The reminder loop
-----------------
Every awaited human seat of an active game has a *wait* row in the store (since when, reminders
sent, snooze, time credited, deadline state, and ``due_at``: the next moment anything may be due).
One pass of the loop is :meth:`Community.run_due` ``(now_ms, limit)``; each of its stages reads at
most ``limit`` rows through an index, so a pass over a quiet database is one indexed query per stage
whatever the number of games stored. A pass returns :class:`Action` rows (mentions, DMs, votes to
post, AI moves to play) for the Discord layer to carry out.

Exactly once: every action is **recorded in the store before it is sent** (an outbox row, "claimed",
written in the same transaction as the wait's new state) and **confirmed after** (:meth:`mark_sent`).
A restart therefore never forgets a reminder (its claim is in the store) and never plans the same
reminder twice (the wait already counts it). A claim that was never confirmed, because the process
stopped between recording and confirming, is offered again by the next run's first pass *with the
same nonce*; Discord refuses to create a second message with a nonce it has just seen, so the
retry is not a duplicate either. AI moves are guarded by the seat's turn (``since_version``) instead
of a nonce: an AI move for a turn that is already over is skipped.

Time comes from ``service.clock`` (epoch ms, UTC). Time the bot was down is credited to every open
wait at start-up (:meth:`Community.resume`), so it never counts against a player.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from openskill.models import PlackettLuce

from bot import errors, games, store
from bot.rules import core
from bot.service import GameInfo, MoveOutcome, Service
from bot.store import community as cstore
from bot.store.community import CommunityStore, NewOutbox, OutboxRow, UndoRow, VoteRow, WaitRow

log = logging.getLogger(__name__)

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS

DEFAULT_BATCH = 100
"""Rows each stage of one loop pass may read (the loop's bounded batch)."""
CLAIM_TIMEOUT_MS = 5 * MINUTE_MS
"""A claim of this run not confirmed after this long is offered again (same nonce)."""
MAX_ATTEMPTS = 3
"""An action offered this many times without confirmation is given up (status 'failed')."""
ACTING_RETRY_MS = 15 * MINUTE_MS
"""An AI move decided for a deadline that has not happened after this long is decided again."""
DOWNTIME_GRACE_MS = 2 * MINUTE_MS
"""A heartbeat gap longer than this at start-up is downtime, credited to every open wait."""
MAX_REMINDER_GAP_MS = 7 * DAY_MS
"""Back-off never spaces two reminders further apart than this."""
LEAGUE_CATCH_UP_LIMIT = 500
NAME_LIMIT = 40

POLICIES = ("vote", "ai_move", "ai_takeover", "none")
VOTE_CHOICES = ("move", "takeover", "wait")
FORFEIT_RULES = ("loss", "ignore")
ABANDON_RULES = ("ignore", "draw")
ACTING_STATES = ("acting", "taking_over")

META_HEARTBEAT = "heartbeat"
META_WATERMARK = "reconcile_watermark"
META_INSTALLED = "installed_at"

Action = OutboxRow
"""What a pass asks the Discord layer to do: ``kind`` and ``params`` say what (see :data:`KINDS`)."""

KINDS = {
    "reminder": "mention the awaited player in the game's channel",
    "reminder_dm": "the same reminder by DM (the player opted in)",
    "turn_dm": "a DM: it is your turn (opt-in 'tell me when I am next')",
    "last": "mention the only player still to choose in a simultaneous turn",
    "vote_open": "post the timeout vote with its buttons, mentioning the voters",
    "vote_closed": "edit a vote message: the vote is over (params: decision)",
    "ai_move": "let the AI play the late seat's move (execute with Community.execute_ai)",
    "extended": "announce that the players gave the late player more time",
    "deadline_passed": "announce a deadline passed with nothing to do (no AI, or policy 'none')",
    "undo_expired": "edit an undo proposal: the game moved on",
}


class CommunityError(errors.GameError):
    """A refusal of a community command; the key is in ``bot/locales/en/community.json``."""

    default_key = "community.error.generic"


# =============================================================================================
# Settings and preferences
# =============================================================================================


@dataclass(frozen=True)
class SettingSpec:
    name: str
    kind: type
    low: float
    high: float
    per_game: bool
    choices: tuple[str, ...] = ()


SETTING_SPECS: dict[str, SettingSpec] = {s.name: s for s in (
    SettingSpec("reminder_hours", float, 1, 24 * 14, True),
    SettingSpec("deadline_hours", float, 0, 24 * 60, True),
    SettingSpec("timeout_policy", str, 0, 0, True, POLICIES),
    SettingSpec("vote_hours", float, 1, 24 * 7, True),
    SettingSpec("max_reminders", int, 0, 10, False),
    SettingSpec("backoff", float, 1, 4, False),
    SettingSpec("min_reminder_hours", float, 1, 24 * 7, False),
    SettingSpec("daily_reminder_cap", int, 1, 48, False),
    SettingSpec("away_max_days", int, 1, 365, False),
    SettingSpec("away_pauses_deadlines", bool, 0, 1, False),
)}


@dataclass(frozen=True)
class Settings:
    """Reminder and deadline rules: defaults, then the server's, then the game's overrides."""

    reminder_hours: float = 12.0
    """First reminder after this long awaited; later ones back off (x ``backoff`` each time)."""
    deadline_hours: float = 72.0
    """The game's speed: one move per this many hours (0: no deadline)."""
    timeout_policy: str = "vote"
    """At the deadline: ``vote`` (the other players decide), ``ai_move``, ``ai_takeover``, ``none``."""
    vote_hours: float = 24.0
    """How long a timeout vote stays open."""
    max_reminders: int = 3
    """Server: reminders per player per turn, at most."""
    backoff: float = 2.0
    """Server: each reminder waits this many times longer than the one before."""
    min_reminder_hours: float = 1.0
    """Server: the shortest reminder interval a game may set."""
    daily_reminder_cap: int = 6
    """Server: reminders per player per server per 24 hours, at most (across all games)."""
    away_max_days: int = 30
    """Server: the longest vacation (/game away)."""
    away_pauses_deadlines: bool = True
    """Server: a player away has their deadlines paused (else only their reminders stop)."""

    @property
    def reminder_ms(self) -> int:
        return int(self.reminder_hours * HOUR_MS)

    @property
    def deadline_ms(self) -> int | None:
        return int(self.deadline_hours * HOUR_MS) if self.deadline_hours > 0 else None

    @property
    def vote_ms(self) -> int:
        return int(self.vote_hours * HOUR_MS)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def check_setting(name: str, value: Any) -> Any:
    """The value converted to the setting's type, or CommunityError naming the allowed range."""
    spec = SETTING_SPECS.get(name)
    if spec is None:
        raise CommunityError("community.error.unknown_setting", setting=name)
    if spec.choices:
        if value not in spec.choices:
            raise CommunityError("community.error.bad_choice", setting=name, value=value,
                                 choices=", ".join(spec.choices))
        return value
    try:
        converted = spec.kind(value)
    except (TypeError, ValueError):
        raise CommunityError("community.error.bad_number", setting=name, low=spec.low,
                             high=spec.high) from None
    if spec.kind is not bool and not spec.low <= converted <= spec.high:
        raise CommunityError("community.error.bad_number", setting=name, low=_num(spec.low),
                             high=_num(spec.high))
    return converted


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def merge_settings(guild_data: Mapping[str, Any], game_data: Mapping[str, Any] | None = None) -> Settings:
    """Defaults <- the server's settings <- the game's overrides (only per-game keys count there).

    Values that no longer validate (an older version stored them) are ignored, not fatal.
    """
    values: dict[str, Any] = {}
    for layer, per_game_only in ((guild_data, False), (game_data or {}, True)):
        for name, value in layer.items():
            spec = SETTING_SPECS.get(name)
            if spec is None or (per_game_only and not spec.per_game):
                continue
            try:
                values[name] = check_setting(name, value)
            except CommunityError:
                log.warning("ignoring stored setting %s=%r", name, value)
    return Settings(**values)


QUIET_RE = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")
OFFSET_RE = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)


@dataclass(frozen=True)
class Prefs:
    """A player's own preferences (the same on every server)."""

    timezone: str = "UTC"
    quiet_start: int | None = None
    """Quiet hours start, minutes after local midnight (None: no quiet hours)."""
    quiet_end: int | None = None
    dm_reminders: bool = False
    """Reminders also by DM."""
    dm_turns: bool = False
    """A DM each time it becomes my turn ("tell me when I am next")."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Prefs:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def quiet_text(self) -> str | None:
        if self.quiet_start is None or self.quiet_end is None:
            return None
        return f"{_hhmm(self.quiet_start)}-{_hhmm(self.quiet_end)}"


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``"22:00-07:30"`` or ``"22-7"`` -> (start, end) minutes; ``"off"`` -> None."""
    if text.strip().lower() in ("off", "none", "no", ""):
        return None
    m = QUIET_RE.match(text)
    if not m:
        raise CommunityError("community.error.bad_quiet", text=text)
    h1, m1, h2, m2 = (int(x) if x else 0 for x in m.groups())
    if h1 > 23 or h2 > 24 or m1 > 59 or m2 > 59:
        raise CommunityError("community.error.bad_quiet", text=text)
    start, end = h1 * 60 + m1, (h2 * 60 + m2) % (24 * 60)
    if start == end:
        raise CommunityError("community.error.bad_quiet", text=text)
    return start, end


def zone(name: str) -> tzinfo:
    """An IANA zone (``Europe/Budapest``) or a fixed offset (``UTC+2``, ``-03:30``)."""
    text = name.strip()
    if text.upper() in ("UTC", "GMT", "Z"):
        return UTC
    m = OFFSET_RE.match(text)
    if m:
        sign, hours, minutes = m.group(1), int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise CommunityError("community.error.bad_timezone", zone=name)
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if sign == "-" else delta)
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise CommunityError("community.error.bad_timezone", zone=name) from None


def quiet_until(at_ms: int, prefs: Prefs) -> int | None:
    """If ``at_ms`` falls in the player's quiet hours, when they end (epoch ms); else None."""
    if prefs.quiet_start is None or prefs.quiet_end is None or prefs.quiet_start == prefs.quiet_end:
        return None
    try:
        tz = zone(prefs.timezone)
    except CommunityError:
        tz = UTC
    local = datetime.fromtimestamp(at_ms / 1000, tz)
    minute = local.hour * 60 + local.minute
    start, end = prefs.quiet_start, prefs.quiet_end
    if start < end:
        if not start <= minute < end:
            return None
        end_day = local.date()
    else:
        if not (minute >= start or minute < end):
            return None
        end_day = local.date() + timedelta(days=1) if minute >= start else local.date()
    end_local = datetime.combine(end_day, time(end // 60, end % 60), tzinfo=tz)
    until = int(end_local.timestamp() * 1000)
    return until if until > at_ms else at_ms + MINUTE_MS


# =============================================================================================
# The planner: one wait, its context, a moment -> what to do and when to look again (pure)
# =============================================================================================


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
    gap = min(settings.reminder_ms * settings.backoff ** wait.reminders_sent, MAX_REMINDER_GAP_MS)
    return base + int(gap)


def deadline_at(wait: WaitRow, settings: Settings, has_voters_or_ai: bool = True) -> int | None:
    """When the turn's deadline passes (None: no deadline, or paused while the player is away).

    Deadlines only apply when someone else is waiting: a game with no other human has none.
    """
    if settings.deadline_ms is None or wait.paused_since is not None or not has_voters_or_ai:
        return None
    return wait.since + settings.deadline_ms + wait.credit_ms


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

    has_others = bool(ctx.voters)
    deadline = deadline_at(wait, s, has_others)
    state = wait.deadline_state
    if state in ACTING_STATES:
        retry = (wait.state_at or now) + ACTING_RETRY_MS
        if retry <= now:
            actions.append(("ai_move", {"take_over": state == "taking_over", "reason": "retry",
                                        "since_version": wait.since_version}))
            updates["state_at"] = now
            later.append(now + ACTING_RETRY_MS)
        else:
            later.append(retry)
    elif state == "pending" and deadline is not None:
        if deadline <= now:
            policy = s.timeout_policy
            if policy != "none" and not ctx.can_ai:
                policy = "none"
            if policy == "vote":
                closes = now + s.vote_ms
                opens_vote = {"version": ctx.version, "voters": list(ctx.voters), "closes_at": closes}
                actions.append(("vote_open", {"version": ctx.version, "voters": list(ctx.voters),
                                              "closes_at": closes, "since": wait.since}))
                updates.update(deadline_state="voting", state_at=now, vote_version=ctx.version)
            elif policy in ("ai_move", "ai_takeover"):
                take_over = policy == "ai_takeover"
                actions.append(("ai_move", {"take_over": take_over, "reason": "deadline",
                                            "since_version": wait.since_version}))
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
                params = {"nth": sent + 1, "since": wait.since,
                          "deadline": None if voting else deadline_at(wait, s, has_others),
                          "policy": s.timeout_policy if ctx.can_ai else "none", "voting": voting}
                actions.append(("reminder", params))
                if ctx.prefs.dm_reminders:
                    actions.append(("reminder_dm", dict(params)))
                updates.update(reminders_sent=sent + 1, last_reminder_at=now)
                if sent + 1 < s.max_reminders:
                    later.append(next_reminder_at(
                        replace(wait, reminders_sent=sent + 1, last_reminder_at=now), s))
        else:
            later.append(owed)

    due = min(later) if later else None
    if due is not None and due <= now:
        due = now + MINUTE_MS
    updates["due_at"] = due
    return Plan(tuple(actions), updates, due, opens_vote)


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


# =============================================================================================
# Results the front-end shows
# =============================================================================================


@dataclass(frozen=True)
class MineEntry:
    info: GameInfo
    seat: int
    since: int
    deadline: int | None
    snoozed_until: int | None


@dataclass(frozen=True)
class VoteResult:
    vote: VoteRow
    ballots: dict[int, str]
    decision: str | None
    actions: list[Action]


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


@dataclass(frozen=True)
class ReplayFrame:
    info: GameInfo
    turn: int
    """How many (live) moves have been played in this frame (0: the set-up)."""
    turns: int
    version: int
    state: Any
    view: games.View
    seat: int | None
    """The seat that made the frame's last move (None at the set-up or for a system move)."""
    summary: tuple[str, dict[str, Any]] | None


@dataclass(frozen=True)
class Standing:
    user_xid: int
    name: str
    games: int
    wins: int
    places: int
    """Sum of finishing places (for the average)."""
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown (mu - 3 sigma), as openskill defines it."""
        return self.mu - 3 * self.sigma

    @property
    def average_place(self) -> float:
        return self.places / self.games if self.games else 0.0


@dataclass(frozen=True)
class Table:
    league: cstore.LeagueRow
    season: cstore.SeasonRow
    standings: list[Standing]
    games: int


@dataclass(frozen=True)
class Profile:
    league: cstore.LeagueRow
    season: cstore.SeasonRow
    standing: Standing | None
    position: int | None
    history: list[dict[str, Any]]


@dataclass
class _PassCache:
    settings: dict[int, Settings] = field(default_factory=dict)
    prefs: dict[int, Prefs] = field(default_factory=dict)


# =============================================================================================
# The service
# =============================================================================================


class Community:
    """The community features over a :class:`bot.service.Service` (and its store and clock)."""

    def __init__(self, service: Service, *, boot: str | None = None, listen: bool = True) -> None:
        self.service = service
        self.db = CommunityStore(service.store)
        self.boot = boot or secrets.token_hex(6)
        """Identifies this process run: claims of another run are offered again at once."""
        self._installed: int | None = None
        self.mention_covered: Callable[[str], bool] = lambda kind: False
        """kind -> True when the game's turn message already mentions the last player to choose."""
        if listen:
            service.move_listeners.append(self.on_move)
            service.end_listeners.append(self.on_end)
            service.forget_listeners.append(self.delete_user_data)

    @property
    def now(self) -> int:
        return self.service.clock.now_ms()

    # -- listeners ---------------------------------------------------------------------------
    async def on_move(self, outcome: MoveOutcome) -> None:
        """After every committed move: the waits of the game follow its turn; old undo proposals
        expire (the game moved on)."""
        await self.sync_game(outcome.info.id, outcome=outcome)
        expired = await self.db.expire_undos(outcome.info.id, outcome.version)
        claims = [self._new("undo_expired", outcome.info, None, None,
                            {"version": u.version, "message_xid": u.message_xid})
                  for u in expired if u.message_xid is not None]
        if claims:
            await self.db.queue(claims, self.now)

    async def on_end(self, info: GameInfo) -> None:
        """A game ended (any path): nobody is awaited any more; leagues count it."""
        await self._close_game(info)
        for league in await self.db.leagues(info.game.guild_xid or 0, info.game.kind):
            try:
                await self._count(league, info)
            except Exception:
                log.exception("league %s could not count game %s", league.id, info.id)

    async def _close_game(self, info: GameInfo) -> None:
        cancelled = await self.db.replace_waits(info.id, keep=(), upserts=(), at=self.now)
        await self._claim_vote_closed(info, cancelled, "ended")
        expired = await self.db.expire_undos(info.id, 1 << 62)
        claims = [self._new("undo_expired", info, None, None,
                            {"version": u.version, "message_xid": u.message_xid})
                  for u in expired if u.message_xid is not None]
        if claims:
            await self.db.queue(claims, self.now)

    def _new(self, kind: str, info: GameInfo, seat: int | None, user_xid: int | None,
             params: Mapping[str, Any]) -> NewOutbox:
        return NewOutbox(kind=kind, nonce=f"cb{secrets.token_hex(10)}", game_id=info.id, seat=seat,
                         user_xid=user_xid, guild_xid=info.game.guild_xid, channel_xid=info.game.channel_xid,
                         params=dict(params))

    async def _claim_vote_closed(self, info: GameInfo, votes: Iterable[VoteRow], decision: str) -> None:
        claims = [self._new("vote_closed", info, v.seat, v.user_xid,
                            {"version": v.version, "decision": decision, "message_xid": v.message_xid})
                  for v in votes if v.message_xid is not None]
        if claims:
            await self.db.queue(claims, self.now)

    # -- waits follow the game ---------------------------------------------------------------
    async def sync_game(self, game_id: int, outcome: MoveOutcome | None = None) -> None:
        """Make the game's waits match who is awaited now.

        A seat's wait (its turn clock) restarts when the seat has moved since it began; a seat that
        stays awaited while others move keeps its clock (simultaneous turns). With ``outcome`` (a
        move just committed) the acting seat is known; without it (reconcile after a restart, a
        start or an undo) the move log says whether the seat moved.
        """
        now = self.now
        try:
            info = await self.service.info(game_id)
        except errors.UnknownGame:
            return
        if info.game.status != "active" or info.game.channel_xid is None:
            await self._close_game(info)
            return
        existing = await self.db.waits_for_game(game_id)
        humans = {s.seat: s for s in info.seats
                  if s.seat in info.awaiting and s.user_xid is not None and not s.is_ai}
        last_one = (outcome is not None and outcome.seat >= 0 and len(info.awaiting) == 1
                    and outcome.seat not in info.awaiting and not outcome.newly_awaited
                    and not self.mention_covered(info.game.kind))
        keep: list[int] = []
        upserts: list[WaitRow] = []
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
                away = await self.db.away(info.game.guild_xid or 0, row.user_xid)
                paused = since if away is not None and away.pauses_deadlines and away.until > now else None
                upserts.append(WaitRow(
                    game_id=game_id, seat=seat, guild_xid=info.game.guild_xid,
                    channel_xid=info.game.channel_xid, user_xid=row.user_xid, since=since,
                    since_version=info.game.version, paused_since=paused, turn_notice=1,
                    last_notice=int(last_one), due_at=now))
            elif last_one and old is not None:
                upserts.append(replace(old, last_notice=1, due_at=now))
            else:
                keep.append(seat)
        if not upserts and set(keep) == set(existing):
            return  # nothing changed (a reconcile after the listener already synced): no write
        cancelled = await self.db.replace_waits(game_id, keep=keep, upserts=upserts, at=now)
        await self._claim_vote_closed(info, cancelled, "moved")

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
        now = self.now if now_ms is None else now_ms
        actions: list[Action] = []
        await self._reconcile(limit)
        for away in await self.db.expired_aways(now, limit):
            await self.db.end_away(away.guild_xid, away.user_xid, away.until)
        for vote in await self.db.due_votes(now, limit):
            actions += await self._close_vote(vote, now)
        cache = _PassCache()
        for wait in await self.db.due_waits(now, limit):
            try:
                actions += await self._process_wait(wait, now, cache)
            except Exception:
                log.exception("wait %s/%s failed", wait.game_id, wait.seat)
                await self.db.update_wait(wait.game_id, wait.seat, due_at=now + ACTING_RETRY_MS)
        for stale in await self.db.stale_claims(self.boot, now - CLAIM_TIMEOUT_MS, limit):
            again = await self.db.reclaim(stale.id, boot=self.boot, at=now, max_attempts=MAX_ATTEMPTS)
            if again is not None:
                actions.append(again)
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

    async def _settings(self, game: store.GameRow, cache: _PassCache | None = None) -> Settings:
        if cache is not None and game.id in cache.settings:
            return cache.settings[game.id]
        guild = await self.db.settings("guild", game.guild_xid or 0)
        own = await self.db.settings("game", game.id)
        settings = merge_settings(guild, own)
        if cache is not None:
            cache.settings[game.id] = settings
        return settings

    async def prefs(self, user_xid: int, cache: _PassCache | None = None) -> Prefs:
        if cache is not None and user_xid in cache.prefs:
            return cache.prefs[user_xid]
        prefs = Prefs.from_json(await self.db.prefs(user_xid))
        if cache is not None:
            cache.prefs[user_xid] = prefs
        return prefs

    async def _process_wait(self, wait: WaitRow, now: int, cache: _PassCache) -> list[Action]:
        try:
            info = await self.service.info(wait.game_id)
        except errors.UnknownGame:
            await self.db.delete_waits(wait.game_id)
            return []
        seat = info.seats[wait.seat] if wait.seat < len(info.seats) else None
        if (info.game.status != "active" or seat is None or seat.is_ai or seat.user_xid != wait.user_xid
                or wait.seat not in info.awaiting):
            await self.sync_game(wait.game_id)
            return []
        settings = await self._settings(info.game, cache)
        prefs = await self.prefs(wait.user_xid, cache)
        guild = info.game.guild_xid or 0
        away = await self.db.away(guild, wait.user_xid)
        recent = await self.db.recent_reminders(info.game.guild_xid, wait.user_xid, now - DAY_MS)
        voters = tuple(s.user_xid for s in info.seats
                       if s.user_xid is not None and not s.is_ai and s.seat != wait.seat)
        rules = games.rules(info.game.kind)
        ctx = WaitContext(settings=settings, prefs=prefs, version=info.game.version,
                          away_until=away.until if away is not None else None,
                          recent_reminders=tuple(recent), voters=voters, can_ai=bool(rules.ai_levels),
                          mention_last=not self.mention_covered(info.game.kind))
        plan = plan_wait(wait, ctx, now)
        claims = [self._new(kind, info, wait.seat, wait.user_xid, params) for kind, params in plan.actions]
        vote = None
        if plan.opens_vote is not None:
            vote = VoteRow(game_id=wait.game_id, version=plan.opens_vote["version"], seat=wait.seat,
                           user_xid=wait.user_xid, voters=list(plan.opens_vote["voters"]), opened_at=now,
                           closes_at=plan.opens_vote["closes_at"], status="open", decision=None,
                           message_xid=None)
        rows = await self.db.apply_plan(wait.game_id, wait.seat, expect=(wait.since_version, wait.due_at),
                                        updates=plan.updates, claims=claims, at=now, boot=self.boot,
                                        open_vote=vote)
        return rows or []

    async def mark_sent(self, action_id: int, message_xid: int | None = None) -> bool:
        """Confirm an action was carried out (after sending). Votes remember their message."""
        row = await self.db.outbox(action_id)
        done = await self.db.finish_outbox(action_id, status="sent", at=self.now, message_xid=message_xid)
        if done and row is not None and message_xid is not None and row.kind == "vote_open" \
                and row.game_id is not None and row.seat is not None:
            await self.db.set_vote_message(row.game_id, int(row.params["version"]), row.seat, message_xid)
        return done

    async def mark_skipped(self, action_id: int) -> bool:
        """Nothing needed doing after all (the game moved on); recorded so it is not offered again."""
        return await self.db.finish_outbox(action_id, status="skipped", at=self.now)

    async def mark_failed(self, action_id: int) -> bool:
        """Discord refused for good (no access, DMs closed); recorded so it is not offered again."""
        return await self.db.finish_outbox(action_id, status="failed", at=self.now)

    async def execute_ai(self, action: Action) -> MoveOutcome | None:
        """Carry out an ``ai_move`` action: the AI plays the late seat's move (and keeps the seat
        for a take-over). Skipped (None) if that turn is already over. Confirms the action."""
        assert action.kind == "ai_move" and action.game_id is not None and action.seat is not None
        wait = await self.db.wait(action.game_id, action.seat)
        if (wait is None or wait.since_version != action.params.get("since_version")
                or wait.deadline_state not in ACTING_STATES):
            await self.mark_skipped(action.id)
            return None
        since = action.params.get("since_version")
        outcome = await self.service.play_for(action.game_id, action.seat,
                                              take_over=bool(action.params.get("take_over")),
                                              unless_moved_since=int(since) if since is not None else None)
        if outcome is None:
            await self.mark_skipped(action.id)
            await self.sync_game(action.game_id)
            return None
        await self.mark_sent(action.id)
        return outcome

    # -- votes -------------------------------------------------------------------------------
    async def _close_vote(self, vote: VoteRow, now: int) -> list[Action]:
        wait = await self.db.wait(vote.game_id, vote.seat)
        if wait is None or wait.vote_version != vote.version:
            if await self.db.cancel_vote(vote, "moved"):
                info = await self.service.info(vote.game_id)
                await self._claim_vote_closed(info, [vote], "moved")
            return []
        ballots = await self.db.ballots(vote.game_id, vote.version, vote.seat)
        decision = tally(ballots, vote.voters, final=True) or "move"
        return await self._decide(vote, wait, decision, now)

    async def _decide(self, vote: VoteRow, wait: WaitRow, decision: str, now: int) -> list[Action]:
        info = await self.service.info(vote.game_id)
        settings = await self._settings(info.game)
        claims: list[NewOutbox] = []
        if decision == "wait":
            credit = now - wait.since
            updates: dict[str, Any] = {"deadline_state": "pending", "state_at": now, "vote_version": None,
                                       "credit_ms": credit, "due_at": now}
            new_deadline = deadline_at(replace(wait, credit_ms=credit, paused_since=None), settings)
            claims.append(self._new("extended", info, vote.seat, vote.user_xid, {"deadline": new_deadline}))
        else:
            take_over = decision == "takeover"
            updates = {"deadline_state": "taking_over" if take_over else "acting", "state_at": now,
                       "due_at": now + ACTING_RETRY_MS}
            claims.append(self._new("ai_move", info, vote.seat, vote.user_xid,
                                    {"take_over": take_over, "reason": "vote",
                                     "since_version": wait.since_version}))
        claims.append(self._new("vote_closed", info, vote.seat, vote.user_xid,
                                {"version": vote.version, "decision": decision,
                                 "message_xid": vote.message_xid}))
        rows = await self.db.decide_vote(vote, decision=decision, wait_updates=updates, claims=claims,
                                         at=now, boot=self.boot)
        return rows or []

    async def cast_vote(self, game_id: int, version: int, seat: int, voter_xid: int,
                        choice: str) -> VoteResult:
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
        wait = await self.db.wait(game_id, seat)
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

    # -- player commands ---------------------------------------------------------------------
    async def snooze(self, user_xid: int, hours: float, *, game_id: int | None = None,
                     guild_xid: int | None = None) -> tuple[int, int]:
        """No reminders for ``hours`` in one game (or all the player's games on the server).
        Deadlines still run. Returns (waits snoozed, until)."""
        if not 0 < hours <= 24 * 7:
            raise CommunityError("community.error.snooze_range", high=24 * 7)
        until = self.now + int(hours * HOUR_MS)
        count = await self.db.snooze(user_xid, until, game_id=game_id, guild_xid=guild_xid)
        if count == 0:
            raise CommunityError("community.error.nothing_to_snooze")
        return count, until

    async def set_away(self, guild_xid: int, user_xid: int, days: float) -> tuple[int | None, bool]:
        """Go away for ``days`` (0: back now). Returns (until or None, deadlines paused)."""
        settings = merge_settings(await self.db.settings("guild", guild_xid))
        now = self.now
        if days <= 0:
            if not await self.db.end_away(guild_xid, user_xid, now):
                raise CommunityError("community.error.not_away")
            return None, settings.away_pauses_deadlines
        if days > settings.away_max_days:
            raise CommunityError("community.error.away_too_long", days=settings.away_max_days)
        current = await self.db.away(guild_xid, user_xid)
        until = now + int(days * DAY_MS)
        if current is not None:
            if until - current.since > settings.away_max_days * DAY_MS:
                raise CommunityError("community.error.away_too_long", days=settings.away_max_days)
            await self.db.start_away(guild_xid, user_xid, since=current.since, until=until,
                                     pauses_deadlines=current.pauses_deadlines)
            return until, current.pauses_deadlines
        await self.db.start_away(guild_xid, user_xid, since=now, until=until,
                                 pauses_deadlines=settings.away_pauses_deadlines)
        return until, settings.away_pauses_deadlines

    async def set_prefs(self, user_xid: int, *, timezone_name: str | None = None, quiet: str | None = None,
                        dm_reminders: bool | None = None, dm_turns: bool | None = None) -> Prefs:
        prefs = await self.prefs(user_xid)
        if timezone_name is not None:
            zone(timezone_name)
            prefs = replace(prefs, timezone=timezone_name.strip())
        if quiet is not None:
            window = parse_quiet(quiet)
            prefs = replace(prefs, quiet_start=window[0] if window else None,
                            quiet_end=window[1] if window else None)
        if dm_reminders is not None:
            prefs = replace(prefs, dm_reminders=dm_reminders)
        if dm_turns is not None:
            prefs = replace(prefs, dm_turns=dm_turns)
        await self.db.set_prefs(user_xid, prefs.to_json())
        await self.db.reschedule_user(user_xid, self.now)
        return prefs

    async def mine(self, guild_xid: int, user_xid: int) -> list[MineEntry]:
        """Every game on the server waiting for this player, longest waiting first."""
        out = []
        for game in await self.service.store.list_games(guild_xid=guild_xid, statuses=("active",),
                                                        user_xid=user_xid, limit=200):
            info = await self.service.info(game.id)
            seat = info.seat_of(user_xid)
            if seat is None or seat.is_ai or seat.seat not in info.awaiting:
                continue
            wait = await self.db.wait(game.id, seat.seat)
            settings = await self._settings(info.game)
            others = any(s.user_xid is not None and not s.is_ai and s.seat != seat.seat for s in info.seats)
            since = wait.since if wait is not None else (game.awaiting_since or game.updated_at)
            deadline = deadline_at(wait, settings, others) if wait is not None else None
            if wait is not None and wait.deadline_state != "pending":
                deadline = None
            out.append(MineEntry(info, seat.seat, since, deadline,
                                 wait.snoozed_until if wait is not None else None))
        out.sort(key=lambda e: e.since)
        return out

    # -- settings ----------------------------------------------------------------------------
    async def settings_for(self, game_id: int) -> Settings:
        return await self._settings((await self.service.info(game_id)).game)

    async def server_settings(self, guild_xid: int) -> Settings:
        return merge_settings(await self.db.settings("guild", guild_xid))

    async def update_settings(self, guild_xid: int, changes: Mapping[str, Any], *,
                              game_id: int | None = None) -> Settings:
        """Change the server's settings, or (``game_id``) one game's overrides. Permission checks
        are the caller's (admins for the server; host or admins for a game)."""
        current_guild = await self.db.settings("guild", guild_xid)
        checked = {name: check_setting(name, value) for name, value in changes.items()}
        if game_id is None:
            data = {**current_guild, **checked}
            merged = merge_settings(data)
            if merged.reminder_hours < merged.min_reminder_hours:
                raise CommunityError("community.error.reminder_too_often",
                                     hours=_num(merged.min_reminder_hours))
            await self.db.set_settings("guild", guild_xid, data)
            await self.db.reschedule_guild(guild_xid, self.now)
            return merged
        server_only = [n for n in checked if not SETTING_SPECS[n].per_game]
        if server_only:
            raise CommunityError("community.error.server_only", setting=server_only[0])
        own = {**await self.db.settings("game", game_id), **checked}
        merged = merge_settings(current_guild, own)
        if merged.reminder_hours < merge_settings(current_guild).min_reminder_hours:
            raise CommunityError("community.error.reminder_too_often",
                                 hours=_num(merge_settings(current_guild).min_reminder_hours))
        await self.db.set_settings("game", game_id, own)
        await self.db.reschedule_game(game_id, self.now)
        return merged

    # -- undo --------------------------------------------------------------------------------
    async def propose_undo(self, game_id: int, user_xid: int) -> UndoProposal:
        """Propose taking back the player's own last move. With no other human to ask, it is taken
        back at once (``done``); else every other human must accept (:meth:`answer_undo`)."""
        seat, move, version = await self.service.undo_preview(game_id, user_xid)
        info = await self.service.info(game_id)
        summary = await self._describe_last(info)
        voters = [s.user_xid for s in info.seats
                  if s.user_xid is not None and not s.is_ai and s.user_xid != user_xid]
        if not voters:
            info = await self.service.undo(game_id, user_xid, version)
            await self.sync_game(game_id)
            return UndoProposal(game_id, version, seat, move, [], summary, True, info)
        existing = await self.db.undo(game_id, version)
        if existing is not None:
            raise CommunityError("community.error.undo_pending")
        row = UndoRow(game_id=game_id, version=version, proposer_xid=user_xid, seat=seat, move=move,
                      voters=voters, created_at=self.now, status="open", message_xid=None,
                      channel_xid=info.game.channel_xid)
        if not await self.db.create_undo(row):
            raise CommunityError("community.error.undo_pending")
        return UndoProposal(game_id, version, seat, move, voters, summary, False, info)

    async def _describe_last(self, info: GameInfo) -> tuple[str, dict[str, Any]]:
        moves = await self.service.store.moves(info.id)
        if not moves:
            return ("move.generic", {"player": "?"})
        last = moves[-1]
        rules = games.rules(info.game.kind)
        before = (await self.service.snapshot(info.id, last.version - 1)).state
        after = (await self.service.snapshot(info.id)).state
        key, params = rules.describe(before, last.seat, last.move, after)
        return key, {"player": info.name(last.seat), **params}

    async def set_undo_message(self, game_id: int, version: int, channel_xid: int | None,
                               message_xid: int) -> None:
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
        await self.sync_game(game_id)
        return UndoAnswer(proposal, "accepted", answers, info)

    # -- followers ---------------------------------------------------------------------------
    async def _guild_game(self, guild_xid: int | None, game_id: int) -> GameInfo:
        info = await self.service.info(game_id)
        if guild_xid is not None and info.game.guild_xid != guild_xid:
            raise errors.UnknownGame(game=game_id)
        return info

    async def follow(self, guild_xid: int | None, game_id: int, user_xid: int) -> GameInfo:
        info = await self._guild_game(guild_xid, game_id)
        if info.game.status not in store.LIVE_STATUSES:
            raise errors.GameOver()
        if not await self.db.follow(game_id, user_xid, self.now):
            raise CommunityError("community.error.already_following", game=game_id)
        return info

    async def unfollow(self, guild_xid: int | None, game_id: int, user_xid: int) -> GameInfo:
        info = await self._guild_game(guild_xid, game_id)
        if not await self.db.unfollow(game_id, user_xid):
            raise CommunityError("community.error.not_following", game=game_id)
        return info

    async def followers(self, info: GameInfo, finished: bool = False) -> list[int]:
        """Mention provider: a game's followers, on its turns and at its end."""
        del finished
        return await self.db.followers(info.id)

    # -- history, replay, export -------------------------------------------------------------
    async def history(self, guild_xid: int, *, channel_xid: int | None = None, user_xid: int | None = None,
                      limit: int = 15) -> list[GameInfo]:
        """Finished and abandoned games of a channel or a player on the server, newest first."""
        games = await self.service.store.list_games(
            guild_xid=guild_xid, statuses=("finished", "abandoned"), channel_xid=channel_xid,
            user_xid=user_xid, limit=limit)
        return [await self.service.info(g.id) for g in games]

    async def replay(self, guild_xid: int | None, game_id: int, turn: int | None = None) -> ReplayFrame:
        """The public board after ``turn`` moves (default: the last), rebuilt from the move log."""
        info = await self._guild_game(guild_xid, game_id)
        if info.game.status == "lobby":
            raise errors.NotInLobby("error.not_started")
        moves = await self.service.store.moves(game_id)
        turns = len(moves)
        if turn is None:
            turn = turns
        if not 0 <= turn <= turns:
            raise CommunityError("community.error.bad_turn", turns=turns)
        version = moves[turn - 1].version if turn else 0
        snap = await self.service.snapshot(game_id, version)
        summary = None
        seat: int | None = None
        if turn:
            row = moves[turn - 1]
            seat = row.seat if row.seat >= 0 else None
            rules = games.rules(info.game.kind)
            before_version = moves[turn - 2].version if turn > 1 else 0
            before = (await self.service.snapshot(game_id, before_version)).state
            key, params = rules.describe(before, row.seat, row.move, snap.state)
            summary = (key, {"player": info.name(row.seat) if row.seat >= 0 else "-", **params})
        return ReplayFrame(info, turn, turns, version, snap.state, snap.view(None), seat, summary)

    async def replay_states(self, game_id: int) -> list[dict[str, Any]]:
        """The state JSON after each live move (index 0: the set-up), rebuilt from the log alone."""
        info = await self.service.info(game_id)
        rules = games.rules(info.game.kind)
        state = rules.setup(info.game.options, len(info.seats), info.game.seed)
        out = [rules.to_json(state)]
        for row in await self.service.store.moves(game_id):
            state = rules.apply(state, row.seat, row.move)
            out.append(rules.to_json(state))
        return out

    async def export(self, guild_xid: int | None, game_id: int) -> dict[str, Any]:
        """The whole game as JSON, in the format ``python -m bot local --replay FILE`` reads.

        Finished and abandoned games only: the seed and log of a game in play would reveal its
        hidden information (tile order, other hands).
        """
        info = await self._guild_game(guild_xid, game_id)
        if info.game.status not in ("finished", "abandoned"):
            raise CommunityError("community.error.export_live")
        g = info.game
        moves = await self.service.store.moves(game_id)
        return {
            "format": "citybuilders-game/1",
            "id": g.id,
            "game": g.kind,
            "options": g.options,
            "seed": g.seed,
            "status": g.status,
            "seats": [{"seat": s.seat, "name": s.name, "ai": s.ai_level, "resigned": s.resigned}
                      for s in info.seats],
            "moves": [{"version": m.version, "seat": m.seat, "move": m.move, "at": m.at} for m in moves],
            "result": g.result,
            "created_at": g.created_at,
            "started_at": g.started_at,
            "finished_at": g.finished_at,
        }

    # -- leagues -----------------------------------------------------------------------------
    async def create_league(self, guild_xid: int, name: str, kind: str, *, mode: str | None = None,
                            rated: bool = False, forfeits: str = "loss", abandoned: str = "ignore",
                            season_days: int = 90, created_by: int | None = None) -> cstore.LeagueRow:
        name = name.strip()
        if not 1 <= len(name) <= NAME_LIMIT:
            raise CommunityError("community.error.league_name", limit=NAME_LIMIT)
        rules = games.rules(kind)
        if mode:
            spec = rules.option_specs[0] if rules.option_specs else None
            if spec is None or mode not in spec.choices:
                raise CommunityError("community.error.bad_mode", mode=mode,
                                     choices=", ".join(spec.choices) if spec else "-")
        if forfeits not in FORFEIT_RULES or abandoned not in ABANDON_RULES:
            raise CommunityError("community.error.generic")
        if not 1 <= season_days <= 3660:
            raise CommunityError("community.error.season_days")
        now = self.now
        league = await self.db.create_league(
            guild_xid=guild_xid, name=name, kind=kind, mode=mode or None, rated=rated, forfeits=forfeits,
            abandoned=abandoned, created_by=created_by, at=now, season_ends=now + season_days * DAY_MS)
        if league is None:
            raise CommunityError("community.error.league_exists", name=name)
        return league

    async def leagues(self, guild_xid: int) -> list[tuple[cstore.LeagueRow, int]]:
        """The server's leagues with their number of members."""
        return [(lg, len(await self.db.members(lg.id))) for lg in await self.db.leagues(guild_xid)]

    async def edit_league(self, guild_xid: int, name: str, *, rated: bool | None = None,
                          forfeits: str | None = None, abandoned: str | None = None) -> cstore.LeagueRow:
        """Change a league's rules; the standings follow at once (they are computed on demand)."""
        league = await self.league(guild_xid, name)
        if (forfeits is not None and forfeits not in FORFEIT_RULES) or (
                abandoned is not None and abandoned not in ABANDON_RULES):
            raise CommunityError("community.error.generic")
        changes = {k: v for k, v in {"rated": rated, "forfeits": forfeits, "abandoned": abandoned}.items()
                   if v is not None}
        await self.db.update_league(league.id, **changes)
        return await self.league(guild_xid, name)

    async def league(self, guild_xid: int, name: str) -> cstore.LeagueRow:
        league = await self.db.league_by_name(guild_xid, name.strip())
        if league is None:
            raise CommunityError("community.error.no_league", name=name)
        return league

    async def join_league(self, guild_xid: int, name: str, user_xid: int, display: str) -> cstore.LeagueRow:
        league = await self.league(guild_xid, name)
        if not await self.db.add_member(league.id, user_xid, display[:64], self.now):
            raise CommunityError("community.error.already_member", name=league.name)
        return league

    async def leave_league(self, guild_xid: int, name: str, user_xid: int) -> cstore.LeagueRow:
        league = await self.league(guild_xid, name)
        if not await self.db.remove_member(league.id, user_xid):
            raise CommunityError("community.error.not_member", name=league.name)
        return league

    async def new_season(self, guild_xid: int, name: str, days: int) -> cstore.SeasonRow:
        """Start the next season now (the running one ends now)."""
        if not 1 <= days <= 3660:
            raise CommunityError("community.error.season_days")
        league = await self.league(guild_xid, name)
        now = self.now
        return await self.db.add_season(league.id, starts_at=now, ends_at=now + days * DAY_MS,
                                        close_running_at=now)

    async def season(self, league: cstore.LeagueRow, number: int | None = None) -> cstore.SeasonRow:
        """A season by number, else the one running now, else the latest."""
        seasons = await self.db.seasons(league.id)
        if number is not None:
            for s in seasons:
                if s.number == number:
                    return s
            raise CommunityError("community.error.no_season", number=number, name=league.name)
        now = self.now
        for s in seasons:
            if s.starts_at <= now < s.ends_at:
                return s
        return seasons[-1]

    async def _count(self, league: cstore.LeagueRow, info: GameInfo) -> bool:
        g = info.game
        if g.guild_xid != league.guild_xid or g.kind != league.kind or g.finished_at is None:
            return False
        if league.mode is not None:
            rules = games.rules(g.kind)
            spec = rules.option_specs[0] if rules.option_specs else None
            if spec is None or g.options.get(spec.name) != league.mode:
                return False
        season = next((s for s in await self.db.seasons(league.id)
                       if s.starts_at <= g.finished_at < s.ends_at), None)
        if season is None:
            return False
        outcome = league_outcome(league, info, await self.db.members(league.id))
        if outcome is None:
            return False
        return await self.db.record_league_game(cstore.LeagueGameRow(
            league.id, season.id, g.id, g.finished_at, outcome))

    async def catch_up(self, league: cstore.LeagueRow, season: cstore.SeasonRow) -> int:
        """Count finished games a listener missed (the bot stopped at the wrong moment)."""
        counted = await self.db.counted_game_ids(league.id)
        found = 0
        ids = await self.db.finished_games(league.guild_xid, league.kind, season.starts_at, season.ends_at)
        for game_id in [i for i in ids if i not in counted][:LEAGUE_CATCH_UP_LIMIT]:
            if await self._count(league, await self.service.info(game_id)):
                found += 1
        return found

    async def table(self, guild_xid: int, name: str, season_number: int | None = None) -> Table:
        league = await self.league(guild_xid, name)
        season = await self.season(league, season_number)
        await self.catch_up(league, season)
        games = await self.db.league_games(league.id, season.id)
        members = await self.db.members(league.id)
        return Table(league, season, standings(games, members, rated=league.rated), len(games))

    async def profile(self, guild_xid: int, name: str, user_xid: int,
                      season_number: int | None = None) -> Profile:
        table = await self.table(guild_xid, name, season_number)
        position = next((i + 1 for i, s in enumerate(table.standings) if s.user_xid == user_xid), None)
        standing = table.standings[position - 1] if position is not None else None
        history = []
        for g in reversed(await self.db.league_games(table.league.id, table.season.id)):
            mine = next((o for o in g.outcome if o["user"] == user_xid), None)
            if mine is not None:
                history.append({"game": g.game_id, "finished_at": g.finished_at, "rank": mine["rank"],
                                "players": len(g.outcome), "forfeit": mine.get("forfeit", False)})
        return Profile(table.league, table.season, standing, position, history)

    # -- privacy -----------------------------------------------------------------------------
    async def delete_user_data(self, user_xid: int) -> int:
        return await self.db.delete_user_data(user_xid)


# =============================================================================================
# League arithmetic (pure)
# =============================================================================================


def league_outcome(league: cstore.LeagueRow, info: GameInfo,
                   members: Mapping[int, str]) -> list[dict[str, Any]] | None:
    """The members' finishing order in a game, or None when the game does not count.

    Counts when every human seat belongs to a member and at least two members played. Abandoned
    games: ignored, or (league rule ``draw``) a shared first place. A resigned member ranks below
    every member who did not resign (rule ``loss``), or the game is ignored (``ignore``). A seat the
    AI took over at a deadline still counts for its member.
    """
    g = info.game
    humans = [s for s in info.seats if s.user_xid is not None]
    if any(s.user_xid not in members for s in humans) or len(humans) < 2:
        return None
    if g.status == "abandoned":
        if league.abandoned != "draw":
            return None
        return [{"user": s.user_xid, "seat": s.seat, "rank": 1, "forfeit": False} for s in humans]
    if g.status != "finished" or not g.result:
        return None
    by_seat = {int(r["seat"]): r for r in g.result.get("seats", [])}
    resigned = {s.seat for s in humans
                if s.resigned or bool((by_seat.get(s.seat) or {}).get("details", {}).get("forfeit"))}
    if resigned and league.forfeits == "ignore":
        return None
    keys = []
    for s in humans:
        rank = int((by_seat.get(s.seat) or {}).get("rank", len(info.seats)))
        keys.append((1 if s.seat in resigned else 0, rank if s.seat not in resigned else 0))
    ranks = core.competition_ranks([(-a, -b) for a, b in keys])
    return [{"user": s.user_xid, "seat": s.seat, "rank": r, "forfeit": s.seat in resigned}
            for s, r in zip(humans, ranks)]


def standings(games: Sequence[cstore.LeagueGameRow], members: Mapping[int, str], *,
              rated: bool) -> list[Standing]:
    """Members' standings from counted games, ratings by openskill's Plackett-Luce model (made for
    free-for-all games) fed with each game's finishing order, in finishing order. Players who left
    the league still count in the games they played (so nobody's rating changes when they leave);
    only current members are listed.

    Rated leagues sort by the conservative rating (mu - 3 sigma), then wins; unrated leagues by
    wins, then average place, then games played.
    """
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    games_played: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    places: Counter[int] = Counter()
    for g in games:
        order = list(g.outcome)  # everyone who played counts, even a member who left since
        if len(order) < 2:
            continue
        teams = [[ratings.get(o["user"]) or model.rating(name=str(o["user"]))] for o in order]
        rated_teams = model.rate(teams, ranks=[o["rank"] for o in order])
        for o, team in zip(order, rated_teams):
            ratings[o["user"]] = team[0]
            games_played[o["user"]] += 1
            places[o["user"]] += o["rank"]
            if o["rank"] == 1:
                wins[o["user"]] += 1
    out = []
    for user, name in members.items():
        r = ratings.get(user) or model.rating()
        out.append(Standing(user, name, games_played[user], wins[user], places[user], float(r.mu),
                            float(r.sigma)))
    if rated:
        out.sort(key=lambda s: (-s.ordinal, -s.wins, s.name.lower()))
    else:
        out.sort(key=lambda s: (-s.wins, s.average_place if s.games else 99.0, -s.games, s.name.lower()))
    return out
