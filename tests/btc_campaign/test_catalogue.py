"""Every campaign sentence is in the catalogue, and the campaign code keeps to its layers."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from bot import i18n
from bot.rules.btc import engine as E

ROOT = Path(__file__).resolve().parents[2]
LOGIC = ROOT / "bot" / "btc_campaigns.py"
STORE = ROOT / "bot" / "store" / "btc_campaigns.py"
COG = ROOT / "cogs" / "btc.py"
COGS = (COG, *sorted((ROOT / "cogs").glob("btc_*.py")))
"""The cog and its own modules (``cogs/btc_*.py``: its words, :mod:`cogs.btc_texts`)."""
CATALOGUE = ROOT / "bot" / "locales" / "en" / "btc_campaign.json"
LITERAL_KEY = re.compile(r"""["'](btc\.campaign\.[a-z_.]+)["']""")
FAMILY_KEY = re.compile(r"""f["'](btc\.campaign\.[a-z_.]+)\{""")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    return names + [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]


def test_every_literal_key_is_in_the_catalogue() -> None:
    """Each literal btc.campaign.* id in the logic and the cog has an English sentence."""
    english = i18n.catalogue("en")
    used = {k for p in (LOGIC, *COGS) for k in LITERAL_KEY.findall(p.read_text("utf-8"))}
    assert used
    assert not sorted(k for k in used if k not in english)


def test_every_refusal_key_is_in_the_catalogue() -> None:
    """Every CampaignError(...) in the package names a key of the catalogue."""
    english = i18n.catalogue("en")
    pattern = re.compile(r"""CampaignError\(\s*["']([a-z_.]+)["']""")
    keys = {k for p in (LOGIC, *COGS) for k in pattern.findall(p.read_text("utf-8"))}
    assert {
        "btc.campaign.error.none",
        "btc.campaign.error.running",
        "btc.campaign.error.game_open",
        "btc.campaign.error.not_yours",
    } <= keys
    assert not sorted(k for k in keys if k not in english)


def test_every_family_of_keys_is_complete() -> None:
    """Keys built at run time (modes, building types, campaign states, game states) all exist."""
    english = i18n.catalogue("en")
    families = {prefix for p in (LOGIC, *COGS) for prefix in FAMILY_KEY.findall(p.read_text("utf-8"))}
    expected = {
        "btc.campaign.mode.": (E.SOLO_SIMPLE, E.SOLO_FULL),
        "btc.campaign.type.": tuple(E.LETTER_CATEGORY.values()),
        "btc.campaign.status.state.": ("running", "complete", "abandoned"),
        "btc.campaign.status.": ("lobby", "active"),
    }
    assert families == set(expected), families
    missing = [prefix + name for prefix, names in expected.items() for name in names if prefix + name not in english]
    assert not missing


def test_catalogue_file_is_own_and_refusals_are_sentences() -> None:
    """The file holds only btc.campaign.* keys; refusals end like sentences and are short."""
    import json

    data = json.loads(CATALOGUE.read_text("utf-8"))
    assert all(k.startswith("btc.campaign.") for k in data)
    for key, text in data.items():
        assert text.strip() and len(text) < 300, key
        if ".error." in key:
            assert text.rstrip()[-1] in ".!?", key


def test_layers() -> None:
    """The logic and store import no Discord; the cog imports no store; SQL only in bot/store/."""
    for path in (LOGIC, STORE):
        assert not any(n == "discord" or n.startswith("discord.") for n in _imports(path)), path
    for cog in COGS:
        assert not any(n.startswith("bot.store") or n == "aiosqlite" for n in _imports(cog)), cog
    for path in (LOGIC, *COGS):
        assert not re.search(r'"(SELECT|INSERT|UPDATE|DELETE) ', path.read_text("utf-8")), path
    assert re.search(r'"(SELECT|INSERT|UPDATE|DELETE) ', STORE.read_text("utf-8"))


def test_no_clock_read_outside_the_service_clock() -> None:
    """The logic takes time only from the service's clock (no time/datetime reads): through the
    community features' base, whose ``now`` is the service clock."""
    from bot.btc_campaigns import Campaigns
    from bot.community.base import Feature

    names = _imports(LOGIC) + _imports(STORE)
    assert "time" not in names and "datetime" not in names
    base = Path(sys.modules[Feature.__module__].__file__ or "")
    assert issubclass(Campaigns, Feature) and "self.service.clock.now_ms()" in base.read_text("utf-8")
    assert "self.now" in LOGIC.read_text("utf-8")
