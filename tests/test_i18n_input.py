"""Input in every language: card, wild, deck, duration and "none" words of Swedish and Finnish (and English) are read
whatever the reader's language, with or without accents; a wrong word is refused in the reader's language with the
words of that language; autocomplete labels are in the reader's language; place names are read without accents."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import simcord.interactions as simcord_interactions
from discord_harness import make_room
from hypothesis import given
from hypothesis import strategies as st
from simcord import Env

from bot.cogs.common import duration_choices
from bot.present import misread
from bot.present.i18n import catalogue, speaking
from bot.present.misread import Span
from bot.present.suggestions import duration_label, no_clock_label, no_reserve_label, route_label
from bot.present.typed import COLOUR_WORDS, DECK_WORDS, NONE_WORDS, TIME_UNITS, WILD_WORDS, card_words, colour_words
from bot.service.kinds import Language
from bot.table.parsing import (
    CardTextError,
    find_routes,
    parse_cards,
    parse_draw,
    parse_duration,
    parse_keep_numbers,
    read_duration,
)
from bot.views.replies import Refusal
from maps import MAP_NAMES, WILD, load_board

BOARDS = [load_board(name) for name in MAP_NAMES]
ALL_COLOURS = sorted({c for b in BOARDS for c in b.rules.colors})


def bare(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def spellings(word: str) -> st.SearchStrategy[str]:
    """A word as a member may type it: as written, without accents, in capitals, with its first letter up."""
    return st.sampled_from([word, bare(word), word.upper(), word.capitalize(), bare(word).upper()])


COLOUR_CASES = [
    (name, language, colour, word)
    for name, board in zip(MAP_NAMES, BOARDS, strict=True)
    for language in (Language.SV, Language.FI)
    for colour in board.rules.colors
    for word in colour_words(language, colour)
]
WILD_CASES = [word for words in WILD_WORDS.values() for group in words.values() for word in group]


# ----- cards ---------------------------------------------------------------------------


@given(case=st.sampled_from(COLOUR_CASES), count=st.integers(1, 12), data=st.data())
def test_every_colour_word_of_every_language_names_its_card(
    case: tuple[str, Language, str, str], count: int, data: st.DataObject
) -> None:
    board_name, _language, colour, word = case
    rules = load_board(board_name).rules
    typed = data.draw(spellings(word))
    assert parse_draw(rules, typed) == colour
    assert parse_cards(rules, f"{count} {typed}") == {colour: count}
    assert parse_cards(rules, f"{typed} {count}") == {colour: count}


@given(word=st.sampled_from(WILD_CASES), board=st.sampled_from(BOARDS), count=st.integers(1, 12), data=st.data())
def test_every_wild_word_of_every_language_names_the_wild_card_on_every_map(
    word: str, board: Any, count: int, data: st.DataObject
) -> None:
    typed = data.draw(spellings(word))
    assert parse_draw(board.rules, typed) == WILD
    assert parse_cards(board.rules, f"{count} {typed}") == {WILD: count}


@given(language=st.sampled_from(list(Language)), board=st.sampled_from(BOARDS), data=st.data())
def test_a_whole_payment_in_each_language_with_its_fillers(language: Language, board: Any, data: st.DataObject) -> None:
    words = card_words(language, board.rules)
    colour_word = data.draw(st.sampled_from(words[:-1]))
    colour = board.rules.colors[words.index(colour_word)]
    joiner = {Language.EN: "and", Language.SV: "och", Language.FI: "ja"}[language]
    filler = {Language.EN: "cards", Language.SV: "kort", Language.FI: "korttia"}[language]
    text = f"3 {colour_word} {filler} {joiner} 1 {words[-1]}"
    assert parse_cards(board.rules, text) == {colour: 3, WILD: 1}


def test_the_words_of_the_issue_and_the_glossary() -> None:
    usa, sf, amsterdam = (load_board(n).rules for n in ("usa", "san_francisco", "amsterdam"))
    assert parse_cards(usa, "3 röd 1 lok") == {"red": 3, WILD: 1}
    assert parse_cards(usa, "2 punainen 1 veturi") == {"red": 2, WILD: 1}
    assert parse_cards(usa, "2 rod, 1 vihrea") == {"red": 2, "green": 1}  # no accents
    assert parse_draw(usa, "lila") == "pink" and parse_draw(sf, "lila") == "purple"  # whichever the map has
    assert parse_draw(amsterdam, "joker") == WILD and parse_draw(amsterdam, "jokeri") == WILD
    assert parse_draw(sf, "färjekort") == WILD and parse_draw(sf, "farjekort") == WILD
    assert parse_draw(usa, "purple") is None  # an English colour word names only that colour, as before
    assert parse_draw(usa, "violet") is None and parse_draw(usa, "rouge") is None


@given(word=st.sampled_from([w for words in DECK_WORDS.values() for w in words]), data=st.data())
def test_every_deck_word_draws_from_the_deck(word: str, data: st.DataObject) -> None:
    for board in BOARDS:
        assert parse_draw(board.rules, data.draw(spellings(word))) == "deck"


def test_no_word_names_two_cards_on_one_map() -> None:
    """A word of one language is never another card's word in another language on the same map."""
    for board in BOARDS:
        named: dict[str, set[str]] = {}
        for language in Language:
            for card, word in zip([*board.rules.colors, WILD], card_words(language, board.rules), strict=True):
                named.setdefault(word, set()).add(card)
            for colour in board.rules.colors:
                for word in colour_words(language, colour):
                    named.setdefault(word, set()).add(colour)
        assert all(len(cards) == 1 for cards in named.values()), {w: c for w, c in named.items() if len(c) > 1}


