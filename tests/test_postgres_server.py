"""The throwaway PostgreSQL server the engine tests and the bench start themselves."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bot.testing.postgres import PostgresServer


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


def test_a_server_whose_owner_is_killed_is_stopped_and_removed() -> None:
    """The process that started the server dies with kill -9, without stopping it: its watchdog stops the
    server and removes its folder, so no test run leaves a PostgreSQL server behind."""
    owner = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import sys, time
            from bot.testing.postgres import PostgresServer
            server = PostgresServer.start(fsync=False)
            print(server.root, server.port, flush=True)
            time.sleep(600)
        """)], stdout=subprocess.PIPE, text=True)
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
