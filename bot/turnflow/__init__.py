"""What happens after a move, for every front-end: announcements, AI seats, timers, settling, resuming.

No Discord here. A front-end implements :class:`Announcer` (Discord: the game cog; the terminal:
``bot.local``) and hands moves to :meth:`TurnFlow.after_move`. The flow decides whether a move is a
whole turn (announce it) or a step inside one (only the status changes), lets awaited AI seats play,
applies timers when they run out, and after a restart tells every move that was committed but never
announced before any AI moves past it. Channel posts use the game's own language (``games.locale``).

Several processes on one database (shards): with ``leases`` each game's background work is leased in
the store, so exactly one process acts on it. ``ai:<game>`` is held while a process tells what a dead
run left untold and plays the game's awaited AI seats (renewed before every move); ``timer:<game>``
while a process watches a game's timer (until the deadline and a grace: a timer nobody fired by then
belongs to a dead process). :meth:`TurnFlow.take_over` (every few seconds, from the timer loop) finds
the leases whose time ran out and takes that work over. ``mine`` says which games a process resumes
after its own restart (those of its shards' servers). Without leases (SQLite: one process per file)
all of this stays in memory, as it always was.

A graceful stop (:mod:`bot.drain`): :meth:`TurnFlow.stop_new_work` lets the AI moves under way finish and
starts no other (nor any timer); :meth:`TurnFlow.hand_over` then ends this process's leases at once, so
another process takes the games over at its next look instead of a lease's length later.

The flow's parts: :mod:`~bot.turnflow.protocols` (the announcer, the leases), :mod:`~bot.turnflow.base`
(its state, telling a move, leases), :mod:`~bot.turnflow.ai` (AI seats), :mod:`~bot.turnflow.timers`
(timers, the take-over) and :mod:`~bot.turnflow.flow` (:class:`TurnFlow`: resume, stop). This module only
re-exports their names.
"""

from bot.turnflow.flow import TurnFlow
from bot.turnflow.protocols import (
    LEASE_MS,
    SWEEP_BATCH,
    SWEEP_MS,
    TIMER_GRACE_MS,
    Announcer,
    SilentAnnouncer,
    WorkLeases,
)

__all__ = [
    "LEASE_MS",
    "SWEEP_BATCH",
    "SWEEP_MS",
    "TIMER_GRACE_MS",
    "Announcer",
    "SilentAnnouncer",
    "TurnFlow",
    "WorkLeases",
]
