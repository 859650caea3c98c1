"""A start-up database problem as one sentence, for both front-ends (``python -m bot`` and ``local``).

Its own module so that :mod:`bot.__main__` and :mod:`bot.local` both import it and neither imports the other.
"""

from __future__ import annotations

from pathlib import Path

from bot.cli import say


def database_sentence(exc: Exception, path: Path | str, setting: str = "DATABASE_PATH") -> str:
    """A start-up database problem as the sentence that says what to do (a PostgreSQL URL is named
    without its password); ``setting`` is what the user changes to name another database
    (``DATABASE_PATH``, or ``--db`` in the terminal)."""
    from bot import store

    keys: dict[type[Exception], str] = {
        store.DatabaseLocked: "cli.db.in_use",
        store.DatabaseBusy: "cli.db.busy",
        store.DatabaseNewer: "cli.db.newer",
        store.DatabaseCorrupt: "cli.db.corrupt",
        store.DatabaseUnreachable: "cli.db.unreachable",
        store.DatabaseForeign: "cli.db.foreign",
        store.DatabaseIsFolder: "cli.db.is_folder",
    }
    key = keys.get(type(exc), "cli.db.unreadable")
    shown = store.redact(path) if isinstance(path, str) and store.is_url(path) else path
    return say(key, path=shown, setting=setting, **getattr(exc, "params", {}))
