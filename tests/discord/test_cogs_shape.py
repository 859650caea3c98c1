"""The Discord layer's shape: no import circle inside ``cogs`` (a lazy import inside a function counts;
only ``if TYPE_CHECKING:`` imports, which never run, do not), no module much over 400 lines, and
no cog looked up by a name and held as ``Any`` (``get_cog`` only in the typed accessor)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COGS = ROOT / "cogs"
MOST_LINES = 420
"""About 400: a module past this is doing more than one job."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in COGS.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imported(path: Path) -> set[str]:
    """The cogs modules a module imports when it runs (its packages' ``__init__`` included)."""
    name = module_name(path)
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            pending += node.orelse
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:  # relative
                base = ".".join([*name.split(".")[: -node.level], node.module])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        pending += list(ast.iter_child_nodes(node))
    out: set[str] = set()
    for target in found:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
            prefix = ".".join(parts[:i])
            # a module's own packages ran before it: not an edge (a package importing its modules is no circle)
            if prefix in MODULES and prefix != name and not name.startswith(f"{prefix}."):
                out.add(prefix)
    return out


def test_no_import_circle_in_cogs() -> None:
    graph = {name: imported(path) for name, path in MODULES.items()}
    assert graph["cogs.app"], "the graph is read"  # the composition root imports the cogs

    def circle_from(start: str) -> list[str] | None:
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    return [*path, start]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
        return None

    circles = [c for c in (circle_from(m) for m in sorted(graph)) if c]
    assert circles == [], " ; ".join(" -> ".join(c) for c in circles)


def test_the_circle_check_sees_a_lazy_import() -> None:
    """The check reads imports inside functions (a lazy import is still a circle)."""
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cogs.app import X\n"
        "def f():\n    from cogs.lobby import lobby_embed\n"
    )
    path = COGS / "_probe_for_test.py"
    path.write_text(source, encoding="utf-8")
    try:
        assert imported(path) == {"cogs.lobby"}
    finally:
        path.unlink()


def test_no_cogs_module_does_more_than_one_job() -> None:
    lines = {name: len(p.read_text(encoding="utf-8").splitlines()) for name, p in MODULES.items()}
    long = {name: n for name, n in lines.items() if n > MOST_LINES}
    assert long == {}


def test_cogs_are_found_by_type() -> None:
    """``get_cog`` appears once in cogs: the typed accessor (:func:`cogs.announcer.announcer`)."""
    uses = [
        name for name, p in MODULES.items() for line in p.read_text(encoding="utf-8").splitlines() if "get_cog(" in line
    ]
    assert uses == ["cogs.announcer"]
