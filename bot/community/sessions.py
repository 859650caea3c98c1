"""Who is signed in on the web pages (issue 38): sessions behind a cookie, single-use sign-in links from
Discord or the terminal, OAuth2 states, and each session's idempotency keys; forget-me ends them all.

Every secret handed out (a cookie's id, a link's token, a state) is 32 random bytes, base64url; the store
keeps only its hash (:mod:`bot.store.sessions`). A session lasts :data:`SESSION_DAYS`; a sign-in link
:data:`LINK_MINUTES` and once. A session the Discord Activity opens (issue 39) is bound to its instance and
lasts :data:`ACTIVITY_HOURS` at most (and less: it ends when Discord no longer knows the instance, see
:mod:`bot.web.activity`).
"""

from __future__ import annotations

import secrets
from typing import ClassVar

from bot.community.base import DAY_MS, HOUR_MS, MINUTE_MS, Feature
from bot.service import Service
from bot.store.sessions import MoveRecord, SessionRow, SessionStore, digest

__all__ = ["ACTIVITY_HOURS", "LINK_MINUTES", "SESSION_DAYS", "MoveRecord", "SessionRow", "Sessions", "digest"]

SESSION_DAYS = 30
ACTIVITY_HOURS = 12
"""The longest an Activity's session lives on the server (its instance may end it sooner)."""
LINK_MINUTES = 10
STATE_MINUTES = 10
"""An OAuth2 consent not finished within this long is refused."""
HOWS = ("link", "discord", "local")


def new_secret() -> str:
    """A random secret of 32 bytes as base64url (43 characters)."""
    return secrets.token_urlsafe(32)


class Sessions(Feature):
    """The web's sessions over the service's clock."""

    personal_columns: ClassVar[tuple[str, ...]] = ("web_sessions.user_xid", "web_signins.user_xid")

    def __init__(self, service: Service, rows: SessionStore) -> None:
        super().__init__(service)
        self.rows = rows

    async def forget_user(self, user_xid: int) -> int:
        return await self.rows.forget_user(user_xid)

    # -- sessions ----------------------------------------------------------------------------------
    async def start(self, user_xid: int, how: str) -> str:
        """A new session of the user; returns the cookie's id (kept only hashed)."""
        if how not in HOWS:
            raise ValueError(how)
        raw = new_secret()
        now = self.now
        await self.rows.add_session(raw, user_xid, how, now, now + SESSION_DAYS * DAY_MS)
        return raw

    async def start_activity(self, user_xid: int, instance_id: str) -> str:
        """A session of the user bound to an Activity's instance, for :data:`ACTIVITY_HOURS`; it replaces the
        user's earlier session of the same instance. Returns the cookie's id."""
        raw = new_secret()
        now = self.now
        await self.rows.add_session(raw, user_xid, "activity", now, now + ACTIVITY_HOURS * HOUR_MS, instance_id)
        return raw

    async def end_instance(self, instance_id: str) -> int:
        """Ends every session of an Activity's instance that has ended; how many."""
        return await self.rows.end_instance(instance_id)

    async def find(self, raw_id: str) -> SessionRow | None:
        """The live session of a cookie's id, or None."""
        if not raw_id or len(raw_id) > 64:
            return None
        return await self.rows.session(raw_id, self.now)

    async def listed(self, user_xid: int) -> list[SessionRow]:
        return await self.rows.sessions_of(user_xid, self.now)

    async def end(self, user_xid: int, id_hash: str) -> bool:
        return await self.rows.end_session(user_xid, id_hash) > 0

    async def end_all(self, user_xid: int) -> int:
        return await self.rows.end_sessions(user_xid)

    # -- sign-in links -----------------------------------------------------------------------------
    async def link_token(self, user_xid: int, game_id: int | None) -> str:
        """A single-use sign-in token for the user, valid :data:`LINK_MINUTES` (opening ``game_id``)."""
        raw = new_secret()
        now = self.now
        await self.rows.add_signin(raw, user_xid, game_id, now, now + LINK_MINUTES * MINUTE_MS)
        return raw

    async def use_link(self, raw_token: str, how: str = "link") -> tuple[str, int, int | None] | None:
        """(cookie id, user, game) of a new session made by a sign-in token, which is used up; None for a
        token that is unknown, used or expired (nothing changes)."""
        if not raw_token or len(raw_token) > 64:
            return None
        session = new_secret()
        found = await self.rows.use_signin(raw_token, self.now, session, SESSION_DAYS * DAY_MS, how)
        return None if found is None else (session, found[0], found[1])

    # -- OAuth2 ------------------------------------------------------------------------------------
    async def new_state(self) -> tuple[str, str]:
        """(state, PKCE verifier) for one consent, kept :data:`STATE_MINUTES`."""
        state, verifier = new_secret(), new_secret()
        now = self.now
        await self.rows.add_state(state, verifier, now, now + STATE_MINUTES * MINUTE_MS)
        return state, verifier

    async def take_state(self, state: str) -> str | None:
        """The verifier of a state this bot made and that is still unused (then used up)."""
        if not state or len(state) > 64:
            return None
        return await self.rows.take_state(state, self.now)

    # -- idempotency keys ----------------------------------------------------------------------------
    async def move_record(self, session: SessionRow, key: str) -> MoveRecord | None:
        return await self.rows.move_record(session.id_hash, key)

    async def record_move(self, session: SessionRow, key: str, record: MoveRecord) -> None:
        await self.rows.add_move_record(session.id_hash, key, record, self.now)
