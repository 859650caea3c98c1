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

SQLite and PostgreSQL side by side (:mod:`bot.benches.load.sidebyside`): a full run plays both process
modes ``REPEATS`` times in alternating order; each mode's usual names carry its median repetition, with the
spread of the repetitions (``.runs``, ``.min``, ``.max``, ``.stdev``) and the machine's load average as
each began; ``load.ratio.postgres_to_sqlite.moves_per_s`` and ``.cpu_ms_per_move`` compare the medians.

What the bot asks of its database per move (:mod:`bot.store.counters`, read from the bot process with
``kill -USR2``): ``<mode>.db.round_trips_per_move``, ``statements_per_move``, ``transactions_per_move``,
``commits_per_move``, ``acquisitions_per_move`` (PostgreSQL's pool) and ``notifies_per_move``. On
PostgreSQL, ``<mode>.server.*`` says what the server did meanwhile besides answering (autovacuum runs,
checkpoints), one of the suspects when repetitions differ.

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

The simulated players are :mod:`bot.benches.load.players`, the checks and figures of a run
:mod:`bot.benches.load.tally`; this module runs the modes and re-exports their names.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.benches.load.players import ACK_MARKERS as ACK_MARKERS
from bot.benches.load.players import BIDS as BIDS
from bot.benches.load.players import END_RE as END_RE
from bot.benches.load.players import OPEN_RE as OPEN_RE
from bot.benches.load.players import PAIRS as PAIRS
from bot.benches.load.players import WAIT_SECONDS as WAIT_SECONDS
from bot.benches.load.players import Refused as Refused
from bot.benches.load.players import Run as Run
from bot.benches.load.players import Tracker as Tracker
from bot.benches.load.players import drive as drive
from bot.benches.load.players import play_games as play_games
from bot.benches.load.players import world_channels as world_channels
from bot.benches.load.sidebyside import REPEATS as REPEATS
from bot.benches.load.sidebyside import side_by_side as side_by_side
from bot.benches.load.tally import check_postgres as check_postgres
from bot.benches.load.tally import check_store as check_store
from bot.benches.load.tally import compare as compare
from bot.benches.load.tally import cpu_figures as cpu_figures
from bot.benches.load.tally import db_figures as db_figures
from bot.benches.load.tally import pct as pct
from bot.benches.load.tally import process_cpu_seconds as process_cpu_seconds
from bot.benches.load.tally import read_counters as read_counters
from bot.benches.load.tally import summarise as summarise
from bot.benches.load.tally import tree_cpu_seconds as tree_cpu_seconds
from bot.benches.load.tally import validation_cpu as validation_cpu

CHANNELS = 100
QUICK_CHANNELS = 4
SECONDS = 20.0
"""Full run: how long players keep starting new games (the games under way are finished)."""
QUICK_SECONDS = 0.5
SETTLE_SECONDS = 0.3
MODE_GRACE_SECONDS = 240.0
"""A mode that has not finished this long after its window is stopped and reported as an error."""
FLOOR_REQUESTS = 2000
"""Requests of each kind (edits, posts) the floor process sends (:func:`measure_floor`)."""
QUICK_FLOOR_REQUESTS = 50
ENTRY = "bot.testing.entry:main"

log = logging.getLogger(__name__)


async def measure_process(
    channels: int,
    seconds: float,
    workdir: Path,
    *,
    database_url: str | None = None,
    prefix: str = "load.process",
    server_pid: Callable[[], int | None] = lambda: None,
) -> dict[str, Any]:
    """The real bot process; on ``database_url`` (PostgreSQL) instead of its SQLite file when given."""
    from bot.testing.fakediscord import schema
    from bot.testing.fakediscord.process import BotProcess
    from bot.testing.fakediscord.server import FakeDiscord

    fake = await FakeDiscord().start()
    names = world_channels(fake, channels)
    counters_file = workdir / f"{prefix}.counters.json"
    env = {"AI_PAUSE_SECONDS": "0", "PROCESS_STORE_COUNTERS": str(counters_file)}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    bp = BotProcess(fake, workdir, name=prefix.replace(".", "-"), entry=ENTRY, env=env, log_level="WARNING")
    run = Run()
    try:
        await bp.start()
        await bp.wait_ready()
        counted0 = await read_counters(bp.pid, counters_file)
        bot0, fake0, requests0 = process_cpu_seconds(bp.pid), time.process_time(), len(fake.requests)
        server0 = tree_cpu_seconds(server_pid())
        with validation_cpu(schema) as validation:
            await asyncio.wait_for(drive(fake, names, seconds, run), seconds + MODE_GRACE_SECONDS)
        counted = db_figures(prefix, counted0, await read_counters(bp.pid, counters_file), len(run.acked))
        if server_pid() is not None:
            spent = tree_cpu_seconds(server_pid()) - server0
            counted[f"{prefix}.cpu_ms_per_move.server"] = round(1000 * spent / max(1, len(run.acked)), 2)
        cpu = cpu_figures(
            prefix,
            run,
            process_cpu_seconds(bp.pid) - bot0,
            time.process_time() - fake0,
            validation[0],
            len(fake.requests) - requests0,
        )
    finally:
        await bp.stop()
        await fake.stop()
    checked = check_store(bp.db_path, run) if database_url is None else await check_postgres(database_url, run)
    return {**summarise(prefix, run, checked), **cpu, **counted}


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
    settings = Settings(
        token=fake.token,
        database_path=db_path,
        dev_guild_id=fake.world.guild_id,
        log_level=logging.WARNING,
        ai_pause_seconds=0.0,
        web_port=None,
    )  # no web pages: the load bench measures the moves alone
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
    repeats = 1 if quick else REPEATS
    out: dict[str, Any] = {"load.channels": channels, "load.window_s": seconds, "load.repeats": repeats}
    process_modes: dict[str, Callable[[int, float, Path], Awaitable[dict[str, Any]]]] = {
        "load.process": measure_process,
        "load.postgres.process": measure_postgres,
    }

    async def step(prefix: str, channels: int, seconds: float, workdir: Path) -> dict[str, Any]:
        return await run_mode(prefix, process_modes[prefix], channels, seconds, workdir)

    with tempfile.TemporaryDirectory(prefix="citybot-load-") as tmp:
        out.update(await side_by_side(step, channels, seconds, Path(tmp), repeats))
        out.update(await run_mode("load.inprocess", measure_inprocess, channels, seconds, Path(tmp)))
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
    out["load.checked"] = all(
        out.get(f"{m}.{k}") == 0 for m in modes for k in ("lost", "duplicated", "errors")
    ) and all(out.get(f"{m}.integrity_ok") == 1 for m in modes)
    return out


NO_POSTGRES = "no PostgreSQL"
"""The figure ``load.postgres.process.skipped`` when PostgreSQL's server programs are not installed."""


async def run_mode(
    prefix: str,
    step: Callable[[int, float, Path], Awaitable[dict[str, Any]]],
    channels: int,
    seconds: float,
    workdir: Path,
) -> dict[str, Any]:
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
            sys.executable,
            "-m",
            "bot.testing.restfloor",
            fake.url,
            fake.token,
            str(channel),
            str(count),
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await asyncio.wait_for(child.communicate(), MODE_GRACE_SECONDS)
        fake_ms = 1000 * (time.process_time() - fake0) / (2 * count + 1)
    finally:
        await fake.stop()
    if child.returncode != 0:
        raise RuntimeError(f"the floor process ended with {child.returncode}")
    figures = json.loads(out.decode().strip().splitlines()[-1])
    each = (figures["edit_cpu_ms_per_request"] + figures["post_cpu_ms_per_request"]) / 2
    return {
        **{f"load.floor.discordpy_{k}": v for k, v in figures.items()},
        "load.floor.discordpy_cpu_ms_per_request": round(each, 3),
        "load.floor.fake_cpu_ms_per_request": round(fake_ms, 3),
    }


def floor_per_move(out: dict[str, Any]) -> dict[str, Any]:
    """discord.py's own CPU for the requests of one move: a floor under ``cpu_ms_per_move.bot``."""
    each = out.get("load.floor.discordpy_cpu_ms_per_request")
    per_move = out.get("load.process.requests_per_move")
    if not each or not per_move:
        return {}
    floor = each * per_move
    return {
        "load.floor.discordpy_cpu_ms_per_move": round(floor, 2),
        "load.floor.discordpy_bound_moves_per_s": round(1000 / floor, 1),
    }


async def measure_postgres(channels: int, seconds: float, workdir: Path) -> dict[str, Any]:
    """The process on a throwaway PostgreSQL server (fsync on, as a real one)."""
    from bot.testing.postgres import PostgresServer

    server = await asyncio.to_thread(PostgresServer.start, fsync=True)
    try:
        url = await asyncio.to_thread(server.create_database)
        return await measure_process(
            channels, seconds, workdir, database_url=url, prefix="load.postgres.process", server_pid=server.pid
        )
    finally:
        await asyncio.to_thread(server.stop)


def figures(quick: bool = False) -> dict[str, Any]:
    """Load figures (see the module docstring); ``quick`` runs 4 channels for one game each."""
    return asyncio.run(gather_figures(quick))
