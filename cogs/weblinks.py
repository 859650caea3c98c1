"""Links from Discord to the web pages (issue 28): the "Open the board" and "Open the league" link buttons
(the board's on a started game's lobby, every turn post and the status message).

A link button opens an address in the browser: Discord sends the bot no interaction for it, so it needs no
acknowledgement. The addresses come from the bot's :class:`bot.web.links.Links` (``bot.web_links``, made at
start from ``WEB_BASE_URL`` and the signing key); without ``WEB_BASE_URL`` every function here gives None and
nothing is added. A link never exceeds Discord's 512 characters for a URL button (``Links`` says None).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.web.links import Links

BOARD = "web.link.board"
LEAGUE = "web.link.league"
PLAYER = "web.link.player"
PLAYER_PAGE = "web.link.player_page"
NO_LINKS = Links("", b"")


def links_of(bot: Any) -> Links:
    """The bot's links (none when it has no ``WEB_BASE_URL``, or is not a ``CityBot``)."""
    found = getattr(bot, "web_links", None)
    return found if isinstance(found, Links) else NO_LINKS


def board_url(bot: Any, game_id: int) -> str | None:
    return links_of(bot).game(game_id)


def league_url(bot: Any, league_id: int, loc: str | None = None) -> str | None:
    return links_of(bot).league(league_id, loc)


def link_button(key: str, url: str, loc: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=t(key, loc), url=url, style=discord.ButtonStyle.link)


def add_link(view: discord.ui.View, key: str, url: str | None, loc: str) -> bool:
    """Put a link button on ``view`` where it has room (25 components, 5 a row, a menu a whole row):
    True if added (or nothing to add), False when the view is full."""
    if url is None:
        return True
    try:
        view.add_item(link_button(key, url, loc))
    except ValueError:
        return False
    return True


def link_view(key: str, url: str | None, loc: str) -> discord.ui.View | None:
    """A view holding only the link button (None without a link)."""
    if url is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(link_button(key, url, loc))
    view.stop()
    return view


def board_view(bot: Any, game_id: int, loc: str) -> discord.ui.View | None:
    return link_view(BOARD, board_url(bot, game_id), loc)


# -- "Play on the board" (issue 38): a personal sign-in link, so always a private answer ------------------
PLAY_PREFIX = "board"
PLAY = "web.link.play_board"


def signs_in(bot: Any) -> bool:
    """Whether the bot can hand out sign-in links: pages with a public address and sessions to open."""
    return bool(links_of(bot).base_url) and getattr(getattr(bot, "app", None), "sessions", None) is not None


def add_play(view: discord.ui.View, bot: Any, game_id: int, loc: str) -> bool:
    """The "Play on the board" button (``board:<game>``) on a turn post's view, where pages can exist and it
    has room: its click answers privately with the clicker's own sign-in link."""
    if not signs_in(bot):
        return True
    try:
        view.add_item(
            discord.ui.Button(
                label=t(PLAY, loc), custom_id=f"{PLAY_PREFIX}:{int(game_id)}", style=discord.ButtonStyle.primary
            )
        )
    except ValueError:
        return False
    return True


async def signin_url(bot: Any, user_xid: int, game_id: int, loc: str) -> str | None:
    """A new single-use sign-in link for the user, opening the game (None without pages to sign in to)."""
    if not signs_in(bot):
        return None
    raw = await bot.app.sessions.link_token(user_xid, game_id)
    url = f"{links_of(bot).base_url}/signin/{raw}?lang={loc}"
    return url if len(url) <= 512 else None
