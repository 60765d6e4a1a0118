"""The engine's refusals (engine/errors.py): a kind, the facts as fields, and the plain English the records keep.

Every kind has an example (tests/helpers/refusal_examples.py) with its English written out, so the words
the records and `replay` print stay as they were. The refusals a member's
move can meet are raised by real games in tests/test_i18n_rule_errors.py;
the refusals of a game's setup and of a record's moves are raised here.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.refusal_examples import AMSTERDAM, EXAMPLES, SF, USA

from engine import Game, GameError, IllegalMoveError, InvalidMoveError, MapNames, Refusal
from engine.errors import (
    ActionCount,
    BadNames,
    BadTicket,
    CardCount,
    ClaimNeedsPay,
    ClaimPlaces,
    KeepNotAList,
    NotACount,
    NotAnObject,
    NotAText,
    NotCardCounts,
    NotTheCardDeck,
    NotTheTicketDeck,
    PassNotTrue,
    PlaceShape,
    PlayerCount,
    TrainsNotANumber,
    TrainsOutOfRange,
    UnknownKeys,
    refusal_kinds,
)
from engine.moves import move_from_json
from maps import load_board


@pytest.mark.parametrize(("refusal", "english"), EXAMPLES, ids=lambda x: getattr(x, "kind", ""))
def test_each_refusal_says_its_facts_in_plain_english(refusal: Refusal, english: str) -> None:
    assert str(refusal) == english
    error = IllegalMoveError(refusal)
    assert str(error) == english and error.refusal is refusal
    assert isinstance(error, GameError | ValueError)


def test_every_kind_has_an_example_and_a_name_of_its_own() -> None:
    kinds = refusal_kinds()
    assert {type(r) for r, _ in EXAMPLES} == set(kinds)
    assert len({k.kind for k in kinds}) == len(kinds)
    assert all(k.kind.replace("_", "").isalpha() for k in kinds)


def test_the_map_s_names_are_its_rules() -> None:
    for name, expected in (("usa", USA), ("amsterdam", AMSTERDAM), ("san_francisco", SF)):
        assert MapNames.of(load_board(name).rules) == expected


def _refused(build: Any) -> Refusal:
    with pytest.raises(GameError) as caught:
        build()
    return caught.value.refusal


def test_a_game_s_setup_is_refused_with_its_facts() -> None:
    board = load_board("usa")
    usa = MapNames.of(board.rules)
    assert _refused(lambda: Game(board, ["ann", "ann"], 1)) == BadNames()
    assert _refused(lambda: Game(board, ["ann"], 1)) == PlayerCount(2, 5, 1, usa)
    assert _refused(lambda: Game(board, ["ann", "bob"], 1, trains="ten")) == TrainsNotANumber("'ten'")
    assert _refused(lambda: Game(board, ["ann", "bob"], 1, trains=99)) == TrainsOutOfRange(3, 60, 99)
    deck = board.rules.deck()
    wrong = list(deck)
    wrong[wrong.index("blue")] = "red"
    refusal = _refused(lambda: Game(board, ["ann", "bob"], 1, cards=wrong))
    assert refusal == NotTheCardDeck((CardCount("blue", 11, 12), CardCount("red", 13, 12)), usa)
    tickets = [t.id for t in board.tickets][1:]
    assert _refused(lambda: Game(board, ["ann", "bob"], 1, tickets=tickets)) == NotTheTicketDeck(usa)


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        ([], NotAnObject("[]")),
        ({"player": "", "pass": True}, NotAText("'player'", "''")),
        ({"player": "ann"}, ActionCount(("keep", "draw", "claim", "tunnel", "place", "pass"), ())),
        ({"player": "ann", "draw": "deck", "x": 1}, UnknownKeys("draw", ("x",))),
        ({"player": "ann", "keep": "all"}, KeepNotAList()),
        ({"player": "ann", "keep": [[1]]}, BadTicket("[1]")),
        ({"player": "ann", "claim": ["Denver"], "pay": {}}, ClaimPlaces()),
        ({"player": "ann", "claim": ["Denver", "Omaha"]}, ClaimNeedsPay()),
        ({"player": "ann", "claim": ["Denver", "Omaha"], "pay": 3}, NotCardCounts("pay")),
        ({"player": "ann", "claim": ["Denver", "Omaha"], "pay": {"red": -1}}, NotACount("red", "-1")),
        ({"player": "ann", "place": {"symbol": "Tram"}}, PlaceShape()),
        ({"player": "ann", "pass": 1}, PassNotTrue()),
    ],
)
def test_a_record_s_move_is_refused_with_its_facts(move: object, expected: Refusal) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        move_from_json(move)
    assert caught.value.refusal == expected
