"""A start-up database problem as one sentence, for both front-ends (``python -m bot`` and ``local``).

Its own module so that :mod:`bot.__main__` and :mod:`bot.local` both import it and neither imports the other.
"""

from __future__ import annotations

from pathlib import Path

from bot.cli import say


def database_sentence(exc: Exception, path: Path | str) -> str:
    """A start-up database problem as the sentence that says what to do (a PostgreSQL URL is named
    without its password)."""
    from bot import store

    keys: dict[type[Exception], str] = {
        store.DatabaseLocked: "cli.db.in_use",
        store.DatabaseBusy: "cli.db.busy",
        store.DatabaseNewer: "cli.db.newer",
        store.DatabaseCorrupt: "cli.db.corrupt",
        store.DatabaseUnreachable: "cli.db.unreachable",
    }
    key = keys.get(type(exc), "cli.db.unreadable")
    shown = store.redact(path) if isinstance(path, str) and store.is_url(path) else path
    return say(key, path=shown, **getattr(exc, "params", {}))
