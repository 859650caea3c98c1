"""The two database engines: a SQLite file written by the code before PostgreSQL existed opens and plays
on; the same migration numbers on both; on PostgreSQL, two processes racing for one move (or one seat)
never both win, processes starting together migrate once, and a bad or newer database is one sentence."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import asyncpg
import pytest

from bot import settings, store
from bot.composition import compose
from bot.service import Service
from bot.store.engine import to_postgres, to_sqlite
from bot.testing.postgres import PostgresServer, free_port
from tests.cli.helpers import environment, one_sentence, run_process
from tests.conftest import FakeClock, fresh_postgres_database

LEGACY = Path(__file__).resolve().parent / "data" / "main-878b588.sqlite3"
"""Written by main at 878b588 (schema 001-007, before the engine layer): two toy games on a server
whose ids exceed 32 bits (one after two bids, one finished), a league "Friday Club" with two members, a
follower, a player's time zone, and one loop pass 30 hours later (a reminder and a last-player notice)."""
ANA, BEA = 1_100_000_000_000_000_001, 1_200_000_000_000_000_002
GUILD = 9_000_000_000_000_000_009


# -- SQLite: a database of today's schema opens unchanged ---------------------------------------------


async def test_a_database_written_before_the_engine_layer_opens_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(LEGACY, path)
    db = await store.Store.open(path)
    try:
        assert await db.schema_version() == store.migrations()[-1][0] and await db.integrity_check() == "ok"
        clock = FakeClock(1_800_000_000_000 + 31 * 3600 * 1000)
        app = compose(Service(db, clock, seed_source=lambda: 77), boot="upgraded")
        live = await app.service.game_in_channel(8_000_000_000_000_000_008)
        assert live.game.version == 3 and [s.user_xid for s in live.seats] == [ANA, BEA]
        assert [m["card"] for _, m in await app.service.move_log(live.id)] == [3, 1, 2]
        outcome = await app.service.move(live.id, BEA, {"kind": "bid", "card": 3}, expected_version=3)
        assert outcome.version == 4
        league = await app.leagues.league(GUILD, "FRIDAY CLUB")
        assert league is not None and league.name == "Friday Club"
        assert set((await app.leagues.db.members(league.id)).values()) == {"Bea"}
        assert await app.followers.db.followers(live.id) == [1_300_000_000_000_000_003]
        assert [o.kind for o in await app.reminders.outbox.outbox_for_game(live.id)] == ["last", "reminder"]
        finished = await app.service.list_games(GUILD, statuses=("finished",))
        assert len(finished) == 1 and finished[0].game.result is not None
    finally:
        await db.close()
    reopened = await store.Store.open(path)
    try:
        assert (await reopened.get_game(live.id)) is not None
        assert [m.version for m in await reopened.moves(live.id)] == [1, 2, 3, 4]
    finally:
        await reopened.close()


def test_the_migrations_have_the_same_numbers_on_both_engines() -> None:
    sqlite = [number for number, _ in store.migrations(store.SQLITE)]
    postgres = [number for number, _ in store.migrations(store.POSTGRES)]
    assert sqlite == postgres == list(range(1, len(sqlite) + 1))


def test_placeholders_become_numbered_outside_quoted_text_only() -> None:
    sql = "SELECT '?' , \"a?\" FROM t WHERE a = ? AND b IN (?, ?) AND c = GREATEST(d, ?)"
    assert to_postgres(sql) == "SELECT '?' , \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3) AND c = GREATEST(d, $4)"
    assert to_sqlite(sql).endswith("c = MAX(d, ?)") and to_sqlite("LEAST(a, b)") == "MIN(a, b)"


# -- PostgreSQL: several processes on one database ------------------------------------------------------


async def started_game(db: store.Store) -> int:
    game = await db.create_game(guild_xid=GUILD, channel_xid=5, kind="toy", options={}, seed=1, host_xid=ANA, at=1)
    await db.add_seat(game.id, user_xid=ANA, ai_level=None, name="Ana", at=1, max_seats=2)
    await db.add_seat(game.id, user_xid=BEA, ai_level=None, name="Bea", at=1, max_seats=2)
    assert await db.start_game(game.id, state={"turn": 0}, at=2)
    return game.id


async def test_two_processes_commit_the_same_version_and_exactly_one_wins(postgres_server: PostgresServer) -> None:
    """Two stores (two pools, as two bot processes would have) race 20 times to commit the next move of
    one game; every time exactly one commit lands and the other is StaleVersion, so the log has one move
    per version and the snapshot is the winner's."""
    url = await fresh_postgres_database(postgres_server)
    first, second = await store.Store.open(url), await store.Store.open(url)
    try:
        game_id = await started_game(first)

        async def commit(db: store.Store, seat: int, version: int) -> int | None:
            try:
                made = await db.commit_move(
                    game_id,
                    expected_version=version,
                    seat=seat,
                    move={"by": seat, "v": version},
                    at=10 + version,
                    actor_xid=None,
                    state={"by": seat, "v": version},
                    awaiting_changed=True,
                )
                return made.version
            except store.StaleVersion:
                return None

        for version in range(20):
            results = await asyncio.gather(commit(first, 0, version), commit(second, 1, version))
            assert sorted(r is None for r in results) == [False, True], results
            winner = 0 if results[0] is not None else 1
            assert await second.snapshot(game_id) == (version + 1, {"by": winner, "v": version})
        moves = await first.moves(game_id)
        assert [m.version for m in moves] == list(range(1, 21))
        assert (await second.get_game(game_id)).version == 20  # type: ignore[union-attr]
    finally:
        await first.close()
        await second.close()


