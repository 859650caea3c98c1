"""The message catalogue: every sentence a user sees, keyed by id.

Catalogues live in ``bot/locales/<locale>/*.json`` (one file per area, merged). English is complete;
another language is a folder of the same files, chosen by the user's Discord locale
(``hu``, ``es-ES`` -> ``es``, ``ru``, ``pl``), falling back to English key by key.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from bot.rules import core

LOCALES_DIR = Path(__file__).with_name("locales")
DEFAULT_LOCALE = "en"


@cache
def catalogue(locale: str) -> dict[str, str]:
    """All messages of one locale (empty when the locale has no folder)."""
    folder = LOCALES_DIR / locale
    merged: dict[str, str] = {}
    if not folder.is_dir():
        return merged
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, text in data.items():
            if key in merged:
                raise ValueError(f"message id {key!r} is defined twice (second time in {path.name})")
            merged[key] = text
    return merged


def normalise_locale(locale: object) -> str:
    """Discord locale (``"es-ES"``, ``Locale.hungarian``) -> catalogue folder name (``"es"``)."""
    text = str(getattr(locale, "value", locale) or DEFAULT_LOCALE)
    return text.split("-")[0].lower()


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, locale: object = DEFAULT_LOCALE, /, **params: Any) -> str:
    """The sentence for ``key`` in ``locale`` (English fallback), with ``params`` filled in."""
    loc = normalise_locale(locale)
    text = catalogue(loc).get(key) if loc != DEFAULT_LOCALE else None
    if text is None:
        text = catalogue(DEFAULT_LOCALE).get(key)
    if text is None:
        return key
    return string.Formatter().vformat(text, (), _Defaulting(params))


def error_text(error: core.GameError, locale: object = DEFAULT_LOCALE) -> str:
    """A domain error as a sentence."""
    return t(error.key, locale, **error.params)


def _translate(key: str, params: Mapping[str, Any]) -> str:
    return t(key, DEFAULT_LOCALE, **params)


core.install_translator(_translate)
