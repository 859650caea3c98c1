"""Every entry point behaves like a good Unix tool: ``--help`` for a user, one sentence and exit 2 for
an unknown command or option, quiet in a closed pipe, and errors that name the fix."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import bench, cli
from tests.cli.helpers import ROOT, one_sentence, run_into_closed_pipe, run_main, run_process

ENTRY_POINTS = {
    "bot": ["-m", "bot"],
    "local": ["-m", "bot", "local"],
    "score": ["-m", "bot", "score"],
    "bench": ["-m", "bot.bench"],
}
EXAMPLES = ROOT / "docs" / "examples"


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_help_is_written_for_a_user(name: str) -> None:
    ran = run_process(*ENTRY_POINTS[name], "--help")
    assert ran.status == 0 and ran.err == ""
    assert ran.out.startswith("usage: python -m bot")
    assert "``" not in ran.out and ":func:" not in ran.out and ":mod:" not in ran.out


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_unknown_option_is_one_sentence_pointing_to_help(name: str) -> None:
    ran = run_process(*ENTRY_POINTS[name], "--frobnicate")
    sentence = one_sentence(ran.err)
    assert ran.status == 2 and ran.out == ""
    assert "--frobnicate" in sentence and "--help" in sentence


@pytest.mark.parametrize(
    "argv, named",
    [
        (["foo"], "foo"),  # python -m bot foo: not the bot starting
        (["local", "chess"], "chess"),
        (["score", "chess", "x.json"], "chess"),
        (["local", "btc", "extra", "words"], "extra"),
        (["score", "btc", "a.json", "b.json"], "b.json"),
    ],
)
def test_unknown_command_is_one_sentence(argv: list[str], named: str) -> None:
    ran = run_main(*argv)
    assert ran.status == 2 and ran.out == ""
    assert named in one_sentence(ran.err)


def test_unknown_bench_module_is_one_sentence() -> None:
    ran = run_process("-m", "bot.bench", "--only", "turn", "nosuch")
    assert ran.status == 2 and ran.out == ""
    sentence = one_sentence(ran.err)
    assert '"nosuch"' in sentence and "store" in sentence  # names the wrong one and lists the right ones


def test_bench_only_takes_several_modules(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--only turn store`` runs exactly those two (``turn`` is the one module with that word)."""
    ran: list[str] = []

    def fake_module(name: str) -> Any:
        short = name.rsplit(".", 1)[1]
        ran.append(short)
        return SimpleNamespace(figures=lambda quick: {f"{short}.ok": quick})

    monkeypatch.setattr(bench.importlib, "import_module", fake_module)
    assert bench.main(["--quick", "--only", "turn", "store"]) == 0
    assert ran == ["quadropolis_turn", "store"]
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {
        "quadropolis_turn.ok": True,
        "store.ok": True,
        "bench.run": "quick",
        "bench.comparable_with_full": False,
        "quadropolis_turn.bench_seconds": pytest.approx(0, abs=5),
        "store.bench_seconds": pytest.approx(0, abs=5),
    }


