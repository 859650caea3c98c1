"""The bot's messages in a channel (:mod:`cogs.operations`): a post with retries, back-off and one nonce (its text
without the picture where Attach Files is refused), and an edit of one of its messages."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

import discord

from bot.i18n import t
from cogs import channels, limits
from cogs.channels import MISSING_ACCESS, missing_send_permission
from cogs.operations import base
from cogs.operations.base import (
    LOST_CHANNEL,
    MISSING_PERMISSIONS,
    NO_MENTIONS,
    NONCE_BYTES,
    POST_ATTEMPTS,
    THREAD_ARCHIVED,
    UNKNOWN_CHANNEL,
    _attach,
    _linked_kwargs,
    linked,
)

log = logging.getLogger(__name__)


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
    delay = base.POST_BACKOFF_SECONDS
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
            message = await asyncio.wait_for(channel.send(**kwargs), base.POST_TIMEOUT_SECONDS)
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
        await asyncio.wait_for(message.edit(**kwargs), base.POST_TIMEOUT_SECONDS)
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
