"""Every Discord call that can fail in an expected way, handled once.

Unknown interaction (10062), already acknowledged (40060), unknown message (10008), missing
permissions (50013), cannot DM (50007), server errors and rate limits with retries, and requests
that never answer (a time-out per attempt). Callers get True/False or a message id, never an
exception from here. Cogs call these instead of wrapping Discord calls in their own try/except.
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
from typing import Any

import discord

from bot.i18n import t
from cogs import channels, limits
from cogs.channels import BLOCKING_PERMISSIONS as BLOCKING_PERMISSIONS
from cogs.channels import MISSING_ACCESS, missing_send_permission
from cogs.channels import REQUIRED_PERMISSIONS as REQUIRED_PERMISSIONS
from cogs.channels import missing_permissions as missing_permissions
from cogs.commandlinks import LINKS

log = logging.getLogger(__name__)

POST_ATTEMPTS = 4
POST_BACKOFF_SECONDS = 0.5
POST_TIMEOUT_SECONDS = 20.0
"""One attempt to post or edit gives up after this long (discord.py itself never times out; its
5xx retries alone can take about 16 s), and the post is tried again with the same nonce."""
NONCE_BYTES = 12  # 24 hex characters; Discord allows 25
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_MESSAGE = 10008
MISSING_PERMISSIONS = 50013
CANNOT_DM = 50007
UNKNOWN_CHANNEL = 10003
THREAD_ARCHIVED = 50083
LOST_CHANNEL = "error.lost_channel"
"""The reason :func:`post` gives when the channel or thread was deleted (Discord 10003)."""
RETRYABLE_STATUS = 500
"""A refusal with this HTTP status or above is Discord's passing trouble: worth trying again later."""

NO_MENTIONS = discord.AllowedMentions.none()
PUBLIC_THINKING = "public_thinking"
"""``interaction.extras`` key: the interaction was deferred with a public "thinking..." not yet replaced."""


def linked(content: str) -> str:
    """A sentence with the commands it names turned into command mentions (shown in the reader's
    language), within Discord's 2,000 characters (:mod:`cogs.limits`)."""
    return limits.cut(LINKS.link(content), limits.CONTENT)


def _linked_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    if isinstance(kwargs.get("content"), str):
        kwargs["content"] = linked(kwargs["content"])
    if isinstance(kwargs.get("embed"), discord.Embed):
        kwargs["embed"] = limits.fit_embed(kwargs["embed"])
    return kwargs


def _attach(kwargs: dict[str, Any], file_png: bytes | None, extra: list[tuple[str, bytes]] | None) -> None:
    files = ([png_file(file_png)] if file_png is not None else []) + [
        discord.File(io.BytesIO(data), filename=name) for name, data in extra or []
    ]
    kwargs.pop("file", None)
    kwargs.pop("files", None)
    if len(files) == 1:
        kwargs["file"] = files[0]
    elif files:
        kwargs["files"] = files


