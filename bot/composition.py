"""The composition root: the one place that builds the store, the service and every feature, and
subscribes each feature to the service exactly once.

Front-ends (the Discord cogs, the benches, the tests) receive these objects from :class:`App`; they
never construct a feature themselves, so no feature can be left unsubscribed (a feature that never
heard of a privacy request kept the player's id: issue 12).

Subscriptions, in order:

- after every committed move: the reminder loop (waits follow the turn), then undo proposals
  (older ones expire);
- when a game ends by any path: the reminder loop (waits and votes close), undo proposals, leagues
  (count it), Between Two Cities campaigns (count it), then the after-game analysis (queue it, as the
  server's ``analysis`` setting says: after the leagues, so a league game is known as one);
- on a privacy request (:meth:`bot.service.Service.forget_user`, after the service anonymised the
  player's seats): every feature's ``forget_user``, each returning the records it changed;
- when the bot records a turn post's id (:meth:`bot.service.Service.set_messages`): erasure keeps it.

A privacy request is :meth:`App.forget`: erasure plans the edits of the bot's posts that name the player
(before they are forgotten), the service and every feature forget them, the plan is queued for the
background edits, and the store scrubs the old bytes from the disk (:mod:`bot.community.erasure`).
"""

from __future__ import annotations

import secrets
import weakref
from dataclasses import dataclass

from bot.btc_campaigns import Campaigns
from bot.community.analyses import Analyses
from bot.community.base import Feature
from bot.community.clocks import Clocks
from bot.community.erasure import Erasure, Forgotten
from bot.community.followers import Followers
from bot.community.history import History
from bot.community.leagues import Leagues
from bot.community.reminders import Reminders
from bot.community.sessions import Sessions
from bot.community.settings import Preferences
from bot.community.undo import Undo
from bot.community.votes import Votes
from bot.service import Clock, Service
from bot.settings import Settings
from bot.store import Store
from bot.store.btc_campaigns import CampaignStore
from bot.store.community.analyses import AnalysisStore
from bot.store.community.clocks import ClockStore
from bot.store.community.erasure import ErasureStore
from bot.store.community.followers import FollowerStore
from bot.store.community.leagues import LeagueStore
from bot.store.community.outbox import OutboxStore
from bot.store.community.reminders import WaitStore
from bot.store.community.settings import SettingsStore
from bot.store.community.undo import UndoStore
from bot.store.community.votes import VoteStore
from bot.store.engine import POSTGRES
from bot.store.leases import LeaseStore
from bot.store.sessions import SessionStore
from bot.turnflow import SilentAnnouncer, TurnFlow

SERVICE_PERSONAL_COLUMNS = ("seats.user_xid", "seats.name", "games.host_xid", "moves.actor_xid")
"""Columns of the service's own tables (migration 001) that hold a player's id or name; the service
clears them (:meth:`bot.store.Store.delete_user_data`)."""

_composed: weakref.WeakSet[Service] = weakref.WeakSet()


class AlreadyComposed(RuntimeError):
    """A service's features were built twice: each would be subscribed twice."""


