"""The strong autopilot: legal, finishes games, and blind to what its seat cannot know."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Claim, DrawCard, DrawTickets, Game, Keep, Phase
from engine.autopilot import LEVELS, Level, choose_move
from engine.random_play import random_move
from engine.state import Pending
from engine.strong import Seat
from maps import GRAY, MAP_NAMES, WILD, load_board

MAX_TURNS = 400


@st.composite
def games(draw: st.DrawFn) -> Game:
    name = draw(st.sampled_from(MAP_NAMES))
    board = load_board(name)
    n = draw(st.integers(board.rules.min_players, board.rules.max_players))
    trains = draw(st.one_of(st.none(), st.integers(3, board.rules.trains)))
    return Game(board, [f"p{i}" for i in range(n)], draw(st.integers(0, 10**9)), trains=trains)


def strong(game: Game, name: str) -> object:
    return choose_move(game, name, Level.STRONG)


def reshuffled(game: Game, name: str, rng: random.Random) -> Game:
    """The same position with everything `name` cannot see dealt anew.

    The cards in the deck and in the other hands are shuffled together and
    dealt back (each hand keeps its size); the tickets in the deck, set aside,
    held or offered by the others are shuffled and dealt back the same way.
    """
    other = game.copy()
    s = other.state
    seat = other.seat(name)
    others = [p for i, p in enumerate(s.players) if i != seat]
    cards = list(s.piles.deck)
    for p in others:
        cards += list(p.hand.elements())
    rng.shuffle(cards)
    for p in others:
        size = p.cards
        p.hand = Counter(cards[:size])
        del cards[:size]
    s.piles.deck = cards
    tickets = list(s.ticket_deck) + list(s.removed_tickets)
    for p in others:
        tickets += p.tickets + (p.offered or [])
    rng.shuffle(tickets)
    for p in others:
        n = len(p.tickets)
        p.tickets = tickets[:n]
        del tickets[:n]
        if p.offered is not None:
            n = len(p.offered)
            p.offered = tickets[:n]
            del tickets[:n]
    n = len(s.ticket_deck)
    s.ticket_deck = tickets[:n]
    s.removed_tickets = tickets[n:]
    return other


def test_levels() -> None:
    assert LEVELS == ("steady", "strong", "expert")
    assert Level("strong") is Level.STRONG


@settings(max_examples=100, deadline=None)
@given(games(), st.integers(0, 2**32))
def test_same_move_whatever_it_cannot_see(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(rng.randrange(300)):  # hypothesis would mostly try the first moves
        move = random_move(game, rng)
        if move is None:
            game = game.replay_until(len(game.moves) - 1 - rng.randrange(min(len(game.moves), 20)))
            break
        game.apply(move)
    for name in game.waiting_for():
        move = strong(game, name)
        game.copy().apply(move)  # legal
        for _ in range(3):
            other = reshuffled(game, name, rng)
            assert other.state.players[game.seat(name)] == game.state.players[game.seat(name)]
            assert strong(other, name) == move


def test_reshuffling_changes_what_it_cannot_see() -> None:
    """The test above would prove nothing if the reshuffle left the hidden information alone."""
    game = Game(load_board("usa"), ["ann", "bob", "cy"], "hidden")
    rng = random.Random(1)
    changed = 0
    for _ in range(10):
        other = reshuffled(game, "ann", rng)
        s, t = game.state, other.state
        changed += s.piles.deck != t.piles.deck and s.players[1].offered != t.players[1].offered
        assert [p.cards for p in s.players] == [p.cards for p in t.players]
        assert len(s.piles.deck) == len(t.piles.deck)
    assert changed >= 9


@settings(max_examples=25, deadline=None)
@given(games(), st.integers(0, 3))
def test_strong_games_finish(game: Game, strong_seat: int) -> None:
    strong_name = game.names[strong_seat % len(game.names)]
    while not game.finished:
        name = game.waiting_for()[0]
        level = Level.STRONG if name == strong_name else Level.STEADY
        game.apply(choose_move(game, name, level))  # raises if the move were illegal
        assert game.state.turn <= MAX_TURNS, "the autopilot stalled the game"
    assert game.winners()


@settings(max_examples=10, deadline=None)
@given(games())
def test_strong_only_games_finish(game: Game) -> None:
    while not game.finished:
        game.apply(strong(game, game.waiting_for()[0]))  # type: ignore[arg-type]
        assert game.state.turn <= MAX_TURNS, "the autopilot stalled the game"
    assert game.winners()


def test_steady_is_the_default() -> None:
    board = load_board("usa")
    game = Game(board, ["ann", "bob"], "steady")
    rng = random.Random(3)
    for _ in range(120):
        name = game.waiting_for()[0]
        assert choose_move(game, name) == choose_move(game, name, "steady") == choose_move(game, name, Level.STEADY)
        game.apply(random_move(game, rng))  # type: ignore[arg-type]


def _in_play(map_name: str, names: list[str], seed: str) -> Game:
    game = Game(load_board(map_name), names, seed)
    while game.state.phase is not Phase.PLAY:
        game.apply(choose_move(game, game.waiting_for()[0]))
    return game


def test_last_turn_claims_the_most_points() -> None:
    game = _in_play("usa", ["ann", "bob"], "last")
    s = game.state
    me = s.players[s.current]
    me.hand = Counter(dict.fromkeys(game.rules.colors, 6))
    s.final_turns = 2
    move = strong(game, me.name)
    assert isinstance(move, Claim)
    route = next(r for r in game.board.routes_between(move.a, move.b))
    assert route.length == 6  # the longest route scores most
    assert not isinstance(move, DrawTickets)


def test_last_turn_finishes_a_ticket_rather_than_a_longer_route() -> None:
    import networkx as nx

    game = _in_play("usa", ["ann", "bob"], "finish")
    s = game.state
    seat = s.current
    me = s.players[seat]
    board = game.board
    ticket = next(t for t in board.tickets if t.best >= 8)
    graph: nx.Graph = nx.Graph()
    for r in board.routes:
        graph.add_edge(r.a, r.b, id=r.id, weight=r.length)
    places = nx.shortest_path(graph, ticket.origin, ticket.targets[0].name, weight="weight")
    path = [board.routes[graph.edges[u, v]["id"]] for u, v in itertools.pairwise(places)]
    missing = min(path[1:-1] or path, key=lambda r: r.length)
    assert missing.length < 6
    for r in path:
        s.owner.pop(r.id, None)
        for q in board.parallel(r):
            s.owner.pop(q.id, None)
        if r is not missing:
            s.owner[r.id] = seat
    me.routes = [r.id for r in path if r is not missing]
    me.tickets = [ticket.id]
    colour = missing.color if missing.color != GRAY else game.rules.colors[0]
    six = next(r for r in board.routes if r.length == 6 and r.color not in (colour, GRAY) and r.id not in s.owner)
    me.hand = Counter({colour: missing.length, six.color: 6})
    s.final_turns = 2
    move = strong(game, me.name)
    assert isinstance(move, Claim)
    assert {move.a, move.b} == {missing.a, missing.b}  # 2 x the ticket's points beat a six-train route's 15


def test_no_tickets_late() -> None:
    game = _in_play("usa", ["ann", "bob"], "late")
    s = game.state
    seat = s.current
    s.players[1 - seat].trains = 4  # the game is about to end
    s.players[seat].tickets = []
    move = strong(game, s.players[seat].name)
    assert not isinstance(move, DrawTickets)


def test_draws_the_colour_its_plan_needs() -> None:
    game = _in_play("usa", ["ann", "bob"], "colour")
    s = game.state
    seat = s.current
    me = Seat(game, s.players[seat].name)
    from engine.strong import goal

    plan = goal(me)
    need, _ = me.colour_needs(plan.routes)
    wanted = {c for c, n in need.items() if n > me.hand[c]}
    face_up = [c for c in s.piles.face_up if c is not None and c != WILD]
    move = strong(game, me.name)
    if isinstance(move, DrawCard) and move.source != "deck":
        assert move.source in wanted
    elif isinstance(move, DrawCard):
        assert not wanted & set(face_up)


def test_keeps_at_least_the_minimum() -> None:
    for name in MAP_NAMES:
        board = load_board(name)
        game = Game(board, ["ann", "bob"], f"keep-{name}")
        move = strong(game, "ann")
        assert isinstance(move, Keep)
        assert board.rules.initial_keep <= len(move.tickets) <= board.rules.initial_deal
        game.apply(move)
        assert game.state.pending is not Pending.KEEP
