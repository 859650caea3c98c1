"""Test-only entry point of the bot process: the real ``python -m bot`` plus the toy game.

The launcher (``bot.testing.fakediscord.launch``) runs ``FAKE_DISCORD_ENTRY=bot.testing.entry:main``:
this registers the toy game (:mod:`bot.testing.toygame`, secret simultaneous bids) and its presenter,
then hands over to :func:`bot.__main__.main` unchanged. The presenter draws a tiny PNG for every
board so that turn posts are uploads, as with the real games (needed for the Attach Files cases).

``PROCESS_POST_TIMEOUT`` and ``PROCESS_POST_BACKOFF`` (seconds), when set, replace
:data:`cogs.operations.base.POST_TIMEOUT_SECONDS` and ``POST_BACKOFF_SECONDS`` (where every Discord call reads
them) so the tests of Discord failures run in seconds instead of minutes (the retries and their doubling stay as
they are).
``PROCESS_STORE_COUNTERS``, when set, names the file ``kill -USR2`` writes the store's counters to.
``PROCESS_CLOCK_FILE``, when set, names a file holding milliseconds added to the bot's clock
(:class:`bot.service.SystemClock`), read at every reading: a test moves the bot's time forward by
writing it, and the offset survives a kill and a restart as the real clock would.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import Any

TOY_PRESENTER_KIND = "toy"


def tiny_png(shade: int = 0) -> bytes:
    """A valid 4x3 RGB PNG made with the standard library (the colour varies with ``shade``)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes((40 + 50 * (shade % 4), 90, 160)) * 4
    header = struct.pack(">IIBBBBB", 4, 3, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * 3)) + chunk(b"IEND", b"")


def install() -> None:
    """Register the toy game and its presenter in this process (idempotent)."""
    from bot import games
    from bot.testing.toygame import RULES
    from cogs import presenters
    from cogs.operations import base as operations_base

    class ToyPresenter(presenters.Presenter[Any]):
        """The toy game's bids are secret: each player opens their choices privately."""

        kind = TOY_PRESENTER_KIND

        # ``*_`` takes whatever else the presenter protocol passes (player names...).
        def render_turn(self, view: dict[str, Any], seat: int | None, *_: Any) -> bytes | None:
            return tiny_png(len(view.get("revealed") or ()))

        def render_end(self, view: dict[str, Any], *_: Any) -> bytes | None:
            return tiny_png(3)

    clock_file = os.environ.get("PROCESS_CLOCK_FILE", "").strip()
    if clock_file:
        shift_clock(Path(clock_file))
    games.register_rules(RULES, secret=True)
    presenters.register(ToyPresenter())
    for variable, constant in (
        ("PROCESS_POST_TIMEOUT", "POST_TIMEOUT_SECONDS"),
        ("PROCESS_POST_BACKOFF", "POST_BACKOFF_SECONDS"),
    ):
        value = os.environ.get(variable, "").strip()
        if value and hasattr(operations_base, constant):
            setattr(operations_base, constant, float(value))


def shift_clock(path: Path) -> None:
    """Make the service's system clock run ``int(path.read_text())`` ms ahead (0 if unreadable)."""
    from bot import service

    real = service.SystemClock.now_ms

    def now_ms(self: service.SystemClock) -> int:
        try:
            offset = int(path.read_text().strip() or 0)
        except (OSError, ValueError):
            offset = 0
        return real(self) + offset

    service.SystemClock.now_ms = now_ms  # type: ignore[method-assign]


def dump_tasks_on_sigusr1() -> None:
    """``kill -USR1 <pid>`` writes every asyncio task's stack to stderr (the process's log): what a
    hung bot waits on."""
    import asyncio
    import signal
    import sys

    def dump(*_: Any) -> None:
        try:
            tasks = asyncio.all_tasks()
        except RuntimeError:
            return
        for task in tasks:
            print(f"--- task {task.get_name()}", file=sys.stderr)
            task.print_stack(limit=12, file=sys.stderr)
        sys.stderr.flush()

    signal.signal(signal.SIGUSR1, dump)


def write_counters_on_sigusr2(path: Path) -> None:
    """``kill -USR2 <pid>`` writes the store's counters (:mod:`bot.store.counters`) to ``path`` as JSON, with a
    ``seq`` that grows at each writing (the load bench reads them at the start and end of its window)."""
    import json
    import signal

    from bot.store.counters import COUNTERS

    written = [0]

    def write(*_: Any) -> None:
        written[0] += 1
        part = path.with_name(path.name + ".part")
        part.write_text(json.dumps({**COUNTERS.snapshot(), "seq": written[0]}))
        part.replace(path)

    signal.signal(signal.SIGUSR2, write)


def main() -> int:
    install()
    dump_tasks_on_sigusr1()
    counters = os.environ.get("PROCESS_STORE_COUNTERS", "").strip()
    if counters:
        write_counters_on_sigusr2(Path(counters))
    from bot.__main__ import main as bot_main

    return bot_main([])
