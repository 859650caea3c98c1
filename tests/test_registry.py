"""One game, one unit: every registry agrees on the games, and a game's name lives in its own files."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bot import games
from bot.rules.core import IllegalMove
from cogs.games import PRESENTERS

ROOT = Path(__file__).resolve().parents[1]
KINDS = set(games.GAMES)
NAME = re.compile(r"quadropolis|between.two.cities|\bbtc\b|btc[._]|urban.?panic|urbanpanic|\bqp\.", re.I)
MOST_SHARED_FILES_NAMING_A_GAME = 3


def test_every_registry_has_the_same_games() -> None:
    """Rules, presenters, pictures, calculators, benches and catalogues list exactly the declared games."""
    assert {"quadropolis", "btc", "urbanpanic"} == KINDS
    assert set(PRESENTERS) == KINDS
    assert {k for k, g in games.GAMES.items() if g.renderer is not None} == KINDS
    assert {k for k, g in games.GAMES.items() if g.calculator is not None} == KINDS
    assert {k for k, g in games.GAMES.items() if g.render_samples is not None} == KINDS
    assert {k for k, g in games.GAMES.items() if g.labeller is not None} == KINDS
    for kind, game in games.GAMES.items():
        assert game.rules.kind == kind
        assert PRESENTERS[kind].kind == kind
        for path in (f"bot/rules/{kind}/rules.py", f"render/{kind}.py", f"cogs/games/{kind}.py",
                     f"bot/games/{kind}.py", f"bot/benches/{kind}.py", f"bot/locales/en/{kind}.json"):
            assert (ROOT / path).is_file(), path


def test_a_game_is_found_by_any_of_its_names() -> None:
    """Kinds and aliases, any case, with dashes, underscores or spaces; an unknown name is a sentence."""
    assert games.get("Between-Two-Cities").kind == "btc"
    assert games.get("urban_panic").kind == "urbanpanic"
    assert games.resolve("QUADROPOLIS") == "quadropolis"
    assert games.resolve("chess") is None
    with pytest.raises(IllegalMove) as caught:
        games.get("chess")
    assert caught.value.key == "error.unknown_game"


def _own(path: str) -> bool:
    return any(kind in path for kind in KINDS)


def test_only_the_registries_name_the_games() -> None:
    """Outside a game's own files (paths naming it), at most three files spell any game's name."""
    listed = subprocess.run(["git", "ls-files", "bot", "cogs", "render"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    naming = []
    for path in listed:
        if _own(path) or not (ROOT / path).is_file() or path.startswith("bot/testing/"):
            continue  # bot/testing/ is the tests' fake Discord, left out of the installed package: not the bot
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if NAME.search(text):
            naming.append(path)
    assert len(naming) <= MOST_SHARED_FILES_NAMING_A_GAME, naming


def test_no_module_is_loaded_by_a_string() -> None:
    """Games, renderers and presenters are imported statically (import tools can follow them)."""
    for folder in ("bot", "cogs", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "bench.py":
                continue  # the bench runner discovers its modules in bot/benches/
            if path.is_relative_to(ROOT / "bot" / "testing"):
                continue  # the fake Discord's launcher runs the entry point a test names
            assert "import_module(" not in path.read_text(encoding="utf-8"), path
