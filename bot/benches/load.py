"""Load figures: moves per second across many channels through the real bot process and the fake
Discord, interaction-to-callback latency, and a check of every move against the store.

The workload is the toy game of the tests ("Sealed Bids", :mod:`bot.testing.toygame`, registered in the
bot process by :mod:`bot.testing.entry`): in every channel a pair of simulated players plays games
back to back, each a lobby (``/game new``, Join, Start) and three rounds in which both players open
their private choices and bid. Every simulated player waits for the bot's answer before acting
again (a closed loop), so the rate measured is what the bot sustains, not what was offered.

- ``process``: ``python -m bot`` as a child process, interactions injected over the fake gateway;
  everything the bot sends goes over HTTP to the fake. This is the figure that matters.
- ``inprocess``: the same bot object in this process, interactions fed to discord.py's parser
  (:meth:`FakeDiscord.use_client`); the fake, the players and the bot share one event loop and one
  core, so it is a reference for the ratio, not a faster bot.
- ``postgres.process``: the process again, on a PostgreSQL database (``DATABASE_URL``) of a throwaway
  server started here (:class:`bot.testing.postgres.PostgresServer`, fsync on). SQLite's figures keep
  their names (``load.process.*``, ``load.inprocess.*``). Without PostgreSQL's server programs the
  mode is skipped (``load.postgres.process.skipped``: "no PostgreSQL", one line on standard error); a mode
  that cannot run for another reason (a bot that does not start) is reported as
  ``load.<mode>.first_error``; the bench still ends normally.

Where the CPU goes: ``cpu_ms_per_move.bot`` is the bot process's CPU time (user + system) per
acknowledged move, ``cpu_ms_per_move.fake`` this process's (the fake Discord and the simulated
players, which share the machine with the bot), and ``fake_validation_ms_per_move`` the part of the
latter spent checking request bodies against Discord's description (the fake's strictness).

What a move costs at the least: ``requests_per_move`` (REST calls the bot made, callbacks included)
and ``interactions_per_move`` (what the players sent) per acknowledged move; ``bound_moves_per_s`` the
rate one process could reach with a core to itself (1000 / ``cpu_ms_per_move.bot``: its event loop is
one thread). ``load.floor.*`` (:func:`measure_floor`) is discord.py's own CPU per request, measured in a
process that only sends requests; times ``requests_per_move`` it is CPU every move costs before any
code of the bot runs (``load.floor.discordpy_cpu_ms_per_move``).

Latency ``callback`` is from the moment an interaction is injected to the moment the fake receives
the bot's first answer (what Discord's 3-second window measures), over every interaction;
``move_ack`` is from a bid click to the bot's "X has bid." edit, which it sends only after the move
committed. After the run the store is read directly: every acknowledged move must be there once
(``lost``, ``duplicated``), and nothing else (``unacknowledged``: played but never confirmed).

The fake Discord and the toy game are the clone's test kit (:mod:`bot.testing`, outside the installed package):
with the clone installed editable (``pip install -e ".[bench]"``) the bench runs from any folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHANNELS = 100
QUICK_CHANNELS = 4
SECONDS = 20.0
"""Full run: how long players keep starting new games (the games under way are finished)."""
QUICK_SECONDS = 0.5
SETTLE_SECONDS = 0.3
WAIT_SECONDS = 60.0
"""A simulated player gives up on an answer after this long (counted in ``errors``)."""
MODE_GRACE_SECONDS = 240.0
"""A mode that has not finished this long after its window is stopped and reported as an error."""
FLOOR_REQUESTS = 2000
"""Requests of each kind (edits, posts) the floor process sends (:func:`measure_floor`)."""
QUICK_FLOOR_REQUESTS = 50
PAIRS = (("alice", "bob"), ("carol", "dave"))
BIDS = ((3, 1), (1, 2), (2, 3))
ENTRY = "bot.testing.entry:main"
ACK_MARKERS = (" has bid.", "Bids revealed:")
END_RE = re.compile(r"Game #(\d+) is over")
OPEN_RE = re.compile(r"^open:(\d+):(\d+)$")

log = logging.getLogger(__name__)


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
            await self.fake.wait_until(lambda: self.stopping or len(self.fake.sent) > self.cursor, 3600.0,
                                       "sends")
            new = self.fake.sent[self.cursor:]
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


async def play_games(fake: Any, tracker: Tracker, channel: str, host: str, guest: str,
                     deadline: float) -> None:
    """Games back to back in one channel until ``deadline``: at least one, and the last one finished."""
    run = tracker.run
    users = {host: fake.user(host).id, guest: fake.user(guest).id}
    played = 0
    while played == 0 or time.monotonic() < deadline:
        played += 1
        lobby = await tracker.deliver(fake.make_slash("game", "new", game="toy", user=host, channel=channel),
                                      "new")
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
                opened = await tracker.deliver(fake.make_click(turn, f"open:{gid}:{version}", user=user),
                                               "open")
                private = await tracker.wait(("callback", opened.id))
                button = next(c for c in private.custom_ids
                              if c.startswith("mv:") and json.loads(c.split(":", 4)[4])["card"] == card)
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


def check_store(db_path: Path, run: Run) -> dict[str, int]:
    """Acknowledged moves against the move log."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    try:
        rows = db.execute("SELECT game_id, version, actor_xid, move FROM moves WHERE undone_at IS NULL").fetchall()
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        finished = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished' AND version = 6").fetchone()[0]
    finally:
        db.close()
    return compare(rows, run, integrity == "ok", int(finished))


