"""The store is private to the service (issue 37, item 4): the import contracts see only imports, so this
test reads the code itself. Nothing in ``bot``, ``cogs`` or ``render`` reaches the store by attribute
(``x.store``, ``x._store``) except the service, the composition roots that build, scrub and close it, and
the store's own modules; the web, the history and every other feature read through the service's named
methods (``bot/service/reads.py``). The contract "store-private" of ``.importlinter`` keeps the rooms that
read through the service from importing the store."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.service import Service
from bot.store import Store

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "render")
ALLOWED = {
    "bot/service/": "the service: the store is its own (``Service._store``)",
    "bot/composition.py": "the composition root: builds the store, hands each feature its tables, scrubs and closes it",
    "cogs/app.py": "the Discord front-end's composition root: the signing key, the heartbeat's `SELECT 1`, close",
    "bot/store/": "the store's own modules (a TableStore reads and writes through the open Store)",
    "bot/web/community.py": "the league pages read the league tables over the store the composition root hands "
    "the pages (`bot.web.context.Source.store`), never the service's",
    "bot/benches/": "test support, outside the product (issue 37, item 5): the web bench times each commit",
    "bot/testing/": "test support, outside the product (issue 37, item 5)",
}
STORE_NAMES = frozenset({"store", "_store"})


def allowed(path: str) -> bool:
    return any(path == rule or (rule.endswith("/") and path.startswith(rule)) for rule in ALLOWED)


def reaches(source: str) -> list[tuple[int, str]]:
    """(line, expression) of every attribute access named ``store`` or ``_store`` in ``source``."""
    return sorted(
        (node.lineno, ast.unparse(node))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in STORE_NAMES
    )


def test_only_the_service_and_the_composition_roots_reach_the_store() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if allowed(name):
                continue
            found += [f"{name}:{line}: {text}" for line, text in reaches(path.read_text(encoding="utf-8"))]
    assert not found, "the store is the service's: read through a named method of bot.service (reads.py)\n" + "\n".join(
        found
    )


def test_the_scan_sees_every_way_to_reach_it() -> None:
    """The scan finds the accesses the service's users had before (so it can fail)."""
    code = (
        "async def f(self, ctx, service):\n"
        "    await self.service.store.moves(1)\n"
        "    await ctx.service._store.get_game(2)\n"
        "    return service.store.lease_ms\n"
    )
    assert [line for line, _ in reaches(code)] == [2, 3, 4]
    assert not allowed("bot/community/history.py") and not allowed("bot/web/server.py")
    assert not allowed("bot/turnflow/base.py") and allowed("bot/service/reads.py")


async def test_the_service_has_no_public_store(db: Store) -> None:
    service = Service(db)
    assert not hasattr(service, "store")
    assert service.lease_ms == db.lease_ms
