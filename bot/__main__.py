"""The command line: ``python -m bot`` runs the bot; ``python -m bot local`` plays in a terminal;
``python -m bot score`` scores a physical game's city; ``python -m bot analyse`` weighs a finished game's
moves. ``python -m bot --help`` says how."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot import cli
from bot.cli import say
from bot.dbtext import database_sentence
from bot.settings import ENV_FILE, SettingsError, check_database_path, load, unknown_keys

if TYPE_CHECKING:
    from cogs.app import CityBot

COMMANDS = ("local", "score", "analyse", "settings", "health")
DISTRIBUTION = "citybuilders-bot"
"""The package's name as installed (pyproject.toml), whose version `--version` prints."""

log = logging.getLogger(__name__)


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop for the bot where it is installed (a dependency everywhere but Windows), else
    None: asyncio's own. The bot's one core is what bounds it under load, and uvloop spends less of it on
    every request and wake-up (``python -m bot.bench --only load``: about 13% more moves per second)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def usage() -> str:
    from bot import games, settingsdoc
    from bot.i18n import t

    titles = [t(games.get(kind).title_key, cli.LOCALE) for kind in games.available()]
    return say(
        "cli.main.help",
        commands=", ".join(COMMANDS),
        titles=", ".join(titles),
        settings=settingsdoc.help_lines(cli.LOCALE),
    )


def run_bot() -> int:
    """Check the settings and the database, then connect to Discord; each failure is its own sentence."""
    early: list[str] = []
    """A signal before the event loop runs (while the bot loads): it will stop before connecting."""
    for sig in StopSignals.SIGNALS:
        signal.signal(sig, lambda number, _frame: early.append(signal.Signals(number).name))
    try:
        for sentence in unknown_keys(Path(ENV_FILE)):
            cli.warn(sentence)
        settings = load()
        if settings.database_url is None:
            check_database_path(settings.database_path)
    except SettingsError as exc:
        return cli.error(str(exc))
    if settings.web_port is not None:
        problem = port_taken(settings.web_host, settings.web_port)
        if problem is not None:  # the links the bot posts would lead to whatever holds the port
            return cli.error(
                say("cli.start.web_port_busy", host=settings.web_host, port=settings.web_port, problem=problem)
            )
    cli.setup_logging(settings.log_level)
    cli.silence_voice_warnings()

    import aiohttp
    import discord

    from bot import store
    from cogs.app import create_bot

    factory = event_loop_factory()

    async def runner() -> int:
        stops = StopSignals(settings.stop_seconds, early)  # from now on SIGTERM and SIGINT stop it gracefully
        try:
            # The database first (before Discord). SQLite: its lock is held for the whole life of the
            # process, so a second bot on the same file stops here with a sentence. PostgreSQL: a server
            # that cannot be reached, or a schema newer than this code, stops here with a sentence.
            try:
                if settings.database_url is None:
                    store.lock_database(settings.database_path)
                check = await store.Store.open(settings.database)
                await check.close()
            except store.StoreError as exc:
                return cli.error(database_sentence(exc, settings.database))
            if stops.signal is not None:
                log.info("stopped before connecting to Discord")
                return cli.EXIT_OK
            log.info("event loop: %s", "uvloop" if factory is not None else "asyncio")
            bot = create_bot(settings)
            start: asyncio.Future[None] | None = None
            try:
                async with bot:
                    start = asyncio.ensure_future(bot.start(settings.token))
                    stops.attach(bot, start)
                    await start
            except (Exception, asyncio.CancelledError) as exc:
                if stops.signal is None or start is None or not start.done():
                    raise
                # A stop during the start: what failed is the start the stop cut short.
                log.info("the start was cut short by %s (%s)", stops.signal, type(exc).__name__)
            if stops.task is not None:
                await stops.task  # the gateway is closed; the database closes next
        finally:
            stops.remove()
            if settings.database_url is None:
                store.unlock_database(settings.database_path, remove=True)
        log.info("stopped")
        return cli.EXIT_OK

    try:
        with asyncio.Runner(loop_factory=factory) as loop_runner:
            return loop_runner.run(runner())
    except discord.LoginFailure:
        return cli.error(say("cli.start.token_refused"))
    except discord.PrivilegedIntentsRequired:
        return cli.error(say("cli.start.intents"))
    except store.StoreError as exc:
        return cli.error(database_sentence(exc, settings.database))
    except (aiohttp.ClientError, discord.GatewayNotFound, discord.ConnectionClosed, TimeoutError) as exc:
        cli.error(say("cli.start.unreachable", problem=str(exc) or type(exc).__name__))
        return cli.EXIT_FAILED
    except OSError as exc:
        cli.error(say("cli.start.unreachable", problem=exc.strerror or str(exc)))
        return cli.EXIT_FAILED
    except discord.HTTPException as exc:
        cli.error(say("cli.start.discord_refused", status=exc.status, problem=exc.text or ""))
        return cli.EXIT_FAILED
    except KeyboardInterrupt:
        return cli.EXIT_OK