async def check_postgres(url: str, run: Run) -> dict[str, int]:
    """Acknowledged moves against the move log of a PostgreSQL database (integrity: every finished game's
    version is its number of stored moves)."""
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT game_id, version, actor_xid, move FROM moves WHERE undone_at IS NULL")
        finished = await conn.fetchval("SELECT COUNT(*) FROM games WHERE status = 'finished' AND version = 6")
        gaps = await conn.fetchval(
            "SELECT COUNT(*) FROM games g WHERE g.status = 'finished'"
            " AND g.version <> (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)")
    finally:
        await conn.close()
    return compare([tuple(r) for r in rows], run, gaps == 0, int(finished))


def compare(rows: list[Any], run: Run, integrity_ok: bool, finished: int) -> dict[str, int]:
    """(game, version, actor, move JSON) rows of the move log against what the players were told."""
    stored = [(int(g), int(a), int(json.loads(m)["card"])) for g, _, a, m in rows if a is not None]
    versions = [(g, v) for g, v, _, _ in rows]
    acked = set(run.acked)
    return {
        "lost": len(acked - set(stored)),
        "duplicated": len(stored) - len(set(stored)) + len(versions) - len(set(versions)),
        "unacknowledged": len(set(stored) - acked),
        "stored": len(stored),
        "games_finished": finished,
        "integrity_ok": int(integrity_ok),
    }


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summarise(prefix: str, run: Run, checked: dict[str, int]) -> dict[str, Any]:
    moves = len(run.acked)
    out: dict[str, Any] = {
        f"{prefix}.moves": moves,
        f"{prefix}.games": len(run.games),
        f"{prefix}.interactions": run.interactions,
        f"{prefix}.seconds": round(run.seconds, 2),
        f"{prefix}.moves_per_s": round(moves / run.seconds, 1) if run.seconds else 0.0,
        f"{prefix}.interactions_per_s": round(run.interactions / run.seconds, 1) if run.seconds else 0.0,
        f"{prefix}.callback_p50_ms": round(1000 * pct(run.callback_s, 0.50), 1),
        f"{prefix}.callback_p95_ms": round(1000 * pct(run.callback_s, 0.95), 1),
        f"{prefix}.callback_max_ms": round(1000 * max(run.callback_s, default=float("nan")), 1),
        f"{prefix}.move_ack_p50_ms": round(1000 * pct(run.move_ack_s, 0.50), 1),
        f"{prefix}.move_ack_p95_ms": round(1000 * pct(run.move_ack_s, 0.95), 1),
        f"{prefix}.errors": len(run.errors),
    }
    for kind, values in sorted(run.callback_by_kind.items()):
        out[f"{prefix}.callback_p50_ms.{kind}"] = round(1000 * pct(values, 0.50), 1)
        out[f"{prefix}.callback_p95_ms.{kind}"] = round(1000 * pct(values, 0.95), 1)
    out.update({f"{prefix}.{k}": v for k, v in checked.items()})
    if run.errors:
        out[f"{prefix}.first_error"] = run.errors[0][:300]
    return out


