"""Who is signed in on the web pages (tables of migrations 012 and 013, issues 38 and 39): sessions, single-use
sign-in links, OAuth2 states and the moves a session made (idempotency keys).

Only a hash of every random secret is stored (sha256 hex of the cookie's id, the link's token, the OAuth2
state), so a copy of the database signs no one in. Each write is one statement or one transaction: a
sign-in link is used by a compare-and-set (``used_at IS NULL``), so two browsers opening it together sign in
once. A session the Discord Activity opened (``how = 'activity'``) keeps its instance's id: a new one for the
same user and instance replaces the old in the same transaction, and an instance's end ends them all.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.store.store import TableStore


def digest(secret: str) -> str:
    """The hash a random secret is kept as (sha256 hex)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SessionRow:
    id_hash: str
    user_xid: int
    how: str
    created_at: int
    expires_at: int
    instance_id: str | None = None
    """The Discord Activity's instance the session is bound to (only ``how == "activity"``)."""


@dataclass(frozen=True)
class MoveRecord:
    """A move a session made under an idempotency key: what it asked (``digest``) and the version after it."""

    digest: str
    version: int


_SESSION = "SELECT id_hash, user_xid, how, created_at, expires_at, instance_id FROM web_sessions"


class SessionStore(TableStore):
    """The tables ``web_sessions``, ``web_signins``, ``web_oauth`` and ``web_moves``."""

    # -- sessions ----------------------------------------------------------------------------------
    async def add_session(
        self, raw_id: str, user_xid: int, how: str, now: int, expires_at: int, instance_id: str | None = None
    ) -> None:
        """A new session; one bound to an instance replaces the user's earlier session of that instance."""
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM web_sessions WHERE expires_at <= ?", (now,))
            if instance_id is not None:
                await db.execute(
                    "DELETE FROM web_sessions WHERE user_xid = ? AND instance_id = ?", (user_xid, instance_id)
                )
            await db.execute(
                "INSERT INTO web_sessions (id_hash, user_xid, how, created_at, expires_at, instance_id)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (digest(raw_id), user_xid, how, now, expires_at, instance_id),
            )

    async def session(self, raw_id: str, now: int) -> SessionRow | None:
        """The live session of a cookie's id (None: unknown, revoked or expired)."""
        row = await self._one(_SESSION + " WHERE id_hash = ? AND expires_at > ?", (digest(raw_id), now))
        return SessionRow(*row) if row is not None else None

    async def sessions_of(self, user_xid: int, now: int) -> list[SessionRow]:
        rows = await self._all(
            _SESSION + " WHERE user_xid = ? AND expires_at > ? ORDER BY created_at DESC, id_hash", (user_xid, now)
        )
        return [SessionRow(*row) for row in rows]

    async def end_session(self, user_xid: int, id_hash: str) -> int:
        """Ends one session of the user (by its hash); the sessions ended (0 or 1)."""
        async with self.store.transaction() as db:
            return await db.execute("DELETE FROM web_sessions WHERE user_xid = ? AND id_hash = ?", (user_xid, id_hash))

    async def end_sessions(self, user_xid: int) -> int:
        """Ends every session of the user (sign out everywhere); how many ended."""
        async with self.store.transaction() as db:
            return await db.execute("DELETE FROM web_sessions WHERE user_xid = ?", (user_xid,))

    async def end_instance(self, instance_id: str) -> int:
        """Ends every session bound to an Activity's instance (it has ended); how many ended."""
        async with self.store.transaction() as db:
            return await db.execute("DELETE FROM web_sessions WHERE instance_id = ?", (instance_id,))

    async def forget_user(self, user_xid: int) -> int:
        """Forget-me: every session and unused sign-in link of the user (their moves' keys go with the sessions)."""
        async with self.store.transaction() as db:
            ended = await db.execute("DELETE FROM web_sessions WHERE user_xid = ?", (user_xid,))
            links = await db.execute("DELETE FROM web_signins WHERE user_xid = ?", (user_xid,))
        return ended + links

    # -- sign-in links -----------------------------------------------------------------------------
    async def add_signin(self, raw_token: str, user_xid: int, game_id: int | None, now: int, expires_at: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM web_signins WHERE expires_at <= ?", (now,))
            await db.execute(
                "INSERT INTO web_signins (token_hash, user_xid, game_id, expires_at) VALUES (?, ?, ?, ?)",
                (digest(raw_token), user_xid, game_id, expires_at),
            )

    async def use_signin(
        self, raw_token: str, now: int, raw_session: str, session_days_ms: int, how: str = "link"
    ) -> tuple[int, int | None] | None:
        """A sign-in link used once: (user, game) and a new session under ``raw_session``, in one transaction;
        None (nothing written) for an unknown, used or expired link."""
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                "SELECT user_xid, game_id FROM web_signins WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
                (digest(raw_token), now),
            )
            if row is None:
                return None
            taken = await db.execute(
                "UPDATE web_signins SET used_at = ? WHERE token_hash = ? AND used_at IS NULL", (now, digest(raw_token))
            )
            if taken != 1:
                return None
            user_xid, game_id = int(row[0]), (int(row[1]) if row[1] is not None else None)
            await db.execute(
                "INSERT INTO web_sessions (id_hash, user_xid, how, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                (digest(raw_session), user_xid, how, now, now + session_days_ms),
            )
        return user_xid, game_id

    # -- OAuth2 states -----------------------------------------------------------------------------
    async def add_state(self, raw_state: str, verifier: str, now: int, expires_at: int) -> None:
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM web_oauth WHERE expires_at <= ?", (now,))
            await db.execute(
                "INSERT INTO web_oauth (state_hash, verifier, expires_at) VALUES (?, ?, ?)",
                (digest(raw_state), verifier, expires_at),
            )

    async def take_state(self, raw_state: str, now: int) -> str | None:
        """The PKCE verifier of a live state, which is used up (None: unknown, used or expired)."""
        async with self.store.transaction() as db:
            row = await db.fetch_one(
                "SELECT verifier FROM web_oauth WHERE state_hash = ? AND expires_at > ?", (digest(raw_state), now)
            )
            if row is None:
                return None
            await db.execute("DELETE FROM web_oauth WHERE state_hash = ?", (digest(raw_state),))
        return str(row[0])

    # -- idempotency keys ----------------------------------------------------------------------------
    async def move_record(self, id_hash: str, key: str) -> MoveRecord | None:
        row = await self._one(
            "SELECT digest, version FROM web_moves WHERE session_hash = ? AND key = ?", (id_hash, key)
        )
        return MoveRecord(str(row[0]), int(row[1])) if row is not None else None

    async def add_move_record(self, id_hash: str, key: str, record: MoveRecord, now: int) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO web_moves (session_hash, key, digest, version, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_hash, key) DO NOTHING",
                (id_hash, key, record.digest, record.version, now),
            )
