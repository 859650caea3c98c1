"""The Discord bot object: opens the store, adds the cogs, syncs commands, routes errors. The Discord
front-end's composition root (the core's is :mod:`bot.composition`); ``python -m bot`` runs it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.composition import App, build
from bot.i18n import normalise_locale, t
from bot.rules.core import GameError
from bot.service import Clock, Service
from bot.settings import Settings
from bot.store import Store
from bot.turnflow import TurnFlow
from cogs import community, operations
from cogs.announcer import DiscordAnnouncer, announcer
from cogs.commandlinks import LINKS
from cogs.game import GameCog
from cogs.games import GAME_COGS
from cogs.limits import refusal
from cogs.router import ComponentRouter
from cogs.translator import CatalogueTranslator

log = logging.getLogger(__name__)



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
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), **shards)
        self.settings = settings
        self._clock = clock
        self._sync_commands = sync_commands
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.component_routes: dict[str, Callable[[discord.Interaction, str, dict[str, Any]],
                                                  Awaitable[None]]] = {}
        """custom_id prefix (before the first ':') -> handler, for components other cogs post.
        A handler raises GameError or cogs.ids.ForgedId to refuse; the game cog answers with a sentence."""
        self.mention_providers: list[Callable[[Any, bool], Awaitable[list[int]]]] = []
        """(GameInfo, finished) -> extra user ids to mention on a turn message (followers...)."""

    async def setup_hook(self) -> None:
        self.app = await build(self.settings, self._clock)
        self.store = self.app.store
        self.service = self.app.service
        self.flow = self.app.flow
        count, ids = self.settings.shard_count, self.settings.shard_ids
        if count is not None and ids is not None:
            # After a restart this process resumes the games of its own shards' servers; the other
            # processes' games are theirs (taken over only when their leases run out).
            self.flow.mine = lambda guild_xid: guild_xid is None or (guild_xid >> 22) % count in ids
        # Added as classes (never loaded by a module name): a cog is found by its type (cogs.announcer).
        for cog in (DiscordAnnouncer(self), ComponentRouter(self), GameCog(self)):
            await self.add_cog(cog)
        await community.setup(self)  # their /game subcommands join the /game group
        for game_cog in GAME_COGS:
            await self.add_cog(game_cog(self))
        await self.tree.set_translator(CatalogueTranslator())
        if self._sync_commands:
            await self.sync_commands()
        await self.flow.resume()  # announce what was never told, then let the AI play on

    async def sync_commands(self) -> None:
        """Dev guild: instant sync there; otherwise global (Discord may take a while to show them)."""
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        LINKS.learn({c.name: c.id for c in synced}, [c.qualified_name for c in self.tree.walk_commands()])

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
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

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(settings: Settings, **kwargs: object) -> CityBot:
    return CityBot(settings, **kwargs)  # type: ignore[arg-type]
