"""One table of settings (``bot.settings.TABLE``): ``--help`` lists every one of them in the terminal's language,
``python -m bot settings`` writes the README's table and ``.env.example``; settings that contradict each other and
databases that are not the bot's get one sentence and exit status 2, and are left as they were."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot import cli, settings, settingsdoc, store
from bot.i18n import t
from tests.cli.helpers import ROOT, environment, one_sentence, run_main, run_process


def test_help_lists_every_setting_of_the_table() -> None:
    ran = run_main("--help")
    assert ran.status == 0
    missing = [name for name in settings.KEYS if f"  {name}  " not in ran.out]
    assert not missing, f"python -m bot --help lacks {missing}"
    for setting in settings.TABLE:  # each with its help, folded on to several lines where long
        assert t(setting.help_key, "en").split()[0] in ran.out


@pytest.mark.parametrize("lang", ["hu", "es", "ru", "pl"])
def test_help_lists_the_settings_in_the_terminal_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "LOCALE", lang)
    out = run_main("--help").out
    assert all(f"  {name}  " in out for name in settings.KEYS)
    assert t("cli.setting.ai_pause_seconds", lang).split()[0] in out
    assert t("cli.setting.range", lang, low=10, high=3600) in out


def test_the_settings_command_writes_the_readme_table_and_the_env_example() -> None:
    assert run_main("settings", "--markdown").out == settingsdoc.markdown() + "\n"
    assert run_main("settings", "--env").out == settingsdoc.env_example()
    plain = run_main("settings")
    assert plain.status == 0 and plain.out == settingsdoc.help_lines("en") + "\n"
    bad = run_main("settings", "--yaml")
    assert bad.status == 2 and "--yaml" in bad.err and bad.out == ""
    both = run_main("settings", "--env", "--markdown")
    assert both.status == 2 and both.err.startswith("error: ")


def test_no_secret_has_a_value_in_the_env_example() -> None:
    lines = settingsdoc.env_example().splitlines()
    for setting in (*settings.TABLE, *settings.COMPOSE_ONLY):
        if setting.secret and setting.name != "DATABASE_URL":  # the URL's example is a placeholder
            assert f"{setting.name}=" in lines or f"# {setting.name}=" in lines, setting.name


def load(tmp_path: Path, **env: str) -> settings.Settings:
    return settings.load({"DISCORD_TOKEN": "abc", **env}, env_file=tmp_path / "none.env")


@pytest.mark.parametrize("path", ["same", ".", "./", "sub/.."])
def test_a_database_path_that_is_the_data_dir_is_named_as_such(path: str, tmp_path: Path) -> None:
    folder = tmp_path / "dd"
    given = str(folder) if path == "same" else path
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, DATA_DIR=str(folder), DATABASE_PATH=given)
    text = str(caught.value)
    assert caught.value.key == "cli.settings.db_is_data_dir"
    assert "outside" not in text and str(folder) in text and "bot.sqlite3" in text


def test_the_data_dir_contradiction_stops_the_bot_with_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "dd"
    ran = run_process(
        "-m", "bot", env=environment(DISCORD_TOKEN="abc", DATA_DIR=str(folder), DATABASE_PATH=str(folder)), cwd=tmp_path
    )
    assert ran.status == 2
    assert "is DATA_DIR" in one_sentence(ran.err) and "outside" not in ran.err


def test_a_database_path_that_is_a_folder_stops_the_bot_with_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(folder)), cwd=tmp_path)
    assert ran.status == 2 and "is a folder" in one_sentence(ran.err) and f"{folder}/bot.sqlite3" in ran.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"] and not any(folder.iterdir())


def test_the_terminal_names_its_db_option_for_a_folder(tmp_path: Path) -> None:
    ran = run_process("-m", "bot", "local", "btc", "--solo", "--db", str(tmp_path), cwd=tmp_path, stdin="")
    sentence = one_sentence(ran.err)
    assert ran.status == 2 and "--db" in sentence and "DATABASE_PATH" not in sentence


def foreign_database(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("CREATE TABLE games (name TEXT)")  # a table name the bot also uses
    conn.executemany("INSERT INTO notes (text) VALUES (?)", [(f"note {i}",) for i in range(50)])
    conn.commit()
    conn.close()
    return path.read_bytes()


def assert_untouched(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before
    left = sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name) and p != path)
    assert left == [], f"left behind: {left}"  # no .lock, -wal, -shm or -journal


def test_a_foreign_sqlite_file_is_refused_and_left_byte_for_byte(tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite3"
    before = foreign_database(db)
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(db)), cwd=tmp_path)
    sentence = one_sentence(ran.err)
    assert ran.status == 2 and "another program" in sentence and "notes" in sentence and "DATABASE_PATH" in sentence
    assert_untouched(db, before)


def test_the_terminal_refuses_a_foreign_file_with_the_whole_sentence(tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite3"
    before = foreign_database(db)
    ran = run_process("-m", "bot", "local", "btc", "--solo", "--db", str(db), cwd=tmp_path, stdin="")
    sentence = one_sentence(ran.err)
    assert ran.status == 2 and sentence.endswith("give --db a new file name.") and "…" not in sentence
    assert_untouched(db, before)


@pytest.mark.parametrize("application_id", [0x12345678, -5])
def test_another_program_s_marked_file_is_refused_even_without_tables(application_id: int, tmp_path: Path) -> None:
    db = tmp_path / "marked.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA application_id = {application_id}")
    conn.close()
    before = db.read_bytes()
    with pytest.raises(store.DatabaseForeign):
        asyncio.run(store.Store.open(db))
    assert_untouched(db, before)


def test_a_file_that_is_not_sqlite_is_refused_with_no_lock_left(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    shutil.copy(ROOT / "README.md", readme)
    before = readme.read_bytes()
    ran = run_process("-m", "bot", env=environment(DISCORD_TOKEN="abc", DATABASE_PATH=str(readme)), cwd=tmp_path)
    assert ran.status == 2 and "not a database of this bot" in one_sentence(ran.err)
    assert_untouched(readme, before)
    ran = run_process("-m", "bot", "local", "btc", "--solo", "--db", str(readme), cwd=tmp_path, stdin="")
    assert ran.status == 2 and "not a database of this bot" in one_sentence(ran.err)
    assert_untouched(readme, before)


def test_the_bot_s_own_files_open_marked_and_an_earlier_unmarked_one_is_adopted(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"

    async def open_close() -> None:
        s = await store.Store.open(db)
        await s.close()

    asyncio.run(open_close())
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
    conn.execute("PRAGMA application_id = 0")  # as written by a version from before the mark
    conn.close()
    asyncio.run(open_close())
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
    conn.close()


def test_an_empty_file_or_an_empty_sqlite_database_becomes_the_bot_s(tmp_path: Path) -> None:
    empty, blank = tmp_path / "empty.sqlite3", tmp_path / "blank.sqlite3"
    empty.write_bytes(b"")
    conn = sqlite3.connect(blank)
    conn.execute("PRAGMA user_version = 0")
    conn.execute("VACUUM")  # writes the header: a SQLite file with no table
    conn.close()
    for path in (empty, blank):

        async def open_close(path: Path = path) -> int:
            s = await store.Store.open(path)
            try:
                return await s.schema_version()
            finally:
                await s.close()

        assert asyncio.run(open_close()) == max(n for n, _ in store.migrations())


def test_inside_the_image_a_data_dir_off_the_volume_stops_the_bot_with_one_sentence(tmp_path: Path) -> None:
    """``docker run --env-file .env`` with ``DATA_DIR=/srv/x``: the image's mark is set, the volume is not used."""
    ran = run_process(
        "-m", "bot", env=environment(DISCORD_TOKEN="abc", BOT_IN_IMAGE="1", DATA_DIR=str(tmp_path / "x")), cwd=tmp_path
    )
    sentence = one_sentence(ran.err)
    assert ran.status == 2 and settings.IMAGE_VOLUME in sentence and "--env-file" in sentence
    assert not any(tmp_path.iterdir())  # nothing was made
