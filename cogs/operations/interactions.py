"""The answers to an interaction (:mod:`cogs.operations`): acknowledge it within Discord's 3 seconds, reply or
follow up (a notice waiting for the user after it), edit the message a component belongs to, answer with a file,
read the answer's message id."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from cogs import channels, limits
from cogs.operations.base import (
    ALREADY_ACKNOWLEDGED,
    NO_MENTIONS,
    PUBLIC_THINKING,
    THREAD_ARCHIVED,
    _attach,
    _linked_kwargs,
    linked,
)

log = logging.getLogger(__name__)


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
