"""The expert autopilot: legal, finishes games, searches, and blind to what its seat cannot know."""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.expert as expert
import engine.expert_candidates as expert_candidates
from engine import Game, Keep
from engine.autopilot import LEVELS, Level, choose_move
from engine.expert import WIN_BONUS, Search, choose_expert, estimate, sample_world, seen_cards, ticket_leanings
from engine.random_play import random_move
from engine.state import Phase
from engine.strong import choose_strong
from maps import load_board
from tests.test_autopilot_strong import games, reshuffled

# Small and bounded by work only (never by the clock), so a decision is a function of what it is given;
# four worlds are enough for it to leave strong's move. Its worlds read the table (the default), whatever the
# number of players.
SMALL = Search(seed="test", worlds=4, work=10**6, time_limit=None, infer_players=5)
# The same with every unseen card and ticket dealt alike.
ALIKE = Search(seed="test", worlds=4, work=10**6, time_limit=None, infer=None)
# The same weighing a blocking claim too (see tests/test_autopilot_expert_block.py).
BLOCKING = Search(seed="test", worlds=4, work=10**6, time_limit=None, infer_players=5, block=0.5)
# The same weighing a scoring claim too (see tests/test_autopilot_expert_bonus.py).
SCORING = Search(seed="test", worlds=4, work=10**6, time_limit=None, bonus=0.5)
# The same with rollouts cut short and estimated.
SHORT = Search(seed="test", worlds=4, work=10**6, time_limit=None, horizon=12)
MAX_TURNS = 400


def hidden_anew(game: Game, name: str, rng: random.Random) -> Game:
    """`reshuffled`, and a new game seed and deal order too: they order the deck and every reshuffle, so the seat
    cannot know them."""
    other = reshuffled(game, name, rng)
    other.seed = f"other-{rng.random()}"
    other.state.piles.seed = str(other.seed)
    other.initial_cards = list(reversed(other.initial_cards))
    other.initial_tickets = list(reversed(other.initial_tickets))
    return other


def advanced(game: Game, rng: random.Random) -> Game:
    for _ in range(rng.randrange(200)):
        move = random_move(game, rng)
        if move is None:
            return game.replay_until(len(game.moves) - 1 - rng.randrange(min(len(game.moves), 20)))
        game.apply(move)
    return game


def test_levels() -> None:
    assert LEVELS == ("steady", "strong", "expert")
    assert Level("expert") is Level.EXPERT


@pytest.mark.parametrize("infer", [None, 16.0], ids=["dealt alike", "reading the table"])
@settings(max_examples=30, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32))
def test_a_world_is_built_from_what_the_seat_may_know(infer: float | None, game: Game, seed: int) -> None:
    rng = random.Random(seed)
    game = advanced(game, rng)
    for name in game.waiting_for():
        hidden = hidden_anew(game, name, rng)
        leanings = None
        if infer is not None:
            leanings = ticket_leanings(game, name)
            assert ticket_leanings(hidden, name) == leanings
        world = sample_world(game, name, random.Random("w"), "label", leanings, infer or 0.0)
        other = sample_world(hidden, name, random.Random("w"), "label", leanings, infer or 0.0)
        assert world.state == other.state
        assert (world.seed, world.initial_cards, world.initial_tickets) == (
            other.seed,
            other.initial_cards,
            other.initial_tickets,
        )
        seat = game.seat(name)
        assert world.state.players[seat] == game.state.players[seat]
        assert [p.cards for p in world.state.players] == [p.cards for p in game.state.players]
        assert [len(p.tickets) for p in world.state.players] == [len(p.tickets) for p in game.state.players]
        assert world.state.piles.face_up == game.state.piles.face_up
        assert world.state.owner == game.state.owner
        if infer is not None:  # the cards seen going into a hand are still there
            for i, seen in enumerate(seen_cards(game)):
                hand = world.state.players[i].hand
                assert i == seat or all(hand[card] >= n for card, n in seen.items())