# ----- refusals in the reader's language -----------------------------------------------


@pytest.mark.parametrize("board_name", MAP_NAMES)
@pytest.mark.parametrize("language", [Language.SV, Language.FI])
def test_a_wrong_card_is_refused_with_the_words_of_the_readers_language(board_name: str, language: Language) -> None:
    rules = load_board(board_name).rules
    with speaking(language), pytest.raises(CardTextError) as caught:
        parse_cards(rules, "3 bleu")
    text = str(caught.value)
    listed = card_words(language, rules)
    assert ", ".join(listed) in text and "'bleu'" in text
    assert "on this map" not in text and "Write the cards" not in text
    for word in listed:  # every word the refusal offers is read
        assert parse_draw(rules, word) in (*rules.colors, WILD)
    wild = {"usa": "lok", "india": "lok", "switzerland": "lok", "amsterdam": "joker", "san_francisco": "färjekort"}
    fi_wild = {"amsterdam": "jokeri", "san_francisco": "lauttakortti"}.get(board_name, "veturi")
    assert listed[-1] == (wild[board_name] if language is Language.SV else fi_wild)
    # the same refusal in English is as it always was
    with pytest.raises(CardTextError, match=r"is not a card on this map\. Write the cards like"):
        parse_cards(rules, "3 bleu")


def test_a_wrong_duration_is_refused_in_the_readers_language() -> None:
    with speaking(Language.SV), pytest.raises(Refusal) as swedish:
        read_duration("snart", Span.TURN_TIME)
    assert "som dragtid" in str(swedish.value) and '"2 dagar"' in str(swedish.value) and '"ingen"' in str(swedish.value)
    with speaking(Language.FI), pytest.raises(Refusal) as finnish:
        read_duration("pian", Span.RESERVE)
    assert "varaajaksi" in str(finnish.value) and '"2 pv"' in str(finnish.value) and '"ei"' in str(finnish.value)
    with speaking(Language.FI), pytest.raises(Refusal) as too_long:
        read_duration("400 päivää", Span.EXTRA_TIME)
    assert "Lisäajan on oltava" in str(too_long.value)


def _misread_texts() -> Iterator[tuple[str, Callable[[], str]]]:
    usa = load_board("usa")
    rules = usa.rules
    yield "too_long", lambda: misread.too_long_text(200)
    yield "no_cards", lambda: misread.no_cards_text(rules)
    yield "two_numbers", lambda: misread.two_numbers_text(rules, 2, "3")
    yield "odd_count", lambda: misread.odd_count_text(rules, "-1")
    yield "not_a_card", lambda: misread.not_a_card_text(rules, "bleu")
    yield "number_without_card", lambda: misread.number_without_card_text(rules, 3)
    yield "count_below_one", lambda: misread.count_below_one_text(rules)
    yield "pay_code", misread.pay_code_text
    yield "no_route_number", lambda: misread.no_route_number_text("999")
    yield "unreadable_route", lambda: misread.unreadable_route_text("x", "Denver", "Omaha")
    yield "ambiguous_place", lambda: misread.ambiguous_place_text("golden", ["A", "B", "C"])
    yield "no_route_between", lambda: misread.no_route_between_text("Denver", "Miami")
    yield "not_a_ticket_number", lambda: misread.not_a_ticket_number_text("9", ["a", "b", "c"])
    yield "too_few_kept", lambda: misread.too_few_kept_text(2, ["a", "b", "c"])
    for span in Span:
        yield f"unreadable_{span.name}", lambda span=span: misread.unreadable_duration_text("soon", span)
        yield f"range_{span.name}", lambda span=span: misread.duration_range_text("999d", span)
    yield "unreadable_reminders", lambda: misread.unreadable_reminders_text("often")
    yield "reminder_range", lambda: misread.reminder_range_text("150%")
    yield "not_offered", misread.not_offered_text
    yield "no_clock", no_clock_label
    yield "no_reserve", no_reserve_label


