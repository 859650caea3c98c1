"""render/ reads views only: it never imports the store, the service, Discord or the cogs."""

from __future__ import annotations

import ast
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "render"
FORBIDDEN = ("discord", "aiosqlite", "sqlite3", "asyncio", "bot.store", "bot.service", "cogs")


def test_render_imports_no_store_service_or_discord() -> None:
    """Every module of render/ imports neither the store, the service, Discord, asyncio nor the cogs."""
    modules = sorted(RENDER.glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), f"{path.name}: {name}"