def test_worlds_differ_from_the_game_and_from_each_other() -> None:
    """The test above would prove nothing if a world kept the hidden cards where they are."""
    game = Game(load_board("usa"), ["ann", "bob", "cy"], "worlds")
    rng = random.Random(2)
    decks = set()
    for i in range(10):
        world = sample_world(game, "ann", rng, f"w{i}")
        decks.add(tuple(world.state.piles.deck))
        assert world.state.piles.deck != game.state.piles.deck
        assert world.state.players[1].offered != game.state.players[1].offered or world.state.players[2].offered != (
            game.state.players[2].offered
        )
    assert len(decks) == 10


@pytest.mark.parametrize(
    "search", [SMALL, ALIKE, BLOCKING, SCORING], ids=["reading the table", "dealt alike", "blocking", "scoring"]
)
@settings(max_examples=6, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32))
def test_same_move_whatever_it_cannot_see(search: Search, game: Game, seed: int) -> None:
    rng = random.Random(seed)
    game = advanced(game, rng)
    for name in game.waiting_for()[:2]:
        move = choose_expert(game, name, search)
        game.copy().apply(move)  # legal
        for _ in range(2):
            assert choose_expert(hidden_anew(game, name, rng), name, search) == move


@settings(max_examples=6, deadline=None)
@given(games(), st.integers(0, 2**32))
def test_same_move_whatever_it_cannot_see_with_rollouts_cut_short(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    game = advanced(game, rng)
    for name in game.waiting_for()[:2]:
        move = choose_expert(game, name, SHORT)
        game.copy().apply(move)  # legal
        assert choose_expert(hidden_anew(game, name, rng), name, SHORT) == move


def test_the_estimate_of_a_finished_game_is_its_final_margin() -> None:
    """Over, the estimate is the seat's real margin over the best other player, and its share of a win."""
    for players, seed in ((2, "end-2"), (4, "end-4")):
        game = Game(load_board("usa"), [f"p{i}" for i in range(players)], seed, trains=12)
        while not game.finished:
            name = game.waiting_for()[0]
            game.apply(choose_strong(game, name))
        totals = [sc.total for sc in game.score()]
        winners = game.winners()
        for seat, name in enumerate(game.names):
            margin = totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
            bonus = WIN_BONUS / len(winners) if name in winners else 0.0
            assert estimate(game, seat) == margin + bonus


@settings(max_examples=20, deadline=None)
@given(games(), st.integers(0, 2**32))
def test_the_estimate_is_a_function_of_the_position(game: Game, seed: int) -> None:
    """The same position (a copy, asked twice) gives the same estimate; in a world sampled from a seat's
    view it is the same whatever that seat cannot see; the margins of a two-player game are opposite."""
    rng = random.Random(seed)
    game = advanced(game, rng)
    for seat in range(len(game.names)):
        value = estimate(game, seat)
        assert math.isfinite(value)
        assert estimate(game.copy(), seat) == value == estimate(game, seat)
    name = game.names[0]
    world = sample_world(game, name, random.Random("w"), "label")
    other = sample_world(hidden_anew(game, name, rng), name, random.Random("w"), "label")
    assert estimate(world, 0) == estimate(other, 0)
    if len(game.names) == 2 and not game.finished:
        # margin + WIN_BONUS * logistic(margin) for one seat, the same of minus the margin for the other
        assert estimate(game, 0) + estimate(game, 1) == pytest.approx(WIN_BONUS)


def test_it_searches() -> None:
    """Its moves are not simply strong's, and each is the same in a game with the hidden parts dealt anew."""
    game = Game(load_board("usa"), ["ann", "bob"], "searches", trains=15)
    rng = random.Random(5)
    differ = 0
    for _ in range(40):
        if game.finished:
            break
        name = game.waiting_for()[0]
        move = choose_expert(game, name, SMALL)
        if move != choose_strong(game, name):
            differ += 1
            assert choose_expert(hidden_anew(game, name, rng), name, SMALL) == move
        game.apply(move)
    assert differ >= 1


def test_a_different_search_seed_may_search_other_worlds() -> None:
    game = Game(load_board("usa"), ["ann", "bob"], "seeds")
    one = sample_world(game, "ann", random.Random("expert:a"), "a")
    two = sample_world(game, "ann", random.Random("expert:b"), "b")
    assert one.state.piles.deck != two.state.piles.deck


def test_keeps_a_legal_choice_of_tickets() -> None:
    game = Game(load_board("usa"), ["ann", "bob", "cy"], "keep")
    move = choose_move(game, "bob", Level.EXPERT, SMALL)
    assert isinstance(move, Keep)
    assert 2 <= len(move.tickets) <= 3
    game.apply(move)


@settings(max_examples=2, deadline=None)
@given(games(), st.integers(0, 3))
def test_expert_games_finish(game: Game, expert_seat: int) -> None:
    expert = game.names[expert_seat % len(game.names)]
    quick = Search(seed="quick", worlds=2, work=200, time_limit=None)
    while not game.finished:
        name = game.waiting_for()[0]
        level = Level.EXPERT if name == expert else Level.STRONG
        game.apply(choose_move(game, name, level, quick))  # raises if the move were illegal
        assert game.state.turn <= MAX_TURNS, "the autopilot stalled the game"
    assert game.winners()


def test_time_limit_falls_back_to_strong() -> None:
    """With no time to search even one world it plays strong's move."""
    game = Game(load_board("usa"), ["ann", "bob"], "hurry")
    for _ in range(6):
        name = game.waiting_for()[0]
        hurried = choose_expert(game, name, Search(seed="h", worlds=4, work=10**6, time_limit=0.0))
        assert hurried == choose_strong(game, name)
        game.apply(hurried)


def test_the_time_limit_counts_the_candidates_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Search.time_limit` bounds the whole decision: time spent finding candidates leaves less for the worlds."""
    game = Game(load_board("usa"), ["ann", "bob"], "hurry")
    while game.state.phase is not Phase.PLAY:
        game.apply(choose_strong(game, game.waiting_for()[0]))
    name = game.waiting_for()[0]
    real_claim, real_rollout = expert_candidates.scoring_claim, expert._rollout
    played: list[int] = []

    def slow_claim(*args: Any) -> Any:
        time.sleep(0.25)  # longer than the whole limit below
        return real_claim(*args)

    def counted(*args: Any) -> Any:
        played.append(1)
        return real_rollout(*args)

    monkeypatch.setattr(expert_candidates, "scoring_claim", slow_claim)  # where the search finds it
    monkeypatch.setattr(expert, "_rollout", counted)
    hurried = choose_expert(game, name, Search(seed="h", worlds=4, work=10**6, time_limit=0.2, bonus=1.0))
    assert hurried == choose_strong(game, name)
    assert not played  # the limit had passed before the worlds began: none was played


def test_with_three_or_more_players_it_leaves_strong_only_when_surer() -> None:
    """With three or more players a gain must clear `confidence_many` standard errors, not `confidence`: it
    leaves strong's move only where the looser search would too, and less often; two-player games keep
    `confidence`."""
    sure = Search(seed="c", worlds=4, work=10**6, time_limit=None, confidence=1.5, confidence_many=2.5)
    loose = replace(sure, confidence_many=None)
    assert sure.confidence_for(2) == loose.confidence_for(3) == 1.5 and sure.confidence_for(4) == 2.5
    game = Game(load_board("usa"), ["a", "b", "c"], "sure", trains=15)
    left = {"sure": 0, "loose": 0}
    while not game.finished:
        name = game.waiting_for()[0]
        strong = choose_strong(game, name)
        by_sure, by_loose = choose_expert(game, name, sure), choose_expert(game, name, loose)
        if by_sure != strong:
            assert by_loose != strong
        left["sure"] += by_sure != strong
        left["loose"] += by_loose != strong
        game.apply(strong)
    assert left["sure"] < left["loose"]
    two = Game(load_board("usa"), ["a", "b"], "sure", trains=15)
    for _ in range(12):
        name = two.waiting_for()[0]
        assert choose_expert(two, name, sure) == choose_expert(two, name, replace(sure, confidence_many=9.0))
        two.apply(choose_strong(two, name))
