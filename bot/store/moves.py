"""The store's move log: a game started with its first snapshot, a move appended with its snapshot in one
transaction (the version checked inside it), the newest move taken back, a game finished or withdrawn, the
moves and snapshot read back, and the live updates (every watched game's version in one query; PostgreSQL's
``NOTIFY`` in each move's transaction and the listener that hears every process's moves)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.store.counters import COUNTERS
from bot.store.database import CONNECT_TIMEOUT, Database
from bot.store.engine import MOVES_CHANNEL, NOTIFY_MOVE, POSTGRES, MoveListener, Tx, move_payload
from bot.store.errors import StaleVersion
from bot.store.rows import MoveRow, dumps


@dataclass(frozen=True)
class Committed:
    """A committed move: the game's new ``version``, and what the move's own statement read at its moment on
    PostgreSQL, so that what follows every move needs no round trip for it (None on SQLite: not read, ask):

    - ``older_undos_open``: whether an undo proposal of an older version was still open (else ask
      :meth:`~bot.store.community.undo.UndoStore.expire_undos`);
    - ``settings``: the game's server's settings and the game's own, as stored (else ask
      :meth:`~bot.store.community.settings.SettingsStore.game_settings`);
    - ``followers``: the game's followers, the longest-standing first (else ask
      :meth:`~bot.store.community.followers.FollowerStore.followers`)."""

    version: int
    older_undos_open: bool | None = None
    settings: tuple[dict[str, Any], dict[str, Any]] | None = None
    followers: tuple[int, ...] | None = None


SAVE_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, version, state) VALUES (?, ?, ?)"
    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state"
)


def _stored(data: str | None) -> dict[str, Any]:
    return dict(json.loads(data)) if data else {}


@functools.lru_cache(maxsize=8)
def move_statement(sets: str) -> str:
    """PostgreSQL's move in one statement (one round trip, a transaction by itself; four texts at most, each
    prepared once per connection): the game row updated only at the expected version while active (a second
    process committing the same version waits for the row lock, then matches nothing), the move appended,
    the snapshot saved and the move announced (``NOTIFY``, sent at the statement's commit) only if it was; and
    what follows every move reads (:class:`Committed`), at the statement's moment: whether an undo proposal of an
    older version is open (a proposal committed later is expired when it is answered, as one made after undo's
    check always was), the server's and the game's settings, the followers.
    Parameters: ``sets``' values, the game, the expected version, seat, move, at, actor, state. Its one row
    counts the games updated (0: stale, nothing written), then the open older proposals (at most one is read),
    the server's settings, the game's, and the followers' ids (comma-separated; NULL for none of each)."""
    return (
        f"WITH game AS (UPDATE games SET {sets} WHERE id = ? AND version = ? AND status = 'active'"
        " RETURNING id, version, guild_xid),"
        " appended AS (INSERT INTO moves (game_id, version, seat, move, at, actor_xid)"
        " SELECT id, version, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM game"
        " RETURNING version),"
        " saved AS (INSERT INTO snapshots (game_id, version, state) SELECT id, version, CAST(? AS TEXT) FROM game"
        " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state RETURNING version),"
        f" told AS (SELECT pg_notify('{MOVES_CHANNEL}', CAST(id AS TEXT) || ':' || CAST(version AS TEXT)) FROM game)"
        " SELECT (SELECT COUNT(*) FROM game), (SELECT COUNT(*) FROM appended), (SELECT COUNT(*) FROM saved),"
        " (SELECT COUNT(*) FROM told),"
        " (SELECT COUNT(*) FROM (SELECT 1 FROM community_undo u, game WHERE u.game_id = game.id"
        " AND u.status = 'open' AND u.version < game.version LIMIT 1) AS older),"
        " (SELECT s.data FROM community_settings s, game WHERE s.scope = 'guild'"
        " AND s.scope_id = COALESCE(game.guild_xid, 0)),"
        " (SELECT s.data FROM community_settings s, game WHERE s.scope = 'game' AND s.scope_id = game.id),"
        " (SELECT string_agg(CAST(f.user_xid AS TEXT), ',' ORDER BY f.since, f.user_xid)"
        " FROM community_followers f, game WHERE f.game_id = game.id)"
    )


class MoveLog(Database):
    """The append-only move log and the snapshots (a part of :class:`~bot.store.Store`)."""

    # -- play --------------------------------------------------------------------------------
    async def start_game(self, game_id: int, *, state: Mapping[str, Any], at: int) -> bool:
        """Lobby -> active with the initial snapshot at version 0. False if it was not a lobby."""
        async with self._writing(game_id, seats=False) as db:
            changed = await db.execute(
                "UPDATE games SET status = 'active', started_at = ?, updated_at = ?, awaiting_since = ?"
                " WHERE id = ? AND status = 'lobby' AND version = 0",
                (at, at, at, game_id),
            )
            if changed == 0:
                return False
            await db.execute(SAVE_SNAPSHOT, (game_id, 0, dumps(state)))
        return True

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        move: Mapping[str, Any],
        at: int,
        actor_xid: int | None,
        state: Mapping[str, Any],
        awaiting_changed: bool,
        result: Mapping[str, Any] | None = None,
    ) -> Committed:
        """Append a move and its snapshot in one transaction; returns the new version (:class:`Committed`).

        StaleVersion (and nothing written) if the game is not active at ``expected_version``.
        """
        new_version = expected_version + 1
        sets = ["version = ?", "updated_at = ?"]
        params: list[Any] = [new_version, at]
        if awaiting_changed:
            sets.append("awaiting_since = ?")
            params.append(at)
        if result is not None:
            sets += ["status = 'finished'", "finished_at = ?", "result = ?"]
            params += [at, dumps(result)]
        if self.dialect == POSTGRES:
            # One statement, so one round trip and its own transaction: the same checks and writes as below.
            COUNTERS.notifies += 1
            done = await self._write_one(
                move_statement(", ".join(sets)),
                (*params, game_id, expected_version, seat, dumps(move), at, actor_xid, dumps(state)),
            )
            if not done or int(done[0][0]) == 0:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            row = done[0]
            return Committed(
                new_version,
                older_undos_open=int(row[4]) > 0,
                settings=(_stored(row[5]), _stored(row[6])),
                followers=tuple(int(u) for u in row[7].split(",")) if row[7] else (),
            )
        async with self._writing(game_id, seats=False) as db:
            # The version check is this UPDATE's WHERE, inside the transaction: on PostgreSQL a second
            # process committing the same version waits for the row, then matches nothing.
            changed = await db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? AND status = 'active'",
                (*params, game_id, expected_version),
            )
            if changed == 0:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            await db.execute(
                "INSERT INTO moves (game_id, version, seat, move, at, actor_xid) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, dumps(move), at, actor_xid),
            )
            await db.execute(SAVE_SNAPSHOT, (game_id, new_version, dumps(state)))
            await self._announce(db, game_id, new_version)
        return Committed(new_version)

    async def undo_last_move(
        self, game_id: int, *, expected_version: int, at: int, state: Mapping[str, Any], awaiting_changed: bool = True
    ) -> int:
        """Mark the newest live move taken back, bump the version, store the rebuilt snapshot.

        The time banks' turn records from that move on go with it (migration 014's ``clock_turns``), in the
        same transaction: the seats awaited before the move were awaited all along, so the banks are as if
        the move had never been made (the time until the undo is the awaited seats' again, not the time of
        whoever the move made wait); the reminder loop records who is awaited after the undo.

        StaleVersion (nothing written) if the game moved on. Returns the new version.
        """
        new_version = expected_version + 1
        async with self._writing(game_id, seats=False) as db:
            changed = await db.execute(
                "UPDATE games SET version = ?, updated_at = ?, awaiting_since = CASE WHEN ? = 1 THEN ?"
                " ELSE awaiting_since END WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, at, int(awaiting_changed), at, game_id, expected_version),
            )
            if changed == 0:
                raise StaleVersion(f"game {game_id} is not at version {expected_version}")
            await db.execute(
                "DELETE FROM clock_turns WHERE game_id = ? AND version >="
                " (SELECT MAX(version) FROM moves WHERE game_id = ? AND undone_at IS NULL)",
                (game_id, game_id),
            )
            changed = await db.execute(
                "UPDATE moves SET undone_at = ? WHERE game_id = ? AND version ="
                " (SELECT MAX(version) FROM moves WHERE game_id = ? AND undone_at IS NULL)",
                (at, game_id, game_id),
            )
            if changed != 1:
                raise StaleVersion(f"game {game_id} has no move to take back")
            await db.execute(SAVE_SNAPSHOT, (game_id, new_version, dumps(state)))
            await self._announce(db, game_id, new_version)
        return new_version

    async def finish_game(self, game_id: int, *, status: str, at: int, result: Mapping[str, Any] | None) -> bool:
        """Mark a live game finished or abandoned (outside a move). False if it was not live."""
        async with self._writing(game_id, seats=False) as db:
            changed = await db.execute(
                "UPDATE games SET status = ?, finished_at = ?, updated_at = ?, result = ?"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (status, at, at, dumps(result) if result is not None else None, game_id),
            )
            return changed > 0

    async def withdraw_lobby(self, game_id: int) -> bool:
        """Remove a lobby that was never shown, with its seats (the foreign keys cascade), as if it had
        never been opened. False if the game is no longer in its lobby."""
        async with self._writing(game_id) as db:
            return await db.execute("DELETE FROM games WHERE id = ? AND status = 'lobby'", (game_id,)) > 0

    async def moves(self, game_id: int, *, upto: int | None = None, include_undone: bool = False) -> list[MoveRow]:
        """The live moves of a game (oldest first), up to a version; taken-back moves only on request."""
        rows = await self._all(
            "SELECT game_id, version, seat, move, at, actor_xid FROM moves WHERE game_id = ?"
            " AND (CAST(? AS BIGINT) IS NULL OR version <= ?) AND (? = 1 OR undone_at IS NULL) ORDER BY version",
            (game_id, upto, upto, int(include_undone)),
        )
        return [MoveRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        row = await self._one("SELECT version, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (int(row[0]), json.loads(row[1])) if row else None

    # -- live updates ------------------------------------------------------------------------
    async def game_versions(self, game_ids: Iterable[int]) -> dict[int, int]:
        """The current version of each of these games (one query per 500 ids; unknown ids are left out):
        the web pages' live updates poll it for every watched game at once."""
        ids = sorted(set(game_ids))
        found: dict[int, int] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self._all(
                f"SELECT id, version FROM games WHERE id IN ({', '.join('?' for _ in chunk)})", chunk
            )
            found.update((int(r[0]), int(r[1])) for r in rows)
        return found

    async def _announce(self, db: Tx, game_id: int, version: int) -> None:
        """PostgreSQL: ``NOTIFY`` the new version on :data:`~bot.store.engine.MOVES_CHANNEL` in the move's
        own transaction (sent by the server at its commit, never for a rolled-back one), so every process's
        :meth:`listen_moves` hears of it. SQLite (one process per file): nothing."""
        if db.dialect == POSTGRES:
            COUNTERS.notifies += 1
            await db.fetch_one(NOTIFY_MOVE, (move_payload(game_id, version),))

    async def listen_moves(
        self, on_move: Callable[[int, int], None], on_state: Callable[[bool], None] | None = None
    ) -> MoveListener | None:
        """PostgreSQL: ``on_move(game_id, version)`` for every move (or take-back) committed by any process
        on this database, heard on one dedicated connection of this process (``LISTEN``), connected again
        when it drops; ``on_state(listening)`` when it starts or stops listening (while it does not, the
        caller reads :meth:`game_versions` itself). Returns the listener (``await listener.close()``), already
        listening unless the server could not be reached (then it keeps trying). SQLite: None (one process
        per file: its own moves are all there is)."""
        if self.dialect != POSTGRES:
            return None
        listener = MoveListener(self._path, on_move, on_state, timeout=CONNECT_TIMEOUT)
        await listener.start()
        return listener
