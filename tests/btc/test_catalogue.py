"""Every message id the package uses has an English sentence, and the package stays pure."""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

from bot import i18n
from bot.rules.btc import engine as E
from bot.rules.btc.rules import RULES

PACKAGE = Path(E.__file__).parent
CATALOGUE_FILE = PACKAGE.parents[1] / "locales" / "en" / "btc.json"
TERMS_FILE = CATALOGUE_FILE.with_name("btc_terms.json")
"""Words of the game the rules put in views and summaries (tiles, cities), not sentences."""
ERRORS = {"IllegalMove", "NotYourTurn", "GameOver"}


def sources() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(PACKAGE.glob("*.py"))}


def refusal_keys() -> set[str]:
    """First arguments of IllegalMove(...) / NotYourTurn(...) / GameOver(...) calls."""
    keys = set()
    for text in sources().values():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ERRORS and node.args and isinstance(node.args[0], ast.Constant):
                    keys.add(node.args[0].value)
    return keys


def literal_keys() -> set[str]:
    """Every string literal in the package that looks like one of our message ids."""
    found = set()
    for text in sources().values():
        found |= set(re.findall(r'"(btc\.[a-z_]+\.[a-z_.]+|btc\.title)"', text))
    return {key for key in found if not key.endswith(".")}  # a prefix of keys made from data


def data_term_keys() -> set[str]:
    """The terms named by the data files: every tile face and every city name has its catalogue entry."""
    from bot.rules.btc import tiles as T

    faces = {E.face_term(code)["$term"] for code in T.FACES}
    cities = {E.city_term(name)["$term"] for name in (*T.CITY_NAMES, *T.SOLO_CITY_NAMES)}
    automas = {E.automa_term(player)["$term"] for player in range(1, len(T.AUTOMA_NAMES) + 1)}
    return faces | cities | automas


def test_refusal_keys_are_in_the_catalogue() -> None:
    """Every key given to IllegalMove / NotYourTurn / GameOver has a sentence."""
    catalogue = i18n.catalogue("en")
    keys = refusal_keys()
    assert len(keys) > 40
    assert not keys - set(catalogue), sorted(keys - set(catalogue))


def test_every_message_id_has_a_sentence_and_every_sentence_is_used() -> None:
    """Summaries, tie-breaks, option help: all in btc.json, and btc.json has no orphan ids."""
    ours = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    ours |= json.loads(TERMS_FILE.read_text(encoding="utf-8"))
    used = literal_keys() | data_term_keys()
    assert all(k.startswith("btc.") for k in ours)
    assert used <= set(ours), sorted(used - set(ours))
    assert set(ours) <= used, sorted(set(ours) - used)
    assert RULES.title_key in ours
    assert all(spec.help_key in ours for spec in RULES.option_specs)
    for name in E.TIEBREAK_NAMES[1:]:
        assert name in ours


def test_sentences_are_short_and_friendly() -> None:
    """Each sentence is one line ending with a full stop."""
    ours = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    for key, text in ours.items():
        if key.startswith("btc.help.") or key == "btc.title":
            continue
        assert text.endswith(".") and "\n" not in text and len(text) < 160, key


def test_package_is_pure() -> None:
    """bot/rules/btc imports only the standard library, bot.rules.core and itself,
    and never the clock, asyncio, discord, PIL or I/O beyond reading its own data at import."""
    allowed_bot = {"bot.rules", "bot.rules.core", "bot.rules.jsonin"}
    for name, text in sources().items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
                if node.module == "bot.rules":
                    assert {a.name for a in node.names} <= {"core", "jsonin"}, name
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top == "bot":
                    ours = module.startswith("bot.rules.btc")
                    assert module in allowed_bot or ours, (name, module)
                else:
                    assert top in sys.stdlib_module_names, (name, module)
                    forbidden = {"time", "datetime", "asyncio", "socket", "os", "subprocess"}
                    assert top not in forbidden, (name, module)
        if name != "tiles.py":
            assert "open(" not in text and "read_text" not in text, name
