"""The message catalogues: complete, consistent with the code, compiled, and with the same placeholders everywhere."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.catalog import Catalog, Message

from bot.present.i18n import catalogue
from bot.service.kinds import Language
from tools import i18n

LANGUAGES = [lang.value for lang in Language]
_FIELDS = string.Formatter()


def fields(text: str) -> set[str]:
    """The named placeholders of a text ({player}, {count}); a text that is not a valid format string fails."""
    return {name for _, name, _, _ in _FIELDS.parse(text) if name is not None}


def forms(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def entries(catalog: Catalog) -> dict[tuple[str, str | None], Message]:
    return {(ids(m)[0], m.context): m for m in catalog if m.id}


@pytest.fixture(scope="module")
def template() -> Catalog:
    return i18n.extracted()


def test_every_language_has_a_catalogue() -> None:
    assert sorted(i18n.languages()) == sorted(LANGUAGES)


def test_the_template_is_up_to_date_with_the_code(template: Catalog) -> None:
    stored = entries(i18n.read(i18n.POT))
    now = entries(template)
    assert sorted(set(now) - set(stored), key=str) == [], "texts not extracted: run `python -m tools.i18n all`"
    assert sorted(set(stored) - set(now), key=str) == [], "texts no longer in the code: run `python -m tools.i18n all`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_is_translated_once_without_fuzz(template: Catalog, language: str) -> None:
    catalog = i18n.read(i18n.po_path(language), language)
    have = entries(catalog)
    assert sorted(set(entries(template)) - set(have), key=str) == [], f"{language}: run `python -m tools.i18n update`"
    assert not catalog.obsolete
    for key, message in have.items():
        assert "fuzzy" not in message.flags, key
        assert all(s.strip() for s in forms(message)), f"{language}: untranslated {key}"
        if message.pluralizable:
            assert len(forms(message)) == catalog.num_plurals, key


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_are_the_same_in_every_translation(language: str) -> None:
    catalog = i18n.read(i18n.po_path(language), language)
    for key, message in entries(catalog).items():
        singular, *plural = ids(message)
        wanted = [fields(singular), *(fields(p) for p in plural)]
        for index, text in enumerate(forms(message)):
            # a plural form may leave out {count} only where the language says the number in words ("one")
            expect = wanted[min(index, len(wanted) - 1)]
            assert fields(text) == expect or (message.pluralizable and fields(text) == expect - {"count"}), (
                f"{language} {key}: {text!r} has {sorted(fields(text))}, the English {sorted(expect)}"
            )


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogues_match_their_sources(language: str) -> None:
    stored = i18n.po_path(language).with_suffix(".mo").read_bytes()
    assert stored == i18n.compiled(language), f"{language}: run `python -m tools.i18n compile`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_follow_the_language(language: str) -> None:
    """1, 2 and 5 of every counted noun: one form for 1, the other for 2 and 5 (English, Swedish, Finnish)."""
    catalog = i18n.read(i18n.po_path(language), language)
    translations = catalogue(Language(language))
    counted = [m for m in catalog if m.id and m.pluralizable]
    assert counted, "no counted nouns in the catalogue"
    for message in counted:
        singular, plural = ids(message)[:2]
        one, many = forms(message)[:2]
        for count, expected in ((1, one), (2, many), (5, many)):
            if message.context:
                got = translations.npgettext(message.context, singular, plural, count)
            else:
                got = translations.ngettext(singular, plural, count)
            assert got == expected, (language, singular, count)


# Texts that read the same in Swedish or Finnish as in English (names, codes, layout-only texts).
SAME_EVERYWHERE = re.compile(r"^[\W\d_]*$|^\{[a-z_]+\}( \{[a-z_]+\})*[\W]*$")
# names kept as they are in every language (map titles, India's bonus names), and "Rating", Swedish too
KEPT = {"San Francisco", "Indian Express", "Grand Tour (Mandala)", "Rating: **{rating} ± {uncertainty}**"}


@pytest.mark.parametrize("language", ["sv", "fi"])
def test_swedish_and_finnish_are_not_english(language: str) -> None:
    """A text of two English words or more is not left as it is (the sign of a forgotten translation)."""
    catalog = i18n.read(i18n.po_path(language), language)
    left = []
    for message in catalog:
        if not message.id or SAME_EVERYWHERE.match(ids(message)[0]) or ids(message)[0] in KEPT:
            continue
        english_words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}|`[^`]*`|<[^>]*>", "", ids(message)[0]))
        if len(english_words) >= 2 and forms(message)[0] == ids(message)[0]:
            left.append(ids(message)[0])
    assert left == []
