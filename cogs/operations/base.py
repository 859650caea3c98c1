"""What every Discord call of :mod:`cogs.operations` shares: Discord's error codes, the attempts and time-outs,
texts with their commands linked and within Discord's limits, attached files, mentions."""

from __future__ import annotations

import io
from typing import Any

import discord

from cogs import limits
from cogs.commandlinks import LINKS

POST_ATTEMPTS = 4
POST_BACKOFF_SECONDS = 0.5
POST_TIMEOUT_SECONDS = 20.0
"""One attempt to post or edit gives up after this long (discord.py itself never times out; its
5xx retries alone can take about 16 s), and the post is tried again with the same nonce. This and the back-off
are read here at every call (``base.POST_TIMEOUT_SECONDS``), so the test entry (:mod:`bot.testing.entry`) tunes
them in this module."""
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
