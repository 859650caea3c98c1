"""Issue 36, point 13: the command line tried as a new user would, from a clean clone."""

from __future__ import annotations

import ast
import json
import socket
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from bot import cli
from bot.i18n import languages, t
from tests.cli.helpers import ROOT, environment, one_sentence, run_main, run_process

SAMPLE = ROOT / "docs" / "examples" / "sample-export.json"


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something else listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


def test_the_readme_replay_names_the_seats(tmp_path: Path) -> None:
    """`python -m bot local --replay docs/examples/sample-export.json` tells each move with the seats' names,
    as live games and /game replay do, never a `{'$seat': 0}` placeholder."""
    names = [seat["name"] for seat in json.loads(SAMPLE.read_text(encoding="utf-8"))["seats"]]
    ran = run_main("local", "--replay", str(SAMPLE), "--out", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "$seat" not in ran.out and "{'" not in ran.out, ran.out[:2000]
    reveals = [line for line in ran.out.splitlines() if "Everyone reveals" in line]
    assert reveals and all(all(name in line for name in names) for line in reveals), reveals[:3]


def test_a_busy_web_port_changes_nothing(tmp_path: Path, busy_port: int) -> None:
    """`local --web` on a busy port: one sentence in the style of every other error (it starts in lower
    case and names the option to change), exit 2, and no game made, no database, no picture."""
    db, out = tmp_path / "local.sqlite3", tmp_path / "out"
    ran = run_main(
        "local", "quadropolis", "--ai", "1", "--web", "--web-port", str(busy_port), "--db", str(db), "--out", str(out)
    )
    sentence = one_sentence(ran.err)
    assert ran.status == 2
    head = t("cli.local.web_port_busy", "en", port=busy_port, problem="").split("(")[0]
    assert sentence.startswith(f"error: {head}") and sentence[len("error: ")].islower(), sentence
    assert not db.exists() and not out.exists()


def test_a_misspelt_env_key_is_named_with_the_closest_setting(tmp_path: Path) -> None:
    """An unknown key in `.env` is a warning naming it and the setting it is closest to; the bot goes on
    (here to the missing token, which is the error)."""
    (tmp_path / ".env").write_text("WEB_PROT=off\nDISCORD_TOKN=abc\nMY_OWN_THING=1\n", encoding="utf-8")
    ran = run_process("-m", "bot", cwd=tmp_path, env=environment(DISCORD_TOKEN=""))
    lines = ran.err.splitlines()
    assert ran.status == 2 and "Traceback" not in ran.err
    assert lines[:3] == [
        "warning: " + t("cli.settings.unknown_key", "en", path=".env", key="WEB_PROT", guess="WEB_PORT"),
        "warning: " + t("cli.settings.unknown_key", "en", path=".env", key="DISCORD_TOKN", guess="DISCORD_TOKEN"),
        "warning: " + t("cli.settings.unknown_key_alone", "en", path=".env", key="MY_OWN_THING"),
    ], lines
    assert lines[3:] == ["error: " + t("cli.settings.no_token", "en")]


def test_the_bot_refuses_to_start_when_its_web_port_is_busy(tmp_path: Path, busy_port: int) -> None:
    """The pages' port is taken: the links the bot would post lead elsewhere, so it refuses to start (one
    sentence, exit 2) before it opens the database or reaches Discord."""
    env = environment(
        DISCORD_TOKEN="abc",
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        WEB_PORT=str(busy_port),
        FAKE_DISCORD_URL="http://127.0.0.1:9",
    )  # never reached
    ran = run_process("-m", "bot.testing.fakediscord.launch", cwd=tmp_path, env=env)
    sentence = one_sentence(ran.err)
    assert ran.status == 2, ran.err
    assert sentence.startswith(f"error: cannot serve the web pages on 127.0.0.1:{busy_port} ("), sentence
    assert sentence.endswith("choose another WEB_PORT, or set WEB_PORT=off.")
    assert not (tmp_path / "bot.sqlite3").exists()


@pytest.mark.parametrize("lang", ["en", "hu", "es", "ru", "pl"])
def test_local_help_speaks_the_terminal_s_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`local --help` shows the real default of --lang (the terminal's language), and argparse's own
    headings and the error prefix in that language too."""
    monkeypatch.setattr(cli, "LOCALE", lang)
    ran = run_main("local", "--help")
    assert ran.status == 0
    lines = ran.out.splitlines()
    lang_help = t("cli.local.lang", lang, languages=", ".join(languages()), default=lang)
    assert " ".join(ran.out.split()).count(lang_help) == 1, ran.out
    assert lines[0].startswith(t("cli.argparse.usage", lang) + " python -m bot local ")
    assert t("cli.argparse.positional", lang) + ":" in lines
    assert t("cli.argparse.options", lang) + ":" in lines
    if lang != "en":
        assert not {"usage: python -m bot local", "positional arguments:", "options:"} & {
            line[: len("usage: python -m bot local")] for line in lines
        } - {""}
    wrong = run_main("local", "--frobnicate")
    assert one_sentence(wrong.err).startswith(t("cli.error_prefix", lang) + ": ")


def test_version_is_the_installed_package_s() -> None:
    ran = run_main("--version")
    assert ran.status == 0 and ran.out == f"citybuilders-bot {metadata.version('citybuilders-bot')}\n"


def _top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_every_package_the_bot_imports_is_declared() -> None:
    """What bot, cogs and render import (outside the test kit and the benches) is the standard library, the
    project itself, or a dependency pyproject.toml declares (aiohttp was imported but not declared)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {
        dep.split(";")[0]
        .split("[")[0]
        .split("<")[0]
        .split(">")[0]
        .split("=")[0]
        .split("!")[0]
        .split("~")[0]
        .strip()
        .lower()
        .replace("_", "-")
        for dep in project["dependencies"]
    }
    owners = metadata.packages_distributions()
    missing = set()
    for folder in ("bot", "cogs", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            if {"testing", "benches"} & set(path.parts) or path.name == "bench.py":
                continue
            for name in _top_level_imports(path):
                if name in sys.stdlib_module_names or name in ("bot", "cogs", "render", "__future__"):
                    continue
                dists = {d.lower().replace("_", "-") for d in owners.get(name, [name])}
                if not dists & declared:
                    missing.add(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, sorted(missing)


def test_the_repository_stands_alone() -> None:
    """No file of the repository points to a file outside it (a machine's path, or the shared folder beside
    the clone): the code, the catalogues and their glossaries, the fake Discord's README, docs/."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    outside = []
    for name in listed.split():
        path = ROOT / name
        if path == Path(__file__) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # pictures and fonts
        if "/work/" in text or "../shared" in text:
            outside.append(name)
    assert outside == []