@pytest.mark.parametrize(
    "args",
    [
        [*ENTRY_POINTS["bot"], "--help"],
        [*ENTRY_POINTS["local"], "--help"],
        [*ENTRY_POINTS["score"], "--help"],
        [*ENTRY_POINTS["bench"], "--help"],
        [*ENTRY_POINTS["score"], "btc", str(EXAMPLES / "btc.json")],
        [*ENTRY_POINTS["local"], "--replay", str(EXAMPLES / "sample-export.json"), "--out", "{tmp}"],
    ],
)
def test_a_closed_pipe_ends_quietly(args: list[str], tmp_path: Path) -> None:
    """``... | head -1`` once the reader has gone: no BrokenPipeError, nothing on standard error,
    and the status the shell reports for a tool stopped by SIGPIPE."""
    ran = run_into_closed_pipe(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert ran.err == ""
    assert ran.status == cli.EXIT_PIPE


def test_local_btc_with_two_players_points_to_the_two_player_mode() -> None:
    ran = run_main("local", "btc", "--players", "2", "--ai", "1")
    assert ran.status == 2
    assert "--mode two_player" in one_sentence(ran.err)


@pytest.mark.parametrize(
    "argv, fix",
    [
        (["local", "btc", "--players", "9"], "--players"),
        (["local", "btc", "--players", "3", "--ai", "4"], "--ai"),
        (["local", "btc", "--players", "3", "--ai", "3"], "--ai"),
        (["local", "quadropolis", "--level", "genius", "--ai", "1"], "--level"),
        (["local"], "--replay"),
        (["score"], "python -m bot score"),
        (["score", "btc", "/no/such/file.json"], "/no/such/file.json"),
    ],
)
def test_errors_name_the_option_to_fix(argv: list[str], fix: str) -> None:
    ran = run_main(*argv)
    assert ran.status == 2 and fix in one_sentence(ran.err)


def test_every_example_file_scores(capsys: pytest.CaptureFixture[str]) -> None:
    """The documented example of each game's calculator gives the documented total."""
    from bot import games

    totals = {"btc": 56, "quadropolis": 63, "urbanpanic": 44}
    kinds = [k for k in games.available() if games.get(k).calculator is not None]
    assert sorted(kinds) == sorted(totals)
    for kind in kinds:
        ran = run_main("score", kind, str(EXAMPLES / f"{kind}.json"))
        assert ran.status == 0 and ran.err == ""
        assert json.loads(ran.out)["total"] == totals[kind]
        assert f"docs/examples/{kind}.json" in (ROOT / "docs" / "score-formats.md").read_text(encoding="utf-8")


def test_score_reads_standard_input() -> None:
    ran = run_process("-m", "bot", "score", "btc", "-", stdin=(EXAMPLES / "btc.json").read_text(encoding="utf-8"))
    assert ran.status == 0 and json.loads(ran.out)["total"] == 56


def test_the_sample_export_replays(tmp_path: Path) -> None:
    ran = run_main("local", "--replay", str(EXAMPLES / "sample-export.json"), "--out", str(tmp_path))
    assert ran.status == 0 and ran.err == ""
    pictures = sorted((tmp_path / "btc-sample-export").glob("*.png"))
    assert pictures and pictures[-1].name.endswith("-end.png")


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({"LANG": "hu_HU.UTF-8"}, "hu"),
        ({"LANG": "es_ES.UTF-8", "LC_ALL": "pl_PL.UTF-8"}, "pl"),  # LC_ALL wins
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language the bot lacks
        ({}, "en"),
    ],
)
def test_the_terminal_language_comes_from_the_locale(environ: dict[str, str], expected: str) -> None:
    assert cli.terminal_locale(environ) == expected


@pytest.mark.parametrize("lang", ["hu", "es", "ru", "pl"])
def test_a_user_whose_terminal_speaks_their_language_is_answered_in_it(lang: str) -> None:
    from bot.i18n import t
    from tests.cli.helpers import environment

    ran = run_process("-m", "bot", "score", "--frobnicate", env=environment(LANG=f"{lang}_XX.UTF-8"))
    expected = t("cli.unknown_option", lang, prog="python -m bot score", option="--frobnicate")
    prefix = t("cli.error_prefix", lang)  # "error:" in their language too
    assert prefix != "error" or lang == "es"
    assert ran.status == 2 and one_sentence(ran.err) == f"{prefix}: {expected}"
    no_token = run_process("-m", "bot", env=environment(LANG=f"{lang}_XX.UTF-8", DISCORD_TOKEN=""), cwd=Path("/"))
    assert one_sentence(no_token.err) == f"{prefix}: {t('cli.settings.no_token', lang)}"


@pytest.mark.parametrize("game", ["quadropolis", "btc", "urbanpanic"])
def test_score_help_shows_the_game_s_own_example(game: str) -> None:
    ran = run_main("score", game, "--help")
    assert ran.status == 0
    examples = [line.strip() for line in ran.out.splitlines() if line.strip().startswith("python -m bot score ")]
    assert examples == [f"python -m bot score {game} docs/examples/{game}.json"]
    assert (ROOT / "docs" / "examples" / f"{game}.json").is_file()


def test_score_help_without_a_game_shows_every_game_s_example() -> None:
    out = run_main("score", "--help").out
    for game in ("quadropolis", "btc", "urbanpanic"):
        assert f"python -m bot score {game} docs/examples/{game}.json" in out
