"""The correspondence clocks' records (migrations 014, 016): who was awaited from when, vacations that
paused deadlines, the bot's downtime, the time players gave each other and the host's or moderators'
corrections. The banks are computed from these and the move log by :mod:`bot.community.clock`; nothing
here ticks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import TableStore
from bot.store.community.common import dumps

PERSONAL_COLUMNS = ("clock_aways.user_xid",)
"""Columns of this module's tables that hold a player's id."""


RECORD_TURN = (
    "INSERT INTO clock_turns (game_id, version, at, seats) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (game_id, version) DO NOTHING"
)
"""A turn record (:meth:`ClockStore.record_turn`), which the waits' store also writes with a move's waits."""


def turn_values(game_id: int, version: int, at: int, seats: Iterable[int]) -> tuple[int, int, int, str]:
    """:data:`RECORD_TURN`'s parameters: who is awaited after ``version``, from ``at``."""
    return game_id, version, at, dumps(sorted(seats))


@dataclass(frozen=True)
class ClockRecords:
    """A game's records as stored: turns (version, at, seats), live moves (seat, version, at), the
    vacations of its players on its server (user, since, ended), downtime (since, until), gifts
    (to_seat, at, ms, from_seat) and corrections (seat, at, ms; ms negative when time was taken)."""

    turns: list[tuple[int, int, frozenset[int]]]
    moves: list[tuple[int, int, int]]
    aways: list[tuple[int, int, int | None]]
    downtime: list[tuple[int, int]]
    gifts: list[tuple[int, int, int, int]]
    corrections: list[tuple[int, int, int]]


class ClockStore(TableStore):
    """The clocks' tables of one open :class:`bot.store.Store`."""

    async def record_turn(self, game_id: int, version: int, at: int, seats: Iterable[int]) -> bool:
        """Who is awaited after ``version``, from ``at`` (kept once per version: a second record of the same
        version, by a reconcile or another process, changes nothing). True if written. (A move's record is
        usually written with the game's waits instead: :func:`turn_values`.)"""
        return await self.write_turn(turn_values(game_id, version, at, seats))

    async def write_turn(self, values: Sequence[Any]) -> bool:
        """:meth:`record_turn` of :func:`turn_values` (one round trip on PostgreSQL). True if written."""
        return bool(await self._write_one(RECORD_TURN + " RETURNING game_id", values))

    async def records(self, game_id: int, guild_xid: int | None, users: Iterable[int], since: int) -> ClockRecords:
        """Everything a game's clocks are computed from (its players' vacations on its server that had
        not ended before ``since``, the game's start)."""
        turns = await self._all(
            "SELECT version, at, seats FROM clock_turns WHERE game_id = ? ORDER BY version", (game_id,)
        )
        moves = await self._all(
            "SELECT seat, version, at FROM moves WHERE game_id = ? AND undone_at IS NULL ORDER BY version", (game_id,)
        )
        people = sorted(set(users))
        aways: list[tuple[int, int, int | None]] = []
        if people and guild_xid is not None:
            marks = ", ".join("?" for _ in people)
            rows = await self._all(
                f"SELECT user_xid, since, ended FROM clock_aways WHERE guild_xid = ? AND user_xid IN ({marks})"
                " AND (ended IS NULL OR ended > ?)",
                (guild_xid, *people, since),
            )
            aways = [(int(r[0]), int(r[1]), None if r[2] is None else int(r[2])) for r in rows]
        downtime = await self._all("SELECT since, until FROM clock_downtime WHERE until > ?", (since,))
        # Gifts and corrections in one round trip: a correction's from_seat is -1 (a gift's is a seat).
        gifts = await self._all(
            "SELECT to_seat, at, ms, from_seat FROM clock_gifts WHERE game_id = ?"
            " UNION ALL SELECT seat, at, ms, -1 FROM clock_corrections WHERE game_id = ? ORDER BY 2",
            (game_id, game_id),
        )
        return ClockRecords(
            turns=[(int(r[0]), int(r[1]), frozenset(int(s) for s in json.loads(r[2]))) for r in turns],
            moves=[(int(r[0]), int(r[1]), int(r[2])) for r in moves],
            aways=aways,
            downtime=[(int(r[0]), int(r[1])) for r in downtime],
            gifts=[(int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in gifts if int(r[3]) >= 0],
            corrections=[(int(r[0]), int(r[1]), int(r[2])) for r in gifts if int(r[3]) < 0],
        )

    async def mark(self, game_id: int, guild_xid: int | None, users: Iterable[int]) -> tuple[object, ...]:
        """Everything but the move log a game's banks are computed from, condensed, in one round trip: its
        server's and its own settings (the time control), its turn records, gifts and corrections, its
        players' vacations on its server and the bot's downtime. Any change of them changes the mark, so a
        page cached under it shows a gift, a correction or a vacation at once, without a move."""
        people = sorted(set(users)) or [-1]
        marks = ", ".join("?" for _ in people)
        row = await self._one(
            "SELECT (SELECT data FROM community_settings WHERE scope = 'guild' AND scope_id = ?),"
            " (SELECT data FROM community_settings WHERE scope = 'game' AND scope_id = ?),"
            " (SELECT COUNT(*) FROM clock_turns WHERE game_id = ?),"
            " (SELECT COUNT(*) FROM clock_gifts WHERE game_id = ?),"
            " (SELECT COUNT(*) FROM clock_corrections WHERE game_id = ?),"
            " (SELECT COUNT(*) FROM clock_aways WHERE guild_xid = ? AND user_xid IN (" + marks + ")),"
            " (SELECT SUM(COALESCE(ended, 1)) FROM clock_aways WHERE guild_xid = ? AND user_xid IN (" + marks + ")),"
            " (SELECT COUNT(*) FROM clock_downtime), (SELECT MAX(until) FROM clock_downtime)",
            (guild_xid or 0, game_id, game_id, game_id, game_id, guild_xid or 0, *people, guild_xid or 0, *people),
        )
        return tuple(row) if row is not None else ()

    async def give(self, game_id: int, from_seat: int, to_seat: int, ms: int, *, at: int, day_ms: int) -> bool:
        """Record a gift of time, unless this seat gave that one time in the day before ``at`` (False)."""
        async with self.store.transaction() as db:
            await db.fetch_one("SELECT id FROM games WHERE id = ?" + db.for_update, (game_id,))  # one gift at a time
            recent = await db.fetch_one(
                "SELECT at FROM clock_gifts WHERE game_id = ? AND from_seat = ? AND to_seat = ? AND at > ?"
                " ORDER BY at DESC LIMIT 1",
                (game_id, from_seat, to_seat, at - day_ms),
            )
            if recent is not None:
                return False
            await db.execute(
                "INSERT INTO clock_gifts (game_id, at, from_seat, to_seat, ms) VALUES (?, ?, ?, ?, ?)",
                (game_id, at, from_seat, to_seat, ms),
            )
        return True

    async def correct(self, game_id: int, seat: int, ms: int, *, at: int) -> None:
        """Record a host's or moderator's correction: ``ms`` added to the seat's bank (negative: taken)."""
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO clock_corrections (game_id, at, seat, ms) VALUES (?, ?, ?, ?)", (game_id, at, seat, ms)
            )

    async def last_gift(self, game_id: int, from_seat: int, to_seat: int) -> int | None:
        row = await self._one(
            "SELECT MAX(at) FROM clock_gifts WHERE game_id = ? AND from_seat = ? AND to_seat = ?",
            (game_id, from_seat, to_seat),
        )
        return int(row[0]) if row and row[0] is not None else None
