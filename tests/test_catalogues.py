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
# names kept as they are in every language (map titles, India's bonus names)
KEPT = {"San Francisco", "Indian Express", "Grand Tour (Mandala)"}


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


# ----- grammar and consistency: patterns a reader noticed, refused in every text of the catalogue --------------------

# (language, pattern, why): a translation matching the pattern reads as translated, not written
REFUSED: list[tuple[str, str, str]] = [
    # an order where Swedish needs the infinitive ("ska välj", "att ... bygg"): the sentence must be written whole
    ("sv", r"\bska (välj|bygg|dra kort, bygg)\b", "an imperative after 'ska'"),
    ("sv", r"\bska \{must\}", "a fragment ({must} is an order) after 'ska'"),
    (
        "sv",
        r"ska dra kort, bygg\b|bygg(a)? en sträcka",
        "an imperative after 'ska', or one rulebook's verb with another's noun",
    ),
    ("sv", r"Gå med med\b", "'Gå med med'"),
    # a colour counted as a bare adjective: "(3 röd)", "2 gul" (Swedish says "3 × röd" or "röd, 3")
    ("sv", r"\{(count|length)\} \{colour\}", "a bare colour after a number"),
    ("fi", r"\{(count|length)\} \{colour\}", "a bare colour after a number"),
    # Finnish: a finite verb after a number ("3 onnistui") instead of a counted word
    ("fi", r"\{(done|failed)\} (onnistui|epäonnistui)", "a verb after a number"),
    ("fi", r"aloittaa \{hand\} kädessään", "'aloittaa 4 korttia kädessään'"),
    # one word for one thing: "mukaan lukien" (not also "mukaan luettuna"), a turn's deadline is "määräaika"
    ("fi", r"mukaan luettuna", "'mukaan luettuna' beside 'mukaan lukien'"),
    ("fi", r"\b[Aa]ikaraja \{time\}", "'aikaraja' beside 'määräaika' for a turn's deadline"),
    # a choice's value quoted in English where Discord shows the member its translated name
    ("sv", r"`/ttr[^`]*:(on|off|open|close|checkin)`", "an English choice value in a command hint"),
    ("fi", r"`/ttr[^`]*:(on|off|open|close|checkin)`", "an English choice value in a command hint"),
    # a "deck" that the member's language does not type
    ("sv", r'"deck"', "the English 'deck'"),
    ("fi", r'"deck"', "the English 'deck'"),
]


@pytest.mark.parametrize("language", ["sv", "fi"])
def test_refused_patterns_are_not_in_the_translations(language: str) -> None:
    catalog = i18n.read(i18n.po_path(language), language)
    found = []
    for message in catalog:
        if not message.id:
            continue
        for text in forms(message):
            for lang, pattern, why in REFUSED:
                if lang == language and re.search(pattern, text):
                    found.append(f"{why}: {text!r}")
    assert found == []


def test_the_refused_patterns_catch_what_they_were_written_for() -> None:
    """Each pattern refuses the sentence the walk through a game found (a pattern that matches nothing is no test)."""
    seen = {
        "sv": [
            "Nu väntar vi på att Cecilia ska dra kort, bygg en sträcka eller dra biljetter.",
            "Nu väntar vi på att {players} ska {must}.",
            "Gå med med lobbymeddelandets knapp **Gå med**",
            "{a} – {b} ({length} {colour})",
            "(`/ttr serverinställningar ranka-vanliga:on`)",
            'dra "deck" eller något av {choices}',
            "ska välj biljetter att behålla",
        ],
        "fi": [
            "({done} onnistui, {failed} epäonnistui)",
            "Jokainen aloittaa {hand} kädessään.",
            "(varaaika mukaan luettuna)",
            "⏰ Aikaraja {time}",
            "{a} – {b} ({length} {colour})",
            'nosta "deck" tai jokin näistä',
            "(`/ttr palvelinasetukset rankkaa-tavalliset:on`)",
            "`/ttrtour rekisteröinti tila:open`",
        ],
    }
    for language, texts in seen.items():
        for text in texts:
            assert any(lang == language and re.search(p, text) for lang, p, _ in REFUSED), text


# Choice names written "value: what it does": a language keeps the English value only where it is its word too.
SAME_VALUES = {"autopilot", "expert"}  # the same words in Swedish


@pytest.mark.parametrize("language", ["sv", "fi"])
def test_choice_names_do_not_start_with_the_english_value(language: str) -> None:
    catalog = i18n.read(i18n.po_path(language), language)
    left = []
    for message in catalog:
        if message.context != "choice" or ":" not in ids(message)[0]:
            continue
        value = ids(message)[0].split(":")[0]
        if value not in SAME_VALUES and forms(message)[0].startswith(value + ":"):
            left.append(forms(message)[0])
    assert left == []
