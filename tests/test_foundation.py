"""Settings, entry points, custom_ids, the catalogue and the layer rules."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import i18n, settings
from cogs import ids

ROOT = Path(__file__).resolve().parents[1]


def run_bot(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH")}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd or ROOT,
    )


def test_no_token_is_one_sentence(tmp_path: Path) -> None:
    """python -m bot without a token exits non-zero naming DISCORD_TOKEN, with no traceback."""
    proc = run_bot(cwd=tmp_path)
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_bad_settings_are_sentences(tmp_path: Path) -> None:
    """A malformed log level or an unusable database path is one sentence, exit 2."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for env in (
        {"DISCORD_TOKEN": "x", "LOG_LEVEL": "LOUD"},
        {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(blocker / "db.sqlite3")},
        {"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "my-server"},
    ):
        proc = run_bot(env=env, cwd=tmp_path)
        assert proc.returncode == 2, env
        assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr


def test_env_file_is_read(tmp_path: Path) -> None:
    """Settings come from .env, the environment wins, defaults fill the rest."""
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDISCORD_TOKEN='abc'\nLOG_LEVEL=debug\nDEV_GUILD_ID=123\n")
    s = settings.load({}, env_file)
    assert (s.token, s.dev_guild_id, s.log_level) == ("abc", 123, 10)
    assert s.database_path == Path("data/bot.sqlite3")
    assert settings.load({"DISCORD_TOKEN": "zzz"}, env_file).token == "zzz"
    env_file.write_text("NOT A SETTING\n")
    with pytest.raises(settings.SettingsError):
        settings.load({}, env_file)


def test_score_cli_usage_errors(tmp_path: Path) -> None:
    """The score calculator refuses an unknown game or a missing file with a sentence, exit 2."""
    proc = run_bot("score", "chess", "x.json")
    assert proc.returncode == 2 and "usage" in proc.stderr
    proc = run_bot("score", "quadropolis", str(tmp_path / "missing.json"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_custom_ids_round_trip_and_forgeries() -> None:
    """Our ids parse back; anything malformed is a ForgedId, never a crash."""
    cid = ids.move(7, 3, "abcd1234", {"kind": "take", "slot": "N2"})
    assert cid is not None and len(cid) <= 100
    parsed = ids.parse(cid)
    assert (parsed.game_id, parsed.version, parsed.move) == (7, 3, {"kind": "take", "slot": "N2"})
    assert ids.parse(ids.lobby(5, "join")).action == "join"
    for bad in (
        "",
        "lobby:5:explode",
        "mv:1:2:tok:{not json",
        "mv:x:1:t:{}",
        "mv:1:2:t:[1]",
        "open:1",
        "zzz:1",
        "sel:1:2",
        "mv:1:2:t:" + "{" * 95,
        "lobby:99999999999999999999999:join",
    ):
        with pytest.raises(ids.ForgedId):
            ids.parse(bad)
    assert ids.move(1, 1, "t", {"kind": "x" * 120}) is None


def test_every_catalogue_key_used_exists() -> None:
    """Every message id the Discord layer, service and core use is in the English catalogue."""
    english = i18n.catalogue("en")
    pattern = re.compile(
        r"""(?:\bt\(|Move\(|Error\(|NotAllowed\(|NotInLobby\(|NoGameHere\(|NotInGame\(|default_key = )"""
        r"""\s*["']([a-z_]+\.[a-z_.]+)["']"""
    )
    missing = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            if "rules" in path.parts and path.parent.name != "rules":
                continue  # each game checks its own catalogue
            for key in pattern.findall(path.read_text(encoding="utf-8")):
                if key not in english:
                    missing.add(f"{path.relative_to(ROOT)}: {key}")
    assert not missing, sorted(missing)


def test_translation_falls_back_to_english() -> None:
    """A locale without a catalogue (German) or a key missing from one falls back to English, then to the id;
    a language the bot speaks answers in it."""
    assert i18n.t("error.not_your_turn", "de") == "It is not your turn."
    assert i18n.t("error.not_your_turn", "hu") not in ("It is not your turn.", "error.not_your_turn")
    assert i18n.normalise_locale("es-ES") == "es"
    assert i18n.t("no.such.key") == "no.such.key"