def png_file(data: bytes, name: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def mentions_of(user_xids: list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(id=u) for u in user_xids])


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    file_png: bytes | None = None,
    mentions: discord.AllowedMentions | None = None,
    extra_files: list[tuple[str, bytes]] | None = None,
) -> bool:
    """Answer an interaction (first response or follow-up). False if Discord refused.
    ``extra_files``: more attachments after the picture, as (file name, bytes)."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": mentions or NO_MENTIONS}
    if content is not None:
        kwargs["content"] = linked(content)
    if embed is not None:
        kwargs["embed"] = limits.fit_embed(embed)
    if view is not None:
        kwargs["view"] = view
    _attach(kwargs, file_png, extra_files)
    try:
        sent = False
        if interaction.extras.pop(PUBLIC_THINKING, False) and ephemeral:
            # A refusal after a public "thinking...": the first follow-up would take its place, in
            # public. The public placeholder goes, and the sentence is private.
            await _delete_thinking(interaction)
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(**kwargs)
                sent = True
            except discord.HTTPException as exc:
                if exc.code != ALREADY_ACKNOWLEDGED:
                    raise
                _attach(kwargs, file_png, extra_files)  # a file is read once: make them anew
        if not sent:
            await interaction.followup.send(**kwargs)
    except discord.NotFound as exc:
        log.info("interaction %s vanished before the reply (%s)", interaction.id, exc.code)
        return False
    except discord.HTTPException as exc:
        log.warning("reply to interaction %s failed: %s %s", interaction.id, exc.status, exc.code)
        return False
    await give_notice(interaction)
    return True


async def give_notice(interaction: discord.Interaction) -> None:
    """A notice waiting for the user (their DMs were found closed), privately, once
    (``client.notice_for``, where the bot has one)."""
    notice_for = getattr(interaction.client, "notice_for", None)
    if notice_for is None:
        return
    try:
        text = await notice_for(interaction)
        if text:
            await interaction.followup.send(linked(text), ephemeral=True, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as exc:
        log.info("notice to interaction %s failed: %s", interaction.id, exc.code)
    except Exception:
        log.exception("notice failed")


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True, update: bool = False) -> bool:
    """Acknowledge within Discord's 3 seconds; ``update`` for a component whose message we edit.

    False when Discord refused (too late, or already answered): the user was shown a failure, so
    the caller changes nothing. ``ephemeral=False``: the answer will be public ("thinking..." shows to
    everyone); a refusal :func:`reply` sends afterwards still reaches only the user."""
    if interaction.response.is_done():
        return True
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            if not ephemeral:
                interaction.extras[PUBLIC_THINKING] = True
        return True
    except discord.HTTPException as exc:
        log.info("defer of interaction %s failed: %s", interaction.id, exc.code)
        return False


async def _delete_thinking(interaction: discord.Interaction) -> None:
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:
        log.info("could not remove the public placeholder of interaction %s: %s", interaction.id, exc.code)


async def edit_original(interaction: discord.Interaction, **kwargs: Any) -> bool:
    """Edit the message a component belongs to (or the deferred response)."""
    kwargs = _linked_kwargs(kwargs)
    try:
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.edit_original_response(**kwargs)
        return True
    except discord.HTTPException as exc:
        if exc.code == THREAD_ARCHIVED and interaction.response.is_done() and interaction.channel_id is not None:
            channels.wait_for_post(
                interaction.client,
                interaction.channel_id,
                f"the answer to interaction {interaction.id}",
                lambda: interaction.edit_original_response(**kwargs),
            )
        else:
            log.info("edit of interaction %s failed: %s", interaction.id, exc.code)
        return False


async def post(
    bot: discord.Client,
    channel_xid: int,
    content: str,
    *,
    file_png: bytes | None = None,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions | None = None,
    locale: str = "en",
    nonce: str | None = None,
    extra_files: list[tuple[str, bytes]] | None = None,
) -> tuple[int | None, str | None]:
    """Post to a channel with retries and back-off. Returns (message id, None) or (id or None, reason).

    The reason is a catalogue id (``error.no_attach``, ``error.no_access``, ``error.discord``).
    Every attempt carries the same nonce with ``enforce_nonce`` (``nonce``, or a new one), so when an
    attempt timed out on our side but reached Discord, the retry gets the message already made
    instead of a second one; a caller that may post again after a restart passes its own.
    Without Attach Files the text is still posted, with a sentence saying why the board is missing.
    """
    if (file_png is not None or extra_files) and not channels.may_attach(bot, channel_xid):
        # Refused before, and no permission change seen since: no request Discord would refuse again.
        if file_png is None:
            return None, "error.no_attach"  # nothing but files to post
        return await _post_text(
            bot, channel_xid, content, embed=embed, view=view, mentions=mentions, locale=locale, nonce=nonce
        )
    channel = bot.get_partial_messageable(channel_xid)
    nonce = nonce or secrets.token_hex(NONCE_BYTES)
    delay = POST_BACKOFF_SECONDS
    for attempt in range(1, POST_ATTEMPTS + 1):
        kwargs: dict[str, Any] = {
            "content": linked(content),
            "allowed_mentions": mentions or NO_MENTIONS,
            "nonce": nonce,
        }
        _attach(kwargs, file_png, extra_files)
        if embed is not None:
            kwargs["embed"] = limits.fit_embed(embed)
        if view is not None:
            kwargs["view"] = view
        try:
            message = await asyncio.wait_for(channel.send(**kwargs), POST_TIMEOUT_SECONDS)
            await channels.after_post(bot, channel_xid)
            return message.id, None
        except discord.NotFound as exc:
            log.warning("cannot post in %s: %s", channel_xid, exc.code)
            return None, LOST_CHANNEL if exc.code == UNKNOWN_CHANNEL else "error.discord"
        except discord.Forbidden as exc:
            log.warning("cannot post in %s: %s", channel_xid, exc.code)
            if exc.code == MISSING_ACCESS:
                return None, "error.no_view"
            if file_png is not None and exc.code == MISSING_PERMISSIONS:
                # Perhaps only Attach Files is missing: still post the text (and say why) so the game
                # goes on. If the text is refused too, it was never Attach Files: say what it was.
                return_id, problem = await _post_text(
                    bot, channel_xid, content, embed=embed, view=view, mentions=mentions, locale=locale, nonce=nonce
                )
                if return_id is not None:
                    channels.attach_refused(bot, channel_xid)  # the text went: it was Attach Files
                return return_id, problem
            return None, await missing_send_permission(bot, channel_xid)
        except discord.RateLimited as exc:  # only when a max_ratelimit_timeout is configured
            log.warning("posting in %s rate limited for %.1fs (attempt %d)", channel_xid, exc.retry_after, attempt)
            if attempt < POST_ATTEMPTS:
                await asyncio.sleep(max(exc.retry_after, delay))
                delay *= 2
        except (TimeoutError, discord.HTTPException, OSError) as exc:
            status = getattr(exc, "status", None)
            if isinstance(exc, discord.HTTPException) and status is not None and status < 500:
                log.warning("posting in %s refused: %s %s", channel_xid, status, exc.code)
                if exc.code == THREAD_ARCHIVED:
                    channels.not_reopened(bot, channel_xid, "locked")
                return None, "error.discord"
            log.warning("posting in %s failed (attempt %d): %r", channel_xid, attempt, exc)
            if attempt < POST_ATTEMPTS:
                await asyncio.sleep(delay)
                delay *= 2
    return None, "error.discord"


async def _post_text(
    bot: discord.Client,
    channel_xid: int,
    content: str,
    *,
    embed: discord.Embed | None,
    view: discord.ui.View | None,
    mentions: discord.AllowedMentions | None,
    locale: str,
    nonce: str | None,
) -> tuple[int | None, str | None]:
    """:func:`post` without the picture, with the sentence saying why it is missing."""
    text = "\n".join(part for part in (content, t("error.no_attach", locale)) if part)
    return_id, problem = await post(
        bot, channel_xid, text, embed=embed, view=view, mentions=mentions, locale=locale, nonce=nonce
    )
    return (return_id, "error.no_attach") if return_id is not None else (None, problem)


EDITED, GONE, FAILED, WAITING = "edited", "gone", "failed", "waiting"


async def edit_message(
    bot: discord.Client, channel_xid: int, message_xid: int, *, after_post: bool = False, **kwargs: Any
) -> str:
    """Edit one of our messages: ``EDITED``; ``GONE`` when it was deleted (or its channel is out
    of reach); ``FAILED`` for a passing problem (5xx, rate limit, no answer in time). ``after_post``: in an
    archived thread the edit is made again after the bot's next post there reopens it (``WAITING``)."""
    kwargs = _linked_kwargs(kwargs)
    message = bot.get_partial_messageable(channel_xid).get_partial_message(message_xid)
    try:
        await asyncio.wait_for(message.edit(**kwargs), POST_TIMEOUT_SECONDS)
        return EDITED
    except discord.NotFound as exc:
        log.info("message %s is gone: %s", message_xid, exc.code)
        return GONE
    except discord.HTTPException as exc:
        if exc.code != THREAD_ARCHIVED and not isinstance(exc, discord.Forbidden):
            log.info("edit of message %s failed: %s %s", message_xid, exc.status, exc.code)
            return FAILED
        if exc.code == THREAD_ARCHIVED and after_post:
            channels.wait_for_post(bot, channel_xid, f"message {message_xid}", lambda: message.edit(**kwargs))
            return WAITING
        # An archived thread refuses edits until a new message unarchives it; no access is the same
        # for us: the caller posts anew.
        log.info("message %s is out of reach: %s", message_xid, exc.code)
        return GONE
    except (TimeoutError, OSError, discord.RateLimited) as exc:
        log.warning("edit of message %s failed: %r", message_xid, exc)
        return FAILED


