"""Signed links to the web pages (issue 28): a page exists only behind its link, whose token is an HMAC of
what it shows under the bot's key (``WEB_SECRET``, or the one kept in the database), so a game in a
private channel cannot be found by counting ids.

``token(secret, kind, ident)`` is the first 22 characters of base64url(HMAC-SHA256(secret, "kind:ident"))
without padding (132 bits); ``verify`` compares in constant time. The paths: ``/g/{game_id}/{token}`` (a
game), ``/l/{league_id}/{token}`` (a league), ``/p/{guild_xid}/{user_xid}/{token}`` (a player in one
server); ``?lang=xx`` picks the page's language. :class:`Links` makes the whole addresses from
``WEB_BASE_URL``, or None when it is empty (then no link is posted).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from urllib.parse import quote

from bot.store import Store
from bot.store import web as web_store

TOKEN_LENGTH = 22
GAME, LEAGUE, PLAYER = "g", "l", "p"
KINDS = (GAME, LEAGUE, PLAYER)
MAX_URL = 512
"""Discord's bound on a URL button's address; :class:`Links` never returns a longer one."""


def token(secret: bytes, kind: str, ident: str) -> str:
    """The link token of one page: ``kind`` one of :data:`KINDS`, ``ident`` its ids joined by ``/``."""
    mac = hmac.new(secret, f"{kind}:{ident}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")[:TOKEN_LENGTH]


def verify(secret: bytes, kind: str, ident: str, given: str) -> bool:
    """Whether ``given`` is the token of that page (constant time; any malformed input is just False)."""
    if not isinstance(given, str) or len(given) != TOKEN_LENGTH or not given.isascii():
        return False
    return hmac.compare_digest(token(secret, kind, ident).encode("ascii"), given.encode("ascii"))


def game_ident(game_id: int) -> str:
    return str(int(game_id))


def league_ident(league_id: int) -> str:
    return str(int(league_id))


def player_ident(guild_xid: int, user_xid: int) -> str:
    return f"{int(guild_xid)}/{int(user_xid)}"


def path_game(secret: bytes, game_id: int) -> str:
    ident = game_ident(game_id)
    return f"/{GAME}/{ident}/{token(secret, GAME, ident)}"


def path_league(secret: bytes, league_id: int) -> str:
    ident = league_ident(league_id)
    return f"/{LEAGUE}/{ident}/{token(secret, LEAGUE, ident)}"


def path_player(secret: bytes, guild_xid: int, user_xid: int) -> str:
    ident = player_ident(guild_xid, user_xid)
    return f"/{PLAYER}/{ident}/{token(secret, PLAYER, ident)}"


class Links:
    """Whole addresses of the pages under ``base_url`` (``WEB_BASE_URL``, no trailing slash needed);
    every method returns None when ``base_url`` is empty, or when the address would not fit Discord's
    :data:`MAX_URL`."""

    def __init__(self, base_url: str, secret: bytes) -> None:
        self.base_url = base_url.strip().rstrip("/")
        self.secret = secret

    def _url(self, path: str, lang: str | None) -> str | None:
        if not self.base_url:
            return None
        url = self.base_url + path + (f"?lang={quote(lang, safe='')}" if lang else "")
        return url if len(url) <= MAX_URL else None

    def game(self, game_id: int, lang: str | None = None) -> str | None:
        return self._url(path_game(self.secret, game_id), lang)

    def league(self, league_id: int, lang: str | None = None) -> str | None:
        return self._url(path_league(self.secret, league_id), lang)

    def player(self, guild_xid: int, user_xid: int, lang: str | None = None) -> str | None:
        return self._url(path_player(self.secret, guild_xid, user_xid), lang)


async def signing_key(configured: str, store: Store) -> bytes:
    """The key links are signed with: ``WEB_SECRET`` when set, else the one the database keeps (made on
    the first start, :func:`bot.store.web.secret`)."""
    if configured:
        return configured.encode("utf-8")
    return await web_store.secret(store)
