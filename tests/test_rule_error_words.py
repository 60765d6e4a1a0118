"""Every kind of the engine's refusal is worded from the catalogues, in English, Swedish and Finnish.

The engine's own English (`str()` of a refusal) is the record's, for the
command line and logs (tests/test_engine_refusals.py pins it); a player reads
the catalogue's sentence, English included. Each kind of `refusal_kinds()` has
an example (tests/helpers/refusal_examples.py); its English words are written
out here, and in every language its facts (the refusal's fields) are in it.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import fields
from typing import Any

import pytest
from helpers.refusal_examples import EXAMPLES, USA

import bot.present.i18n as i18n
from bot.present.i18n import speaking
from bot.present.names import map_title_of
from bot.present.refusals import refusal_text
from bot.present.rule_errors import IN_PLAY, WORDED, rule_error_text, rules_of
from bot.present.words import card_name, colour_name
from bot.service.errors import RuleViolation
from bot.service.kinds import Language
from engine import GameError, MapNames, Refusal
from engine.errors import CardCount, NoRoute, WildSecond, refusal_kinds
from maps import MAP_NAMES, WILD, load_board

LANGUAGES = (Language.EN, Language.SV, Language.FI)
COLOURS = {c for name in MAP_NAMES for c in load_board(name).rules.colors}
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")

# the catalogue's English of each example, in the order of EXAMPLES
ENGLISH = [
    "'Atlantis' is not a place on this map.",
    "There is no route between Denver and Miami.",
    "'mauve' is not a route colour on this map.",
    "There is no red route between Denver and Omaha.",
    "Denver - Omaha (pink) is already claimed",
    "you already own the other track of Denver - Omaha; nobody may own both",
    (
        "the other track of Denver - Omaha is taken, and with fewer than 4 players only one track of a double route "
        "is used"
    ),
    "Denver - Omaha has several free tracks (pink and red): say which with its colour.",
    "Denver - Omaha needs 4 carts; ann has 2 left.",
    "The deck and the discard pile are empty: take a face-up card instead.",
    "'mauve' is not a card on this map: draw \"deck\" or one of red, locomotive.",
    "There is no face-up red card; the row shows blue, green.",
    "There is no face-up red card; the row shows nothing.",
    "A face-up joker may not be the second card.",
    "The game is over; no more moves can be made.",
    "ann may not pass: a legal action exists.",
    "'mauve' is not a card on this map; the cards are red, blue, locomotive.",
    "You pay 3 red but hold only 1 such card.",
    "You pay 3 red but hold only 2 such cards.",
    "You pay 3 red but hold only 0 such cards.",
    "Denver - Omaha takes 4 cards; you paid 3.",
    "Pay with one colour (plus locomotives), not blue and red.",
    "Pay with one colour (plus ferry cards), not blue and red.",
    "On this map, locomotives may be played only on tunnels.",
    "Denver - Omaha is pink: pay pink cards, not red.",
    "There are no contracts left in the deck: draw cards or claim a route.",
    "Denver - Omaha is not among the contracts offered to ann.",
    "ann must keep at least 2 of the 3 tickets offered.",
    "'zed' is not a player in this game.",
    "The game is still being set up: first ann, bob must choose contracts.",
    "ann has already chosen starting tickets.",
    "It is ann's turn, not bob's.",
    "ann must take a turn now (draw cards, claim a route or draw tickets).",
    "ann must draw a second card now.",
    "ann must choose which drawn tickets to keep now.",
    "ann must pay the tunnel surcharge or give the tunnel up now.",
    "This ferry needs 2 ferry cards.",
    "Souvenirs exist only on the San Francisco map.",
    "The game is still being set up: ann must place a tourist stack.",
    "ann places the next tourist stack, not bob.",
    "'Unicorn' is not a stack left to place; left: Tram, Ship.",
    "Chinatown already holds a stack; choose a place without one.",
    "Mars is not an end of Denver - Omaha.",
    "There is no souvenir ann could take at Omaha.",
    "Both Denver and Omaha hold a souvenir ann can take: say which one.",
    "The tunnel asks for exactly 2 more cards; you paid 1.",
    "The tunnel surcharge must be paid in locomotives, not red.",
    "The tunnel surcharge must be paid in blue cards or locomotives, not green, red.",
    "Player names must be unique and not empty.",
    "USA is played by 2 to 5 players, not 6.",
    "The number of trains per player must be a whole number, not 'ten'.",
    "The number of trains per player must be from 3 to 60, not 99.",
    "The card deck is not the USA deck: 11 blue instead of 12, 13 red instead of 12.",
    "The card deck is not the USA deck: its cards are different.",
    "The deck of tickets is not the USA deck.",
    "'player' must be a text that is not empty, not None.",
    "The count of red must be a whole number of cards, not -1.",
    "'pay' must be an object of card: count, like {\"red\": 3}.",
    "A ticket is written [A, B] or [ORIGIN, [COUNTRY, ...]], not [1].",
    "A move must be an object, not [].",
    "A move needs exactly one of keep, draw; this one has none.",
    "A move needs exactly one of keep, draw; this one has keep, draw.",
    "Unknown keys in a draw move: colour, x.",
    "'keep' must be a list of tickets.",
    '\'claim\' must name the route\'s two places, like ["Denver", "Omaha"].',
    "A claim needs 'pay', the cards spent, like {\"red\": 3}.",
    '\'place\' must be {"symbol": S, "at": PLACE}.',
    "'pass' must be true.",
]


def _in(language: Language, refusal: Refusal) -> str:
    with speaking(language):
        return rule_error_text(refusal)


def _map_of(refusal: Refusal) -> MapNames:
    names = getattr(refusal, "map", None)
    return names if isinstance(names, MapNames) else USA


def _shown(refusal: Refusal, value: str) -> str:
    """A fact as the sentence of the language spoken shows it: a card or colour in the language's words (the wild
    by the refusal's map's name), anything else (names, places, typed text) as it is."""
    if value == WILD:
        return card_name(rules_of(_map_of(refusal)), value)
    return colour_name(value) if value in COLOURS else value


def _facts(refusal: Refusal) -> list[str]:
    """The facts of a refusal the sentence must show, in the language spoken."""
    out: list[str] = []
    for f in fields(refusal):
        value: Any = getattr(refusal, f.name)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, CardCount):
                out += [_shown(refusal, item.card), str(item.have), str(item.want)]
            elif isinstance(item, MapNames):
                if type(refusal).__name__ == "PlayerCount":
                    out.append(map_title_of(item.title))
            elif isinstance(item, bool) or item is None:
                continue
            elif isinstance(item, int):
                out.append(str(item))
            else:
                out.append(_shown(refusal, item))
    return out


def test_every_kind_has_an_example_and_english_words() -> None:
    assert {type(r) for r, _ in EXAMPLES} == set(refusal_kinds())
    assert set(WORDED) == set(refusal_kinds())
    assert len(WORDED) == len(set(WORDED))
    assert len(ENGLISH) == len(EXAMPLES)


@pytest.mark.parametrize(
    ("refusal", "english"),
    [(r, e) for (r, _), e in zip(EXAMPLES, ENGLISH, strict=True)],
    ids=lambda x: getattr(x, "kind", ""),
)
def test_each_kind_s_english_words(refusal: Refusal, english: str) -> None:
    assert _in(Language.EN, refusal) == english
    with speaking(Language.EN):
        assert refusal_text(RuleViolation(GameError(refusal))) == english


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda x: x.value)
def test_every_kind_is_worded_in_every_language_with_its_facts(language: Language) -> None:
    worded: set[str] = set()
    for refusal, _ in EXAMPLES:
        text = _in(language, refusal)
        assert text.strip() and PLACEHOLDER.search(text) is None, (refusal, text)
        with speaking(language):
            facts = _facts(refusal)
        for fact in facts:
            assert fact in text, (refusal, fact, text)
        if language is not Language.EN:
            assert text != _in(Language.EN, refusal), (refusal, text)
        worded.add(refusal.kind)
    assert worded == {k.kind for k in refusal_kinds()}


class _Marked(gettext.NullTranslations):
    """A catalogue that marks each text it gives: «text»."""

    def __init__(self, real: gettext.NullTranslations) -> None:
        super().__init__()
        self.real = real

    def gettext(self, message: str) -> str:
        return f"«{self.real.gettext(message)}»"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{self.real.ngettext(msgid1, msgid2, n)}»"

    def pgettext(self, context: str, message: str) -> str:
        return f"«{self.real.pgettext(context, message)}»"

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{self.real.npgettext(context, msgid1, msgid2, n)}»"


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda x: x.value)
def test_the_sentence_is_the_catalogue_s(language: Language, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole sentence comes from the catalogue, in English as in the others: none is the engine's text."""
    plain = {id(r): _in(language, r) for r, _ in EXAMPLES}
    real = i18n.catalogue
    monkeypatch.setattr(i18n, "catalogue", lambda lang: _Marked(real(lang)))
    for refusal, _ in EXAMPLES:
        text = _in(language, refusal)
        assert text.startswith("«") and text.endswith("»"), text
        assert text.replace("«", "").replace("»", "") == plain[id(refusal)]


