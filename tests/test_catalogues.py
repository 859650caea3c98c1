"""Every language speaks every sentence: the catalogues of bot/locales/<lang>/ against the English one."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from bot import i18n
from bot.rules import core

LOCALES = Path(i18n.__file__).with_name("locales")
LANGUAGES = sorted(p.name for p in LOCALES.iterdir() if p.is_dir() and p.name != "en")
ENGLISH = i18n.catalogue("en")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _texts(message: i18n.Message) -> list[str]:
    return [message] if isinstance(message, str) else [v for k, v in message.items() if k != i18n.PLURAL_PARAM]


def test_the_four_languages_are_there() -> None:
    """Hungarian, Spanish, Russian and Polish each have a catalogue folder and a glossary."""
    for lang in ("hu", "es", "ru", "pl"):
        assert (LOCALES / lang).is_dir(), lang
        assert (LOCALES / lang / "GLOSSARY.md").is_file(), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_english_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    """No key is missing or extra, and a translation uses only the English sentence's placeholders."""
    other = i18n.catalogue(lang)
    assert sorted(set(ENGLISH) - set(other)) == [], "missing"
    assert sorted(set(other) - set(ENGLISH)) == [], "not in English"
    for key, message in other.items():
        english = ENGLISH[key]
        allowed = set().union(*(_fields(t) for t in _texts(english)))
        if isinstance(message, dict):
            allowed.add(message.get(i18n.PLURAL_PARAM, "count"))
        for text in _texts(message):
            assert text.strip(), key
            assert _fields(text) <= allowed, (key, text)


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_plural_messages_have_every_cldr_category_of_their_language(lang: str) -> None:
    """A plural message names its count and gives one text per CLDR category (Polish: one, few, many, other)."""
    categories = set(i18n.plural_categories(lang))
    for key, message in i18n.catalogue(lang).items():
        if i18n.is_forms(message, lang):
            continue
        if isinstance(message, dict):
            assert set(message) - {i18n.PLURAL_PARAM} == categories, key
            assert message.get(i18n.PLURAL_PARAM) in _fields(message["other"]) | {"count"}, key
            if lang != "en" and isinstance(ENGLISH[key], dict):
                continue
        elif lang != "en":
            assert not isinstance(ENGLISH[key], dict), f"{key} counts in English: it must be plural here too"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_are_not_left_in_english(lang: str) -> None:
    """Fewer than 5 % of the sentences longer than 12 characters are the English ones (names, symbols aside)."""
    long_keys = [k for k, v in ENGLISH.items() if len(_texts(v)[0]) > 12]
    same = [k for k in long_keys if _texts(i18n.catalogue(lang)[k])[-1] == _texts(ENGLISH[k])[-1]]
    assert len(same) < 0.05 * len(long_keys), same


@pytest.mark.parametrize("lang", LANGUAGES)
def test_terms_with_forms_give_every_form_and_sentences_ask_only_for_declared_ones(lang: str) -> None:
    """A term written with grammatical forms gives each form its language declares, nominative first, and
    a sentence asks only for a declared form (``{city:loc}``): a misspelt form would be a crash or English."""
    declared = i18n.form_names(lang)
    assert declared, f"{lang} declares no grammatical forms ({i18n.FORMS_KEY})"
    with_forms = 0
    for key, message in i18n.catalogue(lang).items():
        if isinstance(message, dict) and i18n.PLURAL_PARAM not in message:
            assert tuple(message) == declared, (key, tuple(message))
            with_forms += 1
        for text in _texts(message):
            specs = {spec for _, f, spec, _ in string.Formatter().parse(text) if f and spec and spec.isalpha()}
            assert specs <= set(declared), (key, specs - set(declared))
    assert with_forms >= 10


def test_english_declares_no_forms() -> None:
    """English names things in one form: a bare ``{city}`` everywhere."""
    assert i18n.form_names("en") == ()
    assert not any(isinstance(m, dict) and i18n.PLURAL_PARAM not in m for m in ENGLISH.values())


