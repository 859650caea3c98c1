"""A game's rules in short pages: the pages, and Previous / Next (``rules:<game>:<topic>:<page>``),
stateless so they work after a restart."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import games
from bot.i18n import catalogue, t
from cogs import ids
from cogs.common import EMBED_COLOUR, game_title, locale_of

log = logging.getLogger(__name__)

RULES_PREFIX = "rules"
RULES_ID = re.compile(r"rules:([a-z]{1,20}):([a-z_]{1,20}):([0-9]{1,3})")


def rule_pages(kind: str, topic: str) -> int:
    """How many pages a rules topic has (in English, which every language follows)."""
    english = catalogue("en")
    count = 0
    while f"{kind}.rules.{topic}.{count + 1}" in english:
        count += 1
    return count


def rules_page(kind: str, topic: str, page: int, loc: str) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a rules topic, with Previous / Next buttons (stateless: they work after a restart)."""
    pages = rule_pages(kind, topic)
    page = min(max(page, 1), max(pages, 1))
    embed = discord.Embed(
        title=t("rules.title", loc, game=game_title(kind, loc), topic=t(f"{kind}.rules.{topic}.title", loc)),
        description=t(f"{kind}.rules.{topic}.{page}", loc),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=t("rules.page", loc, page=page, pages=pages))
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("rules.button.previous", loc),
            disabled=page <= 1,
            custom_id=f"{RULES_PREFIX}:{kind}:{topic}:{page - 1}",
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t("rules.button.next", loc),
            disabled=page >= pages,
            custom_id=f"{RULES_PREFIX}:{kind}:{topic}:{page + 1}",
        )
    )
    view.stop()
    return embed, view


async def rules_click(interaction: discord.Interaction, custom_id: str, data: dict[str, Any]) -> None:
    """Previous / Next on a rules page: the same message shows the other page."""
    match = RULES_ID.fullmatch(custom_id)
    if match is None:
        raise ids.ForgedId("rules")
    kind, topic, page = match.group(1), match.group(2), int(match.group(3))
    if kind not in games.available() or topic not in games.get(kind).rules_topics:
        raise ids.ForgedId("rules")
    embed, view = rules_page(kind, topic, page, locale_of(interaction))
    try:
        await interaction.response.edit_message(embed=embed, view=view)
    except discord.HTTPException as exc:
        log.info("rules page not shown: %s", exc.code)
