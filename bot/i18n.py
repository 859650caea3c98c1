"""The message catalogue: every sentence a user sees, keyed by id.

Catalogues live in ``bot/locales/<locale>/*.json`` (one file per area, merged). English is complete;
another language is a folder of the same files, chosen by the user's Discord locale
(``hu``, ``es-ES`` -> ``es``, ``ru``, ``pl``), falling back to English key by key.

A message is a string, or, when it counts something, a plural object: ``{"plural": "count", "one": ...,
"other": ...}``: ``plural`` names the numeric parameter, and the other keys are the CLDR plural
categories of the language (Polish and Russian need ``one``, ``few``, ``many`` and ``other``). The
category is chosen by Babel from CLDR's rules, never by hand-written ones.

A **term** (a tile, a building, a city) may also be a forms object: ``{"nom": "Правый город", "loc":
"Правом городе", ...}``, one text per grammatical form the language declares in ``core.grammar.forms``
(Russian and Polish cases, Hungarian suffixed forms, Spanish forms with an article). A sentence asks
for the form it needs with a format spec, ``"строит в {city:loc}"``; a bare ``{city}`` is the first
form (the nominative). Forms are written as data, per term and language, because no kept library
inflects these names; each language's glossary lists them.

A sentence may quote another catalogue entry with ``{@key}`` (``"{@<game>.render.badge.shop} Shop"``): the
rules pages name each badge through the very key the pictures draw it from, so the two cannot disagree.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from bot.rules import core

LOCALES_DIR = Path(__file__).with_name("locales")
DEFAULT_LOCALE = "en"


Message = str | dict[str, str]
"""A sentence, a plural object or a forms object (see the module's docstring)."""
PLURAL_PARAM = "plural"
REFERENCE = "@"
"""``{@key}`` in a sentence is the text of catalogue entry ``key`` in the same language."""
FORMS_KEY = "core.grammar.forms"
"""The catalogue entry that lists a language's grammatical form names, space-separated (empty in English)."""


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


LANGUAGE_FOLDER = re.compile(r"[a-z]{2,3}")
"""A language's folder: its ISO 639 code, as :func:`normalise_locale` makes of a Discord locale."""


def languages() -> tuple[str, ...]:
    """The languages the bot speaks: every folder of ``bot/locales`` that holds a catalogue, English first,
    then by code. The command line's ``--lang``, ``/game new language:`` and the slash commands'
    translations all come from here, so a new folder is a new language with no code edit."""
    found = [
        p.name
        for p in LOCALES_DIR.iterdir()
        if p.is_dir() and LANGUAGE_FOLDER.fullmatch(p.name) and any(p.glob("*.json"))
    ]
    return tuple(sorted(found, key=lambda code: (code != DEFAULT_LOCALE, code)))


def language_name(code: str) -> str:
    """A language by its own name (``hu`` -> ``Magyar``), from CLDR (Babel); the code if CLDR lacks it."""
    try:
        name = Locale.parse(code).get_display_name(code)
    except (UnknownLocaleError, ValueError):
        return code
    return name[:1].upper() + name[1:] if name else code


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


def form_names(locale: str) -> tuple[str, ...]:
    """The grammatical forms a language's terms carry, nominative first (``()`` in English)."""
    return tuple(str(catalogue(locale).get(FORMS_KEY, "")).split())


def is_forms(message: Message, locale: str) -> bool:
    """Whether a catalogue entry is a forms object of ``locale`` (not a plural object)."""
    return (
        isinstance(message, dict)
        and PLURAL_PARAM not in message
        and bool(form_names(locale))
        and set(message) <= set(form_names(locale))
    )


class Inflected(str):
    """A translated term that keeps its other grammatical forms: ``format(x, "loc")`` is the locative.
    As a plain string it is the first form (the nominative). The other forms are filled in only when a
    sentence asks for one."""

    _form: Callable[[str], str | None]

    def __new__(cls, first: str, form: Callable[[str], str | None]) -> Inflected:
        made = super().__new__(cls, first)
        made._form = form
        return made

    def form(self, name: str) -> str | None:
        """The form ``name`` of this term, or ``None`` when the term has no such form."""
        return self._form(name)

    def __format__(self, spec: str) -> str:
        form = self._form(spec) if spec else None
        return form if form is not None else super().__format__(spec)


MissingForm = Callable[[str, str, str], None]
_on_missing_form: list[MissingForm] = []


def watch_missing_forms(callback: MissingForm | None) -> None:
    """Call ``callback(locale, form, text)`` when a sentence asks for a form its value does not have
    (a name, a number, a term written without forms); ``None`` stops. For the catalogue tests."""
    _on_missing_form.clear()
    if callback is not None:
        _on_missing_form.append(callback)


def _form_of(value: Any, form: str, locale: str) -> str:
    found = value.form(form) if isinstance(value, Inflected) else None
    if found is None:
        for callback in _on_missing_form:
            callback(locale, form, str(value))
        return str(value)
    return found


class _Formatter(string.Formatter):
    def __init__(self, locale: str) -> None:
        self.forms = frozenset(form_names(locale))
        self.locale = locale

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if field_name.startswith(REFERENCE):  # {@key}: another entry of the same language's catalogue
            return t(field_name[len(REFERENCE) :], self.locale), field_name
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec and format_spec in self.forms:
            return _form_of(value, format_spec, self.locale)
        try:
            return super().format_field(value, format_spec)
        except ValueError:
            if not format_spec.isalpha():
                raise
            return _form_of(value, format_spec, self.locale)  # a form this language does not declare


def _pick(message: Message, locale: str, params: Mapping[str, Any]) -> str | dict[str, str]:
    if isinstance(message, str) or is_forms(message, locale):
        return message
    category = plural_category(locale, params.get(message.get(PLURAL_PARAM, "count"), ""))
    return message.get(category) or message.get("other") or ""


def _fill(text: str | dict[str, str], locale: str, params: Mapping[str, Any]) -> str:
    values = _Defaulting(params)
    if isinstance(text, str):
        return _Formatter(locale).vformat(text, (), values)
    forms = dict(text)

    def form(name: str) -> str | None:
        return _Formatter(locale).vformat(forms[name], (), values) if name in forms else None

    return Inflected(_Formatter(locale).vformat(next(iter(forms.values()), ""), (), values), form)


def resolve(value: Any, locale: object = DEFAULT_LOCALE) -> Any:
    """A parameter as the reader sees it: a term (:data:`bot.rules.core.Term`) translated, a list
    of terms joined with the language's list separator; anything else unchanged."""
    if isinstance(value, Mapping) and core.TERM_KEY in value:
        params = {k: v for k, v in value.items() if k != core.TERM_KEY}
        return t(str(value[core.TERM_KEY]), locale, **params)
    if isinstance(value, list) and value and all(isinstance(v, Mapping) and core.TERM_KEY in v for v in value):
        separator = t("core.list_separator", locale)
        parts = [resolve(v, locale) for v in value]
        loc = normalise_locale(locale)

        def form(name: str) -> str | None:
            return separator.join(_form_of(p, name, loc) for p in parts) if name in form_names(loc) else None

        return Inflected(separator.join(parts), form)
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
    return _fill(_pick(message, loc, params), loc, params)


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
