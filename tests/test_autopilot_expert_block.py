"""The expert's blocking claim: the claim that most lengthens the paths of the tickets another player's network
points to, weighed by the search like its other candidates (its no-peek test is in
tests/test_autopilot_expert.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from engine import Game
from engine.expert import Search, blocking_claim, choose_expert, ticket_leanings
from engine.moves import Claim
from engine.strong import choose_strong
from maps import MAP_NAMES, Route, load_board
from tests.test_autopilot_expert import hidden_anew

BOARD = load_board("usa")
SEARCH = Search(seed="t", worlds=8, work=10**6, time_limit=None)


def route(a: str, b: str) -> Route:
    return next(r for r in BOARD.routes if set(r.ends) == {a, b})


def after_setup(seed: str) -> Game:
    """A two-player USA game at p0's first turn, p0 holding two red cards only."""
    game = Game(BOARD, ["p0", "p1"], seed)
    while game.state.phase.name != "PLAY":
        game.apply(choose_strong(game, game.waiting_for()[0]))
    assert game.state.current == 0
    game.state.players[0].hand = Counter(red=2)
    return game


def towards_santa_fe(game: Game) -> None:
    """p1 builds from Vancouver to Denver: a network that points to Vancouver - Santa Fe, one 2-train link away
    (the detours cost 7 trains or more)."""
    for a, b in [("Seattle", "Vancouver"), ("Helena", "Seattle"), ("Denver", "Helena")]:
        game._place_route(1, route(a, b), Counter(), None)


def test_the_block_cuts_the_link_the_network_points_to() -> None:
    game = after_setup("block")
    assert blocking_claim(game, "p0", ticket_leanings(game, "p0"), 1.0) is None  # no network yet: nothing to read
    towards_santa_fe(game)
    move = blocking_claim(game, "p0", ticket_leanings(game, "p0"), 1.0)
    assert isinstance(move, Claim) and {move.a, move.b} == {"Denver", "Santa Fe"}
    game.copy().apply(move)  # legal
    assert blocking_claim(game, "p0", ticket_leanings(game, "p0"), 50.0) is None  # not worth 50 trains to anyone


def test_the_search_plays_the_block_only_when_it_weighs_it() -> None:
    game = after_setup("block")
    towards_santa_fe(game)
    blocked = choose_expert(game, "p0", replace(SEARCH, block=1.0))
    assert isinstance(blocked, Claim) and {blocked.a, blocked.b} == {"Denver", "Santa Fe"}
    plain = choose_expert(game, "p0", replace(SEARCH, block=None))
    assert plain != blocked


def seat_turns(seed: str, every: int = 1) -> Iterator[tuple[str, Game]]:
    """On every map, in a two- and a three-player game of strong, p0's turn starts (every `every`th turn) before
    turn 90: (map, the game then); the game goes on with strong's move once the caller is done with it."""
    for map_name in MAP_NAMES:
        board = load_board(map_name)
        for players in (2, 3):
            game = Game(board, [f"p{i}" for i in range(players)], f"{seed}-{map_name}-{players}")
            while not game.finished and game.state.turn < 90:
                s = game.state
                if s.phase.name == "PLAY" and s.pending is None and s.current == 0 and s.turn % every == 0:
                    yield map_name, game
                game.apply(choose_strong(game, game.waiting_for()[0]))


def test_the_block_is_read_from_what_the_seat_may_know() -> None:
    """On every map, at the seat's turns of strong games, the blocking claim is the same with everything the seat
    cannot see dealt anew; Switzerland's tunnels among them (a tunnel's revealed cards are the deck's)."""
    rng = random.Random("blind")
    found: Counter[str] = Counter()
    tunnels = 0
    for map_name, game in seat_turns("blind"):
        move = blocking_claim(game, "p0", ticket_leanings(game, "p0"), 0.5)
        other = hidden_anew(game, "p0", rng)
        assert blocking_claim(other, "p0", ticket_leanings(other, "p0"), 0.5) == move
        if isinstance(move, Claim):
            found[map_name] += 1
            tunnels += any(r.tunnel and set(r.ends) == {move.a, move.b} for r in game.board.routes)
    assert set(found) == set(MAP_NAMES), found
    assert tunnels
