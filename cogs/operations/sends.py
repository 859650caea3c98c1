"""The sends of recorded actions and direct messages (:mod:`cogs.operations`): one attempt with the action's nonce
(Discord refuses a second message with it), a direct message, and the bot's hooks for a channel that was deleted
and for a user's closed DMs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs import channels, limits
from cogs.operations import base
from cogs.operations.base import CANNOT_DM, RETRYABLE_STATUS, UNKNOWN_CHANNEL, linked, mentions_of

log = logging.getLogger(__name__)


async def dms_closed(bot: discord.Client, user_xid: int) -> None:
    """A user's DMs are closed (403 50007): the bot turns their DM preference off and tells them once,
    at their next interaction (``bot.dm_closed``, where the bot has one)."""
    hook = getattr(bot, "dm_closed", None)
    if hook is None:
        return
    try:
        await hook(user_xid)
    except Exception:
        log.exception("could not record the closed DMs of a user")


async def channel_lost(bot: discord.Client, channel_xid: int) -> None:
    """A channel or thread is gone (10003): its game pauses (``bot.channel_lost``, where the bot has one)."""
    hook = getattr(bot, "channel_lost", None)
    if hook is None:
        return
    try:
        await hook(channel_xid)
    except Exception:
        log.exception("could not pause the game of a deleted channel")


async def dm(bot: discord.Client, user_xid: int, content: str) -> bool:
    """Send a direct message; False when the user does not accept DMs."""
    try:
        user = await bot.fetch_user(user_xid)
        await user.send(limits.cut(content, limits.CONTENT))
        return True
    except discord.HTTPException as exc:
        log.info("DM to %s failed: %s", user_xid, exc.code)
        if exc.code == CANNOT_DM:
            await dms_closed(bot, user_xid)
        return False


async def send_once(
    bot: discord.Client,
    channel_xid: int | None,
    content: str,
    *,
    nonce: str,
    mentions: list[int] | None = None,
    view: discord.ui.View | None = None,
) -> tuple[int | None, bool]:
    """Post one message of a recorded action, once, with the action's nonce (Discord refuses a
    second message with the same nonce). One attempt: the caller's loop offers it again later.

    Returns (message id, retry): retry is True for a failure worth trying again later (5xx, no
    answer in time), False when Discord refused for good (no access, unknown channel).
    """
    if channel_xid is None:
        return None, False
    kwargs: dict[str, Any] = {"allowed_mentions": mentions_of(mentions or []), "nonce": nonce}
    if view is not None:
        kwargs["view"] = view
    try:
        message = await asyncio.wait_for(
            bot.get_partial_messageable(channel_xid).send(linked(content), **kwargs), base.POST_TIMEOUT_SECONDS
        )
        await channels.after_post(bot, channel_xid)
        return message.id, False
    except discord.HTTPException as exc:
        log.warning("post in %s failed: %s %s", channel_xid, exc.status, exc.code)
        if exc.code == UNKNOWN_CHANNEL:
            await channel_lost(bot, channel_xid)
        return None, exc.status >= RETRYABLE_STATUS
    except (TimeoutError, OSError) as exc:
        log.warning("post in %s failed: %r", channel_xid, exc)
        return None, True


async def dm_once(bot: discord.Client, user_xid: int | None, content: str, *, nonce: str) -> tuple[int | None, bool]:
    """Send one direct message of a recorded action, with its nonce; (message id, retry) as
    :func:`send_once`. A user who does not accept DMs (50007) is a refusal for good."""
    if user_xid is None:
        return None, False
    try:
        user = bot.get_user(user_xid) or await bot.fetch_user(user_xid)
        message = await asyncio.wait_for(user.send(linked(content), nonce=nonce), base.POST_TIMEOUT_SECONDS)
        return message.id, False
    except discord.HTTPException as exc:
        if exc.code != CANNOT_DM:
            log.info("DM to %s failed: %s %s", user_xid, exc.status, exc.code)
        else:
            await dms_closed(bot, user_xid)
        return None, exc.status >= RETRYABLE_STATUS
    except (TimeoutError, OSError):
        return None, True