def test_the_engine_s_own_english_is_the_record_s() -> None:
    """`str()` stays the record's English (replay, verify, logs); a player reads the catalogue's."""
    refusal = NoRoute("Denver", "Miami")
    assert str(refusal) == "there is no route between Denver and Miami"
    assert str(GameError(refusal)) == str(refusal)
    assert repr(refusal) == "NoRoute(a='Denver', b='Miami')"
    assert _in(Language.EN, refusal) == "There is no route between Denver and Miami."


def test_the_map_is_found_by_its_id() -> None:
    """The words of a refusal's map come from the map its id names, whatever its title says."""
    amsterdam = load_board("amsterdam").rules
    names = MapNames("amsterdam", "a title that is no map's", "joker", "contract", "carts")
    assert rules_of(names) is amsterdam
    assert MapNames.of(amsterdam).name == "amsterdam"
    assert _in(Language.SV, WildSecond(names)) == _in(Language.SV, WildSecond(MapNames.of(amsterdam)))
    for name in MAP_NAMES:
        rules = load_board(name).rules
        assert rules.name == name and rules_of(MapNames.of(rules)) is rules


def test_the_kinds_of_play_and_of_setup_and_record_are_all_the_kinds() -> None:
    in_play = set(IN_PLAY)
    rest = set(WORDED) - in_play
    assert in_play | rest == set(refusal_kinds())
    assert {k.__name__ for k in rest} >= {"PlayerCount", "PassNotTrue", "NotTheCardDeck"}
