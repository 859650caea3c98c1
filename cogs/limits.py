"""Discord's limits on what a bot sends, and the one way the bot keeps within them.

Every text and list the bot sends goes through these helpers: a text is cut to its limit with
"…", a list of lines becomes an embed description that ends with "and N more", a user's typed
text is repeated as a short quote, and mentions are sent in chunks Discord accepts.
:mod:`cogs.operations` applies :func:`fit_content` and :func:`fit_embed` to every message as a last
guard; the cogs use :func:`lines_text` and :func:`mention_chunks` so nothing is lost silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.labels import shorten
from bot.rules.core import GameError

CONTENT = 2000
"""A message's content."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
"""Title, description, field names and values, footer and author of all a message's embeds."""
MENTION_IDS = 100
"""User ids in one message's allowed mentions."""
BUTTON_LABEL = 80
SELECT_OPTION_LABEL = 100
SELECT_PLACEHOLDER = 150
CHOICE_NAME = 100
"""An autocomplete or option choice's name."""
COMMAND_DESCRIPTION = 100
QUOTE = 40
"""How much of a user's typed text a sentence repeats."""
FOLLOWER_PINGS = 300
"""Followers pinged on a turn at most (in messages of :data:`MENTION_IDS`); the rest are counted."""
LIST_ROWS = 25
"""Rows of a list shown at once (a page of standings, a list of games)."""

ECHOED_PARAMS = frozenset({"text", "zone", "name", "mode", "level", "value", "topic", "cell", "choice"})
"""Sentence parameters that repeat what a user typed: always quoted short."""


def cut(text: object, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in "…" when cut, after the last whole word that fits
    (:func:`bot.labels.shorten`)."""
    return shorten(str(text), limit)


def quote(text: object) -> str:
    """A user's typed text, on one line and cut short, for a sentence that repeats it: its markdown shows as
    typed and a mention in it is plain text (as ``cogs.common.shown_name`` shows a name)."""
    short = cut(" ".join(str(text).split()), QUOTE)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))


def quoted(params: Mapping[str, Any]) -> dict[str, Any]:
    """Sentence parameters with every echo of typed text quoted short."""
    return {k: quote(v) if k in ECHOED_PARAMS and isinstance(v, str) else v for k, v in params.items()}


def refusal(error: GameError, locale: str) -> str:
    """A refusal as a sentence, repeating what the user typed only as a short quote."""
    return t(error.key, locale, **quoted(error.params))


def lines_text(
    lines: Sequence[str],
    locale: str,
    *,
    limit: int = EMBED_DESCRIPTION,
    rows: int | None = None,
    total: int | None = None,
) -> str:
    """As many whole lines as fit in ``limit`` (and ``rows``), then "and N more" for the rest.

    ``total``: how many there are in all, when ``lines`` is already a first part of them."""
    total = len(lines) if total is None else max(total, len(lines))
    room = max(limit - QUOTE, 1)  # a single line never crowds out the "and N more" after it
    shown: list[str] = []
    used = 0
    for line in lines[:rows]:
        line = cut(line, room)
        need = len(line) + (1 if shown else 0)
        after = total - len(shown) - 1
        reserve = len(t("list.more", locale, n=after)) + 1 if after > 0 else 0
        if used + need + reserve > limit:
            break
        shown.append(line)
        used += need
    hidden = total - len(shown)
    if hidden > 0:
        shown.append(t("list.more", locale, n=hidden))
    return cut("\n".join(shown), limit)


def fit_content(content: str | None) -> str | None:
    return None if content is None else cut(content, CONTENT)


def embed_size(embed: discord.Embed) -> int:
    size = len(embed.title or "") + len(embed.description or "")
    size += sum(len(f.name or "") + len(f.value or "") for f in embed.fields)
    size += len(embed.footer.text or "") + len(embed.author.name or "")
    return size


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """The embed within every per-part limit and the 6,000 total (the description gives way first)."""
    if embed.title:
        embed.title = cut(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = cut(embed.description, EMBED_DESCRIPTION)
    for i, f in enumerate(embed.fields):
        embed.set_field_at(
            i,
            name=cut(f.name or "-", EMBED_FIELD_NAME),
            value=cut(f.value or "-", EMBED_FIELD_VALUE),
            inline=bool(f.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=cut(embed.footer.text, EMBED_FOOTER), icon_url=embed.footer.icon_url)
    over = embed_size(embed) - EMBED_TOTAL
    if over > 0 and embed.description:
        embed.description = cut(embed.description, max(len(embed.description) - over, 1))
    return embed


def mention_chunks(user_xids: Iterable[int], *, prefix: str = "", limit: int = CONTENT) -> list[tuple[str, list[int]]]:
    """Messages that mention ``user_xids``: each ≤ :data:`MENTION_IDS` ids and ≤ ``limit`` characters
    (``prefix`` starts each message). Returns (text, ids) pairs."""
    chunks: list[tuple[str, list[int]]] = []
    text, ids = prefix, list[int]()
    for user in dict.fromkeys(user_xids):
        tag = f"<@{user}>"
        sep = " " if text else ""
        if ids and (len(ids) >= MENTION_IDS or len(text) + len(sep) + len(tag) > limit):
            chunks.append((text, ids))
            text, ids, sep = prefix, [], " " if prefix else ""
        text += sep + tag
        ids.append(user)
    if ids:
        chunks.append((text, ids))
    return chunks


def page_of(items: Sequence[Any], page: int, rows: int = LIST_ROWS) -> tuple[Sequence[Any], int, int]:
    """One page of ``items`` (1-based, clamped): (its items, the page, how many pages)."""
    pages = max((len(items) + rows - 1) // rows, 1)
    page = min(max(page, 1), pages)
    return items[(page - 1) * rows : page * rows], page, pages
