"""The map of the house is enforced: ARCHITECTURE.md's rooms table as import-linter contracts
(``.importlinter``, also run by ``lint-imports`` in .ci/run), and no import circle anywhere in the
package, across ``bot``, ``cogs`` and ``render`` (the contracts' ``acyclic_siblings`` sees circles
inside one package; this test sees every circle between modules)."""

from __future__ import annotations

import configparser
import sys
from collections.abc import Iterable
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

from bot import games

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render")
OWN_ROOMS = (
    "bot.rules.{kind}",
    "bot.games.{kind}",
    "render.{kind}",
    "cogs.games.{kind}",
    "cogs.{kind}",
    "bot.benches.{kind}",
)
"""A game's own modules (ARCHITECTURE.md: the files whose path names it), besides the modules of ``bot``,
``bot.store``, ``cogs`` and ``bot.benches`` named ``<kind>_*``."""
OWN_FOLDERS = ("bot", "bot.store", "cogs", "bot.benches")
GAME_FLOORS = {"render.{kind}": "render.scores", "bot.rules.{kind}": "bot.rules.jsonin"}
"""Each game's room on the floors: a floor of every game's (independent of each other) above the named floor."""


def circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The import circles of the graph: its strongly connected parts of more than one module (Tarjan)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a long chain of imports cannot reach the recursion limit.
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(part)

    for module in edges:
        if module not in index:
            visit(module)
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """Every import that runs: at the top of a module or inside a function (lazy imports count); an
    annotation-only import under ``TYPE_CHECKING`` never runs, so it cannot close a circle."""
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    finally:
        sys.path.remove(str(ROOT))


def test_the_contracts_are_kept() -> None:
    """Every contract of .importlinter is kept (on failure import-linter prints the contract's name
    and the offending import, line by line)."""
    assert lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True, no_logo=True) == 0


def own_modules(kind: str, modules: Iterable[str]) -> list[str]:
    """A game's own modules (packages, not their contents) among ``modules``."""
    exact = {room.format(kind=kind) for room in OWN_ROOMS}
    return sorted(
        m
        for m in modules
        if m in exact or (m.rpartition(".")[0] in OWN_FOLDERS and m.rpartition(".")[2].startswith(f"{kind}_"))
    )


def game_contracts(kinds: list[str], modules: set[str]) -> str:
    """The per-game contracts, built from the registry so that a new game adds no line to .importlinter:
    the floors with each game's rooms on theirs (:data:`GAME_FLOORS`), the rules packages independent of
    each other, and each game's own files never importing another game's."""
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter", encoding="utf-8")
    floors = [line.strip() for line in config["importlinter:contract:floors"]["layers"].splitlines() if line.strip()]
    for room, below in GAME_FLOORS.items():
        rooms = [room.format(kind=kind) for kind in kinds if room.format(kind=kind) in modules]
        if rooms:
            floors.insert(floors.index(below), " | ".join(rooms))
    lines = [
        "[importlinter]",
        "root_packages =",
        *(f"    {p}" for p in PACKAGES),
        "include_external_packages = True",
        "",
        "[importlinter:contract:game-floors]",
        "name = Floors, with every game's own rooms on theirs",
        "type = layers",
        "layers =",
        *(f"    {floor}" for floor in floors),
        "",
        "[importlinter:contract:games-independent]",
        "name = Each game's rules package is independent of the other games'",
        "type = independence",
        "modules =",
        *(f"    bot.rules.{kind}" for kind in kinds),
    ]
    own = {kind: own_modules(kind, modules) for kind in kinds}
    for kind in kinds:
        others = [m for other in kinds if other != kind for m in own[other]]
        lines += [
            "",
            f"[importlinter:contract:{kind}-own]",
            f"name = {kind}'s own files never import another game's files",
            "type = forbidden",
            "source_modules =",
            *(f"    {m}" for m in own[kind]),
            "forbidden_modules =",
            *(f"    {m}" for m in others),
            "allow_indirect_imports = True",
        ]
    return "\n".join(lines) + "\n"


def test_every_game_keeps_its_contracts(graph: grimp.ImportGraph, tmp_path: Path) -> None:
    """The per-game contracts built from the registry (:func:`game_contracts`) are kept."""
    config = tmp_path / "games.importlinter"
    config.write_text(game_contracts(list(games.GAMES), set(graph.modules)), encoding="utf-8")
    assert lint_imports(config_filename=str(config), no_cache=True, no_logo=True) == 0


def test_the_game_contracts_name_each_games_own_files(graph: grimp.ImportGraph) -> None:
    """The generated contracts put a game's files (its rules, declaration, pictures, Discord side, campaigns,
    store and benches) in its own contract and forbid them to the others; a game's rooms go on their floors."""
    text = game_contracts(["btc", "quadropolis", "urbanpanic"], set(graph.modules))
    config = configparser.ConfigParser()
    config.read_string(text)
    btc = config["importlinter:contract:btc-own"]
    assert {
        "bot.rules.btc",
        "bot.games.btc",
        "render.btc",
        "cogs.games.btc",
        "cogs.btc",
        "bot.btc_campaigns",
        "bot.store.btc_campaigns",
        "bot.benches.btc",
    } <= set(btc["source_modules"].split())
    assert {"render.quadropolis", "cogs.urbanpanic_steps", "bot.benches.quadropolis_turn"} <= set(
        btc["forbidden_modules"].split()
    )
    assert not set(btc["forbidden_modules"].split()) & set(btc["source_modules"].split())
    floors = [line.strip() for line in config["importlinter:contract:game-floors"]["layers"].splitlines()]
    assert floors[floors.index("render.scores") - 1] == "render.btc | render.quadropolis | render.urbanpanic"
    rules = "bot.rules.btc | bot.rules.quadropolis | bot.rules.urbanpanic"
    assert floors[floors.index("bot.rules.jsonin") - 1] == rules


def test_no_import_circle(graph: grimp.ImportGraph) -> None:
    """No module imports itself through others, in bot, cogs or render (lazy imports count too)."""
    assert not circles(graph), [sorted(c) for c in circles(graph)]


def test_the_cogs_import_the_bot_only_for_its_type(graph: grimp.ImportGraph) -> None:
    """No module of cogs imports ``cogs.app`` when it runs: they name ``CityBot`` in annotations only (the
    one import .importlinter's circle contract leaves out)."""
    importers = {m for m in graph.find_modules_that_directly_import("cogs.app") if m.startswith("cogs")}
    assert not importers, sorted(importers)


def test_the_circle_finder_finds_a_circle() -> None:
    """The finder itself: a two-module and a three-module circle are found, a chain is not."""
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.a"), ("p.c", "p.d"), ("p.d", "p.e"), ("p.e", "p.c"), ("p.f", "p.a")):
        graph.add_import(importer=a, imported=b)
    assert sorted(sorted(c) for c in circles(graph)) == [["p.a", "p.b"], ["p.c", "p.d", "p.e"]]
