"""Every sentence the community features use is in the catalogue; the layers keep their rules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot import i18n
from bot.community.base import KINDS
from bot.community.clock import PRESETS
from bot.community.settings import ANALYSIS_SCOPES, POLICIES, SETTING_SPECS
from bot.community.votes import VOTE_CHOICES

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = tuple(sorted((ROOT / "bot" / "community").glob("*.py")))
STORE = tuple(sorted((ROOT / "bot" / "store" / "community").glob("*.py")))
COGS = tuple(sorted((ROOT / "cogs" / "community").glob("*.py")))
PICTURE = ROOT / "render" / "leagues.py"
SOURCES = (*DOMAIN, *COGS, PICTURE)
LITERAL_KEY = re.compile(r"""["'](community\.[a-z_.]+)["']""")
FAMILY_KEY = re.compile(r"""f["'](community\.[a-z_.]+)\{""")
CATALOGUE = ROOT / "bot" / "locales" / "en" / "community.json"


def test_every_key_used_is_in_the_catalogue() -> None:
    """Each literal message id in the community modules has an English sentence."""
    english = i18n.catalogue("en")
    missing = {f"{p.name}: {k}" for p in SOURCES for k in LITERAL_KEY.findall(p.read_text("utf-8")) if k not in english}
    assert not missing, sorted(missing)


def test_every_family_of_keys_is_complete() -> None:
    """Keys built at run time (policy names, setting labels, vote buttons...) all exist."""
    english = i18n.catalogue("en")
    families = {prefix for p in SOURCES for prefix in FAMILY_KEY.findall(p.read_text("utf-8"))}
    expected = {
        "community.policy.": POLICIES,
        "community.setting.": tuple(SETTING_SPECS),
        "community.reminder.deadline.": POLICIES,
        "community.vote.button.": VOTE_CHOICES,
        "community.vote.closed.": (*VOTE_CHOICES, "moved", "ended"),
        "community.league.col.": ("player", "games", "wins", "place", "rating"),
        "community.analysis_scope.": ANALYSIS_SCOPES,
        "community.clock.": tuple(PRESETS),
    }
    assert families == set(expected), families
    missing = [prefix + name for prefix, names in expected.items() for name in names if prefix + name not in english]
    assert not missing, missing


def test_every_refusal_is_a_short_sentence() -> None:
    """Catalogue entries are sentences a player reads: non-empty, ending with punctuation when
    they are refusals, and only using parameters the code passes (names in braces)."""
    english = i18n.catalogue("en")
    own = {k: v for k, v in english.items() if k.startswith("community.")}
    assert own
    for key, text in own.items():
        assert text.strip() and len(text) < 300, key
        if key.startswith("community.error."):
            assert text.rstrip()[-1] in ".!?", key


def test_every_action_kind_has_a_handler() -> None:
    """The cogs carry out every kind of action the loop can return."""
    source = "".join(p.read_text("utf-8") for p in COGS)
    assert all(f"async def _do_{kind}(" in source for kind in KINDS)


def test_layers() -> None:
    """The community domain and store modules import no Discord; the cogs import no store module;
    the league picture imports neither; no SQL appears outside bot/store/."""
    assert len(DOMAIN) >= 8 and len(STORE) >= 8 and len(COGS) >= 8
    for path in (*DOMAIN, *STORE, PICTURE, ROOT / "bot" / "benches" / "reminders.py"):
        tree = ast.parse(path.read_text("utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not any(n == "discord" or n.startswith("discord.") for n in names), path
        if path == PICTURE:
            assert not any(n.startswith(("bot.store", "bot.community", "cogs")) for n in names), path
    for path in COGS:
        cog = path.read_text("utf-8")
        assert "bot.store" not in cog and "import aiosqlite" not in cog, path
    for path in (*DOMAIN, *COGS, PICTURE):
        text = path.read_text("utf-8")
        assert not re.search(r'"(SELECT|INSERT|UPDATE|DELETE) ', text), path
