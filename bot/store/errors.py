"""What the store raises: :class:`StoreError` (a storage problem the service turns into a sentence) and the
start-up problems (:class:`DatabaseProblem` and its kinds), which ``bot.dbtext`` turns into one sentence."""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """A storage problem the service turns into a sentence."""


class DatabaseProblem(StoreError):
    """The database cannot be used at all; ``params`` complete the start-up sentence."""

    def __init__(self, problem: str = "", **params: Any) -> None:
        super().__init__(problem)
        self.params = {"problem": problem, **params}


class DatabaseLocked(DatabaseProblem):
    """Another process (a second bot) holds the database's lock file."""


class DatabaseBusy(DatabaseProblem):
    """Another program holds a lock inside the SQLite file and did not let go within the timeout."""


class DatabaseNewer(DatabaseProblem):
    """The file was written by a newer version of the bot (``found`` > ``newest``)."""


class DatabaseCorrupt(DatabaseProblem):
    """The file is not a SQLite database, or fails the integrity check (damaged or truncated)."""


class DatabaseForeign(DatabaseProblem):
    """The SQLite file belongs to another program (no mark of this bot, tables of its own): refused
    before anything is written to it, not even its lock file."""


class DatabaseIsFolder(DatabaseProblem):
    """The database's path is a folder."""


class DatabaseUnreadable(DatabaseProblem):
    """The file or its folder cannot be opened (permissions, a folder in the way...)."""


class DatabaseUnreachable(DatabaseProblem):
    """The PostgreSQL server cannot be reached or refuses the connection (down, wrong host, password
    or database name)."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or in play."""


class StaleVersion(StoreError):
    """The game moved on since the move was computed."""


class SeatTaken(StoreError):
    """The user already sits in that game."""