@pytest.mark.parametrize("language", [Language.SV, Language.FI])
def test_every_refusal_of_misread_input_is_translated(language: Language) -> None:
    english_texts = set(catalogue(Language.EN)._catalog.values())  # type: ignore[attr-defined]
    for name, text_of in _misread_texts():
        english = text_of()
        with speaking(language):
            text = text_of()
        assert text and text != english, f"{name} is English in {language.value}: {text!r}"
        assert "{" not in text and "}" not in text, f"{name}: a placeholder left in {text!r}"
        assert text not in english_texts, name
    with speaking(Language.SV):
        assert "/ttr bygg" in misread.pay_code_text() and "sträcka" in misread.no_route_between_text("A", "B")
    with speaking(Language.FI):
        assert "/ttr rakenna" in misread.pay_code_text() and "reittiä" in misread.no_route_between_text("A", "B")


# ----- durations -----------------------------------------------------------------------


def test_the_durations_of_the_issue_and_the_glossary() -> None:
    day, hour, minute = 86400, 3600, 60
    expected = {
        "2 dagar 12 t": 2 * day + 12 * hour,
        "2 dagar och 12 timmar": 2 * day + 12 * hour,
        "2 päivää": 2 * day,
        "2 paivaa": 2 * day,
        "2 päivää ja 12 tuntia": 2 * day + 12 * hour,
        "2 päivän": 2 * day,
        "12h": 12 * hour,
        "30 min": 30 * minute,
        "30 minuuttia": 30 * minute,
        "3 timmar": 3 * hour,
        "1 pv": day,
        "1 vrk": day,
        "1 dygn": day,
        "1,5 t": 90 * minute,
        "2d12h": 2 * day + 12 * hour,
        "1 vecka": 7 * day,
        "1 viikko": 7 * day,
    }
    assert {text: parse_duration(text) for text in expected} == expected
    for language, words in NONE_WORDS.items():
        for word in words:
            assert parse_duration(word) is None, (language, word)
            assert parse_duration(bare(word).upper()) is None, (language, word)


UNIT_SECONDS = sorted({s for units in TIME_UNITS.values() for s in units.values()}, reverse=True)


@given(
    parts=st.lists(
        st.tuples(st.sampled_from(UNIT_SECONDS), st.integers(1, 40)), min_size=1, max_size=3, unique_by=lambda p: p[0]
    ),
    language=st.sampled_from(list(Language)),
    data=st.data(),
)
def test_durations_written_in_any_language_round_trip(
    parts: list[tuple[int, int]], language: Language, data: st.DataObject
) -> None:
    total = sum(unit * count for unit, count in parts)
    if total > 366 * 86400:
        return
    joiner = {Language.EN: "and", Language.SV: "och", Language.FI: "ja"}[language]
    written = []
    for unit, count in parts:
        words = sorted(w for w, s in TIME_UNITS[language].items() if s == unit)
        word = data.draw(st.sampled_from(words))
        space = data.draw(st.sampled_from(["", " "]))
        written.append(f"{count}{space}{data.draw(spellings(word))}")
    text = data.draw(st.sampled_from([" ", f" {joiner} ", ", "])).join(written)
    assert parse_duration(text) == total, text


@given(seconds=st.sampled_from([30 * 60, 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400]))
def test_the_suggested_duration_labels_read_back_in_every_language(seconds: int) -> None:
    for language in Language:
        with speaking(language):
            label = duration_label(seconds)
        assert parse_duration(label) == seconds, (language, label)


