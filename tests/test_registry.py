"""One game, one unit: every registry agrees on the games, and a game's name lives in its own files."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bot import games
from bot.benches.render import SAMPLES
from bot.rules.core import IllegalMove
from cogs.games import PRESENTERS
from render import pictures

ROOT = Path(__file__).resolve().parents[1]
KINDS = set(games.GAMES)
DECLARED = {path.stem for path in (ROOT / "bot" / "games").glob("*.py")} - {"__init__", "base"}
"""The games declared in the repository: one ``bot/games/<kind>.py`` each (the registry's own list)."""
NAME = re.compile(
    "|".join(
        [
            *(re.escape(kind) for kind in KINDS),
            *(
                re.escape(alias).replace(r"\ ", ".").replace(r"\-", ".")
                for kind in KINDS
                for alias in games.get(kind).aliases
                if len(alias) > 3
            ),
        ]
    ),
    re.I,
)
"""A game's kind or one of its longer names ("between two cities", "urban-panic"; the short aliases, such as
"up", are English words)."""
BINDINGS = {
    "bot/games/__init__.py",
    "render/pictures.py",
    "cogs/games/__init__.py",
    "bot/benches/render.py",
    "bot/web/boardpaths.py",
    "bot/composition.py",
}
"""The shared files that name the games: the registry, one binding per front-end (pictures, Discord, the
render bench, the web board's taps), and the composition root, which builds the Between Two Cities campaigns
feature."""


def test_every_registry_has_the_same_games() -> None:
    """The declared games (``bot/games/<kind>.py``) are the registry's, and every front-end binds its parts to
    each of them: pictures, presenter, bench pictures; calculators, labels and catalogues too."""
    assert DECLARED == KINDS
    assert set(PRESENTERS) == KINDS
    assert set(pictures.bound()) >= KINDS
    assert all(kind in games.available() for kind in pictures.bound())  # the tests' games, bound at run time
    assert set(SAMPLES) == KINDS
    assert {k for k, g in games.GAMES.items() if g.calculator is not None} == KINDS
    assert {k for k, g in games.GAMES.items() if g.labeller is not None} == KINDS
    for kind, game in games.GAMES.items():
        assert game.rules.kind == kind
        assert PRESENTERS[kind].kind == kind
        for path in (
            f"bot/rules/{kind}/rules.py",
            f"cogs/games/{kind}.py",
            f"bot/games/{kind}.py",
            f"bot/benches/{kind}.py",
            f"bot/locales/en/{kind}.json",
        ):
            assert (ROOT / path).is_file(), path
        # The pictures: a module, or a package of modules when they outgrow the module budget.
        assert (ROOT / f"render/{kind}.py").is_file() or (ROOT / f"render/{kind}/__init__.py").is_file(), kind


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
    """Outside a game's own files (paths naming it), only the registry and the front-ends' bindings spell a
    game's name (:data:`BINDINGS`)."""
    listed = subprocess.run(
        ["git", "ls-files", "bot", "cogs", "render"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
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
    assert set(naming) <= BINDINGS, sorted(set(naming) - BINDINGS)


def test_no_module_is_loaded_by_a_string() -> None:
    """Games, renderers and presenters are imported statically (import tools can follow them)."""
    for folder in ("bot", "cogs", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "bench.py":
                continue  # the bench runner discovers its modules in bot/benches/
            if path.is_relative_to(ROOT / "bot" / "testing"):
                continue  # the fake Discord's launcher runs the entry point a test names
            assert "import_module(" not in path.read_text(encoding="utf-8"), path
