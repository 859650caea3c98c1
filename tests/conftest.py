"""Shared fixtures: a fresh store, a fake clock, a service, the toy game registered.

The database fixtures (``database``, ``db``, ``service`` and what is built on them) run on one engine,
``engine``: SQLite, or for the suites listed in :data:`BOTH_ENGINES` both SQLite and a real PostgreSQL
(test ids ``[sqlite]`` / ``[postgres]``). The PostgreSQL server is started once per session by the tests
themselves (:class:`bot.testing.postgres.PostgresServer`, fsync off); every test gets a fresh database,
copied from a template with the migrations applied.
"""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot import cli, games, store
from bot.service import Service
from bot.testing import postgres
from bot.testing.postgres import PostgresServer, PostgresUnavailable
from bot.testing.toygame import RULES as TOY

ENGINES = ("sqlite", "postgres")
BOTH_ENGINES = (
    "tests/test_service.py",
    "tests/test_store_engines.py",
    "tests/community/",
    "tests/btc_campaign/",
    "tests/discord/test_play_toy.py",
    "tests/discord/test_lobby.py",
    "tests/discord/test_features.py",
    "tests/web/test_game_page.py",
)
"""The suites that run on both engines (paths from the repository root): the store, the service, the
community features and campaigns, the Discord harness tests of play, the lobby and the community
commands, and the game page over HTTP (its live stream polls the database). Every other test that uses
the database runs on SQLite only (the rules, pictures and presenters do not depend on the engine, and CI
time is bounded)."""
ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "citybot_template"

games.register_rules(TOY, secret=True)

# The command line speaks the terminal's language (LC_ALL, LC_MESSAGES, LANG): the tests, and the
# processes they start, expect English unless a test sets another.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
cli.LOCALE = cli.terminal_locale(os.environ)


class FakeClock:
    """A clock tests move by hand (epoch ms)."""

    def __init__(self, start_ms: int = 1_800_000_000_000) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def both_engines(path: Path) -> bool:
    relative = path.resolve().relative_to(ROOT).as_posix()
    return any(relative == p or (p.endswith("/") and relative.startswith(p)) for p in BOTH_ENGINES)


POSTGRES_MARK = "postgres"
INSTALL_HINT = "apt-get install postgresql"


def postgres_missing() -> str | None:
    """Why the PostgreSQL tests cannot run here (their server programs are not installed), or None."""
    try:
        postgres.find_binaries()
    except PostgresUnavailable:
        return f"PostgreSQL's server programs (pg_ctl, initdb) are not installed: {INSTALL_HINT}"
    return None


def is_postgres_test(item: pytest.Item) -> bool:
    """A test that needs a PostgreSQL server: it asks for ``postgres_server``, runs on the ``postgres``
    engine, or carries the marker itself."""
    if item.get_closest_marker(POSTGRES_MARK) is not None:
        return True
    if "postgres_server" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("engine") == "postgres"


