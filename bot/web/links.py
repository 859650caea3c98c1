"""Signed links to the web pages: an HMAC of the page's kind and id with ``WEB_SECRET``, so a page exists
only behind a link the bot gave out (a game in a private channel stays private)."""

from __future__ import annotations

import base64
import hashlib
import hmac

TOKEN_LENGTH = 22


def token(secret: bytes, kind: str, ident: str) -> str:
    """``base64url(HMAC-SHA256(secret, "kind:ident"))[:22]`` without padding."""
    digest = hmac.new(secret, f"{kind}:{ident}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")[:TOKEN_LENGTH]


def verify(secret: bytes, kind: str, ident: str, given: str) -> bool:
    """Whether ``given`` is the token of (kind, ident), compared in constant time."""
    return hmac.compare_digest(token(secret, kind, ident).encode(), given.encode("utf-8", "replace"))


def path_game(secret: bytes, game_id: int) -> str:
    return f"/g/{game_id}/{token(secret, 'g', str(game_id))}"


def path_league(secret: bytes, league_id: int) -> str:
    return f"/l/{league_id}/{token(secret, 'l', str(league_id))}"


def path_player(secret: bytes, guild_xid: int, user_xid: int) -> str:
    return f"/p/{guild_xid}/{user_xid}/{token(secret, 'p', f'{guild_xid}/{user_xid}')}"


class Links:
    """The public addresses of the pages (None for each when ``base_url`` is empty: no links are posted)."""

    def __init__(self, base_url: str, secret: bytes) -> None:
        self.base_url = base_url.rstrip("/")
        self.secret = secret

    def _full(self, path: str) -> str | None:
        return f"{self.base_url}{path}" if self.base_url else None

    def game(self, game_id: int) -> str | None:
        return self._full(path_game(self.secret, game_id))

    def league(self, league_id: int) -> str | None:
        return self._full(path_league(self.secret, league_id))

    def player(self, guild_xid: int, user_xid: int) -> str | None:
        return self._full(path_player(self.secret, guild_xid, user_xid))