@dataclass(frozen=True)
class App:
    """Everything the front-ends use, built once."""

    store: Store
    service: Service
    preferences: Preferences
    reminders: Reminders
    votes: Votes
    undo: Undo
    history: History
    followers: Followers
    leagues: Leagues
    campaigns: Campaigns
    flow: TurnFlow
    """What happens after a move; its announcer is the front-end's (the Discord game cog sets itself)."""
    erasure: Erasure
    """Forget-me's edits of the bot's own posts (it holds no player's id or name: not a feature)."""
    sessions: Sessions
    """Who is signed in on the web pages (sessions, sign-in links; forget-me ends them)."""
    analyses: Analyses
    """The after-game analysis: its queue and worker pool (results by seat: no player's id or name, not a feature)."""
    clocks: Clocks
    """The players' time banks (issue 41), computed from committed records (it keeps no id of its own)."""

    @property
    def features(self) -> tuple[Feature, ...]:
        """Every feature, in the order they forget a player."""
        return (
            self.preferences,
            self.reminders,
            self.votes,
            self.undo,
            self.history,
            self.followers,
            self.leagues,
            self.campaigns,
            self.sessions,
        )

    @property
    def personal_columns(self) -> tuple[str, ...]:
        """``table.column`` of every column forget-me clears (the service's and each feature's)."""
        return SERVICE_PERSONAL_COLUMNS + tuple(c for f in self.features for c in f.personal_columns)

    @property
    def personal_tables(self) -> tuple[str, ...]:
        """The tables of :attr:`personal_columns` (vacuumed after a forget-me on PostgreSQL)."""
        return tuple(dict.fromkeys(c.partition(".")[0] for c in self.personal_columns))

    async def forget(self, user_xid: int) -> Forgotten:
        """A privacy request: the edits of the bot's posts naming the player are planned, the service
        anonymises their seats and every feature forgets them, the edits are queued for the background
        loop, and the old bytes are scrubbed from the disk. NotAllowed (``privacy.incomplete``) when a
        part could not forget them: then nothing is edited (the plan is never queued)."""
        request, edits, beyond = await self.erasure.plan(user_xid)
        try:
            changed = await self.service.forget_user(user_xid)
            await self.erasure.queue(request)
        finally:
            await self.store.scrub(self.personal_tables)
        return Forgotten(changed, edits, beyond)

    async def forget_user(self, user_xid: int) -> int:
        """:meth:`forget`, returning the records changed, all together."""
        return (await self.forget(user_xid)).changed

    async def close(self) -> None:
        await self.store.close()


def compose(service: Service, *, boot: str | None = None, ai_pause: float = 0.0, analysis_workers: int = 1) -> App:
    """Build every feature over an existing service and subscribe each once (AlreadyComposed if
    this service already has its features)."""
    if service in _composed:
        raise AlreadyComposed("the features of this service were built already")
    _composed.add(service)
    db = service._store  # the composition root, with the service, is the one place that holds the store
    boot = boot or secrets.token_hex(6)
    waits, outbox = WaitStore(db), OutboxStore(db)
    preferences = Preferences(service, SettingsStore(db), waits)
    votes = Votes(service, preferences, VoteStore(db), waits, outbox, boot=boot)
    clocks = Clocks(service, ClockStore(db), preferences, waits)
    reminders = Reminders(service, preferences, votes, waits, outbox, boot=boot, clocks=clocks)
    app = App(
        store=db,
        service=service,
        preferences=preferences,
        reminders=reminders,
        votes=votes,
        undo=Undo(service, reminders, UndoStore(db), outbox),
        history=History(service),
        followers=Followers(service, FollowerStore(db)),
        leagues=Leagues(service, LeagueStore(db)),
        campaigns=Campaigns(service, CampaignStore(db)),
        flow=TurnFlow(
            service,
            SilentAnnouncer(),
            ai_pause=ai_pause,
            owner=boot,
            leases=LeaseStore(db) if db.dialect == POSTGRES else None,
        ),
        erasure=Erasure(service, ErasureStore(db), boot=boot),
        sessions=Sessions(service, SessionStore(db)),
        analyses=Analyses(service, preferences, AnalysisStore(db), boot=boot, workers=analysis_workers),
        clocks=clocks,
    )
    reminders.rated = app.leagues.rated
    clocks.league_clock = app.leagues.clock_of
    service.move_listeners.extend((app.reminders.on_move, app.undo.on_move))
    service.end_listeners.extend((app.reminders.on_end, app.undo.on_end, app.leagues.on_end, app.campaigns.on_end))
    service.end_listeners.append(app.analyses.on_end)  # after the leagues: a league game is counted by then
    service.forget_listeners.extend(f.forget_user for f in app.features)
    service.post_recorders.append(app.erasure.posts_of)
    return app


async def build(settings: Settings, clock: Clock | None = None, *, boot: str | None = None) -> App:
    """Open the database named by the settings (``DATABASE_URL``, else the SQLite file), then the
    service and every feature over it."""
    db = await Store.open(settings.database, pool_size=settings.pool_size)
    db.lease_ms = settings.lease_seconds * 1000
    try:
        return compose(
            Service(db, clock),
            boot=boot,
            ai_pause=settings.ai_pause_seconds,
            analysis_workers=settings.analysis_workers,
        )
    except BaseException:
        await db.close()
        raise
