"""The module budget in the rules (ARCHITECTURE.md, "Module budget"): no module of ``bot/rules`` is over about 420
lines, except the named exemptions, each with its reason in ARCHITECTURE.md."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 420
"""About 400, as in the cogs (tests/discord/test_cogs_shape.py): a module past this is doing more than one job."""
EXEMPT = {"bot/rules/btc/strong.py"}
"""The strong AI of Between Two Cities: one search, whose parts share its sampled state (ARCHITECTURE.md)."""


def test_no_rules_module_is_over_the_budget() -> None:
    lines = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in sorted((ROOT / "bot" / "rules").rglob("*.py"))}
    long = {name: n for name, n in lines.items() if n > MOST_LINES and name not in EXEMPT}
    assert long == {}


def test_every_exemption_is_still_needed_and_named_in_the_map() -> None:
    architecture = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for name in EXEMPT:
        assert len((ROOT / name).read_text(encoding="utf-8").splitlines()) > MOST_LINES, f"{name} fits: drop it"
        assert f"`{name}`" in architecture.split("## Module budget", 1)[-1], name