async def test_two_processes_take_the_last_seat_and_only_one_sits(postgres_server: PostgresServer) -> None:
    url = await fresh_postgres_database(postgres_server)
    first, second = await store.Store.open(url), await store.Store.open(url)
    try:
        for round_ in range(10):
            game = await first.create_game(
                guild_xid=GUILD, channel_xid=100 + round_, kind="toy", options={}, seed=1, host_xid=ANA, at=1
            )
            await first.add_seat(game.id, user_xid=ANA, ai_level=None, name="Ana", at=1, max_seats=2)
            seated = await asyncio.gather(
                first.add_seat(game.id, user_xid=BEA, ai_level=None, name="Bea", at=2, max_seats=2),
                second.add_seat(game.id, user_xid=ANA + 7, ai_level=None, name="Cem", at=2, max_seats=2),
            )
            assert sum(s is not None for s in seated) == 1
            assert [s.seat for s in await second.seats(game.id)] == [0, 1]
    finally:
        await first.close()
        await second.close()


async def test_processes_starting_together_migrate_once(postgres_server: PostgresServer) -> None:
    url = postgres_server.url()
    name = f"together{free_port()}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    target = postgres_server.url(name)
    opened = await asyncio.gather(*(store.Store.open(target) for _ in range(4)))
    try:
        rows = await opened[0].fetch_all("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == [n for n, _ in store.migrations(store.POSTGRES)]
        assert all([await s.integrity_check() == "ok" for s in opened])
    finally:
        for s in opened:
            await s.close()


async def test_a_newer_postgres_schema_is_refused(postgres_server: PostgresServer) -> None:
    url = await fresh_postgres_database(postgres_server)
    db = await store.Store.open(url)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO schema_migrations (version) VALUES (?)", (99,))
    await db.close()
    with pytest.raises(store.DatabaseNewer) as refused:
        await store.Store.open(url)
    assert refused.value.params["found"] == 99


def test_the_bot_says_one_sentence_when_postgres_cannot_be_reached(tmp_path: Path) -> None:
    """No server listens: one sentence naming the database without its password, exit 2, no traceback,
    and no SQLite file is created."""
    url = f"postgresql://citybot:s3cret@127.0.0.1:{free_port()}/games"
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_URL=url), cwd=tmp_path)
    assert ran.status == 2, ran.err
    sentence = one_sentence(ran.err)
    assert "PostgreSQL" in sentence and "127.0.0.1" in sentence and "DATABASE_URL" in sentence
    assert "s3cret" not in ran.err and "Traceback" not in ran.err
    assert not (tmp_path / "data").exists()


def test_the_bot_says_one_sentence_when_postgres_is_newer(tmp_path: Path, postgres_server: PostgresServer) -> None:
    url = asyncio.run(fresh_postgres_database(postgres_server))
    postgres_server.sql("INSERT INTO schema_migrations (version) VALUES (99)", database=url.rsplit("/", 1)[1])
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_URL=url), cwd=tmp_path)
    assert ran.status == 2, ran.err
    sentence = one_sentence(ran.err)
    assert "newer version" in sentence and "99" in sentence and "Traceback" not in ran.err


def test_a_database_url_that_is_not_postgres_is_a_sentence(tmp_path: Path) -> None:
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_URL="mysql://db/games"), cwd=tmp_path)
    assert ran.status == 2
    assert "DATABASE_URL must start with postgresql://" in one_sentence(ran.err)


def test_database_url_is_read_from_env_and_env_file(tmp_path: Path) -> None:
    """DATABASE_URL (environment over .env) selects PostgreSQL; unset, the SQLite file is the database."""
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nDATABASE_URL=postgresql://bot:pw@db:5432/citybot\n")
    from_file = settings.load({}, env_file)
    assert from_file.database == from_file.database_url == "postgresql://bot:pw@db:5432/citybot"
    overridden = settings.load({"DATABASE_URL": "postgres://other/x"}, env_file)
    assert overridden.database == "postgres://other/x"
    plain = settings.load({"DISCORD_TOKEN": "abc"}, tmp_path / "none.env")
    assert plain.database_url is None and plain.database == Path("data/bot.sqlite3")
    with pytest.raises(settings.SettingsError, match="DATABASE_URL must start with postgresql://"):
        settings.load({"DISCORD_TOKEN": "abc", "DATABASE_URL": "sqlite:///x.db"}, tmp_path / "none.env")
    assert store.redact("postgresql://bot:pw@db:5432/citybot") == "postgresql://bot:***@db:5432/citybot"


async def test_one_process_opens_no_more_connections_than_its_pool_size(postgres_server: PostgresServer) -> None:
    """DATABASE_POOL_SIZE: twelve reads at once through a store with a pool of two use two server
    connections at most (several processes must fit the server's max_connections together)."""
    url = await fresh_postgres_database(postgres_server)
    db = await store.Store.open(url, pool_size=2)
    watcher = await asyncpg.connect(url)
    try:
        name = url.rsplit("/", 1)[1]
        seen: list[int] = []

        async def busy() -> None:
            await db.fetch_one("SELECT pg_sleep(0.2)")

        async def watch() -> None:
            for _ in range(8):
                seen.append(
                    int(
                        await watcher.fetchval(
                            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name
                        )
                    )
                )
                await asyncio.sleep(0.05)

        await asyncio.gather(*(busy() for _ in range(12)), watch())
        assert max(seen) == 2, seen
    finally:
        await watcher.close()
        await db.close()
