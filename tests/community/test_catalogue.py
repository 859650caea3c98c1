"""Every sentence the community features use is in the catalogue; the layers keep their rules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot import i18n
from bot.community import KINDS, POLICIES, SETTING_SPECS, VOTE_CHOICES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (ROOT / "bot" / "community.py", ROOT / "cogs" / "community.py")
LITERAL_KEY = re.compile(r"""["'](community\.[a-z_.]+)["']""")
FAMILY_KEY = re.compile(r"""f["'](community\.[a-z_.]+)\{""")
CATALOGUE = ROOT / "bot" / "locales" / "en" / "community.json"


def test_every_key_used_is_in_the_catalogue() -> None:
    """Each literal message id in the community modules has an English sentence."""
    english = i18n.catalogue("en")
    missing = {f"{p.name}: {k}" for p in SOURCES for k in LITERAL_KEY.findall(p.read_text("utf-8"))
               if k not in english}
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
    }
    assert families == set(expected), families
    missing = [prefix + name for prefix, names in expected.items() for name in names
               if prefix + name not in english]
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
    """The cog carries out every kind of action the loop can return."""
    source = (ROOT / "cogs" / "community.py").read_text("utf-8")
    assert all(f"async def _do_{kind}(" in source for kind in KINDS)


def test_layers() -> None:
    """bot/community.py and its store module import no Discord; the cog imports no store module
    and no SQL appears outside bot/store/."""
    for path in (ROOT / "bot" / "community.py", ROOT / "bot" / "store" / "community.py",
                 ROOT / "bot" / "benches" / "reminders.py"):
        tree = ast.parse(path.read_text("utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not any(n == "discord" or n.startswith("discord.") for n in names), path
    cog = (ROOT / "cogs" / "community.py").read_text("utf-8")
    assert "bot.store" not in cog and "import aiosqlite" not in cog
    for path in (ROOT / "bot" / "community.py", ROOT / "cogs" / "community.py"):
        text = path.read_text("utf-8")
        assert not re.search(r'"(SELECT|INSERT|UPDATE|DELETE) ', text), path
