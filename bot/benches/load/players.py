"""The load bench's simulated players: a pair per channel playing the toy game back to back, each waiting
for the bot's answer before acting again (:func:`drive`), and what they measured (:class:`Run`).

Split from :mod:`bot.benches.load` (the module budget, ARCHITECTURE.md), which re-exports these names."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

WAIT_SECONDS = 60.0
"""A simulated player gives up on an answer after this long (counted in ``errors``)."""
PAIRS = (("alice", "bob"), ("carol", "dave"))
BIDS = ((3, 1), (1, 2), (2, 3))
ACK_MARKERS = (" has bid.", "Bids revealed:")
END_RE = re.compile(r"Game #(\d+) is over")
OPEN_RE = re.compile(r"^open:(\d+):(\d+)$")


class Refused(Exception):
    """The bot answered a click with a sentence instead of playing it."""


@dataclass
class Run:
    """What one mode measured."""

    callback_s: list[float] = field(default_factory=list)
    callback_by_kind: dict[str, list[float]] = field(default_factory=dict)
    move_ack_s: list[float] = field(default_factory=list)
    acked: list[tuple[int, int, int]] = field(default_factory=list)  # (game, user, card)
    games: list[int] = field(default_factory=list)
    interactions: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Tracker:
    """Indexes what the bot sends as it arrives at the fake, so players wait in O(1)."""

    def __init__(self, fake: Any, run: Run) -> None:
        self.fake = fake
        self.run = run
        self.cursor = 0
        self.seen: dict[tuple[Any, ...], Any] = {}
        self.waiters: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self.created: dict[int, float] = {}
        self.kinds: dict[int, str] = {}
        self.task: asyncio.Task[None] | None = None
        self.stopping = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="load-tracker")

    async def stop(self) -> None:
        # A flag, not only a cancellation: on Python 3.11 asyncio.wait_for (inside fake.wait_until) drops
        # a cancellation that arrives as its event is set, and the tracker then waited for an hour.
        self.stopping = True
        self.fake.notify()
        while self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait([self.task], timeout=1.0)

    async def _loop(self) -> None:
        while not self.stopping:
            await self.fake.wait_until(lambda: self.stopping or len(self.fake.sent) > self.cursor, 3600.0, "sends")
            new = self.fake.sent[self.cursor :]
            self.cursor += len(new)
            for sent in new:
                self._index(sent)

    def _index(self, sent: Any) -> None:
        iid = sent.interaction_id
        if sent.kind == "callback":
            created = self.created.get(iid)
            if created is not None:
                self.run.callback_s.append(sent.request.at - created)
                kind = self.kinds.get(iid, "other")
                self.run.callback_by_kind.setdefault(kind, []).append(sent.request.at - created)
            self._resolve(("callback", iid), sent)
        elif sent.kind == "edit" and any(m in (sent.content or "") for m in ACK_MARKERS):
            self._resolve(("ack", iid), sent)
        elif sent.kind == "followup" and sent.ephemeral and sent.content:
            self._resolve(("ack", iid), Refused(sent.content))
        elif sent.kind == "message":
            for cid in sent.custom_ids:
                found = OPEN_RE.match(cid)
                if found:
                    self._resolve(("turn", int(found[1]), int(found[2])), sent)
            ended = END_RE.search(sent.content or "")
            if ended:
                self._resolve(("end", int(ended[1])), sent)

    def _resolve(self, key: tuple[Any, ...], value: Any) -> None:
        if key in self.seen:
            return
        self.seen[key] = value
        waiter = self.waiters.pop(key, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(value)

    async def wait(self, key: tuple[Any, ...]) -> Any:
        value = self.seen.get(key)
        if value is None:
            waiter = self.waiters.get(key)
            if waiter is None:
                waiter = self.waiters[key] = asyncio.get_running_loop().create_future()
            value = await asyncio.wait_for(asyncio.shield(waiter), WAIT_SECONDS)
        if isinstance(value, Exception):
            raise value
        return value

    async def deliver(self, handle: Any, kind: str) -> Any:
        """Inject an interaction; ``kind`` groups its latency (new, lobby, open, bid)."""
        self.run.interactions += 1
        self.created[handle.id] = time.monotonic()
        self.kinds[handle.id] = kind
        await self.fake.deliver(handle)
        return handle


async def play_games(fake: Any, tracker: Tracker, channel: str, host: str, guest: str, deadline: float) -> None:
    """Games back to back in one channel until ``deadline``: at least one, and the last one finished."""
    run = tracker.run
    users = {host: fake.user(host).id, guest: fake.user(guest).id}
    played = 0
    while played == 0 or time.monotonic() < deadline:
        played += 1
        lobby = await tracker.deliver(fake.make_slash("game", "new", game="toy", user=host, channel=channel), "new")
        sent = await tracker.wait(("callback", lobby.id))
        gid = int(next(c for c in sent.custom_ids if c.endswith(":join")).split(":")[1])
        run.games.append(gid)
        join = await tracker.deliver(fake.make_click(sent, f"lobby:{gid}:join", user=guest), "lobby")
        await tracker.wait(("callback", join.id))
        start = await tracker.deliver(fake.make_click(sent, f"lobby:{gid}:start", user=host), "lobby")
        await tracker.wait(("callback", start.id))
        version = 0
        for a, b in BIDS:
            turn = await tracker.wait(("turn", gid, version))
            for user, card in ((host, a), (guest, b)):
                opened = await tracker.deliver(fake.make_click(turn, f"open:{gid}:{version}", user=user), "open")
                private = await tracker.wait(("callback", opened.id))
                button = next(
                    c
                    for c in private.custom_ids
                    if c.startswith("mv:") and json.loads(c.split(":", 4)[4])["card"] == card
                )
                click = await tracker.deliver(fake.make_click(private, button, user=user), "bid")
                t0 = tracker.created[click.id]
                await tracker.wait(("ack", click.id))
                run.move_ack_s.append(time.monotonic() - t0)
                run.acked.append((gid, users[user], card))
            version += 2
        await tracker.wait(("end", gid))


async def drive(fake: Any, channels: list[str], seconds: float, run: Run) -> None:
    """All channels at once; fills ``run``."""
    tracker = Tracker(fake, run)
    tracker.start()
    t0 = time.monotonic()
    deadline = t0 + seconds

    async def worker(i: int, channel: str) -> None:
        host, guest = PAIRS[i % len(PAIRS)]
        try:
            await play_games(fake, tracker, channel, host, guest, deadline)
        except (TimeoutError, Refused, StopIteration, KeyError, ValueError) as exc:
            run.errors.append(f"#{channel}: {exc!r}")

    try:
        await asyncio.gather(*(worker(i, c) for i, c in enumerate(channels)))
    finally:
        run.seconds = time.monotonic() - t0
        await tracker.stop()


def world_channels(fake: Any, count: int) -> list[str]:
    names = [f"load-{i:03d}" for i in range(count)]
    for name in names:
        fake.world.add_channel(name)
    return names
