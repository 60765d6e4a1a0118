"""Games for the rules tests: named players, a known deck, and setup finished by hand.

Each test file passes its own seed, so its games deal the tickets its
hand-computed expectations were worked out for.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, Keep, PlaceStack
from engine.moves import Payment, payment_of
from maps import Route, load_board

WILD = "locomotive"
NAMES = ["ann", "bob", "cid", "dee", "eve"]

# docs/rules.md: route points by length 1,2,4,7,10,15 (7:18, 8:21); Amsterdam 1,2,4,7; San Francisco 1,2,4,7,10
POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}


def deck_with(map_name: str, top: Sequence[str]) -> list[str]:
    """The map's exact deck with `top` on top, the rest in canonical order."""
    rest = list(load_board(map_name).rules.deck())
    for card in top:
        rest.remove(card)
    return list(top) + rest


def dealt_game(
    map_name: str,
    n: int,
    seed: str,
    trains: int | None = None,
    cards: Sequence[str] | None = None,
    tickets: Sequence[int] | None = None,
) -> Game:
    """`n` players from NAMES on `map_name`; the card deck is `cards`, else the map's deck in canonical order."""
    board = load_board(map_name)
    deck = board.rules.deck() if cards is None else cards
    return Game(board, NAMES[:n], seed, trains=trains, cards=deck, tickets=tickets)


def keep_tickets(game: Game, least: bool = False) -> Game:
    """Every player keeps the tickets of the deal: all of them, or with `least` as few as allowed."""
    for p in game.state.players:
        offered = p.offered or []
        kept = offered[: game.keep_minimum(p.name)] if least else offered
        game.apply(Keep(p.name, tuple(game.ticket_ref(t) for t in kept)))
    return game


def place_stacks(game: Game) -> Game:
    """San Francisco's placement: each placing player puts the first unplaced symbol on Civic Center, then Japantown."""
    spots = iter(["Civic Center", "Japantown"])
    while (to_move := game.to_move()) is not None and to_move.must == "place":
        game.apply(PlaceStack(to_move.player, game.unplaced_symbols()[0], next(spots)))
    return game


def finish_setup(game: Game, least: bool = False) -> Game:
    """Keep the dealt tickets (see keep_tickets) and place the stacks: the first player is to take a turn."""
    place_stacks(keep_tickets(game, least))
    to_move = game.to_move()
    assert to_move is not None and to_move.must == "turn"
    return game


def pay(**cards: int) -> Payment:
    return payment_of(cards)


def route(map_name: str, a: str, b: str, colour: str | None = None) -> Route:
    """The first route between `a` and `b` (of `colour`, when named)."""
    routes = [r for r in load_board(map_name).routes_between(a, b) if colour is None or r.color == colour]
    assert routes
    return routes[0]
