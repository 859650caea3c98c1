"""Every game and variant played in the terminal in Hungarian, Spanish, Russian and Polish: no line a player
reads carries an English word of the catalogue, and a Russian line no Latin letter beyond the game titles,
grid coordinates (A1, D4) and the sample players' own names (issue 27's test of what a player reads)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot import games, i18n, local
from render import pictures

LOCALES = Path(i18n.__file__).with_name("locales")
LANGUAGES = ("hu", "es", "ru", "pl")
PLAYS = [
    ("quadropolis", ["--mode", "classic", "--players", "2", "--ai", "1"]),
    ("quadropolis", ["--mode", "expert", "--players", "2", "--ai", "1"]),
    ("btc", ["--mode", "standard", "--players", "3", "--ai", "2"]),
    ("btc", ["--mode", "two_player", "--players", "2", "--ai", "1"]),
    ("btc", ["--solo", "solo_simple"]),
    ("btc", ["--solo", "solo_full"]),
    ("urbanpanic", ["--mode", "basic", "--players", "2", "--ai", "1"]),
    ("urbanpanic", ["--mode", "advanced", "--players", "2", "--ai", "1"]),
    ("urbanpanic", ["--mode", "party", "--players", "2", "--ai", "1"]),
]
WORD = re.compile(r"[^\W\d_]{4,}")
GRID = re.compile(r"\b[A-Z]\d\b")


def _texts(lang: str) -> list[str]:
    out: list[str] = []
    for path in sorted((LOCALES / lang).glob("*.json")):
        for message in json.loads(path.read_text(encoding="utf-8")).values():
            out += [message] if isinstance(message, str) else [v for k, v in message.items() if k != "plural"]
    return out


def english_only_words(lang: str) -> set[str]:
    """Words of the English catalogue that the language's own catalogue never uses (so "park" or "Urban"
    are left out), placeholders removed."""

    def words(texts: list[str]) -> set[str]:
        return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}

    return words(_texts("en")) - words(_texts(lang))


def played(
    game: str,
    args: list[str],
    lang: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> list[str]:
    """The lines of a whole terminal game against greedy AI seats, always answering 1 (pictures not drawn:
    tests/render draws them in every language)."""
    renderer = pictures.get(game)
    for name in ("render_turn", "render_board", "render_end"):
        monkeypatch.setattr(renderer, name, lambda *a, **k: b"")
    answers = iter(["1"] * 2000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = local.main(
        [
            game,
            *args,
            "--level",
            "greedy",
            "--lang",
            lang,
            "--db",
            str(tmp_path / "db.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out[-500:]
    folder = str(tmp_path / "out")
    return [line for line in out.splitlines() if folder not in line]  # the picture's path is the user's own


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game, args", PLAYS, ids=[f"{g}-{a[1]}" for g, a in PLAYS])
def test_a_terminal_game_reads_in_the_players_language(
    game: str,
    args: list[str],
    lang: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = played(game, args, lang, tmp_path, monkeypatch, capsys)
    assert len(lines) > 20
    english = english_only_words(lang)
    found = {w for line in lines for w in WORD.findall(line) if w.lower() in english}
    assert not found, f"English words in {lang}: {sorted(found)[:10]}"
    if lang == "ru":
        allowed = {i18n.t(games.get(g).title_key, "ru") for g, _ in PLAYS}
        latin: list[Any] = []
        for line in lines:
            rest = GRID.sub(" ", line)
            for title in allowed:
                rest = rest.replace(title, " ")
            if re.search(r"[A-Za-z]", rest):
                latin.append(line)
        assert not latin, latin[:5]
