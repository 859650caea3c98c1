"""What the bot remembers about a channel between two requests, so a refusal is not paid for again.

- **Edits an archived thread refused** (Discord 50083): Discord refuses every edit in an archived thread, and
  the bot's next post there unarchives it (unless the thread is locked). An edit that should not be lost (a
  player's private confirmation, the old turn message's controls) waits here and is made again after the
  next successful post in that thread (:func:`after_post`); what cannot be done is logged.
- **A missing Attach Files permission**: once Discord refused a picture in a channel (50013) and took the
  text without it, later posts there go without the picture at once instead of being refused again (each
  refusal counts toward Discord's invalid-request limit). Forgotten when the bot's permissions may have
  changed: a role, channel or bot member update in the server (:class:`PermissionWatch`), an interaction
  whose computed permissions (``app_permissions``) allow Attach Files there, or a restart (nothing is kept
  on disk).
- **The permissions a game needs** in a channel, by their Discord names (:func:`missing_permissions`), and
  the one a refused post lacked (:func:`missing_send_permission`).

Imports nothing of ``cogs``: :mod:`cogs.operations` keeps its notes here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from cogs.app import CityBot

log = logging.getLogger(__name__)

WAITING_EDITS = 25
"""The most edits kept per archived thread; an older one beyond it is dropped (and logged)."""
RETRY_TIMEOUT_SECONDS = 20.0
MISSING_ACCESS = 50001


@dataclass
class Waiting:
    what: str
    """What the edit is, for the log ("message 123", "the answer to interaction 456")."""
    redo: Callable[[], Awaitable[object]]


@dataclass
class Notes:
    """One bot's notes (each bot object has its own; a restart starts with none)."""

    no_attach: dict[int, int | None] = field(default_factory=dict)
    """Channels where Discord refused a picture: channel id -> its server's id (None: not known)."""
    waiting: dict[int, list[Waiting]] = field(default_factory=dict)
    """Edits an archived thread refused, per thread, in the order they were asked for."""


_NOTES: WeakKeyDictionary[discord.Client, Notes] = WeakKeyDictionary()


def notes(bot: discord.Client) -> Notes:
    found = _NOTES.get(bot)
    if found is None:
        found = _NOTES[bot] = Notes()
    return found


# -- Attach Files ---------------------------------------------------------------------------------


def may_attach(bot: discord.Client, channel_xid: int) -> bool:
    """False where Discord refused a picture and no permission change was seen since."""
    return channel_xid not in notes(bot).no_attach


def attach_refused(bot: discord.Client, channel_xid: int) -> None:
    """Discord refused a picture in this channel, and took the text without it."""
    channel = bot.get_channel(channel_xid)
    guild = getattr(channel, "guild", None)
    notes(bot).no_attach[channel_xid] = guild.id if guild is not None else None
    log.warning(
        "channel %s: Attach Files is missing; posts there go without pictures until the bot's permissions change",
        channel_xid,
    )


def permissions_changed(bot: discord.Client, guild_xid: int | None, reason: str) -> None:
    """The bot's permissions may have changed in this server (None: anywhere): pictures are tried again
    in its channels (and in channels whose server is not known)."""
    marked = notes(bot).no_attach
    again = [c for c, g in marked.items() if guild_xid is None or g is None or g == guild_xid]
    for channel in again:
        del marked[channel]
    if again:
        log.info("%s: pictures are tried again in %d channel(s)", reason, len(again))


def attach_allowed(bot: discord.Client, channel_xid: int) -> None:
    """Discord said the bot may attach files in this channel now (an interaction's app permissions)."""
    if notes(bot).no_attach.pop(channel_xid, ...) is not ...:
        log.info("channel %s: Attach Files is allowed again", channel_xid)


# -- archived threads -----------------------------------------------------------------------------


def wait_for_post(bot: discord.Client, channel_xid: int, what: str, redo: Callable[[], Awaitable[object]]) -> None:
    """An edit an archived thread refused: made again after the bot's next post there reopens it."""
    waiting = notes(bot).waiting.setdefault(channel_xid, [])
    waiting.append(Waiting(what, redo))
    log.info("thread %s is archived: the edit of %s waits for the next post there", channel_xid, what)
    while len(waiting) > WAITING_EDITS:
        dropped = waiting.pop(0)
        log.warning(
            "thread %s is archived: the edit of %s is dropped (more than %d wait)",
            channel_xid,
            dropped.what,
            WAITING_EDITS,
        )


async def after_post(bot: discord.Client, channel_xid: int) -> None:
    """A post in the channel succeeded, so a thread is open again: make the edits that waited for it."""
    waiting = notes(bot).waiting.pop(channel_xid, None)
    for edit in waiting or []:
        try:
            await asyncio.wait_for(edit.redo(), RETRY_TIMEOUT_SECONDS)
            log.info("thread %s reopened: the edit of %s is made", channel_xid, edit.what)
        except (discord.HTTPException, TimeoutError, OSError) as exc:
            log.warning("thread %s reopened, but the edit of %s could not be made: %r", channel_xid, edit.what, exc)


def not_reopened(bot: discord.Client, channel_xid: int, why: str) -> None:
    """The bot could not post in an archived thread (locked): the edits that waited for it are lost."""
    for edit in notes(bot).waiting.pop(channel_xid, None) or []:
        log.warning("thread %s stays archived (%s): the edit of %s is not made", channel_xid, why, edit.what)


# -- the permissions a game needs -------------------------------------------------------------------

REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
"""What the bot needs where a game is played (in a thread, Send Messages in Threads stands for Send Messages)."""
BLOCKING_PERMISSIONS = frozenset({"view_channel", "send_messages", "send_messages_in_threads"})
"""Without these no turn can be posted: /game new refuses. Without the others the game is played with
parts missing (no board pictures, no status embed), and /game new says so."""


def missing_permissions(permissions: discord.Permissions, in_thread: bool) -> list[str]:
    """The permissions the bot lacks in a channel, by their Discord names (``send_messages``...)."""
    missing = []
    for name in REQUIRED_PERMISSIONS:
        if name == "send_messages" and in_thread:
            name = "send_messages_in_threads"
        if not getattr(permissions, name):
            missing.append(name)
    return missing


async def missing_send_permission(bot: discord.Client, channel_xid: int) -> str:
    """The catalogue id naming the permission a refused post lacked: Send Messages, or Send Messages
    in Threads in a thread (as far as the channel can be read; Send Messages when it cannot)."""
    channel = bot.get_channel(channel_xid)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_xid)
        except discord.HTTPException as exc:
            return "error.no_view" if exc.code == MISSING_ACCESS else "error.no_access"
    return "error.no_send_threads" if isinstance(channel, discord.Thread) else "error.no_access"


# -- the permission events ------------------------------------------------------------------------


class PermissionWatch(commands.Cog):
    """Hears the gateway's permission changes for the bot: a role's update, a channel's (its overwrites),
    the bot's own member's (its roles); then pictures are tried again in that server."""

    def __init__(self, bot: CityBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        permissions_changed(self.bot, after.guild.id, f"role {after.id} updated")

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        permissions_changed(self.bot, after.guild.id, f"channel {after.id} updated")

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.bot.user is not None and after.id == self.bot.user.id:
            permissions_changed(self.bot, after.guild.id, "the bot's member updated")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        channel = interaction.channel_id
        if channel is not None and interaction.guild_id is not None and interaction.app_permissions.attach_files:
            attach_allowed(self.bot, channel)
