"""Each map's extra rule applies to exactly its maps, and its hooks do their part."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import networkx as nx
import pytest

from engine import Game, GameError, InvalidMoveError, MapNames, Phase
from engine.autopilot import choose_move
from engine.errors import FerryNeeds, PlayerCount, SouvenirsOnlySF, TrainsNotANumber, TrainsOutOfRange
from engine.extras.country_tickets import CountryTickets
from engine.extras.ferries import Ferries
from engine.extras.mandala import Mandala
from engine.extras.merchandise import Merchandise, ranked_bonus
from engine.extras.registry import EXTRAS, Extras
from engine.extras.tourists import Tourists
from engine.extras.tunnels import Tunnels
from engine.moves import TicketRef
from engine.options import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION, check_player_count, check_trains_option
from maps import GRAY, MAP_NAMES, WILD, load_board

MAPS_OF = {
    Merchandise: {"amsterdam"},
    Tourists: {"san_francisco"},
    Mandala: {"india"},
    CountryTickets: {"switzerland"},
    Tunnels: {"switzerland"},
    Ferries: {"india", "san_francisco"},
}


def test_the_registry_holds_every_extra_rule() -> None:
    assert set(EXTRAS) == set(MAPS_OF)


@pytest.mark.parametrize("extra", list(MAPS_OF), ids=lambda e: e.__name__)
def test_each_extra_applies_to_exactly_its_maps(extra: type) -> None:
    assert {name for name in MAP_NAMES if extra.applies(load_board(name))} == MAPS_OF[extra]


@pytest.mark.parametrize("name", MAP_NAMES)
def test_a_game_uses_the_extras_of_its_board(name: str) -> None:
    board = load_board(name)
    game = Game(board, ["ann", "bob"], 1)
    assert {type(e) for e in game.extras.active} == {e for e, maps in MAPS_OF.items() if name in maps}
    assert [type(e) for e in Extras(board).active] == [e for e in EXTRAS if name in MAPS_OF[e]]


def _play(game: Game) -> None:
    while game.state.phase is not Phase.PLAY:
        game.apply(choose_move(game, game.waiting_for()[0]))


def test_merchandise_setup_and_a_cart_route_gives_a_card() -> None:
    board = load_board("amsterdam")
    game = Game(board, ["ann", "bob"], 5)
    assert board.rules.merchandise is not None
    assert game.state.merchandise_left == board.rules.merchandise.cards
    _play(game)
    route = next(r for r in board.routes if r.cart and r.color != "gray")
    seat = game.state.current
    name = game.names[seat]
    game.state.players[seat].hand = Counter({route.color: route.length})
    events = game.apply(game.claim_for(name, route, {route.color: route.length}))
    claim = next(e for e in events if e.kind == "claim")
    assert claim.public["merchandise"] == 1
    assert game.state.players[seat].merchandise == 1
    assert ranked_bonus([3, 1, 3, 0], [10, 5, 2]) == [10, 2, 10, 0]


def test_tourists_setup_places_the_fixed_stacks_and_souvenirs_are_refused_elsewhere() -> None:
    sf = load_board("san_francisco")
    game = Game(sf, ["ann", "bob", "cid"], 2)
    assert sf.rules.tourists is not None
    assert {(home, st.symbol) for home, st in game.state.stacks.items()} == {
        (home, symbol) for symbol, home in sf.rules.tourists.fixed
    }
    assert game.placement_order() == [2, 1]
    usa = Game(load_board("usa"), ["ann", "bob"], 2)
    assert usa.placement_order() == [] and usa.unplaced_symbols() == [] and not usa.state.stacks
    _play(usa)
    route = usa.board.routes[0]
    usa.state.players[usa.state.current].hand = Counter({WILD: route.length})
    claim = usa.claim_for(usa.names[usa.state.current], route, {WILD: route.length})
    usa.check(claim)
    with pytest.raises(InvalidMoveError) as caught:
        usa.check(dataclasses.replace(claim, souvenir=route.a))
    assert caught.value.refusal == SouvenirsOnlySF()


def test_mandala_bonus_only_scores_on_india() -> None:
    for name in MAP_NAMES:
        board = load_board(name)
        game = Game(board, ["ann", "bob"], 0)
        ticket = next(t for t in board.tickets if not t.is_country_ticket)
        graph: nx.Graph = nx.Graph()
        for route in board.routes:
            graph.add_edge(route.a, route.b, id=route.id)
        paths = list(nx.edge_disjoint_paths(graph, ticket.origin, ticket.targets[0].name))[:2]
        assert len(paths) == 2
        # ann's one ticket is done by two paths that share no route
        ann = game.state.players[0]
        ann.tickets = [ticket.id]
        ann.routes = [graph.edges[a, b]["id"] for path in paths for a, b in itertools.pairwise(path)]
        assert (game.score()[0].bonus["mandala"] > 0) is (name == "india")


def test_country_tickets_are_named_by_their_countries() -> None:
    board = load_board("switzerland")
    game = Game(board, ["ann", "bob"], 0)
    country = next(t for t in board.tickets if t.is_country_ticket)
    city = next(t for t in board.tickets if not t.is_country_ticket)
    assert game.ticket_ref(country.id) == TicketRef(country.origin, tuple(t.name for t in country.targets), True)
    assert game.ticket_ref(city.id) == TicketRef(city.origin, (city.targets[0].name,))


def test_ferries_need_their_wilds() -> None:
    board = load_board("india")
    game = Game(board, ["ann", "bob"], 0)
    _play(game)
    ferry = next(r for r in board.routes if r.ferries)
    colour = ferry.color if ferry.color != GRAY else board.rules.colors[0]
    seat = game.state.current
    game.state.players[seat].hand = Counter({colour: ferry.length, WILD: ferry.ferries})
    name = game.names[seat]
    with pytest.raises(GameError) as caught:
        game.check(game.claim_for(name, ferry, {colour: ferry.length}))
    assert caught.value.refusal == FerryNeeds(ferry.ferries, MapNames.of(board.rules))
    game.check(game.claim_for(name, ferry, {colour: ferry.length - ferry.ferries, WILD: ferry.ferries}))


def test_options_are_checked_in_one_place() -> None:
    rules = load_board("switzerland").rules
    check_player_count(rules, 3)
    with pytest.raises(GameError) as caught:
        check_player_count(rules, 4)
    assert caught.value.refusal == PlayerCount(2, 3, 4, MapNames.of(rules))
    assert rules.title == "Switzerland"
    check_trains_option(MIN_TRAINS_OPTION)
    check_trains_option(MAX_TRAINS_OPTION)
    for bad in (MIN_TRAINS_OPTION - 1, MAX_TRAINS_OPTION + 1, "10", True, None, 10.0):
        with pytest.raises(GameError) as refused:
            check_trains_option(bad)
        if isinstance(bad, int) and not isinstance(bad, bool):
            assert refused.value.refusal == TrainsOutOfRange(MIN_TRAINS_OPTION, MAX_TRAINS_OPTION, bad)
        else:
            assert refused.value.refusal == TrainsNotANumber(repr(bad))
