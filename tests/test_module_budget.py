"""The module budget (ARCHITECTURE.md, "Module budget"): no module of ``bot/``, ``cogs/`` or ``render/`` is over
about 420 lines, except the named exemptions below, each with its reason here and in ARCHITECTURE.md."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "render")
MOST_LINES = 420
"""About 400, as in the cogs (tests/discord/test_cogs_shape.py): a module past this is doing more than one job."""
FAKE_DISCORD = "the fake Discord, test kit that is not in the wheel (pyproject.toml leaves bot.testing out)"
EXEMPT = {
    "bot/rules/btc/strong.py": "the strong AI of Between Two Cities: one search whose parts share its sampled state",
    "bot/rules/urbanpanic/strong.py": "the strong AI of Urban Panic: one lookahead whose parts share its state",
    "bot/testing/fakediscord/server.py": f"{FAKE_DISCORD}: Discord's REST routes and gateway, one server",
    "bot/testing/fakediscord/payloads.py": f"{FAKE_DISCORD}: one factory per object Discord sends",
    "bot/testing/fakediscord/schema.py": f"{FAKE_DISCORD}: request bodies checked against Discord's description",
}
"""Module -> why it may be longer (the fuller reasons: ARCHITECTURE.md, "Module budget")."""


def lines_of_modules() -> dict[str, int]:
    return {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for package in PACKAGES
        for p in sorted((ROOT / package).rglob("*.py"))
    }


def test_no_module_is_over_the_budget() -> None:
    lines = lines_of_modules()
    assert {"bot/rules/core.py", "cogs/app.py", "render/leagues.py"} <= set(lines), "every package is read"
    long = {name: n for name, n in lines.items() if n > MOST_LINES and name not in EXEMPT}
    assert long == {}


def test_every_exemption_is_still_needed_and_named_in_the_map() -> None:
    architecture = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    budget = architecture.split("## Module budget", 1)[-1].split("\n## ", 1)[0]
    lines = lines_of_modules()
    for name, reason in EXEMPT.items():
        assert reason, name
        assert name in lines, f"{name} is no module of {', '.join(PACKAGES)}"
        assert lines[name] > MOST_LINES, f"{name} fits: drop it"
        assert f"`{name}`" in budget, name
