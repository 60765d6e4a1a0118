"""Claiming routes, hand-computed from the rules (docs/rules.md: claiming a
route, double routes, India's ferries, Switzerland's tunnels, route points)
and the record format (docs/game-record.md: claims, tunnels).

Scenarios put the game in play with a generic deal, then set the hand, the
deck and the discard pile directly, so every card involved is known.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers.rules_support import POINTS, WILD, dealt_game, finish_setup, pay, route

from engine import (
    AmbiguousMoveError,
    Claim,
    DrawCard,
    GameError,
    IllegalMoveError,
    NotYourTurnError,
    Pass,
    TunnelPay,
)
from engine.moves import payment_of
from maps import load_board


def play_game(map_name="usa", n=2, seed="c", trains=None):
    return finish_setup(dealt_game(map_name, n, seed, trains))


def loco(n, **cards):
    return payment_of({WILD: n, **cards})


def set_hand(g, seat, **cards):
    g.state.players[seat].hand = Counter(cards)


def state_of(g):
    s = g.state
    return (
        [Counter(p.hand) for p in s.players],
        [p.trains for p in s.players],
        [p.route_points for p in s.players],
        dict(s.owner),
        list(s.piles.discard),
        list(s.piles.deck),
        s.current,
        s.pending,
    )


def fail(g, move, error=GameError):
    before = state_of(g)
    with pytest.raises(error):
        g.apply(move)
    assert state_of(g) == before  # nothing changed


# ----------------------------------------------------------- colour rules


def test_one_colour_plus_wilds_on_a_coloured_route():
    g = play_game()
    r = route("usa", "Denver", "Oklahoma City")  # red 4
    assert (r.color, r.length) == ("red", 4)
    set_hand(g, 0, red=5, locomotive=2, blue=1)
    discard_before = list(g.state.piles.discard)
    g.apply(Claim("ann", "Denver", "Oklahoma City", loco(1, red=3)))
    ann = g.state.players[0]
    assert ann.hand == Counter({"red": 2, WILD: 1, "blue": 1})
    assert ann.trains == 45 - 4
    assert ann.route_points == 7  # length 4 -> 7
    assert g.state.owner[r.id] == 0
    assert Counter(g.state.piles.discard) - Counter(discard_before) == Counter({"red": 3, WILD: 1})
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


def test_all_wild_payment_on_a_coloured_route():
    g = play_game()
    set_hand(g, 0, locomotive=4)
    g.apply(Claim("ann", "Denver", "Oklahoma City", loco(4)))
    assert g.state.players[0].route_points == 7


@pytest.mark.parametrize("colour", ["green", "pink", "black"])
def test_gray_route_takes_any_one_colour(colour):
    g = play_game()
    set_hand(g, 0, **{colour: 2})
    g.apply(Claim("ann", "Denver", "Santa Fe", pay(**{colour: 2})))  # gray 2
    assert g.state.players[0].route_points == 2
    assert g.state.players[0].hand == Counter()


def test_gray_route_with_two_colours_is_refused():
    g = play_game()
    set_hand(g, 0, green=1, red=1, locomotive=1)
    fail(g, Claim("ann", "Denver", "Santa Fe", pay(green=1, red=1)), IllegalMoveError)
    fail(g, Claim("ann", "Phoenix", "El Paso", loco(1, green=1, red=1)), IllegalMoveError)


def test_wrong_colour_is_refused():
    g = play_game()
    set_hand(g, 0, blue=4, locomotive=1)
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(blue=4)), IllegalMoveError)
    fail(g, Claim("ann", "Denver", "Oklahoma City", loco(1, blue=3)), IllegalMoveError)


def test_two_colours_on_a_coloured_route_are_refused():
    g = play_game()
    set_hand(g, 0, red=3, blue=1)
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(red=3, blue=1)), IllegalMoveError)


def test_cards_not_in_hand_are_refused():
    g = play_game()
    set_hand(g, 0, red=3)
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(red=4)), IllegalMoveError)
    fail(g, Claim("ann", "Denver", "Oklahoma City", loco(1, red=3)), IllegalMoveError)


def test_wrong_total_is_refused():
    g = play_game()
    set_hand(g, 0, red=6)
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(red=3)))
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(red=5)))
    fail(g, Claim("ann", "Denver", "Oklahoma City", ()))


def test_not_enough_trains():
    g = play_game(trains=5)
    g.state.players[0].trains = 3
    set_hand(g, 0, red=4)
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(red=4)), IllegalMoveError)
    # exactly enough is fine: a length-3 route with 3 trains left
    set_hand(g, 0, red=3)
    g.apply(Claim("ann", "Denver", "Salt Lake City", pay(red=3), route="red"))
    assert g.state.players[0].trains == 0


def test_unknown_card_place_and_missing_route():
    g = play_game()
    set_hand(g, 0, red=4)
    fail(g, Claim("ann", "Denver", "Oklahoma City", pay(purple=4)))
    fail(g, Claim("ann", "Denver", "Atlantis", pay(red=4)))
    fail(g, Claim("ann", "Denver", "Miami", pay(red=4)))  # no route between them
    fail(g, Claim("ann", "Denver", "Denver", pay(red=4)))


def test_claimed_route_cannot_be_claimed_again():
    g = play_game()
    set_hand(g, 0, red=4)
    set_hand(g, 1, red=4)
    g.apply(Claim("ann", "Denver", "Oklahoma City", pay(red=4)))
    fail(g, Claim("bob", "Oklahoma City", "Denver", pay(red=4)), IllegalMoveError)


def test_claim_by_the_wrong_player():
    g = play_game()
    set_hand(g, 1, red=4)
    fail(g, Claim("bob", "Denver", "Oklahoma City", pay(red=4)), NotYourTurnError)


def test_place_aliases_are_accepted():
    g = play_game()
    set_hand(g, 0, red=2)
    g.apply(Claim("ann", "Montreal", "Boston", pay(red=2)))  # gray 2; "Montreal" is an alias of Montréal
    assert g.state.players[0].route_points == 2


# ---------------------------------------------------------- double routes

DOUBLES = {
    # map: (a, b, colour 1, colour 2, both usable from N players)
    "usa": ("Kansas City", "Saint Louis", "blue", "pink", 4),
    "india": ("Agra", "Bhopal", "pink", "red", 4),
    "switzerland": ("Winterthur", "Zürich", "blue", "pink", 3),
    "amsterdam": ("Westerkerk", "Dam", "pink", "red", 3),
    "san_francisco": ("Mission", "Castro", "orange", "purple", 3),
}
RANGES = {"usa": (2, 5), "india": (2, 4), "switzerland": (2, 3), "amsterdam": (2, 4), "san_francisco": (2, 4)}
DOUBLE_CASES = [(m, n) for m, (lo, hi) in RANGES.items() for n in range(lo, hi + 1)]


def test_rules_thresholds_match_the_rules():
    assert {m: load_board(m).rules.both_doubles_from for m in DOUBLES} == {m: d[4] for m, d in DOUBLES.items()}


@pytest.mark.parametrize(("map_name", "n"), DOUBLE_CASES)
def test_double_route_second_track_by_player_count(map_name, n):
    a, b, c1, c2, threshold = DOUBLES[map_name]
    r1, r2 = route(map_name, a, b, c1), route(map_name, a, b, c2)
    g = play_game(map_name, n)
    length = r1.length
    set_hand(g, 0, **{c1: length, c2: length})
    set_hand(g, 1, **{c1: length, c2: length})
    g.apply(Claim("ann", a, b, pay(**{c1: length}), route=c1))
    assert g.state.owner[r1.id] == 0
    move = Claim("bob", a, b, pay(**{c2: length}), route=c2)
    if n >= threshold:
        g.apply(move)
        assert g.state.owner[r2.id] == 1
    else:
        fail(g, move, IllegalMoveError)  # closed to everyone once one is taken
        # without naming the track it is refused as well
        fail(g, Claim("bob", a, b, pay(**{c2: length})), IllegalMoveError)


@pytest.mark.parametrize(("map_name", "n"), DOUBLE_CASES)
def test_double_route_never_both_by_one_player(map_name, n):
    a, b, c1, c2, _ = DOUBLES[map_name]
    g = play_game(map_name, n)
    length = route(map_name, a, b, c1).length
    set_hand(g, 0, **{c1: length, c2: length})
    g.apply(Claim("ann", a, b, pay(**{c1: length}), route=c1))
    g.state.current = 0  # ann's turn again
    fail(g, Claim("ann", a, b, pay(**{c2: length}), route=c2), IllegalMoveError)
    fail(g, Claim("ann", a, b, pay(**{c2: length})), IllegalMoveError)


def test_identical_gray_tracks_are_interchangeable_without_route():
    g = play_game("usa", 4)
    ids = {r.id for r in load_board("usa").routes_between("Atlanta", "Raleigh")}
    set_hand(g, 0, green=2)
    set_hand(g, 1, red=2)
    g.apply(Claim("ann", "Atlanta", "Raleigh", pay(green=2)))
    g.apply(Claim("bob", "Raleigh", "Atlanta", pay(red=2)))
    assert {rid for rid, seat in g.state.owner.items()} == ids
    assert sorted(g.state.owner[i] for i in ids) == [0, 1]


def test_parallel_tracks_of_different_colour_need_route():
    g = play_game("usa", 4)
    set_hand(g, 0, blue=2)
    fail(g, Claim("ann", "Kansas City", "Saint Louis", pay(blue=2)), AmbiguousMoveError)
    fail(g, Claim("ann", "Kansas City", "Saint Louis", pay(blue=2), route="green"), IllegalMoveError)
    g.apply(Claim("ann", "Kansas City", "Saint Louis", pay(blue=2), route="blue"))
    assert g.state.owner[route("usa", "Kansas City", "Saint Louis", "blue").id] == 0


def test_only_one_free_track_left_needs_no_route():
    g = play_game("usa", 4)
    set_hand(g, 0, blue=2)
    set_hand(g, 1, pink=2)
    g.apply(Claim("ann", "Kansas City", "Saint Louis", pay(blue=2), route="blue"))
    g.apply(Claim("bob", "Kansas City", "Saint Louis", pay(pink=2)))  # the pink one is the only free track
    assert g.state.owner[route("usa", "Kansas City", "Saint Louis", "pink").id] == 1


def test_amsterdam_gray_and_red_parallel_tracks():
    r_gray = route("amsterdam", "Westerdok", "Centraal Station", "gray")
    r_red = route("amsterdam", "Westerdok", "Centraal Station", "red")
    g = play_game("amsterdam", 3)
    set_hand(g, 0, red=3, black=3)
    # red cards could pay either track: still ambiguous without route
    fail(g, Claim("ann", "Westerdok", "Centraal Station", pay(red=3)), AmbiguousMoveError)
    g.apply(Claim("ann", "Westerdok", "Centraal Station", pay(black=3), route="gray"))
    assert g.state.owner[r_gray.id] == 0
    set_hand(g, 1, red=3)
    g.apply(Claim("bob", "Westerdok", "Centraal Station", pay(red=3)))
    assert g.state.owner[r_red.id] == 1


# ---------------------------------------------------------------- ferries


@pytest.mark.parametrize(
    ("map_name", "a", "b", "length", "hand", "plain", "paid", "left", "points"),
    [
        ("india", "Calcutta", "Chittagong", 2, {"red": 2, WILD: 2}, pay(red=2), loco(1, red=1), {"red": 1, WILD: 1}, 2),
        # San Francisco's ferry card is its wild
        (
            "san_francisco",
            "Alcatraz",
            "Treasure Island",
            4,
            {"red": 4, WILD: 1},
            pay(red=4),
            loco(1, red=3),
            {"red": 1},
            7,
        ),
    ],
)
def test_one_symbol_ferry_needs_one_locomotive(map_name, a, b, length, hand, plain, paid, left, points):
    r = route(map_name, a, b)
    assert (r.length, r.ferries) == (length, 1)
    g = play_game(map_name, 2)
    set_hand(g, 0, **hand)
    fail(g, Claim("ann", a, b, plain), IllegalMoveError)
    g.apply(Claim("ann", a, b, paid))
    assert g.state.players[0].hand == Counter(left)
    assert g.state.players[0].route_points == points


def test_india_ferry_all_locomotives():
    g = play_game("india", 2)
    set_hand(g, 0, locomotive=2)
    g.apply(Claim("ann", "Calcutta", "Chittagong", loco(2)))
    assert g.state.players[0].route_points == 2


def test_india_two_symbol_ferry():
    r = route("india", "Bombay", "Calicut")
    assert (r.length, r.ferries) == (6, 2)
    g = play_game("india", 2)
    set_hand(g, 0, blue=5, locomotive=3, red=1)
    fail(g, Claim("ann", "Bombay", "Calicut", loco(1, blue=5)), IllegalMoveError)
    fail(g, Claim("ann", "Bombay", "Calicut", loco(2, blue=3, red=1)), IllegalMoveError)
    g.apply(Claim("ann", "Bombay", "Calicut", loco(2, blue=4)))
    assert g.state.players[0].route_points == 15  # length 6 -> 15
    assert g.state.players[0].hand == Counter({"blue": 1, WILD: 1, "red": 1})


def test_india_length_8_ferry_scores_21():
    g = play_game("india", 2)
    set_hand(g, 0, green=6, locomotive=2)
    g.apply(Claim("ann", "Calcutta", "Madras", loco(2, green=6)))
    assert g.state.players[0].route_points == 21
    assert g.state.players[0].trains == 45 - 8


# ------------------------------------------------------------ Switzerland


def test_switzerland_locomotives_not_on_ordinary_routes():
    g = play_game("switzerland", 2)
    set_hand(g, 0, white=3, red=4, locomotive=4)
    fail(g, Claim("ann", "Olten", "Zürich", loco(1, white=2)), IllegalMoveError)  # white 3
    fail(g, Claim("ann", "Lausanne", "Neuchâtel", loco(1, red=3)), IllegalMoveError)  # gray 4
    fail(g, Claim("ann", "Lausanne", "Neuchâtel", loco(4)), IllegalMoveError)
    g.apply(Claim("ann", "Lausanne", "Neuchâtel", pay(red=4)))
    assert g.state.players[0].route_points == 7


def tunnel_game(deck, discard=(), hand=None, seed="tun"):
    g = play_game("switzerland", 2, seed=seed)
    g.state.piles.deck = list(deck)
    g.state.piles.discard = list(discard)
    if hand is not None:
        g.state.players[0].hand = Counter(hand)
    return g


def test_tunnel_surcharge_counts_revealed_colour_and_locomotives():
    r = route("switzerland", "Brig", "Wassen")
    assert (r.color, r.length, r.tunnel) == ("red", 4, True)
    g = tunnel_game(["red", WILD, "blue", "green", "white"], hand={"red": 6, WILD: 2, "blue": 1})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    s = g.state
    assert g.to_move().player == "ann" and g.to_move().must == "tunnel"
    assert s.tunnel.revealed == ["red", WILD, "blue"]
    assert s.tunnel.surcharge == 2  # red + locomotive; blue does not count
    assert s.piles.deck == ["green", "white"]
    assert r.id not in s.owner
    g.apply(TunnelPay("ann", loco(1, red=1)))
    ann = s.players[0]
    assert s.owner[r.id] == 0
    assert ann.hand == Counter({"red": 1, WILD: 1, "blue": 1})  # 6-4-1 red, 2-1 loco
    assert ann.trains == 36 and ann.route_points == 7
    # laid + surcharge discarded, then the revealed cards
    assert Counter(s.piles.discard[:6]) == Counter({"red": 5, WILD: 1})
    assert s.piles.discard[6:] == ["red", WILD, "blue"]
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


def test_tunnel_with_locomotives_mixed_in_uses_the_plain_colour():
    r = route("switzerland", "Martigny", "Sion")
    assert (r.color, r.length) == ("green", 2)
    g = tunnel_game(["green", WILD, "red"], hand={"green": 2, WILD: 2})
    g.apply(Claim("ann", "Martigny", "Sion", loco(1, green=1)))
    assert g.state.tunnel.surcharge == 2  # green + locomotive
    fail(g, TunnelPay("ann", pay(red=2)), IllegalMoveError)
    g.apply(TunnelPay("ann", loco(1, green=1)))
    assert g.state.owner[r.id] == 0
    assert g.state.players[0].hand == Counter()


def test_all_locomotive_tunnel_payment_counts_only_revealed_locomotives():
    g = tunnel_game(["green", WILD, WILD], hand={WILD: 4, "green": 2})
    g.apply(Claim("ann", "Martigny", "Sion", loco(2)))
    assert g.state.tunnel.surcharge == 2  # two locomotives; the green (route colour) does not count
    fail(g, TunnelPay("ann", pay(green=2)), IllegalMoveError)
    fail(g, TunnelPay("ann", loco(1, green=1)), IllegalMoveError)
    g.apply(TunnelPay("ann", loco(2)))
    assert g.state.players[0].hand == Counter({"green": 2})
    assert g.state.players[0].route_points == 2


def test_all_locomotive_payment_with_no_revealed_locomotive_is_claimed_at_once():
    g = tunnel_game(["green", "green", "red", "blue"], hand={WILD: 2})
    g.apply(Claim("ann", "Martigny", "Sion", loco(2)))
    assert g.state.owner[route("switzerland", "Martigny", "Sion").id] == 0
    assert g.to_move().player == "bob"
    assert g.state.piles.discard[-3:] == ["green", "green", "red"]
    assert g.state.piles.deck == ["blue"]


def test_all_locomotive_payment_allowed_on_a_coloured_tunnel():
    g = tunnel_game(["blue", "blue", "blue"], hand={WILD: 4})
    g.apply(Claim("ann", "Brig", "Wassen", loco(4)))  # red tunnel, paid with 4 locomotives
    assert g.state.players[0].route_points == 7


def test_gray_tunnel_colour_comes_from_the_payment():
    g = tunnel_game(["yellow", "red", WILD, "white"], hand={"yellow": 6})
    g.apply(Claim("ann", "Bellinzona", "Wassen", pay(yellow=4)))  # gray 4 tunnel, identical tracks
    assert g.state.tunnel.surcharge == 2  # yellow + locomotive; red does not count
    g.apply(TunnelPay("ann", pay(yellow=2)))
    assert g.state.players[0].hand == Counter()
    assert g.state.players[0].route_points == 7


def test_refusing_the_tunnel_returns_laid_cards_and_discards_revealed():
    g = tunnel_game(["red", "green", "white", "black"], hand={"red": 4, "blue": 1})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    assert g.state.tunnel.surcharge == 1
    # the laid cards are not usable for the surcharge: nothing red left besides them
    fail(g, TunnelPay("ann", pay(red=1)), IllegalMoveError)
    assert g.tunnel_options("ann") == []
    g.apply(TunnelPay("ann", None))
    s = g.state
    assert s.players[0].hand == Counter({"red": 4, "blue": 1})
    assert s.players[0].trains == 40 and s.players[0].route_points == 0
    assert route("switzerland", "Brig", "Wassen").id not in s.owner
    assert s.piles.discard == ["red", "green", "white"]
    assert s.piles.deck == ["black"]
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


def test_refusing_even_when_able_to_pay():
    g = tunnel_game(["red", "green", "white"], hand={"red": 6})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    g.apply(TunnelPay("ann", None))
    assert g.state.players[0].hand == Counter({"red": 6})
    assert g.to_move().player == "bob"


def test_tunnel_surcharge_zero_is_claimed_at_once():
    g = tunnel_game(["blue", "white", "pink", "green"], hand={"red": 4})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    s = g.state
    assert s.pending is None
    assert s.owner[route("switzerland", "Brig", "Wassen").id] == 0
    assert s.piles.discard == ["red"] * 4 + ["blue", "white", "pink"]
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


def test_tunnel_with_fewer_than_three_cards_to_reveal():
    g = tunnel_game(["red"], hand={"red": 5})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    assert g.state.tunnel.revealed == ["red"]
    assert g.state.tunnel.surcharge == 1
    g.apply(TunnelPay("ann", pay(red=1)))
    assert g.state.players[0].route_points == 7


def test_tunnel_with_nothing_to_reveal_has_surcharge_zero():
    g = tunnel_game([], hand={"red": 4})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    assert g.state.owner[route("switzerland", "Brig", "Wassen").id] == 0
    assert g.to_move().player == "bob"


def test_tunnel_reveal_reshuffles_without_the_laid_cards():
    discard = ["blue", "pink", "white", "yellow", "black", "orange"]
    g = tunnel_game(["green"], discard=discard, hand={"red": 4, WILD: 3}, seed="tr")
    expected = sorted(discard)
    random.Random("tr:reshuffle:1").shuffle(expected)
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    s = g.state
    revealed = ["green", *expected[:2]]
    assert s.piles.reshuffles == 1
    surcharge = sum(1 for c in revealed if c in ("red", WILD))  # red / locomotive: none in these cards
    assert surcharge == 0
    assert s.piles.deck == expected[2:]
    # claimed at once; the laid cards then the revealed ones went to the discard pile
    assert s.piles.discard == ["red"] * 4 + revealed


def test_tunnel_payment_must_be_exactly_the_surcharge():
    g = tunnel_game(["red", WILD, "white"], hand={"red": 8, WILD: 3, "blue": 2})
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    assert g.state.tunnel.surcharge == 2
    fail(g, TunnelPay("ann", pay(red=1)), IllegalMoveError)
    fail(g, TunnelPay("ann", pay(red=3)), IllegalMoveError)
    fail(g, TunnelPay("ann", pay(blue=2)), IllegalMoveError)
    fail(g, TunnelPay("ann", pay(red=1, blue=1)), IllegalMoveError)
    fail(g, TunnelPay("ann", pay(purple=2)))
    fail(g, DrawCard("ann", "deck"), IllegalMoveError)
    fail(g, Pass("ann"), IllegalMoveError)
    fail(g, TunnelPay("bob", None), NotYourTurnError)
    g.apply(TunnelPay("ann", loco(2)))
    assert g.state.players[0].hand == Counter({"red": 4, WILD: 1, "blue": 2})


def test_tunnel_move_without_a_tunnel_is_refused():
    g = play_game("switzerland", 2)
    fail(g, TunnelPay("ann", None), IllegalMoveError)
    g2 = play_game("usa", 2)
    fail(g2, TunnelPay("ann", pay(red=1)), IllegalMoveError)


# ----------------------------------------------------------- route points


@pytest.mark.parametrize(
    ("map_name", "lengths"),
    [
        ("usa", range(1, 9)),
        ("india", range(1, 9)),
        ("switzerland", range(1, 9)),
        ("amsterdam", range(1, 5)),
        ("san_francisco", range(1, 6)),
    ],
)
def test_route_points_table(map_name, lengths):
    assert load_board(map_name).rules.route_points == {n: POINTS[n] for n in lengths}


@pytest.mark.parametrize("map_name", ["usa", "india", "switzerland", "amsterdam", "san_francisco"])
def test_claiming_each_length_scores_the_table(map_name):
    board = load_board(map_name)
    probe = play_game(map_name, 2)
    stacked = set(probe.state.stacks)
    seen = {}
    for r in board.routes:
        if r.length in seen or (r.a in stacked and r.b in stacked):
            continue
        seen[r.length] = r
    assert seen  # every length present on the board
    for length, r in sorted(seen.items()):
        g = play_game(map_name, 2)
        g.state.piles.deck, g.state.piles.discard = [], []  # tunnels: nothing to reveal
        colour = board.rules.colors[0] if r.color == "gray" else r.color
        cards = {colour: r.length - r.ferries, WILD: r.ferries}
        g.state.players[0].hand = Counter({k: v for k, v in cards.items() if v})
        g.apply(Claim("ann", r.a, r.b, payment_of(cards), route=r.color))
        assert g.state.players[0].route_points == POINTS[length], (map_name, r.label())
        assert g.state.players[0].trains == board.rules.trains - length