def test_duration_suggestions_are_labelled_in_the_readers_language() -> None:
    with speaking(Language.SV):
        choices = duration_choices("", none=no_clock_label())
        assert ("2 dagar", "2d") in [(c.name, c.value) for c in choices]
        assert ("ingen (ingen klocka)", "none") in [(c.name, c.value) for c in choices]
        typed = duration_choices("2 päivää", none=no_clock_label())  # a Finnish duration finds the 2-day one
        assert [c.value for c in typed][:2] == ["2 päivää", "2d"]
    with speaking(Language.FI):
        choices = duration_choices("", none=no_reserve_label())
        assert ("12 tuntia", "12h") in [(c.name, c.value) for c in choices]
        assert ("ei (ei varaaikaa)", "none") in [(c.name, c.value) for c in choices]
    english = duration_choices("", none="none (no clock)")
    assert [c.name for c in english] == ["30m", "1h", "6h", "12h", "1d", "2d", "3d", "7d", "none (no clock)"]


# ----- places and routes ---------------------------------------------------------------


def test_place_names_are_read_without_accents() -> None:
    board = load_board("switzerland")
    route = next(r for r in board.routes if bare(r.a) != r.a or bare(r.b) != r.b)
    typed = f"{bare(route.a).lower()} - {bare(route.b).upper()}"
    assert route in find_routes(board, typed)
    with speaking(Language.FI):
        assert "tunneli" in route_label(next(r for r in board.routes if r.tunnel))
    for other in BOARDS:  # in English, the label is the board's own
        for r in other.routes:
            assert route_label(r) == r.label()


@contextmanager
def client_locale(monkeypatch: pytest.MonkeyPatch, locales: dict[int, str]) -> Iterator[None]:
    """SimCord 3.2.1 sends "en-US" for every interaction: here each member's client has its own locale."""
    real = simcord_interactions.base_payload

    def localized(*args: Any, **kwargs: Any) -> Any:
        record, payload = real(*args, **kwargs)
        locale = locales.get(int(kwargs["user_id"]))
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", localized)
    yield


async def test_autocomplete_speaks_the_members_client_language(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = make_room(simcord_env, ["alice", "bertil", "kaisa"])
    alice, bertil, kaisa = room.members
    with client_locale(monkeypatch, {bertil.id: "sv-SE", kaisa.id: "fi"}):
        swedish = await bertil.autocomplete(room.channel, "ttr new", "turn_time", "", map="usa")
        finnish = await kaisa.autocomplete(room.channel, "ttr new", "reserve", "", map="usa")
        english = await alice.autocomplete(room.channel, "ttr new", "turn_time", "", map="usa")
        typed = await bertil.autocomplete(room.channel, "ttr new", "turn_time", "3 päivää", map="usa")
    assert {"name": "2 dagar", "value": "2d"} in swedish and {
        "name": "ingen (ingen klocka)",
        "value": "none",
    } in swedish
    assert {"name": "7 päivää", "value": "7d"} in finnish and {"name": "ei (ei varaaikaa)", "value": "none"} in finnish
    assert {"name": "2d", "value": "2d"} in english and {"name": "none (no clock)", "value": "none"} in english
    assert {"name": "3 dagar", "value": "3d"} in typed


def test_every_language_has_words_for_every_colour_and_the_wild_card() -> None:
    for language in (Language.SV, Language.FI):
        assert set(COLOUR_WORDS[language]) >= set(ALL_COLOURS)
        for name, board in zip(MAP_NAMES, BOARDS, strict=True):
            assert WILD_WORDS[language][board.rules.wild_name.lower()], (language, name)


def test_a_routes_colour_and_the_keep_numbers_are_read_in_every_language() -> None:
    board = load_board("usa")
    pair = next(
        (r, s)
        for r in board.routes
        for s in board.parallel(r)
        if r.color != s.color and "gray" not in (r.color, s.color)
    )
    first, second = pair
    for language in (Language.SV, Language.FI):
        word = colour_words(language, second.color)[0]
        assert find_routes(board, f"{first.a} - {first.b} ({word})") == [second], (language, word)
    assert parse_keep_numbers("1 och 3", [(7, "a"), (8, "b"), (9, "c")], 1) == [7, 9]
    assert parse_keep_numbers("1 ja 2", [(7, "a"), (8, "b"), (9, "c")], 1) == [7, 8]