def world_channels(fake: Any, count: int) -> list[str]:
    names = [f"load-{i:03d}" for i in range(count)]
    for name in names:
        fake.world.add_channel(name)
    return names


def process_cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) a process used so far; 0 when it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


@contextlib.contextmanager
def validation_cpu(schema: Any) -> Iterator[list[float]]:
    """CPU seconds this process spends in the fake's body validation meanwhile (``[seconds]``)."""
    spent = [0.0]
    original = schema.validate

    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - t0

    schema.validate = timed
    try:
        yield spent
    finally:
        schema.validate = original


def cpu_figures(prefix: str, run: Run, bot_s: float, fake_s: float, validation_s: float,
                requests: int = 0) -> dict[str, Any]:
    """CPU per move, and what the bot asked of Discord per move: ``requests_per_move`` (REST calls,
    callbacks included) and ``interactions_per_move`` (what players sent). ``bound_moves_per_s``: the
    most one process could play if it had a core to itself (the event loop is one thread)."""
    moves = max(1, len(run.acked))
    bot_ms = 1000 * bot_s / moves
    return {f"{prefix}.cpu_ms_per_move.bot": round(bot_ms, 2),
            f"{prefix}.cpu_ms_per_move.fake": round(1000 * fake_s / moves, 2),
            f"{prefix}.fake_validation_ms_per_move": round(1000 * validation_s / moves, 2),
            f"{prefix}.requests_per_move": round(requests / moves, 2),
            f"{prefix}.interactions_per_move": round(run.interactions / moves, 2),
            f"{prefix}.bound_moves_per_s": round(1000 / bot_ms, 1) if bot_ms > 0 else None}


async def measure_process(channels: int, seconds: float, workdir: Path, *, database_url: str | None = None,
                          prefix: str = "load.process") -> dict[str, Any]:
    """The real bot process; on ``database_url`` (PostgreSQL) instead of its SQLite file when given."""
    from bot.testing.fakediscord import schema
    from bot.testing.fakediscord.process import BotProcess
    from bot.testing.fakediscord.server import FakeDiscord

    fake = await FakeDiscord().start()
    names = world_channels(fake, channels)
    env = {"AI_PAUSE_SECONDS": "0"}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    bp = BotProcess(fake, workdir, name=prefix.replace(".", "-"), entry=ENTRY, env=env, log_level="WARNING")
    run = Run()
    try:
        await bp.start()
        await bp.wait_ready()
        bot0, fake0, requests0 = process_cpu_seconds(bp.pid), time.process_time(), len(fake.requests)
        with validation_cpu(schema) as validation:
            await asyncio.wait_for(drive(fake, names, seconds, run), seconds + MODE_GRACE_SECONDS)
        cpu = cpu_figures(prefix, run, process_cpu_seconds(bp.pid) - bot0, time.process_time() - fake0,
                          validation[0], len(fake.requests) - requests0)
    finally:
        await bp.stop()
        await fake.stop()
    checked = check_store(bp.db_path, run) if database_url is None else await check_postgres(database_url, run)
    return {**summarise(prefix, run, checked), **cpu}


