"""Final scoring, hand-computed from the rules (docs/rules.md: final scoring,
the winner, the longest continuous path, India, Switzerland, Amsterdam, San
Francisco).

Each scenario gives players a hand-picked set of routes and tickets on the
real boards (state set directly) and checks `Game.score()` / `winners()`.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest
from helpers.rules_support import POINTS, dealt_game, finish_setup, route
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Claim
from engine.extras.mandala import two_disjoint_paths, two_route_pieces
from engine.moves import payment_of
from engine.scoring import Network
from maps import load_board


def play_game(map_name, n=2, seed="sc"):
    return finish_setup(dealt_game(map_name, n, seed), least=True)


def give(g, seat, routes=(), tickets=(), route_points=None):
    """Seat `seat` owns exactly `routes` (ids) and holds exactly `tickets` (ids)."""
    board = g.board
    p = g.state.players[seat]
    p.routes = list(routes)
    p.tickets = list(tickets)
    for rid in routes:
        g.state.owner[rid] = seat
    p.route_points = sum(POINTS[board.routes[r].length] for r in routes) if route_points is None else route_points
    return p


def scenario(map_name, n, routes, tickets=None, route_points=None):
    g = play_game(map_name, n)
    for seat in range(n):
        pts = None if route_points is None else route_points[seat]
        give(g, seat, routes[seat] if seat < len(routes) else (), (tickets or {}).get(seat, ()), pts)
    return g


def rid(map_name, a, b, colour=None):
    return route(map_name, a, b, colour).id


# ------------------------------------------------------------------ tickets


def test_completed_ticket_adds_and_failed_ticket_subtracts():
    # ann: Denver-Santa Fe (gray 2) + Santa Fe-El Paso (gray 2)
    routes = [rid("usa", "Denver", "Santa Fe"), rid("usa", "Santa Fe", "El Paso")]
    g = scenario("usa", 2, [routes], {0: [6, 11]})  # Denver-El Paso 4 (done), Kansas City-Houston 5 (failed)
    sc = g.score()[0]
    assert (sc.completed, sc.failed) == (1, 1)
    assert sc.ticket_points == 4 - 5
    assert sc.routes == 2 + 2
    assert sc.longest == 4
    assert sc.bonus["longest"] == 10  # bob has no route
    assert sc.total == 4 + (4 - 5) + 10


def test_ticket_needs_the_owners_own_routes():
    # bob owns the middle route: ann's Denver-El Paso is not connected by ann's routes
    g = scenario("usa", 2, [[rid("usa", "Denver", "Santa Fe")], [rid("usa", "Santa Fe", "El Paso")]], {0: [6]})
    sc = g.score()[0]
    assert (sc.completed, sc.failed, sc.ticket_points) == (0, 1, -4)


def test_ticket_completed_through_a_detour():
    # Denver-Phoenix (white 5), Phoenix-El Paso (gray 3): Denver-El Paso done by a longer path
    g = scenario("usa", 2, [[rid("usa", "Denver", "Phoenix"), rid("usa", "Phoenix", "El Paso")]], {0: [6]})
    assert g.score()[0].ticket_points == 4


# ------------------------------------------------- Switzerland country tickets

SW = "switzerland"
BERN_TO_FRANCE = [rid(SW, "Bern", "Neuchâtel"), rid(SW, "Neuchâtel", "La Chaux-de-Fonds"),
                  rid(SW, "La Chaux-de-Fonds", "France 3")]  # fmt: skip
BERN_TO_ITALIA = [rid(SW, "Bern", "Interlaken"), rid(SW, "Interlaken", "Brig"), rid(SW, "Brig", "Italia 5")]
BERN_TO_DEUTSCHLAND = [rid(SW, "Bern", "Solothurn"), rid(SW, "Solothurn", "Delémont"),
                       rid(SW, "Delémont", "Basel"), rid(SW, "Basel", "Deutschland 1")]  # fmt: skip
FRANCE_TO_ITALIA = [rid(SW, "France 1", "Martigny"), rid(SW, "Martigny", "Sion"), rid(SW, "Sion", "Brig"),
                    rid(SW, "Brig", "Italia 5")]  # fmt: skip
DAVOS = [rid(SW, "Davos", "Österreich 3"), rid(SW, "Davos", "Italia 1")]


def test_country_ticket_data():
    t = load_board(SW).tickets
    assert (t[8].origin, [(x.name, x.points) for x in t[8].targets]) == (
        "Bern",
        [("France", 5), ("Deutschland", 6), ("Österreich", 11), ("Italia", 8)],
    )
    assert (t[0].origin, [(x.name, x.points) for x in t[0].targets]) == (
        "France",
        [("Deutschland", 5), ("Österreich", 14), ("Italia", 11)],
    )
    assert (t[4].origin, [(x.name, x.points) for x in t[4].targets]) == (
        "Österreich",
        [("France", 14), ("Deutschland", 5), ("Italia", 6)],
    )


@pytest.mark.parametrize(
    ("routes", "ticket", "points", "done"),
    [
        (BERN_TO_FRANCE, 8, 5, True),  # Bern -> France: 5
        (BERN_TO_DEUTSCHLAND, 8, 6, True),  # Bern -> Deutschland: 6
        (BERN_TO_FRANCE + BERN_TO_ITALIA, 8, 8, True),  # France 5 and Italia 8: the highest, 8
        (BERN_TO_FRANCE + BERN_TO_ITALIA + BERN_TO_DEUTSCHLAND, 8, 8, True),  # max(5, 8, 6)
        ([], 8, -5, False),  # none: lose the lowest value, min(5, 6, 11, 8)
        (DAVOS, 8, -5, False),  # Österreich-Italia does not touch Bern
        (FRANCE_TO_ITALIA, 0, 11, True),  # France -> Italia: 11
        (DAVOS, 0, -5, False),  # France not connected: min(5, 14, 11)
        (DAVOS, 4, 6, True),  # Österreich -> Italia: 6
        (BERN_TO_DEUTSCHLAND, 9, -3, False),  # Chur ticket: min(12, 6, 3, 5)
    ],
)
def test_switzerland_country_tickets(routes, ticket, points, done):
    g = scenario(SW, 2, [routes], {0: [ticket]})
    sc = g.score()[0]
    assert sc.ticket_points == points
    assert (sc.completed, sc.failed) == ((1, 0) if done else (0, 1))


def test_country_to_country_reaching_two_countries_scores_the_higher():
    # France 1 .. Brig -> Italia 5 (11); Brig - Wassen - Chur - Davos - Österreich 3 (14)
    routes = [
        *FRANCE_TO_ITALIA,
        rid(SW, "Brig", "Wassen"),
        rid(SW, "Chur", "Wassen"),
        rid(SW, "Chur", "Davos"),
        rid(SW, "Davos", "Österreich 3"),
    ]
    g = scenario(SW, 2, [routes], {0: [0]})
    assert g.score()[0].ticket_points == 14


def test_joining_two_border_points_of_the_same_country_is_not_a_connection():
    # France 2 - Genève - Lausanne - Martigny - France 1: France to France only
    routes = [rid(SW, "Genève", "France 2"), rid(SW, "Genève", "Lausanne", "blue"), rid(SW, "Lausanne", "Martigny"),
              rid(SW, "Martigny", "France 1")]  # fmt: skip
    g = scenario(SW, 2, [routes], {0: [0]})
    assert g.score()[0].ticket_points == -5


# ------------------------------------------------------------ longest path

US = "usa"
LOOP = [rid(US, "El Paso", "Santa Fe"), rid(US, "Santa Fe", "Phoenix"), rid(US, "Phoenix", "El Paso")]  # 2+3+3


@pytest.mark.parametrize(
    ("routes", "longest"),
    [
        ([rid(US, "Denver", "Santa Fe"), rid(US, "Santa Fe", "El Paso"), rid(US, "El Paso", "Houston")], 10),  # 2+2+6
        # a star at Denver with arms 4, 5, 2: branches do not count -> 5 + 4
        ([rid(US, "Denver", "Helena"), rid(US, "Denver", "Phoenix"), rid(US, "Denver", "Santa Fe")], 9),
        # a loop (8) with a tail El Paso-Houston (6): round the loop then out -> 14
        ([*LOOP, rid(US, "El Paso", "Houston")], 14),
        # loop + two tails (Houston 6 at El Paso, Los Angeles 3 at Phoenix): four odd places;
        # best is Houston-El Paso-Santa Fe-Phoenix-El Paso (6+2+3+3) = 14 or ...-Phoenix-LA (6+2+3+3) = 14
        ([*LOOP, rid(US, "El Paso", "Houston"), rid(US, "Phoenix", "Los Angeles")], 14),
        # figure eight sharing El Paso: loop 8 + loop El Paso-Dallas-Houston (4+1+6 = 11) -> all 19
        ([*LOOP, rid(US, "El Paso", "Dallas"), rid(US, "Dallas", "Houston"), rid(US, "El Paso", "Houston")], 19),
        # theta: El Paso-Santa Fe direct (2), via Phoenix (3+3), via Oklahoma City (5+3): all 16
        ([*LOOP, rid(US, "El Paso", "Oklahoma City"), rid(US, "Oklahoma City", "Santa Fe")], 16),
        # two components: El Paso-Los Angeles + El Paso-Dallas (6+4) and Denver-Santa Fe (2)
        ([rid(US, "El Paso", "Los Angeles"), rid(US, "El Paso", "Dallas"), rid(US, "Denver", "Santa Fe")], 10),
        ([rid(US, "Seattle", "Portland", "gray")], 1),
        ([], 0),
    ],
)
def test_longest_continuous_path(routes, longest):
    g = scenario(US, 2, [routes])
    assert g.score()[0].longest == longest


def test_longest_bonus_goes_to_every_tied_holder():
    g = scenario(US, 3, [[rid(US, "El Paso", "Houston")], [rid(US, "El Paso", "Los Angeles")],
                         [rid(US, "Denver", "Santa Fe")]])  # fmt: skip
    longest = [sc.longest for sc in g.score()]
    bonus = [sc.bonus["longest"] for sc in g.score()]
    assert longest == [6, 6, 2]
    assert bonus == [10, 10, 0]


def test_longest_bonus_needs_routes():
    g = scenario(US, 2, [[], []])
    assert [sc.bonus["longest"] for sc in g.score()] == [0, 0]
    g = scenario(US, 2, [[], [rid(US, "Seattle", "Portland", "gray")]])
    assert [sc.bonus["longest"] for sc in g.score()] == [0, 10]


@pytest.mark.parametrize("map_name", ["india", "switzerland"])
def test_longest_bonus_on_india_and_switzerland(map_name):
    board = load_board(map_name)
    r = board.routes[0]
    g = scenario(map_name, 2, [[r.id]])
    assert [sc.bonus["longest"] for sc in g.score()] == [10, 0]


@pytest.mark.parametrize("map_name", ["amsterdam", "san_francisco"])
def test_no_longest_bonus_on_amsterdam_and_san_francisco(map_name):
    board = load_board(map_name)
    g = scenario(map_name, 2, [[board.routes[0].id]])
    assert [sc.bonus["longest"] for sc in g.score()] == [0, 0]


# ------------------------------------------------------------ India Mandala

IN = "india"
# Every route below lies on a cycle, so no route is a bridge:
CYCLE_A = [29, 27, 15, 17]  # Lahore-Bhatinda-Delhi-Ambala-Lahore
CYCLE_B = [88, 8, 7, 42]  # Karachi-Jodhpur-Ahmadabad-Bombay-Karachi
CYCLE_C = [37, 39, 95, 34, 0, 5]  # Katni-Bilaspur-Raipur-Khandwa-Bhopal-Agra-Katni
CYCLE_D = [69, 71, 59, 57, 99]  # Madras-Erode-Quilon-Calicut-Mangalore-Madras
CYCLE_E = [36, 49, 67, 92]  # Bilaspur-Calcutta-Dhubri-Patna-Katni (+37 Katni-Bilaspur from C)
CYCLE_F = [46, 102, 44]  # Bombay-Poona-Manmad-Bombay
NETWORK = CYCLE_A + CYCLE_B + CYCLE_C + CYCLE_D + CYCLE_E + CYCLE_F
# Lahore-Delhi 5, Karachi-Ahmadabad 6, Katni-Khandwa 5, Madras-Quilon 6, Bilaspur-Dhubri 5, Karachi-Poona 7
QUALIFYING = [41, 34, 37, 47, 14, 36]
VALUES = [5, 6, 5, 6, 5, 7]


def test_mandala_route_and_ticket_data():
    board = load_board(IN)
    pairs = [tuple(sorted((board.routes[r].a, board.routes[r].b))) for r in CYCLE_A]
    assert pairs == [("Bhatinda", "Lahore"), ("Bhatinda", "Delhi"), ("Ambala", "Delhi"), ("Ambala", "Lahore")]
    tickets = [(board.tickets[t].origin, board.tickets[t].targets[0].name, board.tickets[t].targets[0].points)
               for t in QUALIFYING]  # fmt: skip
    assert tickets == [
        ("Lahore", "Delhi", 5),
        ("Karachi", "Ahmadabad", 6),
        ("Katni", "Khandwa", 5),
        ("Madras", "Quilon", 6),
        ("Bilaspur", "Dhubri", 5),
        ("Karachi", "Poona", 7),
    ]
    assert len(set(NETWORK)) == len(NETWORK)
    assert board.rules.mandala_bonus == {1: 5, 2: 10, 3: 20, 4: 30, 5: 40}


@pytest.mark.parametrize(("k", "bonus"), [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30), (5, 40), (6, 40)])
def test_mandala_table(k, bonus):
    g = scenario(IN, 2, [NETWORK], {0: QUALIFYING[:k]})
    sc = g.score()[0]
    assert sc.completed == k
    assert sc.ticket_points == sum(VALUES[:k])
    assert sc.bonus["mandala"] == bonus
    assert sc.total == sc.routes + sc.ticket_points + bonus + sc.bonus["longest"]


def test_mandala_not_for_a_ticket_behind_a_bridge():
    # Karachi-Poona with cycle B and the single route Bombay-Poona: completed, one path only
    g = scenario(IN, 2, [[*CYCLE_B, 46]], {0: [36]})
    sc = g.score()[0]
    assert (sc.completed, sc.ticket_points, sc.bonus["mandala"]) == (1, 7, 0)


def test_mandala_paths_may_share_a_city():
    # Rohri-Agra 7: cycle Rohri-Bhatinda-Delhi-Ambala-Lahore-Jacobabad-Rohri and cycle
    # Delhi-Agra-Jaipur-Delhi meet only at Delhi: two route-disjoint paths through Delhi.
    cycle1 = [31, 27, 15, 17, 79, 83]
    cycle2 = [2, 3, 63]
    board = load_board(IN)
    assert (board.tickets[55].origin, board.tickets[55].targets[0].name) == ("Rohri", "Agra")
    g = scenario(IN, 2, [cycle1 + cycle2], {0: [55]})
    sc = g.score()[0]
    assert (sc.completed, sc.ticket_points, sc.bonus["mandala"]) == (1, 7, 5)
    # with a single Delhi-Agra route instead of the second cycle, Delhi-Agra is a bridge
    g = scenario(IN, 2, [[*cycle1, 2]], {0: [55]})
    sc = g.score()[0]
    assert (sc.completed, sc.ticket_points, sc.bonus["mandala"]) == (1, 7, 0)


@settings(max_examples=150, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=len(load_board(IN).routes) - 1), max_size=45))
def test_mandala_pieces_agree_with_networkx_bridges(ids: set[int]) -> None:
    """Two places share a piece of `two_route_pieces` exactly when networkx finds them joined once the
    network's bridges are taken out: the property the bonus reads, on random sets of India's routes."""
    routes = load_board(IN).routes
    network = Network(routes[r] for r in sorted(ids))
    g = network.graph()
    g.remove_edges_from(list(nx.bridges(g)))
    piece = two_route_pieces(network)
    places = sorted(g.nodes)
    assert sorted(piece) == places
    for a in places:
        for b in places:
            assert (piece[a] == piece[b]) == nx.has_path(g, a, b)
            assert two_disjoint_paths(network, a, b) == (network.connected(a, b) and nx.has_path(g, a, b))


def test_mandala_ignores_failed_tickets():
    g = scenario(IN, 2, [CYCLE_A], {0: [41, 34]})  # Lahore-Delhi done on a cycle; Karachi-Ahmadabad failed
    sc = g.score()[0]
    assert (sc.completed, sc.failed, sc.ticket_points, sc.bonus["mandala"]) == (1, 1, 5 - 6, 5)


def test_no_mandala_on_other_maps():
    g = scenario(US, 2, [LOOP], {0: [6]})
    assert g.score()[0].bonus["mandala"] == 0


# ----------------------------------------------------- Amsterdam merchandise


@pytest.mark.parametrize(
    ("counts", "bonus"),
    [
        ([3, 2, 1, 0], [8, 6, 4, 0]),
        ([3, 3, 2, 1], [8, 8, 4, 2]),  # two tied first both 8; next is third -> 4
        ([1, 2, 2, 3], [2, 6, 6, 8]),
        ([3, 1, 1, 0], [8, 6, 6, 0]),
        ([2, 2, 2, 2], [8, 8, 8, 8]),
        ([2, 2, 2, 1], [8, 8, 8, 2]),
        ([4, 0, 0, 0], [8, 0, 0, 0]),
        ([0, 0, 0, 0], [0, 0, 0, 0]),
        ([2, 1, 0], [8, 5, 0]),
        ([2, 2, 1], [8, 8, 2]),
        ([3, 1, 1], [8, 5, 5]),
        ([1, 1, 1], [8, 8, 8]),
        ([0, 1, 0], [0, 8, 0]),
        ([2, 1], [8, 4]),
        ([1, 1], [8, 8]),
        ([0, 3], [0, 8]),
        ([0, 0], [0, 0]),
    ],
)
def test_merchandise_ranking(counts, bonus):
    g = play_game("amsterdam", len(counts))
    for p, c in zip(g.state.players, counts, strict=True):
        p.merchandise = c
    assert [sc.bonus["merchandise"] for sc in g.score()] == bonus


def test_merchandise_card_for_each_cart_route_while_the_pile_lasts():
    board = load_board("amsterdam")
    assert board.rules.merchandise.cards == 16
    g = play_game("amsterdam", 2)
    assert g.state.merchandise_left == 16
    cart = board.routes[rid("amsterdam", "Vondelpark", "Jordaan")]  # blue 4, cart
    assert cart.cart and cart.length == 4
    g.state.merchandise_left = 1
    g.state.players[0].hand = Counter({"blue": 4})
    g.apply(Claim("ann", "Vondelpark", "Jordaan", payment_of({"blue": 4})))
    assert (g.state.players[0].merchandise, g.state.merchandise_left) == (1, 0)
    # the pile is empty: bob's cart route brings nothing
    g.state.players[1].hand = Counter({"green": 2})
    g.apply(Claim("bob", "Haarlemmerpoort", "Westerdok", payment_of({"green": 2})))  # green 2, cart
    assert (g.state.players[1].merchandise, g.state.merchandise_left) == (0, 0)


# ---------------------------------------------------- San Francisco tourists

SYMBOLS = ["alcatraz", "golden_gate_bridge", "embarcadero", "sunset", "potrero_hill", "lombard_street", "cable_car"]


@pytest.mark.parametrize(("n", "bonus"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 4), (5, 6), (6, 9), (7, 12)])
def test_tourist_bonus_table(n, bonus):
    g = play_game("san_francisco", 2)
    g.state.players[0].souvenirs = SYMBOLS[:n]
    sc = g.score()[0]
    assert sc.bonus["tourists"] == bonus
    assert sc.total == sc.routes + sc.ticket_points + bonus


# -------------------------------------------------------------- tie-breaks


def test_winner_has_most_points():
    g = scenario(US, 2, [[rid(US, "El Paso", "Houston")], [rid(US, "Denver", "Santa Fe")]])
    assert [sc.total for sc in g.score()] == [15 + 10, 2]
    assert g.winners() == ["ann"]


def test_points_tie_broken_by_completed_tickets_before_longest():
    # ann: 21 route points + Denver-El Paso 4 done = 25, longest 4
    # bob: El Paso-Los Angeles 15 + longest bonus 10 = 25, no ticket
    ann_routes = [rid(US, "Denver", "Santa Fe"), rid(US, "Santa Fe", "El Paso")]
    g = scenario(US, 2, [ann_routes, [rid(US, "El Paso", "Los Angeles")]], {0: [6]}, route_points=[21, 15])
    assert [sc.total for sc in g.score()] == [25, 25]
    assert [sc.completed for sc in g.score()] == [1, 0]
    assert g.winners() == ["ann"]


def test_points_and_tickets_tied_broken_by_longest_path_holder():
    # ann 15 + 10 = 25 (holder); bob 25 route points, longest 2
    g = scenario(US, 2, [[rid(US, "El Paso", "Houston")], [rid(US, "Denver", "Santa Fe")]], route_points=[15, 25])
    assert [sc.total for sc in g.score()] == [25, 25]
    assert g.winners() == ["ann"]


def test_all_tied_holders_share_the_victory():
    g = scenario(US, 2, [[rid(US, "El Paso", "Houston")], [rid(US, "El Paso", "Los Angeles")]])
    assert [sc.total for sc in g.score()] == [25, 25]
    assert g.winners() == ["ann", "bob"]


def test_tied_players_without_the_bonus_share_when_a_third_holds_it():
    # cid holds the longest (6) but scores 15+10 = 25; ann and bob tie on 30 without it
    g = scenario(US, 3, [[rid(US, "Denver", "Santa Fe")], [rid(US, "Seattle", "Portland", "gray")],
                         [rid(US, "El Paso", "Houston")]], route_points=[30, 30, 15])  # fmt: skip
    assert [sc.total for sc in g.score()] == [30, 30, 25]
    assert g.winners() == ["ann", "bob"]


def test_winners_listed_in_seat_order():
    g = scenario(US, 3, [[rid(US, "Seattle", "Portland", "gray")], [rid(US, "El Paso", "Houston")],
                         [rid(US, "El Paso", "Los Angeles")]], route_points=[25, 15, 15])  # fmt: skip
    # ann 25 (no bonus), bob 15+10, cid 15+10: all 25, 0 tickets each; bob and cid hold the bonus
    assert [sc.total for sc in g.score()] == [25, 25, 25]
    assert g.winners() == ["bob", "cid"]


@pytest.mark.parametrize("map_name", ["amsterdam", "san_francisco"])
def test_no_longest_tie_break_without_the_bonus(map_name):
    board = load_board(map_name)
    long = max(board.routes, key=lambda r: r.length)
    short = min(board.routes, key=lambda r: r.length)
    g = scenario(map_name, 2, [[long.id], [short.id]], route_points=[10, 10])
    scores = g.score()
    assert scores[0].longest > scores[1].longest
    assert [sc.total for sc in scores] == [10, 10]
    assert g.winners() == ["ann", "bob"]