BROWSER_MARK = "browser"
CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium, which the browser tests drive through Playwright (``executable_path``)."""


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (no Chromium at :data:`CHROMIUM`), or None."""
    if os.path.exists(CHROMIUM):
        return None
    return f"Chromium is not installed at {CHROMIUM}: apt-get install chromium"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): half as many workers again as the machine has cores. Most tests wait
    (on the fake Discord, a browser, a child process) more than they compute, so one worker a core would
    leave the cores idle; ``-n 0`` runs the suite in one process."""
    return max(2, (os.cpu_count() or 1) * 3 // 2)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every PostgreSQL test carries the ``postgres`` marker (``-m postgres`` / ``-m "not postgres"``).
    Without the server programs they are skipped with one line saying how to install them, unless
    ``CI`` is set: there they must run (``.ci/run`` installs the programs). The browser tests (marker
    ``browser``) likewise without Chromium."""
    no_browser = None if os.environ.get("CI") else browser_missing()
    if no_browser is not None:
        for item in items:
            if item.get_closest_marker(BROWSER_MARK) is not None:
                item.add_marker(pytest.mark.skip(reason=no_browser))
    missing = None if os.environ.get("CI") else postgres_missing()
    for item in items:
        if not is_postgres_test(item):
            continue
        item.add_marker(POSTGRES_MARK)
        if missing is not None:
            item.add_marker(pytest.mark.skip(reason=missing))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line for the PostgreSQL tests skipped, and how to run them."""
    reason = postgres_missing()
    if reason is None or os.environ.get("CI"):
        return
    skipped = [
        r
        for r in terminalreporter.stats.get("skipped", [])
        if isinstance(r.longrepr, tuple) and r.longrepr[2].endswith(reason)
    ]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} PostgreSQL tests skipped: {reason}")
    browser = None if os.environ.get("CI") else browser_missing()
    if browser is not None:
        skipped = [
            r
            for r in terminalreporter.stats.get("skipped", [])
            if isinstance(r.longrepr, tuple) and r.longrepr[2].endswith(browser)
        ]
        if skipped:
            terminalreporter.write_line(f"{len(skipped)} browser tests skipped: {browser}")


ENGINES_MARK = "engines"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test of a both-engines suite runs on each engine, or only on those its ``engines`` marker names
    (``@pytest.mark.engines("postgres")``: a test of two processes, which one SQLite file does not admit)."""
    if "engine" not in metafunc.fixturenames or not both_engines(metafunc.definition.path):
        return
    mark = metafunc.definition.get_closest_marker(ENGINES_MARK)
    chosen = ENGINES if mark is None else tuple(e for e in ENGINES if e in mark.args)
    if not chosen:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: the engines marker names none of {ENGINES}")
    metafunc.parametrize("engine", chosen, indirect=True, ids=chosen)


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The database engine of this test: ``sqlite`` unless its suite runs on both."""
    return str(getattr(request, "param", "sqlite"))


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the session (started on first use). While it runs, SIGTERM
    (a CI timeout, ``timeout``) interrupts the session like Ctrl-C, so the server is still stopped."""
    server = PostgresServer.start(fsync=False)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield server
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()


_numbers = itertools.count(1)
_template_ready: set[int] = set()
_shared: dict[int, str] = {}
"""Server port -> the URL of the database the ``database`` fixture empties and hands to each test."""


async def fresh_postgres_database(server: PostgresServer) -> str:
    """A new database with the migrations applied (a copy of the session's template), for tests that
    need one of their own (several stores on it, a schema change)."""
    admin = await asyncpg.connect(server.url())
    try:
        if server.port not in _template_ready:
            await admin.execute(f'CREATE DATABASE "{TEMPLATE}"')
            migrated = await store.Store.open(server.url(TEMPLATE))
            await migrated.close()
            _template_ready.add(server.port)
        name = f"test{next(_numbers)}"
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    finally:
        await admin.close()
    return server.url(name)


async def emptied_postgres_database(server: PostgresServer) -> str:
    """The session's shared test database, every table emptied and every id counter reset: as fresh
    as a new copy of the template for the test, in a few milliseconds instead of a few hundred."""
    url = _shared.get(server.port)
    if url is None:
        url = _shared[server.port] = await fresh_postgres_database(server)
        return url
    conn = await asyncpg.connect(url)
    try:
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables"
                " WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'"
            )
        ]
        await conn.execute(f"TRUNCATE {', '.join(f'{t}' for t in tables)} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return url


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def database(engine: str, db_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[str | Path]:
    """What :meth:`bot.store.Store.open` opens in this test: the SQLite file, or a fresh PostgreSQL
    database's URL."""
    if engine == "sqlite":
        yield db_path
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    yield await emptied_postgres_database(server)


@pytest.fixture
async def db(database: str | Path) -> AsyncIterator[store.Store]:
    s = await store.Store.open(database)
    yield s
    await s.close()


@pytest.fixture
def service(db: store.Store, clock: FakeClock) -> Service:
    seeds = iter(range(1000, 100000))
    return Service(db, clock, seed_source=lambda: next(seeds))