async def measure_inprocess(channels: int, seconds: float, workdir: Path) -> dict[str, Any]:
    from bot.settings import Settings
    from bot.testing import entry
    from bot.testing.fakediscord import launch
    from bot.testing.fakediscord.server import FakeDiscord

    entry.install()
    # After the toy game is registered: the /game commands' game choices are read when cogs are imported.
    from cogs.app import CityBot
    fake = await FakeDiscord().start()
    names = world_channels(fake, channels)
    undo = launch.configure(fake.url)
    db_path = workdir / "load-inprocess.sqlite3"
    settings = Settings(token=fake.token, database_path=db_path, dev_guild_id=fake.world.guild_id,
                        log_level=logging.WARNING, ai_pause_seconds=0.0,
                        web_port=None)  # no web pages: the load bench measures the moves alone
    bot = CityBot(settings)
    run = Run()
    quiet = quieten()
    try:
        await bot.login(fake.token)
        fake.use_client(bot)
        await asyncio.wait_for(drive(fake, names, seconds, run), seconds + MODE_GRACE_SECONDS)
        await asyncio.wait_for(quiet_for(fake, SETTLE_SECONDS), MODE_GRACE_SECONDS)
    finally:
        await bot.close()
        await fake.stop()
        undo()
        quiet()
    return summarise("load.inprocess", run, check_store(db_path, run))


async def quiet_for(fake: Any, seconds: float) -> None:
    """Wait until the bot sent nothing for ``seconds`` (its last status edits after the games)."""
    count = -1
    while count != len(fake.requests):
        count = len(fake.requests)
        await asyncio.sleep(seconds)


def quieten() -> Callable[[], None]:
    """In-process the bot logs into this process: keep the bench's stderr readable."""
    loggers = [logging.getLogger(n) for n in ("discord", "bot", "cogs", "fakediscord", "aiohttp")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)

    def undo() -> None:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)

    return undo


async def gather_figures(quick: bool) -> dict[str, Any]:
    channels = QUICK_CHANNELS if quick else CHANNELS
    seconds = QUICK_SECONDS if quick else SECONDS
    out: dict[str, Any] = {"load.channels": channels, "load.window_s": seconds}
    with tempfile.TemporaryDirectory(prefix="citybot-load-") as tmp:
        steps: list[tuple[str, Callable[[int, float, Path], Awaitable[dict[str, Any]]]]] = [
            ("load.process", measure_process), ("load.inprocess", measure_inprocess),
            ("load.postgres.process", measure_postgres)]
        for prefix, step in steps:
            out.update(await run_mode(prefix, step, channels, seconds, Path(tmp)))
    try:
        out.update(await measure_floor(QUICK_FLOOR_REQUESTS if quick else FLOOR_REQUESTS))
        out.update(floor_per_move(out))
    except Exception as exc:
        log.warning("load floor failed", exc_info=True)
        out["load.floor.first_error"] = (repr(exc) or type(exc).__name__)[:300]
    proc, inproc = out.get("load.process.moves_per_s"), out.get("load.inprocess.moves_per_s")
    out["load.ratio.moves_per_s"] = round(proc / inproc, 2) if proc and inproc else None
    for key in ("callback_p50_ms", "callback_p95_ms", "move_ack_p50_ms"):
        a, b = out.get(f"load.process.{key}"), out.get(f"load.inprocess.{key}")
        out[f"load.ratio.{key}"] = round(a / b, 2) if a and b and b == b and a == a else None
    modes = [m for m in ("load.process", "load.inprocess", "load.postgres.process") if f"{m}.skipped" not in out]
    out["load.checked"] = all(out.get(f"{m}.{k}") == 0 for m in modes for k in ("lost", "duplicated", "errors")) \
        and all(out.get(f"{m}.integrity_ok") == 1 for m in modes)
    return out


