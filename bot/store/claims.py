"""Taking queued work rows with a lease, the same way for every queue of the bot (the community outbox's
reminders and notices, forget-me's edits of old posts).

A queue's rows carry ``id``, ``status`` (``queued``, ``claimed``, then a final one), ``claim_boot`` (the run
that holds it), ``lease_until`` (epoch ms) and ``attempts``. :func:`take_due` takes the rows nobody
holds: queued ones, and claims whose lease ran out (their owner died or gave up). Each is taken by a
compare-and-set on the owner and lease it was read with, so two processes never take the same row; on
PostgreSQL the rows are read ``FOR UPDATE SKIP LOCKED``. On SQLite, where the lock file allows one
process, another run's claims are taken at once (that run is over). A row tried ``max_attempts`` times
is given up (status ``failed``) instead of taken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from bot.store.engine import POSTGRES, SQLITE, Tx


class Claimable(Protocol):
    """A queue's row as :func:`take_due` reads it (a frozen dataclass)."""

    @property
    def id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def claim_boot(self) -> str: ...
    @property
    def lease_until(self) -> int: ...
    @property
    def attempts(self) -> int: ...


R = TypeVar("R", bound=Claimable)


async def take_due(
    db: Tx,
    table: str,
    columns: Sequence[str],
    parse: Callable[[Sequence[Any]], R],
    *,
    owner: str,
    now: int,
    limit: int,
    max_attempts: int,
    lease_ms: int,
    order: str = "id",
    stamp: str | None = None,
    give_up_queued: bool = False,
) -> list[R]:
    """Up to ``limit`` rows of ``table`` (read as ``columns``, made by ``parse``) taken for ``owner`` until
    ``now + lease_ms``, in ``order``. ``stamp``: a column that records when a row was taken (set to
    ``now``). ``give_up_queued``: a row handed back to the queue after ``max_attempts`` tries is given
    up too (else only a claim whose lease ran out is)."""
    taken: list[R] = []
    lock = " FOR UPDATE SKIP LOCKED" if db.dialect == POSTGRES else ""
    # A SQLite file has one process (its lock file): another run's claims are a dead run's.
    exclusive = db.dialect == SQLITE
    others = " OR claim_boot != ?" if exclusive else ""
    rows = [
        parse(r)
        for r in await db.fetch_all(
            f"SELECT {', '.join(columns)} FROM {table} WHERE status IN ('queued', 'claimed')"
            f" AND (status = 'queued' OR lease_until <= ?{others}) ORDER BY {order} LIMIT ?{lock}",
            (now, owner, limit) if exclusive else (now, limit),
        )
    ]
    stamped = f"{stamp} = ?, " if stamp else ""
    for row in rows:
        same = (row.id, row.status, row.claim_boot, row.lease_until)
        where = " WHERE id = ? AND status = ? AND claim_boot = ? AND lease_until = ?"
        if row.attempts >= max_attempts and (give_up_queued or row.status == "claimed"):
            await db.execute(f"UPDATE {table} SET status = 'failed', done_at = ?{where}", (now, *same))
            continue
        changed = await db.execute(
            f"UPDATE {table} SET claim_boot = ?, {stamped}lease_until = ?, attempts = attempts + 1,"
            f" status = 'claimed'{where}",
            (owner, *((now,) if stamp else ()), now + lease_ms, *same),
        )
        if changed == 1:
            fields: dict[str, Any] = {
                "claim_boot": owner,
                "lease_until": now + lease_ms,
                "attempts": row.attempts + 1,
                "status": "claimed",
            }
            if stamp:
                fields[stamp] = now
            taken.append(replace(row, **fields))  # type: ignore[type-var]
    return taken
