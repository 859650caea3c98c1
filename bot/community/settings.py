"""Settings and preferences: reminder and deadline rules layered defaults <- server <- game, and a
player's own preferences (time zone, quiet hours, DM opt-ins), the same on every server."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import store
from bot.community.base import HOUR_MS, MINUTE_MS, CommunityError, Feature
from bot.community.clock import PRESETS, TimeControl
from bot.service import Service
from bot.store.community import settings as settings_store
from bot.store.community.reminders import WaitStore
from bot.store.community.settings import SettingsStore

log = logging.getLogger(__name__)

ANALYSIS_SCOPES = ("all", "league", "asked")
"""The server setting ``analysis``: which finished games are weighed by themselves (:mod:`bot.community.analyses`)."""
POLICIES = ("vote", "ai_move", "ai_takeover", "forfeit", "none")


@dataclass(frozen=True)
class SettingSpec:
    name: str
    kind: type
    low: float
    high: float
    per_game: bool
    choices: tuple[str, ...] = ()


SETTING_SPECS: dict[str, SettingSpec] = {
    s.name: s
    for s in (
        SettingSpec("reminder_hours", float, 1, 24 * 14, True),
        SettingSpec("deadline_hours", float, 0, 24 * 60, True),
        SettingSpec("timeout_policy", str, 0, 0, True, POLICIES),
        SettingSpec("vote_hours", float, 1, 24 * 7, True),
        SettingSpec("clock", str, 0, 0, True, tuple(PRESETS)),
        SettingSpec("max_reminders", int, 0, 10, False),
        SettingSpec("backoff", float, 1, 4, False),
        SettingSpec("min_reminder_hours", float, 1, 24 * 7, False),
        SettingSpec("daily_reminder_cap", int, 1, 48, False),
        SettingSpec("away_max_days", int, 1, 365, False),
        SettingSpec("away_pauses_deadlines", bool, 0, 1, False),
        SettingSpec("recap_gif", bool, 0, 1, False),
        SettingSpec("analysis", str, 0, 0, False, ANALYSIS_SCOPES),
    )
}


@dataclass(frozen=True)
class Settings:
    """Reminder and deadline rules: defaults, then the server's, then the game's overrides."""

    reminder_hours: float = 12.0
    """First reminder after this long awaited; later ones back off (x ``backoff`` each time)."""
    deadline_hours: float = 72.0
    """The game's speed: one move per this many hours (0: no deadline)."""
    timeout_policy: str = "vote"
    """At the deadline: ``vote`` (the other players decide), ``ai_move``, ``ai_takeover``, ``forfeit`` (in a
    rated league's game the late player forfeits; elsewhere the others vote), ``none``."""
    vote_hours: float = 24.0
    """How long a timeout vote stays open."""
    clock: str = "off"
    """The time control (issue 41), one of :data:`bot.community.clock.PRESETS`: each player's time bank."""
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
    recap_gif: bool = True
    """Server: the end-of-game recap includes the animation of the cities growing (else the chart only)."""
    analysis: str = "all"
    """Server: which finished games are analysed by themselves: ``all``, ``league`` (counted in a league),
    ``asked`` (only when someone asks)."""

    @property
    def reminder_ms(self) -> int:
        return int(self.reminder_hours * HOUR_MS)

    @property
    def deadline_ms(self) -> int | None:
        return int(self.deadline_hours * HOUR_MS) if self.deadline_hours > 0 else None

    @property
    def time_control(self) -> TimeControl:
        return PRESETS.get(self.clock, PRESETS["off"])

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
            raise CommunityError(
                "community.error.bad_choice", setting=name, value=value, choices=", ".join(spec.choices)
            )
        return value
    try:
        converted = spec.kind(value)
    except (TypeError, ValueError):
        raise CommunityError("community.error.bad_number", setting=name, low=spec.low, high=spec.high) from None
    if spec.kind is not bool and not spec.low <= converted <= spec.high:
        raise CommunityError("community.error.bad_number", setting=name, low=_num(spec.low), high=_num(spec.high))
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
    language: str | None = None
    """The language of my direct messages (None: the game's)."""
    dms_closed_notice: bool = False
    """My DMs were found closed and my DM choices turned off; I have not been told yet."""

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


@dataclass
class PassCache:
    """Settings and preferences read once per loop pass."""

    settings: dict[int, Settings] = field(default_factory=dict)
    prefs: dict[int, Prefs] = field(default_factory=dict)


