"""The throwaway PostgreSQL server the engine tests and the bench start themselves."""

from __future__ import annotations

import socket

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
