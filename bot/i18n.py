"""The message catalogue: every sentence a user sees, keyed by id.

Catalogues live in ``bot/locales/<locale>/*.json`` (one file per area, merged). English is complete;
another language is a folder of the same files, chosen by the user's Discord locale
(``hu``, ``es-ES`` -> ``es``, ``ru``, ``pl``), falling back to English key by key.

A message is a string, or, when it counts something, a plural object: ``{"plural": "count", "one": ...,
"other": ...}``: ``plural`` names the numeric parameter, and the other keys are the CLDR plural
categories of the language (Polish and Russian need ``one``, ``few``, ``many`` and ``other``). The
category is chosen by Babel from CLDR's rules, never by hand-written ones.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from bot.rules import core

LOCALES_DIR = Path(__file__).with_name("locales")
DEFAULT_LOCALE = "en"


Message = str | dict[str, str]
"""A sentence, or a plural object (see the module's docstring)."""
PLURAL_PARAM = "plural"


@cache
def catalogue(locale: str) -> dict[str, Message]:
    """All messages of one locale (empty when the locale has no folder)."""
    folder = LOCALES_DIR / locale
    merged: dict[str, Message] = {}
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


@cache
def plural_categories(locale: str) -> tuple[str, ...]:
    """The CLDR plural categories a language distinguishes (``("one", "other")`` for English)."""
    return tuple(sorted(_babel_locale(locale).plural_form.tags | {"other"}))


@cache
def _babel_locale(locale: str) -> Locale:
    try:
        return Locale.parse(locale)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(DEFAULT_LOCALE)


def plural_category(locale: str, count: object) -> str:
    """CLDR's category for ``count`` in ``locale`` (``"other"`` for what is not a number)."""
    try:
        number = int(str(count))
    except ValueError:
        return "other"
    return str(_babel_locale(locale).plural_form(abs(number)))


def _pick(message: Message, locale: str, params: Mapping[str, Any]) -> str:
    if isinstance(message, str):
        return message
    category = plural_category(locale, params.get(message.get(PLURAL_PARAM, "count"), ""))
    return message.get(category) or message.get("other") or ""


def resolve(value: Any, locale: object = DEFAULT_LOCALE) -> Any:
    """A parameter as the reader sees it: a term (:data:`bot.rules.core.Term`) translated, a list
    of terms joined with the language's list separator; anything else unchanged."""
    if isinstance(value, Mapping) and core.TERM_KEY in value:
        params = {k: v for k, v in value.items() if k != core.TERM_KEY}
        return t(str(value[core.TERM_KEY]), locale, **params)
    if isinstance(value, list) and value and all(isinstance(v, Mapping) and core.TERM_KEY in v for v in value):
        return t("core.list_separator", locale).join(str(resolve(v, locale)) for v in value)
    return value


def t(key: str, locale: object = DEFAULT_LOCALE, /, **params: Any) -> str:
    """The sentence for ``key`` in ``locale`` (English fallback), with ``params`` filled in (terms
    among them translated: :func:`resolve`)."""
    loc = normalise_locale(locale)
    if any(isinstance(v, Mapping | list) for v in params.values()):
        params = {k: resolve(v, loc) for k, v in params.items()}
    message = catalogue(loc).get(key) if loc != DEFAULT_LOCALE else None
    if message is None:
        loc = DEFAULT_LOCALE
        message = catalogue(DEFAULT_LOCALE).get(key)
    if message is None:
        return key
    return string.Formatter().vformat(_pick(message, loc, params), (), _Defaulting(params))


def t_or(key: str, fallback: str, locale: object = DEFAULT_LOCALE, /, **params: Any) -> str:
    """:func:`t` for a key made from data (an option's value, an AI level), or ``fallback`` (the id itself,
    say) when the catalogue has no such key."""
    return t(key, locale, **params) if key in catalogue(DEFAULT_LOCALE) else fallback


def error_text(error: core.GameError, locale: object = DEFAULT_LOCALE) -> str:
    """A domain error as a sentence."""
    return t(error.key, locale, **error.params)


def _translate(key: str, params: Mapping[str, Any]) -> str:
    return t(key, DEFAULT_LOCALE, **params)


core.install_translator(_translate)
