"""One composition root: every feature is built once and subscribed to the service exactly once;
cogs never construct them (issue 12). The running bot: tests/discord/test_features.py."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.community.base import Feature
from bot.composition import AlreadyComposed, App, compose
from bot.service import Service
from bot.store import TableStore

ROOT = Path(__file__).resolve().parents[1]


def owners(listeners: list[Any]) -> Counter[tuple[str, str]]:
    """(class of the bound object, method name) of each listener."""
    return Counter((type(fn.__self__).__name__, fn.__name__) for fn in listeners if hasattr(fn, "__self__"))


def assert_subscribed_once(app: App) -> None:
    service = app.service
    moves, ends = owners(service.move_listeners), owners(service.end_listeners)
    forgets = owners(service.forget_listeners)
    assert moves[("Reminders", "on_move")] == 1 and moves[("Undo", "on_move")] == 1
    for feature in ("Reminders", "Undo", "Leagues", "Campaigns"):
        assert ends[(feature, "on_end")] == 1, feature
    assert {name for name, _ in forgets} == {type(f).__name__ for f in app.features}
    assert all(n == 1 for n in forgets.values()), forgets


def test_each_feature_is_subscribed_once(service: Service) -> None:
    app = compose(service)
    assert_subscribed_once(app)
    assert len(app.features) == 9 and all(isinstance(f, Feature) for f in app.features)
    with pytest.raises(AlreadyComposed):
        compose(service)
    assert_subscribed_once(app)


def test_cogs_construct_no_domain_object() -> None:
    """No cog calls the constructor of a feature, a table store, the service or the store, and
    no ``listen=`` flag is left anywhere."""

    def subclasses(cls: type) -> set[str]:
        out = {cls.__name__}
        for sub in cls.__subclasses__():
            out |= subclasses(sub)
        return out

    import bot.composition  # noqa: F401  (imports every feature and table store)

    forbidden = subclasses(Feature) | subclasses(TableStore) | {"Service", "Store", "compose", "build"}
    found = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        if path == ROOT / "cogs" / "app.py":
            continue  # not a cog: the Discord front-end's composition root, which builds the App once
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                name = (
                    node.func.id
                    if isinstance(node.func, ast.Name)
                    else (node.func.attr if isinstance(node.func, ast.Attribute) else "")
                )
                if name in forbidden:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert found == []
    flags = [p for p in (ROOT / "bot").rglob("*.py") if re.search(r"\blisten\s*[:=]", p.read_text("utf-8"))]
    flags += [p for p in (ROOT / "cogs").rglob("*.py") if re.search(r"\blisten\s*[:=]", p.read_text("utf-8"))]
    assert flags == []
