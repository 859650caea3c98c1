"""Standard input for ``local --web``: the terminal's lines read by a daemon thread, one per prompt."""

from __future__ import annotations

import asyncio
import threading
from typing import Any


class Quit(Exception):
    """The player typed ``q`` or closed the input: the game stays saved, to go on with ``--resume``."""

    def __init__(self, end_of_input: bool) -> None:
        super().__init__("quit")
        self.end_of_input = end_of_input


class StandardInput:
    """Standard input's lines for ``--web``, read by one daemon thread (a blocked read never holds the
    process at its end, as a worker of ``asyncio.to_thread`` would), one line each time a prompt asks, and
    handed to the event loop. A line that comes after its prompt gave way to a move made on the page, before
    the next prompt was shown, was meant for the old menu: it is dropped, never applied to the new one."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.pending: asyncio.Task[str | None] | None = None
        self.superseded = False
        self.ended = False
        self.wanted = threading.Semaphore(0)
        threading.Thread(target=self._read, args=(loop,), name="local-stdin", daemon=True).start()

    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            self.wanted.acquire()
            try:
                line: str | None = input()
            except EOFError:
                line = None
            try:
                loop.call_soon_threadsafe(self.queue.put_nowait, line)
            except RuntimeError:  # the loop is closed: the program ends
                return
            if line is None:
                return

    def _ask(self) -> asyncio.Task[str | None]:
        if self.pending is None:
            self.wanted.release()
            self.pending = asyncio.ensure_future(self.queue.get())
        return self.pending

    async def next_line(self, interrupt: asyncio.Event | None) -> str | None:
        """The next line typed (a Quit at the end of input), or None as soon as ``interrupt`` is set."""
        if self.ended:
            raise Quit(end_of_input=True)
        if self.superseded and self.pending is not None and self.pending.done() and self.pending.result() is not None:
            self.pending = None  # typed for the menu the page's move replaced
        self.superseded = False
        pending = self._ask()
        waits: set[asyncio.Future[Any]] = {pending}
        stop = asyncio.ensure_future(interrupt.wait()) if interrupt is not None else None
        if stop is not None:
            waits.add(stop)
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if stop is not None:
                stop.cancel()
        if not pending.done() or (interrupt is not None and interrupt.is_set()):
            self.superseded = True
            return None  # interrupted: a line still coming was typed for this prompt
        line, self.pending = pending.result(), None
        if line is None:
            self.ended = True
            raise Quit(end_of_input=True)
        return line
