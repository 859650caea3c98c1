"""The terminal front-end: any game in any language, on the shared turn flow, one picture folder per game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import local
from bot.i18n import t


def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         *argv: str) -> tuple[int, str]:
    answers = iter(["1"] * 400)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = local.main([*argv, "--db", str(tmp_path / "local.sqlite3"), "--out", str(tmp_path / "out")])
    return code, capsys.readouterr().out


def test_quadropolis_plays_to_the_end_in_hungarian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`local quadropolis --players 2 --ai 1 --lang hu`: the whole game, its menus and its ranking in Hungarian."""
    code, out = play(tmp_path, monkeypatch, capsys, "quadropolis", "--players", "2", "--ai", "1", "--lang", "hu",
                     "--level", "random")
    assert code == 0
    assert t("end.title", "hu", game=1) in out
    assert t("quadropolis.ui.discard", "hu") in out
    assert t("quadropolis.ui.discard", "en") not in out
    assert t("local.player", "hu", n=1) in out
    assert "picture:" not in out  # the terminal's own words are translated too


def test_every_game_ends_with_the_discord_ranking_and_its_own_picture_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Each game writes its pictures into its own folder and ends with the same ranking text as Discord,
    the Automas ranked with the players in solo, and never a bare "Decided by" tie-break id."""
    for argv in (["btc", "--players", "3", "--ai", "2"], ["btc", "--solo", "--difficulty", "3"],
                 ["urbanpanic", "--variant", "basic", "--players", "2", "--ai", "1"]):
        code, out = play(tmp_path, monkeypatch, capsys, *argv, "--level", "random")
        assert code == 0, out
        ranking = out.split(" is over!")[-1]
        assert "1. " in ranking
        assert "Decided by Tie" not in out and "Decided by The" not in out
        if "--solo" in argv:
            assert "Automa" in ranking
    folders = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert folders == ["btc-1", "btc-2", "urbanpanic-3"], folders
    assert all(any(p.iterdir()) for p in (tmp_path / "out").iterdir())


def test_an_unknown_game_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A game that does not exist is named, with the games that do."""
    code = local.main(["chess", "--db", str(tmp_path / "x.sqlite3"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "chess" in err and "quadropolis" in err and "Traceback" not in err


def test_more_options_reach_the_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`--option NAME=VALUE` sets any of the game's options; a bad one is a sentence naming the fix."""
    code = local.main(["urbanpanic", "--variant", "party", "--option", "party_minutes=banana", "--players", "2",
                       "--ai", "1", "--db", str(tmp_path / "o.sqlite3"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "banana" in err and "Traceback" not in err
    code = local.main(["urbanpanic", "--option", "party_minutes", "--db", str(tmp_path / "o.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2 and "NAME=VALUE" in err
