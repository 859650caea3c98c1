"""The web pages' settings (``WEB_PORT``, ``WEB_HOST``, ``WEB_BASE_URL``, ``WEB_SECRET``): their defaults, and each
malformed one stops the bot with one sentence in the terminal's language and exit status 2, the secret never
printed back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import cli, settings
from bot.i18n import languages, t
from tests.cli.helpers import environment, one_sentence, run_process

LANGS = ("en", "hu", "es", "ru", "pl")


def load(tmp_path: Path, **env: str) -> settings.Settings:
    return settings.load({"DISCORD_TOKEN": "abc", **env}, env_file=tmp_path / "none.env")


def test_the_defaults_serve_pages_on_this_machine_and_post_no_links(tmp_path: Path) -> None:
    got = load(tmp_path)
    assert (got.web_port, got.web_host, got.web_base_url, got.web_secret) == (8080, "127.0.0.1", "", "")
    assert all(name in settings.KEYS for name in ("WEB_PORT", "WEB_HOST", "WEB_BASE_URL", "WEB_SECRET"))
    assert settings.BY_NAME["WEB_SECRET"].secret


@pytest.mark.parametrize(
    ("env", "field", "value"),
    [
        ({"WEB_PORT": "off"}, "web_port", None),
        ({"WEB_PORT": " OFF "}, "web_port", None),
        ({"WEB_PORT": "1"}, "web_port", 1),
        ({"WEB_PORT": "65535"}, "web_port", 65535),
        ({"WEB_HOST": "0.0.0.0"}, "web_host", "0.0.0.0"),
        ({"WEB_HOST": "::"}, "web_host", "::"),
        ({"WEB_HOST": "[::1]"}, "web_host", "::1"),
        ({"WEB_HOST": "games.local"}, "web_host", "games.local"),
        ({"WEB_BASE_URL": "https://games.example.org/"}, "web_base_url", "https://games.example.org"),
        ({"WEB_BASE_URL": "http://10.0.0.2:8080/city"}, "web_base_url", "http://10.0.0.2:8080/city"),
        ({"WEB_SECRET": "s" * 16}, "web_secret", "s" * 16),
    ],
)
def test_good_web_settings_are_read(tmp_path: Path, env: dict[str, str], field: str, value: object) -> None:
    assert getattr(load(tmp_path, **env), field) == value


BAD = [
    ("WEB_PORT", "0", "cli.settings.web_port"),
    ("WEB_PORT", "65536", "cli.settings.web_port"),
    ("WEB_PORT", "80a", "cli.settings.web_port"),
    ("WEB_PORT", "-1", "cli.settings.web_port"),
    ("WEB_PORT", "no", "cli.settings.web_port"),
    ("WEB_HOST", "my host", "cli.settings.web_host"),
    ("WEB_HOST", "host/path", "cli.settings.web_host"),
    ("WEB_HOST", "h\u00f6st", "cli.settings.web_host"),
    ("WEB_BASE_URL", "games.example.org", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "ftp://games.example.org", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://games.example.org/?a=1", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://games.example.org/#top", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://user:pw@games.example.org", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://games.example.org:99999", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://[::1", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://games.example.org/a b", "cli.settings.web_base_url"),
    ("WEB_BASE_URL", "https://example.org/" + "x" * 300, "cli.settings.web_base_url"),
    ("WEB_SECRET", "short", "cli.settings.web_secret"),
    ("WEB_SECRET", "x" * 513, "cli.settings.web_secret"),
]


@pytest.mark.parametrize(("name", "value", "key"), BAD)
def test_a_malformed_web_setting_is_one_sentence(tmp_path: Path, name: str, value: str, key: str) -> None:
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, **{name: value})
    assert caught.value.key == key
    text = str(caught.value)
    assert name in text and "\n" not in text.strip()
    if name == "WEB_SECRET":
        assert value not in text  # a secret is never printed back


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", sorted({key for _, _, key in BAD}))
def test_every_web_sentence_is_in_every_language(
    lang: str, key: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert lang in languages()
    monkeypatch.setattr(cli, "LOCALE", lang)
    name, value, _ = next(row for row in BAD if row[2] == key)
    with pytest.raises(settings.SettingsError) as caught:
        load(tmp_path, **{name: value})
    text = str(caught.value)
    assert text == t(key, lang, **caught.value.params) and name in text
    if lang != "en":
        assert text != t(key, "en", **caught.value.params)
    for help_name in ("web_port", "web_host", "web_base_url", "web_secret"):
        assert t(f"cli.setting.{help_name}", lang) != f"cli.setting.{help_name}"


@pytest.mark.parametrize(
    ("name", "value"),
    [("WEB_PORT", "http"), ("WEB_BASE_URL", "javascript:alert(1)"), ("WEB_SECRET", "tooshort-secret")],
)
def test_a_malformed_web_setting_stops_the_bot_with_exit_2(name: str, value: str, tmp_path: Path) -> None:
    ran = run_process(
        "-m",
        "bot",
        env=environment(DISCORD_TOKEN="abc", **{name: value}, DATABASE_PATH=str(tmp_path / "bot.sqlite3")),
        cwd=tmp_path,
    )
    assert ran.status == 2
    sentence = one_sentence(ran.err)
    assert name in sentence and "Traceback" not in ran.err
    if name == "WEB_SECRET":
        assert value not in ran.err
    assert not (tmp_path / "bot.sqlite3").exists()  # nothing changed