class Preferences(Feature):
    """Server and game settings, player preferences."""

    personal_columns = settings_store.PERSONAL_COLUMNS

    def __init__(self, service: Service, db: SettingsStore, waits: WaitStore) -> None:
        super().__init__(service)
        self.db = db
        self.waits = waits
        """Changing a setting or a preference plans the waits it concerns again."""
        self._notices: set[int] | None = None
        """Players to tell that their DMs are closed (read from the store on first use)."""

    async def of_game(
        self,
        game: store.GameRow,
        cache: PassCache | None = None,
        stored: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
    ) -> Settings:
        """A game's settings: defaults <- its server's <- its own overrides (read once per pass). ``stored``: the
        server's and the game's as a move's own statement read them (``MoveOutcome.settings``), not read again."""
        if cache is not None and game.id in cache.settings:
            return cache.settings[game.id]
        settings = merge_settings(*(stored or await self.db.game_settings(game.guild_xid or 0, game.id)))
        if cache is not None:
            cache.settings[game.id] = settings
        return settings

    async def prefs(self, user_xid: int, cache: PassCache | None = None) -> Prefs:
        if cache is not None and user_xid in cache.prefs:
            return cache.prefs[user_xid]
        prefs = Prefs.from_json(await self.db.prefs(user_xid))
        if cache is not None:
            cache.prefs[user_xid] = prefs
        return prefs

    async def set_prefs(
        self,
        user_xid: int,
        *,
        timezone_name: str | None = None,
        quiet: str | None = None,
        dm_reminders: bool | None = None,
        dm_turns: bool | None = None,
        language: str | None = None,
    ) -> Prefs:
        prefs = await self.prefs(user_xid)
        if timezone_name is not None:
            zone(timezone_name)
            prefs = replace(prefs, timezone=timezone_name.strip())
        if quiet is not None:
            window = parse_quiet(quiet)
            prefs = replace(prefs, quiet_start=window[0] if window else None, quiet_end=window[1] if window else None)
        if dm_reminders is not None:
            prefs = replace(prefs, dm_reminders=dm_reminders)
        if dm_turns is not None:
            prefs = replace(prefs, dm_turns=dm_turns)
        if language is not None:
            prefs = replace(prefs, language=language)
        await self.db.set_prefs(user_xid, prefs.to_json())
        await self.waits.reschedule_user(user_xid, self.now)
        return prefs

    async def dms_closed(self, user_xid: int) -> None:
        """Discord refused a DM to this player (their DMs are closed): stop sending them DMs and tell
        them once, at their next interaction (:meth:`take_dms_closed_notice`)."""
        prefs = await self.prefs(user_xid)
        if self._notices is None:
            self._notices = set(await self.db.users_with_flag("dms_closed_notice"))
        if prefs.dm_reminders or prefs.dm_turns or not prefs.dms_closed_notice:
            await self.db.set_prefs(
                user_xid, replace(prefs, dm_reminders=False, dm_turns=False, dms_closed_notice=True).to_json()
            )
        self._notices.add(user_xid)

    async def take_dms_closed_notice(self, user_xid: int) -> bool:
        """True once after this player's DMs were found closed (then the notice counts as given)."""
        if self._notices is None:
            self._notices = set(await self.db.users_with_flag("dms_closed_notice"))
        if user_xid not in self._notices:
            return False
        self._notices.discard(user_xid)
        prefs = await self.prefs(user_xid)
        await self.db.set_prefs(user_xid, replace(prefs, dms_closed_notice=False).to_json())
        return True

    async def settings_for(self, game_id: int) -> Settings:
        return await self.of_game((await self.service.info(game_id)).game)

    async def server_settings(self, guild_xid: int) -> Settings:
        return merge_settings(await self.db.settings("guild", guild_xid))

    async def update_settings(
        self, guild_xid: int, changes: Mapping[str, Any], *, game_id: int | None = None
    ) -> Settings:
        """Change the server's settings, or (``game_id``) one game's overrides. Permission checks
        are the caller's (admins for the server; host or admins for a game)."""
        current_guild = await self.db.settings("guild", guild_xid)
        checked = {name: check_setting(name, value) for name, value in changes.items()}
        if game_id is None:
            data = {**current_guild, **checked}
            merged = merge_settings(data)
            if merged.reminder_hours < merged.min_reminder_hours:
                raise CommunityError("community.error.reminder_too_often", hours=_num(merged.min_reminder_hours))
            await self.db.set_settings("guild", guild_xid, data)
            await self.waits.reschedule_guild(guild_xid, self.now)
            return merged
        server_only = [n for n in checked if not SETTING_SPECS[n].per_game]
        if server_only:
            raise CommunityError("community.error.server_only", setting=server_only[0])
        own = {**await self.db.settings("game", game_id), **checked}
        merged = merge_settings(current_guild, own)
        if merged.reminder_hours < merge_settings(current_guild).min_reminder_hours:
            raise CommunityError(
                "community.error.reminder_too_often", hours=_num(merge_settings(current_guild).min_reminder_hours)
            )
        await self.db.set_settings("game", game_id, own)
        await self.waits.reschedule_game(game_id, self.now)
        return merged

    async def forget_user(self, user_xid: int) -> int:
        if self._notices is not None:
            self._notices.discard(user_xid)
        return await self.db.forget_user(user_xid)