NO_POSTGRES = "no PostgreSQL"
"""The figure ``load.postgres.process.skipped`` when PostgreSQL's server programs are not installed."""


async def run_mode(prefix: str, step: Callable[[int, float, Path], Awaitable[dict[str, Any]]], channels: int,
                   seconds: float, workdir: Path) -> dict[str, Any]:
    """One mode's figures. Without PostgreSQL's server programs its mode is skipped with one line on
    standard error (``skipped: no PostgreSQL``) and ``<mode>.skipped`` in the JSON; any other failure is
    ``<mode>.first_error``, with its traceback in the log: one engine failing is a figure, not the end."""
    from bot.cli import say
    from bot.testing.postgres import PostgresUnavailable

    try:
        return await step(channels, seconds, workdir)
    except PostgresUnavailable:
        print(f"bench: {prefix} {say('cli.bench.skipped_postgres')}", file=sys.stderr, flush=True)
        return {f"{prefix}.skipped": NO_POSTGRES}
    except Exception as exc:
        log.warning("load mode %s failed", prefix, exc_info=True)
        return {f"{prefix}.first_error": (repr(exc) or type(exc).__name__)[:300]}


async def measure_floor(count: int) -> dict[str, Any]:
    """What discord.py's client spends per REST request, in a process of its own against the fake
    (:mod:`bot.testing.restfloor`), and what the fake spends answering it."""
    from bot.testing.fakediscord.server import FakeDiscord

    fake = await FakeDiscord().start()
    try:
        channel = fake.channel(world_channels(fake, 1)[0]).id
        fake0 = time.process_time()
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.testing.restfloor", fake.url, fake.token, str(channel), str(count),
            stdout=asyncio.subprocess.PIPE)
        out, _ = await asyncio.wait_for(child.communicate(), MODE_GRACE_SECONDS)
        fake_ms = 1000 * (time.process_time() - fake0) / (2 * count + 1)
    finally:
        await fake.stop()
    if child.returncode != 0:
        raise RuntimeError(f"the floor process ended with {child.returncode}")
    figures = json.loads(out.decode().strip().splitlines()[-1])
    each = (figures["edit_cpu_ms_per_request"] + figures["post_cpu_ms_per_request"]) / 2
    return {**{f"load.floor.discordpy_{k}": v for k, v in figures.items()},
            "load.floor.discordpy_cpu_ms_per_request": round(each, 3),
            "load.floor.fake_cpu_ms_per_request": round(fake_ms, 3)}


def floor_per_move(out: dict[str, Any]) -> dict[str, Any]:
    """discord.py's own CPU for the requests of one move: a floor under ``cpu_ms_per_move.bot``."""
    each = out.get("load.floor.discordpy_cpu_ms_per_request")
    per_move = out.get("load.process.requests_per_move")
    if not each or not per_move:
        return {}
    floor = each * per_move
    return {"load.floor.discordpy_cpu_ms_per_move": round(floor, 2),
            "load.floor.discordpy_bound_moves_per_s": round(1000 / floor, 1)}


async def measure_postgres(channels: int, seconds: float, workdir: Path) -> dict[str, Any]:
    """The process on a throwaway PostgreSQL server (fsync on, as a real one)."""
    from bot.testing.postgres import PostgresServer

    server = await asyncio.to_thread(PostgresServer.start, fsync=True)
    try:
        url = await asyncio.to_thread(server.create_database)
        return await measure_process(channels, seconds, workdir, database_url=url, prefix="load.postgres.process")
    finally:
        await asyncio.to_thread(server.stop)


def figures(quick: bool = False) -> dict[str, Any]:
    """Load figures (see the module docstring); ``quick`` runs 4 channels for one game each."""
    return asyncio.run(gather_figures(quick))


if __name__ == "__main__":
    print(json.dumps(figures(quick=True), indent=2, sort_keys=True))