async def edit(
    bot: discord.Client, channel_xid: int, message_xid: int, *, after_post: bool = False, **kwargs: Any
) -> bool:
    """Edit one of our messages; False if it is gone, Discord refused, or it did not answer in time (or, with
    ``after_post``, waits for the next post to reopen its archived thread: :func:`edit_message`)."""
    return await edit_message(bot, channel_xid, message_xid, after_post=after_post, **kwargs) == EDITED


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


async def reply_file(interaction: discord.Interaction, content: str, data: bytes, name: str) -> bool:
    """Answer privately with an attached file of any kind (``reply`` only attaches PNG pictures)."""
    kwargs: dict[str, Any] = {"content": content, "ephemeral": True, "allowed_mentions": NO_MENTIONS}
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(file=discord.File(io.BytesIO(data), filename=name), **kwargs)
        else:
            await interaction.followup.send(file=discord.File(io.BytesIO(data), filename=name), **kwargs)
        return True
    except discord.HTTPException as exc:
        log.warning("file reply to %s failed: %s %s", interaction.id, exc.status, exc.code)
        return False


async def original_message_id(interaction: discord.Interaction, callback: Any = None) -> int | None:
    """The id of the message that answered an interaction (None if Discord cannot tell). ``callback``:
    what ``send_message`` returned; Discord names the message there, and only without it is it read."""
    message_id = getattr(callback, "message_id", None)
    if isinstance(message_id, int):
        return message_id
    try:
        message = await interaction.original_response()
    except discord.HTTPException as exc:
        log.info("could not read the answer of interaction %s: %s", interaction.id, exc.code)
        return None
    return message.id


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
            bot.get_partial_messageable(channel_xid).send(linked(content), **kwargs), POST_TIMEOUT_SECONDS
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
        message = await asyncio.wait_for(user.send(linked(content), nonce=nonce), POST_TIMEOUT_SECONDS)
        return message.id, False
    except discord.HTTPException as exc:
        if exc.code != CANNOT_DM:
            log.info("DM to %s failed: %s %s", user_xid, exc.status, exc.code)
        else:
            await dms_closed(bot, user_xid)
        return None, exc.status >= RETRYABLE_STATUS
    except (TimeoutError, OSError):
        return None, True
