"""The throwaway PostgreSQL server the engine tests and the bench start themselves."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.testing.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[1]
HIDDEN = textwrap.dedent("""
    import sys
    import bot.testing.postgres as pg

    def hidden():
        raise pg.PostgresUnavailable("hidden by the test")

    pg.find_binaries = hidden  # a machine without Debian's postgresql package
    import pytest
    sys.exit(pytest.main(sys.argv[1:]))
""")


def pytest_without_postgres(*args: str, ci: bool) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` as on a machine without PostgreSQL's server programs."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "1"} if ci else {})
    return subprocess.run(
        # In one process (-n 0): the server programs are hidden in this process only, not in xdist's workers.
        [sys.executable, "-c", HIDDEN, "-p", "no:cacheprovider", "-n", "0", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


SAMPLE = (
    "tests/test_postgres_server.py::test_server_starts_serves_two_databases_and_leaves_nothing_behind",
    "tests/shards/test_leases.py",
    "tests/test_store_engines.py::test_a_newer_postgres_schema_is_refused",
)


def test_without_the_server_programs_postgres_tests_are_skipped_with_one_line() -> None:
    ran = pytest_without_postgres(*SAMPLE, ci=False)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    assert "Traceback" not in ran.stdout and " error" not in ran.stdout
    why = [line for line in ran.stdout.splitlines() if "PostgreSQL tests skipped" in line]
    assert len(why) == 1 and "apt-get install postgresql" in why[0], ran.stdout[-3000:]
    assert " passed" in ran.stdout  # the SQLite half of the shared suites still runs


def test_with_ci_set_the_postgres_tests_must_run() -> None:
    ran = pytest_without_postgres(SAMPLE[0], ci=True)
    assert ran.returncode != 0 and "1 failed" in ran.stdout, ran.stdout[-3000:]
    assert "PostgreSQL tests skipped" not in ran.stdout


@pytest.mark.postgres
def test_server_starts_serves_two_databases_and_leaves_nothing_behind() -> None:
    server = PostgresServer.start(fsync=False)
    try:
        first, second = server.create_database(), server.create_database()
        assert first != second and first.startswith("postgresql://postgres@127.0.0.1:")
        server.sql("CREATE TABLE t (x integer)", database=first.rsplit("/", 1)[1])
        tables = server.sql("SELECT count(*) FROM pg_tables WHERE tablename = 't'", database=second.rsplit("/", 1)[1])
        assert tables.strip() == "0"  # each database starts empty
    finally:
        server.stop()
    assert not server.root.exists()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", server.port)) != 0  # nothing listens any more


@pytest.mark.postgres
def test_a_server_whose_owner_is_killed_is_stopped_and_removed() -> None:
    """The process that started the server dies with kill -9, without stopping it: its watchdog stops the
    server and removes its folder, so no test run leaves a PostgreSQL server behind."""
    owner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
            import sys, time
            from bot.testing.postgres import PostgresServer
            server = PostgresServer.start(fsync=False)
            print(server.root, server.port, flush=True)
            time.sleep(600)
        """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert owner.stdout is not None
        started = owner.stdout.readline().split()
        assert len(started) == 2, "the owner process did not start a server"
        root, port = started
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", int(port))) == 0, "the server did not start"
    finally:
        owner.kill()
        owner.wait()
    deadline = time.monotonic() + 60
    while Path(root).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(root).exists(), "the server's folder was left behind"
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", int(port))) != 0, "the server still listens"


def test_the_load_bench_says_skipped_no_postgresql_instead_of_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import asyncio

    import bot.testing.postgres as pg
    from bot.benches import load

    def hidden() -> Path:
        raise pg.PostgresUnavailable("hidden by the test")

    monkeypatch.setattr(pg, "find_binaries", hidden)
    got = asyncio.run(load.run_mode("load.postgres.process", load.measure_postgres, 1, 0.1, tmp_path))
    assert got == {"load.postgres.process.skipped": "no PostgreSQL"}
    err = capsys.readouterr().err
    assert err.strip() == (
        "bench: load.postgres.process skipped: no PostgreSQL (its server programs are not"
        " installed: apt-get install postgresql)"
    )


@pytest.mark.parametrize("quick", [True, False])
def test_the_bench_marks_quick_figures_as_not_comparable(
    quick: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import types

    from bot import bench

    module = types.SimpleNamespace(figures=lambda quick: {"store.quick": quick})
    monkeypatch.setattr(bench, "modules", lambda: ["store"])
    monkeypatch.setattr(bench.importlib, "import_module", lambda name: module)
    assert bench.main(["--quick"] if quick else []) == 0
    out, err = capsys.readouterr()
    figures = json.loads(out.splitlines()[-1])
    assert figures["store.quick"] is quick
    assert figures["bench.run"] == ("quick" if quick else "full")
    assert figures["bench.comparable_with_full"] is (not quick)
    assert ("not comparable" in err) is quick
