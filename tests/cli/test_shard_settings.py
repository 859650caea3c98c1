"""SHARD_COUNT and SHARD_IDS: several processes split the gateway; a bad value is one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import settings
from cogs.app import CityBot
from tests.cli.helpers import environment, one_sentence, run_process

URL = "postgresql://bot@db.example:5432/bot"
"""Processes that split the shards share one PostgreSQL database (a SQLite file admits one process)."""


def load(tmp_path: Path, **env: str) -> settings.Settings:
    return settings.load({"DISCORD_TOKEN": "abc", **env}, env_file=tmp_path / "none.env")


def test_without_shard_settings_discord_py_decides(tmp_path: Path) -> None:
    got = load(tmp_path)
    assert got.shard_count is None and got.shard_ids is None
    bot = CityBot(got, sync_commands=False)
    assert bot.shard_count is None and bot.shard_ids is None


def test_two_processes_split_two_shards(tmp_path: Path) -> None:
    one = load(tmp_path, SHARD_COUNT="2", SHARD_IDS="0", DATABASE_URL=URL)
    two = load(tmp_path, SHARD_COUNT=" 2 ", SHARD_IDS=" 1 ", DATABASE_URL=URL)
    assert (one.shard_count, one.shard_ids) == (2, (0,))
    assert (two.shard_count, two.shard_ids) == (2, (1,))
    bot = CityBot(two, sync_commands=False)
    assert bot.shard_count == 2 and bot.shard_ids == [1]


def test_a_count_alone_runs_every_shard_here(tmp_path: Path) -> None:
    got = load(tmp_path, SHARD_COUNT="3")
    assert (got.shard_count, got.shard_ids) == (3, None)
    assert load(tmp_path, SHARD_COUNT="4", SHARD_IDS="3, 1", DATABASE_URL=URL).shard_ids == (3, 1)
    assert load(tmp_path, SHARD_COUNT="2", SHARD_IDS="1,0").shard_ids == (1, 0)  # every shard: one process


def test_the_settings_come_from_the_env_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=abc\nSHARD_COUNT=2\nSHARD_IDS=1\nDATABASE_URL={URL}\n", encoding="utf-8")
    got = settings.load({}, env_file=env)
    assert (got.shard_count, got.shard_ids) == (2, (1,))


@pytest.mark.parametrize(
    "env, key",
    [
        ({"SHARD_COUNT": "0"}, "cli.settings.shard_count"),
        ({"SHARD_COUNT": "two"}, "cli.settings.shard_count"),
        ({"SHARD_COUNT": "٢"}, "cli.settings.shard_count"),
        ({"SHARD_COUNT": "99999"}, "cli.settings.shard_count"),
        ({"SHARD_IDS": "0"}, "cli.settings.shard_ids_alone"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "cli.settings.shard_id"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,"}, "cli.settings.shard_id"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "cli.settings.shard_id"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "cli.settings.shard_twice"),
    ],
)
def test_bad_shard_settings_are_refused(env: dict[str, str], key: str, tmp_path: Path) -> None:
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, **env)
    assert caught.value.key == key
    text = str(caught.value)
    assert "SHARD_" in text and "\n" not in text and "{" not in text


@pytest.mark.parametrize("ids", ["0", "1", "2,0"])
def test_some_of_the_shards_without_a_shared_database_are_refused(ids: str, tmp_path: Path) -> None:
    """Two processes with SHARD_IDS on SQLite would each keep their servers' games in a file of their own."""
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, SHARD_COUNT="3", SHARD_IDS=ids)
    text = str(caught.value)
    assert caught.value.key == "cli.settings.shards_need_url"
    assert f"SHARD_IDS={ids}" in text and "DATABASE_URL" in text and "\n" not in text


def test_shards_without_a_shared_database_stop_the_bot_with_one_sentence(tmp_path: Path) -> None:
    ran = run_process(
        "-m",
        "bot",
        env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(tmp_path / "b.sqlite3"), SHARD_COUNT="2", SHARD_IDS="0"),
        cwd=tmp_path,
    )
    assert ran.status == 2 and "DATABASE_URL" in one_sentence(ran.err)
    assert not (tmp_path / "b.sqlite3").exists()  # refused before any file was made


def test_a_bad_shard_setting_stops_the_bot_with_one_sentence(tmp_path: Path) -> None:
    ran = run_process(
        "-m",
        "bot",
        env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(tmp_path / "b.sqlite3"), SHARD_COUNT="2", SHARD_IDS="5"),
        cwd=tmp_path,
    )
    assert ran.status == 2 and "SHARD_IDS" in one_sentence(ran.err) and "0 to 1" in ran.err


def test_the_postgresql_pool_size_is_a_setting(tmp_path: Path) -> None:
    assert load(tmp_path).pool_size == settings.DEFAULT_POOL_SIZE
    assert load(tmp_path, DATABASE_POOL_SIZE=" 3 ").pool_size == 3


@pytest.mark.parametrize("value", ["0", "101", "ten", "٣", "-1", "2.5"])
def test_a_bad_pool_size_is_one_sentence(value: str, tmp_path: Path) -> None:
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, DATABASE_POOL_SIZE=value)
    text = str(caught.value)
    assert caught.value.key == "cli.settings.pool_size"
    assert "DATABASE_POOL_SIZE" in text and "1 to 100" in text and "\n" not in text


def test_the_lease_is_a_setting(tmp_path: Path) -> None:
    assert load(tmp_path).lease_seconds == settings.DEFAULT_LEASE_SECONDS == 60
    assert load(tmp_path, LEASE_SECONDS="15").lease_seconds == 15


@pytest.mark.parametrize("value", ["9", "3601", "1m", "", "0"])
def test_a_bad_lease_is_one_sentence(value: str, tmp_path: Path) -> None:
    if value == "":
        assert load(tmp_path, LEASE_SECONDS=value).lease_seconds == 60  # empty: the default
        return
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, LEASE_SECONDS=value)
    text = str(caught.value)
    assert caught.value.key == "cli.settings.lease" and "LEASE_SECONDS" in text and "10 to 3600" in text
