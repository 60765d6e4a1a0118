"""The engine's refusals (engine/errors.py): a kind, the facts as fields, and the plain English the records keep.

Every kind has an example here with its English written out, so the words
the records and `replay` print stay as they were. The refusals a member's
move can meet are raised by real games in tests/test_i18n_rule_errors.py;
the refusals of a game's setup and of a record's moves are raised here.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, GameError, IllegalMoveError, InvalidMoveError, MapNames, Refusal
from engine.errors import (
    ActionCount,
    AlreadyChosen,
    AlreadyClaimed,
    BadNames,
    BadTicket,
    BothTokens,
    CardCount,
    ClaimNeedsPay,
    ClaimPlaces,
    FerryNeeds,
    GameOver,
    HoldOnly,
    HoldsStack,
    KeepLeast,
    KeepNotAList,
    MayNotPass,
    MustKeep,
    MustSecond,
    MustTunnel,
    MustTurn,
    NoColourRoute,
    NoRoute,
    NotACardToDraw,
    NotACardToPay,
    NotACount,
    NotAnEnd,
    NotAnObject,
    NotAPlace,
    NotAPlayer,
    NotAStack,
    NotAText,
    NotCardCounts,
    NotFaceUp,
    NotOffered,
    NoToken,
    NotRouteColour,
    NotTheCardDeck,
    NotTheTicketDeck,
    NotYourTurn,
    OneColour,
    OtherTrackTaken,
    OwnOtherTrack,
    PassNotTrue,
    PilesEmpty,
    PlaceShape,
    PlayerCount,
    SetupStack,
    SetupTickets,
    SeveralTracks,
    SouvenirsOnlySF,
    StackTurn,
    SurchargeCards,
    SurchargeCount,
    TakesCards,
    TicketsEmpty,
    TooFewPieces,
    TrainsNotANumber,
    TrainsOutOfRange,
    UnknownKeys,
    WildSecond,
    WildsTunnelsOnly,
    WrongColour,
    refusal_kinds,
)
from engine.moves import move_from_json
from maps import load_board

USA = MapNames("USA", "locomotive", "ticket", "trains")
AMSTERDAM = MapNames("Amsterdam", "joker", "contract", "carts")
SF = MapNames("San Francisco", "ferry card", "ticket", "cable cars")

EXAMPLES: list[tuple[Refusal, str]] = [
    (NotAPlace("Atlantis"), "'Atlantis' is not a place on this map"),
    (NoRoute("Denver", "Miami"), "there is no route between Denver and Miami"),
    (NotRouteColour("mauve"), "'mauve' is not a route colour on this map"),
    (NoColourRoute("red", "Denver", "Omaha"), "there is no red route between Denver and Omaha"),
    (AlreadyClaimed("Denver", "Omaha", "pink"), "Denver - Omaha (pink) is already claimed"),
    (OwnOtherTrack("Denver", "Omaha"), "you already own the other track of Denver - Omaha; nobody may own both"),
    (
        OtherTrackTaken("Denver", "Omaha", 4),
        "the other track of Denver - Omaha is taken, and with fewer than 4 players only one track of a double "
        "route is used",
    ),
    (
        SeveralTracks("Denver", "Omaha", ("pink", "red")),
        "Denver - Omaha has several free tracks (pink and red): say which with its colour",
    ),
    (TooFewPieces("Denver", "Omaha", 4, "ann", 2, AMSTERDAM), "Denver - Omaha needs 4 carts; ann has 2 left"),
    (PilesEmpty(), "the deck and the discard pile are empty: take a face-up card instead"),
    (
        NotACardToDraw("mauve", ("red", "locomotive"), USA),
        "'mauve' is not a card on this map: draw \"deck\" or one of red, locomotive",
    ),
    (NotFaceUp("red", ("blue", "green"), USA), "there is no face-up red card; the row shows blue, green"),
    (NotFaceUp("red", (), USA), "there is no face-up red card; the row shows nothing"),
    (WildSecond(AMSTERDAM), "a face-up joker may not be the second card"),
    (GameOver(), "the game is over; no more moves can be made"),
    (MayNotPass("ann"), "ann may not pass: a legal action exists"),
    (
        NotACardToPay("mauve", ("red", "blue", "locomotive"), USA),
        "'mauve' is not a card on this map; the cards are red, blue, locomotive",
    ),
    (HoldOnly(3, "red", 1, USA), "you pay 3 red but hold only 1 red card"),
    (HoldOnly(3, "red", 2, USA), "you pay 3 red but hold only 2 red cards"),
    (HoldOnly(3, "red", 0, USA), "you pay 3 red but hold only 0 red cards"),
    (TakesCards("Denver", "Omaha", 4, 3), "Denver - Omaha takes 4 cards; you paid 3"),
    (OneColour(("blue", "red"), USA), "pay with one colour (plus locomotives), not blue and red"),
    (OneColour(("blue", "red"), SF), "pay with one colour (plus ferry cards), not blue and red"),
    (WildsTunnelsOnly(USA), "locomotives may be played only on tunnels on this map"),
    (WrongColour("Denver", "Omaha", "pink", "red", USA), "Denver - Omaha is pink: pay pink cards, not red"),
    (TicketsEmpty(AMSTERDAM), "the contract deck is empty: draw cards or claim a route"),
    (NotOffered("Denver - Omaha", "ann", AMSTERDAM), "Denver - Omaha is not among the contracts offered to ann"),
    (KeepLeast("ann", 2, 3, USA), "ann must keep at least 2 of the 3 tickets offered"),
    (NotAPlayer("zed"), "'zed' is not a player in this game"),
    (SetupTickets(("ann", "bob"), AMSTERDAM), "the game is still being set up: first ann, bob must choose tickets"),
    (AlreadyChosen("ann", USA), "ann has already chosen starting tickets"),
    (NotYourTurn("ann", "bob"), "it is ann's turn, not bob's"),
    (MustTurn("ann", USA), "ann must take a turn (draw cards, claim a route or draw tickets) now"),
    (MustSecond("ann", USA), "ann must draw a second card now"),
    (MustKeep("ann", USA), "ann must choose which drawn tickets to keep now"),
    (MustTunnel("ann", USA), "ann must pay the tunnel surcharge or give the tunnel up now"),
    (FerryNeeds(2, SF), "this ferry needs 2 ferry card(s)"),
    (SouvenirsOnlySF(), "souvenirs exist only on the San Francisco map"),
    (SetupStack("ann"), "the game is still being set up: ann must place a tourist stack"),
    (StackTurn("ann", "bob"), "ann places the next tourist stack, not bob"),
    (NotAStack("Unicorn", ("Tram", "Ship")), "'Unicorn' is not a stack left to place; left: Tram, Ship"),
    (HoldsStack("Chinatown"), "Chinatown already holds a stack; choose a place without one"),
    (NotAnEnd("Mars", "Denver", "Omaha"), "Mars is not an end of Denver - Omaha"),
    (NoToken("ann", "Omaha"), "no token ann could take at Omaha"),
    (
        BothTokens("Denver", "Omaha", "ann"),
        "both Denver and Omaha hold a token ann can take: say which with 'souvenir'",
    ),
    (SurchargeCount(2, 1), "the tunnel asks for exactly 2 more card(s); you paid 1"),
    (SurchargeCards(None, ("red",), USA), "the tunnel surcharge must be paid in locomotives, not red"),
    (
        SurchargeCards("blue", ("green", "red"), USA),
        "the tunnel surcharge must be paid in blue or locomotives, not green, red",
    ),
    (BadNames(), "player names must be unique and not empty"),
    (PlayerCount(2, 5, 6, USA), "USA is played by 2 to 5 players, not 6"),
    (TrainsNotANumber("'ten'"), "the trains option must be a whole number, not 'ten'"),
    (TrainsOutOfRange(3, 60, 99), "the trains option must be from 3 to 60, not 99"),
    (
        NotTheCardDeck((CardCount("blue", 11, 12), CardCount("red", 13, 12)), USA),
        "the card deck is not the USA deck (11 blue instead of 12, 13 red instead of 12)",
    ),
    (NotTheCardDeck((), USA), "the card deck is not the USA deck (different cards)"),
    (NotTheTicketDeck(USA), "the ticket deck is not the USA ticket deck"),
    (NotAText("'player'", "None"), "'player' must be a non-empty text, not None"),
    (NotACount("the count of red", "-1"), "the count of red must be a whole number of cards, not -1"),
    (NotCardCounts("pay"), "'pay' must be an object of card: count, like {\"red\": 3}"),
    (BadTicket("[1]"), "a ticket is written [A, B] or [ORIGIN, [COUNTRY, ...]], not [1]"),
    (NotAnObject("[]"), "a move must be an object, not []"),
    (
        ActionCount(("keep", "draw"), ()),
        "a move needs exactly one of keep, draw; this one has none",
    ),
    (
        ActionCount(("keep", "draw"), ("keep", "draw")),
        "a move needs exactly one of keep, draw; this one has ['keep', 'draw']",
    ),
    (UnknownKeys("draw", ("colour", "x")), "unknown key(s) in a draw move: colour, x"),
    (KeepNotAList(), "'keep' must be a list of tickets"),
    (ClaimPlaces(), '\'claim\' must name the route\'s two places, like ["Denver", "Omaha"]'),
    (ClaimNeedsPay(), "a claim needs 'pay', the cards spent, like {\"red\": 3}"),
    (PlaceShape(), '\'place\' must be {"symbol": S, "at": PLACE}'),
    (PassNotTrue(), "'pass' must be true"),
]


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
        ({"player": "ann", "claim": ["Denver", "Omaha"], "pay": {"red": -1}}, NotACount("the count of red", "-1")),
        ({"player": "ann", "place": {"symbol": "Tram"}}, PlaceShape()),
        ({"player": "ann", "pass": 1}, PassNotTrue()),
    ],
)
def test_a_record_s_move_is_refused_with_its_facts(move: object, expected: Refusal) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        move_from_json(move)
    assert caught.value.refusal == expected