def test_a_sentence_asks_for_the_form_it_needs() -> None:
    """The forms reach the reader: "в Правом городе", "w Prawym mieście", "Balfalvához", "a la Ciudad
    derecha"; a bare placeholder is the nominative, and English has one form."""
    right, left = core.term("btc.city.right_city"), core.term("btc.city.left_city")
    duplex = core.term("btc.tile.duplex", a=core.term("btc.tile.shop"), b=core.term("btc.tile.house"))
    said = {
        lang: i18n.t("btc.move.place", lang, player="P", tile=duplex, city=right, cell="D4")
        for lang in ("ru", "pl", "es", "en")
    }
    assert "в Правом городе" in said["ru"] and "дуплекс «магазин и дом»" in said["ru"]
    assert "w Prawym mieście" in said["pl"]
    assert "en la Ciudad derecha" in said["es"] and "un dúplex" in said["es"]
    assert "Right City" in said["en"]
    assert "Balfalvához" in i18n.t(
        "btc.move.assign",
        "hu",
        player="P",
        left_city=left,
        right_city=right,
        left=core.term("btc.tile.shop"),
        right=core.term("btc.tile.park"),
    )
    assert format(i18n.resolve(right, "ru"), "") == "Правый город"


def test_a_form_asked_of_a_word_without_forms_is_reported() -> None:
    """A name typed by a player cannot be declined: the sentence gets it as it is, and the catalogue
    tests hear of it (so no sentence is written to need a form of a name)."""
    heard: list[tuple[str, str, str]] = []
    i18n.watch_missing_forms(lambda *a: heard.append(a))
    try:
        text = i18n.t("btc.place.not_your_city", "ru", city="Zyx")
    finally:
        i18n.watch_missing_forms(None)
    assert "Zyx" in text and heard == [("ru", "acc", "Zyx")]


def test_plural_forms_follow_cldr() -> None:
    """Polish and Russian choose one/few/many through CLDR; English one/other."""
    assert i18n.plural_category("pl", 1) == "one"
    assert i18n.plural_category("pl", 3) == "few"
    assert i18n.plural_category("pl", 5) == "many"
    assert i18n.plural_category("pl", 22) == "few"
    assert i18n.plural_category("ru", 21) == "one"
    assert i18n.plural_category("en", 1) == "one" and i18n.plural_category("en", 2) == "other"
    assert i18n.t("btc.render.players", "en", count=1) == "1 player"
    assert i18n.t("btc.render.players", "en", count=3) == "3 players"
    for lang in {"pl", "ru"} & set(LANGUAGES):
        one, three, five = (i18n.t("btc.render.factories", lang, count=n, points=2) for n in (1, 3, 5))
        assert one.startswith("1 ") and three.startswith("3 ") and five.startswith("5 ")
        assert len({one[2:], three[2:], five[2:]}) == 3, (one, three, five)


def test_every_catalogue_file_is_valid_json_without_duplicate_keys() -> None:
    """A key defined twice in one file would silently lose a sentence."""
    for path in LOCALES.glob("*/*.json"):
        pairs = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=lambda kv: kv)
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), path


def test_english_puts_no_article_before_a_filled_in_word() -> None:
    """ "a {tile}" reads "a office" for some values: English sentences never put a/an before a placeholder."""
    offenders = [k for k, v in ENGLISH.items() for text in _texts(v) if re.search(r"\b[Aa]n? \{", text)]
    assert offenders == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_glossary_lists_every_form_of_its_games_terms(lang: str) -> None:
    """A reviewer finds every declined form in the glossary: each form of each term written with forms in
    ``<kind>_terms.json`` appears in ``GLOSSARY-<kind>.md``."""
    for terms in sorted((LOCALES / lang).glob("*_terms.json")):
        kind = terms.name.removesuffix("_terms.json")
        glossary = (LOCALES / lang / f"GLOSSARY-{kind}.md").read_text(encoding="utf-8").replace("\\|", "|")
        for key, message in json.loads(terms.read_text(encoding="utf-8")).items():
            if isinstance(message, dict) and i18n.PLURAL_PARAM not in message:
                missing = [form for form in message.values() if form not in glossary]
                assert not missing, (lang, key, missing)
