"""The Discord bot object: opens the store, adds the cogs, syncs commands, routes errors. The Discord
front-end's composition root (the core's is :mod:`bot.composition`); ``python -m bot`` runs it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import drain, health
from bot.composition import App, build
from bot.i18n import normalise_locale, t
from bot.rules.core import GameError
from bot.service import Clock, Service
from bot.settings import Settings
from bot.store import Store
from bot.turnflow import TurnFlow
from bot.web.activity import Activity
from bot.web.links import Links, signing_key
from bot.web.oauth import OAuth
from bot.web.server import WebServer
from cogs import activity, community, operations
from cogs.announcer import DiscordAnnouncer, announcer
from cogs.channels import PermissionWatch
from cogs.commandlinks import LINKS
from cogs.game import GameCog
from cogs.games import game_cogs, offer_every_game
from cogs.limits import refusal
from cogs.router import ComponentRouter
from cogs.translator import CatalogueTranslator

log = logging.getLogger(__name__)


class CityTree(app_commands.CommandTree):
    """discord.py's command tree, keeping each command's task so that a graceful stop waits for it
    (``_from_interaction`` is discord.py's own, plus :meth:`bot.drain.Drain.track`)."""

    def _from_interaction(self, interaction: discord.Interaction) -> None:
        async def wrapper() -> None:
            try:
                await self._call(interaction)
            except app_commands.AppCommandError as e:
                await self._dispatch_error(interaction, e)

        task = self.client.loop.create_task(wrapper(), name="CommandTree-invoker")
        gate = getattr(self.client, "drain", None)
        if gate is not None:
            gate.track(task)


class CityBot(commands.AutoShardedBot):
    """The bot. ``app`` (every feature, from the composition root), ``service`` and ``store`` exist
    once ``setup_hook`` has run; cogs take what they need from them.

    Sharded: ``SHARD_COUNT`` / ``SHARD_IDS`` let several processes split the gateway (each runs its
    shards over one database); without them discord.py asks Discord how many shards to run here."""

    app: App
    service: Service
    store: Store
    flow: TurnFlow

    def __init__(self, settings: Settings, *, clock: Clock | None = None, sync_commands: bool = True) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=CityTree,
            **shards,
        )
        self.settings = settings
        self.drain = drain.Drain()
        """The interactions in flight; closed by :meth:`stop`, after which new ones get a sentence."""
        parsers = self._connection.parsers
        self._parse_interaction = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._gate_interaction
        self._heartbeat: asyncio.Task[None] | None = None
        self.web: WebServer | None = None
        """The pages' server once started (:meth:`start_web`)."""
        self._set_up = asyncio.Event()
        """Set once :meth:`setup_hook` is done (a stop waits for it: the commands' sync then ends first)."""
        self._clock = clock
        self._sync_commands = sync_commands
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.component_routes: dict[str, Callable[[discord.Interaction, str, dict[str, Any]], Awaitable[None]]] = {}
        """custom_id prefix (before the first ':') -> handler, for components other cogs post.
        A handler raises GameError or cogs.ids.ForgedId to refuse; the game cog answers with a sentence."""
        self.mention_providers: list[Callable[[Any, bool, Any], Awaitable[list[int]]]] = []
        """(GameInfo, finished, the MoveOutcome told or None) -> extra user ids to mention on a turn message
        (followers...)."""
        self.web_links = Links("", b"")
        """The web pages' signed links (``cogs.weblinks``); none until :meth:`setup_hook` reads the key, and
        none at all without ``WEB_BASE_URL``."""

    async def setup_hook(self) -> None:
        self.app = await build(self.settings, self._clock)
        self.store = self.app.store
        self.service = self.app.service
        self.flow = self.app.flow
        if self.settings.web_base_url or self.settings.web_port is not None:
            # One signing key, read (or made and kept) once: the buttons' links and the pages' checks.
            self.web_links = Links(self.settings.web_base_url, await signing_key(self.settings.web_secret, self.store))
        count, ids = self.settings.shard_count, self.settings.shard_ids
        if count is not None and ids is not None:
            # After a restart this process resumes the games of its own shards' servers; the other
            # processes' games are theirs (taken over only when their leases run out).
            self.flow.mine = lambda guild_xid: guild_xid is None or (guild_xid >> 22) % count in ids
        # Added as classes (never loaded by a module name): a cog is found by its type (cogs.announcer).
        for cog in (DiscordAnnouncer(self), ComponentRouter(self), GameCog(self), PermissionWatch(self)):
            await self.add_cog(cog)
        await community.setup(self)  # their /game subcommands join the /game group
        for game_cog in game_cogs():
            await self.add_cog(game_cog(self))
        offer_every_game(self.tree)
        await self.tree.set_translator(CatalogueTranslator())
        if self._sync_commands:
            await self.sync_commands()
        await self.flow.resume()  # announce what was never told, then let the AI play on
        await self.start_web()
        self._heartbeat = asyncio.create_task(
            health.beat(
                health.health_path(self.settings.database_path),
                self.gateway_connected,
                lambda: self.store.fetch_one("SELECT 1"),
            ),
            name="heartbeat",
        )
        self._set_up.set()

    async def start_web(self) -> None:
        """The game, league and player pages (:mod:`bot.web`), unless ``WEB_PORT`` is ``off``. A port that
        cannot be opened is logged and the bot plays on without its pages."""
        if self.settings.web_port is None:
            return
        oauth = None
        if self.settings.discord_client_id and self.settings.discord_client_secret:
            api = discord.http.Route.BASE  # Discord's API (a test's fake Discord points it at itself)
            oauth = OAuth(
                self.settings.discord_client_id,
                self.settings.discord_client_secret,
                authorize_url=api.rsplit("/api/", 1)[0] + "/oauth2/authorize",
                api_url=api,
            )
        board_activity = None
        if oauth is not None and self.settings.activity:  # the board as an Activity (issue 39)
            board_activity = Activity(oauth, lambda instance_id: activity.instance(self, instance_id))
        server = WebServer(
            self.app,
            self.web_links,
            host=self.settings.web_host,
            port=self.settings.web_port,
            trusted_proxies=self.settings.trusted_proxies,
            extra_routes=oauth.routes if oauth is not None else None,
            activity=board_activity,
        )
        try:
            await server.start()
        except OSError as exc:
            log.error(
                "web pages not served: %s:%s cannot be opened (%s)",
                self.settings.web_host,
                self.settings.web_port,
                exc.strerror or exc,
            )
            await server.stop()
            return
        self.web = server

    async def sync_commands(self) -> None:
        """Dev guild: instant sync there; otherwise global (Discord may take a while to show them)."""
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            if self.settings.activity:  # the App Launcher's Entry Point is global only
                await activity.add_entry_point(self.http, self.application_id or 0)
        elif self.settings.activity:  # the Entry Point command beside the slash commands (issue 39)
            synced = await activity.sync_global(self.tree, self.http, self.application_id or 0)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        LINKS.learn({c.name: c.id for c in synced}, [c.qualified_name for c in self.tree.walk_commands()])

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """One handler: every domain error becomes an ephemeral sentence; the rest is logged."""
        loc = normalise_locale(interaction.locale)
        original = getattr(error, "original", error)
        if isinstance(original, GameError):
            text = refusal(original, loc)
        elif isinstance(error, app_commands.CheckFailure):
            text = t("error.not_allowed", loc)
        elif isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
            text = t("error.bad_input", loc)
        else:
            log.error("command failed", exc_info=original)
            text = t("error.internal", loc)
        await operations.reply(interaction, text)

    async def dm_closed(self, user_xid: int) -> None:
        """Discord refused a DM (the user's DMs are closed): DM preferences off, a notice waits."""
        await self.app.preferences.dms_closed(user_xid)

    async def channel_lost(self, channel_xid: int) -> None:
        """A channel or thread is gone (Discord 10003): its game, if any, pauses."""
        try:
            info = await self.service.game_in_channel(channel_xid)
        except GameError:
            return
        await announcer(self).lost_channel(info)

    async def notice_for(self, interaction: discord.Interaction) -> str | None:
        """The notice waiting for this user, once (see :func:`cogs.operations.give_notice`)."""
        app = getattr(self, "app", None)
        if app is None or not await app.preferences.take_dms_closed_notice(interaction.user.id):
            return None
        return t("community.notice.dms_closed", normalise_locale(interaction.locale))

    # -- a graceful stop and health (bot.drain, bot.health) ------------------------------------
    def _gate_interaction(self, data: Any) -> None:
        """Every interaction passes here first: while the bot runs it goes on to discord.py; once a stop
        began it is refused with a sentence (an autocomplete gets no answer) and nothing runs."""
        if self.drain.accepting:
            self.drain.accepted += 1
            self._parse_interaction(data)
            return
        self.drain.refused += 1
        if data.get("type") != 4:
            self.drain.track(asyncio.ensure_future(self._refuse_stopping(data)))

    async def _refuse_stopping(self, data: Any) -> None:
        interaction = discord.Interaction(data=data, state=self._connection)
        await operations.reply(interaction, t("error.restarting", normalise_locale(interaction.locale)))

    def _schedule_event(
        self, coro: Callable[..., Coroutine[Any, Any, Any]], event_name: str, *args: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        task = super()._schedule_event(coro, event_name, *args, **kwargs)
        if event_name == "on_interaction":
            self.drain.track(task)  # a click's handler: a stop waits for it
        return task

    def _launched(self) -> bool:
        """Whether discord.py has connected every shard of this process. It fills ``shard_ids`` once the
        gateway's address came, and until then they are empty: no shard to launch yet is not every shard
        launched (a stop in that moment closed the client under the launch, and discord.py logged a
        traceback as it retried)."""
        ids = getattr(self._connection, "shard_ids", None)
        return ids is not None and len(ids) > 0 and len(self.shards) >= len(ids)

    def gateway_connected(self) -> bool:
        """Whether every shard of this process is connected to the gateway."""
        if self.is_closed() or not self.is_ready():
            return False
        shards = self.shards
        return bool(shards) and all(not shard.is_closed() for shard in shards.values())

    async def stop(self, seconds: float) -> None:
        """SIGTERM or SIGINT: refuse new interactions, let those in flight and the AI moves under way
        commit and be announced for at most ``seconds``, hand the rest over (:func:`bot.drain.stop`),
        then close the gateway and the database. A stop during the start lets the set-up and the launch of
        the shards finish first (closing under them leaves discord.py retrying), all within ``seconds``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._set_up.wait(), seconds)
        # discord.py has no event for "every shard launched": look every 50 ms (only during a start).
        while not self._launched() and not self.is_closed() and loop.time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        if getattr(self, "app", None) is not None and not self.is_closed():
            try:
                await drain.stop(self.app, self.drain, max(0.0, deadline - loop.time()))
            except Exception:
                log.exception("stop: the drain failed; closing anyway")
        await self.close()

    async def close(self) -> None:
        if self.web is not None:
            await self.web.stop()
            self.web = None
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(settings: Settings, **kwargs: object) -> CityBot:
    return CityBot(settings, **kwargs)  # type: ignore[arg-type]
