"""The map of the house is enforced: ARCHITECTURE.md's rooms table as import-linter contracts
(``.importlinter``, also run by ``lint-imports`` in .ci/run), and no import circle anywhere in the
package, across ``bot``, ``cogs`` and ``render`` (the contracts' ``acyclic_siblings`` sees circles
inside one package; this test sees every circle between modules)."""

from __future__ import annotations

import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render")


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
    for a, b in (("p.a", "p.b"), ("p.b", "p.a"), ("p.c", "p.d"), ("p.d", "p.e"), ("p.e", "p.c"),
                 ("p.f", "p.a")):
        graph.add_import(importer=a, imported=b)
    assert sorted(sorted(c) for c in circles(graph)) == [["p.a", "p.b"], ["p.c", "p.d", "p.e"]]