def port_taken(host: str, port: int) -> str | None:
    """Why the web pages could not listen on ``host:port`` (something else listens there; the host is not
    this machine's), or None. Checked before the bot connects: a bot whose pages cannot be served refuses
    to start rather than post links to another program."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.create_server((host, port), family=family):  # SO_REUSEADDR, as the pages' server
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def version() -> str:
    """The installed package's version (``python -m bot --version``)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


START_GRACE_SECONDS = 2.0
"""After a stop closed the bot, how long its start may take to end by itself before it is cancelled."""


class StopSignals:
    """SIGTERM (``docker stop``, systemd) and SIGINT (Ctrl-C) stop the bot gracefully
    (:meth:`cogs.app.CityBot.stop`: new interactions get a sentence, the moves in flight finish within
    ``seconds``, the rest is handed over, exit 0); a second signal stops waiting for the moves in flight.
    Installed as the event loop starts: a signal before the bot exists means it never connects."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self, seconds: float, early: list[str] | None = None) -> None:
        self.seconds = seconds
        self.bot: CityBot | None = None
        self.signal: str | None = None
        """The name of the first signal, once one came."""
        self.task: asyncio.Task[None] | None = None
        """The stop under way."""
        self.start: asyncio.Future[None] | None = None
        """The bot's start (login, set-up, the gateway until it closes)."""
        self._loop = asyncio.get_running_loop()
        self._installed: list[signal.Signals] = []
        for sig in self.SIGNALS:
            try:
                self._loop.add_signal_handler(sig, self._on_signal, sig.name)
            except (NotImplementedError, RuntimeError):  # no signal handlers here (Windows): Ctrl-C ends it
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                break
            self._installed.append(sig)
        if early:
            self._on_signal(early[0])

    def _on_signal(self, name: str) -> None:
        if self.signal is not None:
            log.info("%s again: not waiting for the work in flight any longer", name)
            if self.bot is not None:
                self.bot.drain.hurry()
            return
        self.signal = name
        log.info("%s: stopping (the work in flight has %s s to finish)", name, self.seconds)
        if self.bot is not None:
            self._begin(self.bot)

    def attach(self, bot: CityBot, start: asyncio.Future[None]) -> None:
        """The bot to stop and its start (at once, if a signal came already)."""
        self.bot, self.start = bot, start
        if self.signal is not None:
            self._begin(bot)

    def _begin(self, bot: CityBot) -> None:
        bot.drain.close()  # from this very moment, a new interaction gets a sentence
        self.task = asyncio.create_task(self._stop(bot), name="stop")

    async def _stop(self, bot: CityBot) -> None:
        await bot.stop(self.seconds)
        start = self.start
        if start is not None and not start.done():
            # Closed while discord.py was still connecting its shards: it would retry for ever.
            await asyncio.wait({start}, timeout=START_GRACE_SECONDS)
            if not start.done():
                log.info("the gateway was still connecting: its start is cancelled")
                start.cancel()

    def remove(self) -> None:
        for sig in self._installed:
            self._loop.remove_signal_handler(sig)
        self._installed.clear()


def health_command(args: list[str]) -> int:
    """``python -m bot health``: exit 0 when the running bot's heartbeat says it is connected and its
    database answers (:mod:`bot.health`), else 1, with one sentence either way."""
    import os

    from bot import health
    from bot.settings import ENV_FILE, database_path, read_env_file

    if args and args[0] in ("-h", "--help"):
        print(say("cli.health.help"))
        return cli.EXIT_OK
    if args:
        raise cli.UsageError("cli.main.unknown_option", option=args[0], commands=", ".join(COMMANDS))
    try:
        env = read_env_file(Path(ENV_FILE)) | dict(os.environ)
        path = health.health_path(database_path(env.get("DATABASE_PATH", "").strip(), env.get("DATA_DIR", "").strip()))
    except SettingsError as exc:
        return cli.error(str(exc))
    healthy, key, params = health.check(path)
    if healthy:
        print(say(key, **params))
        return cli.EXIT_OK
    print(say(key, **params), file=sys.stderr)
    return cli.EXIT_FAILED


def dispatch(args: list[str]) -> int:
    if not args:
        return run_bot()
    head, rest = args[0], args[1:]
    if head in ("-h", "--help", "help"):
        print(usage())
        return cli.EXIT_OK
    if head in ("-V", "--version"):
        print(f"{DISTRIBUTION} {version()}")
        return cli.EXIT_OK
    if head == "score":
        from bot.score import command as score_command

        return score_command(rest)
    if head == "analyse":
        from bot.analyse import command as analyse_command

        return analyse_command(rest)
    if head == "settings":
        from bot.settingsdoc import command as settings_command

        return settings_command(rest)
    if head == "health":
        return health_command(rest)
    if head == "local":
        from bot.local import command as local_command

        return local_command(rest)
    if head.startswith("-"):
        raise cli.UsageError("cli.main.unknown_option", option=head, commands=", ".join(COMMANDS))
    raise cli.UsageError("cli.main.unknown_command", command=head, commands=", ".join(COMMANDS))


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return cli.run(lambda: dispatch(args))


if __name__ == "__main__":
    raise SystemExit(main())
