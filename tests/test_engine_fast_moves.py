"""The fast move generator against the reference (the engine of main at baada59, bench/reference_engine/).

Both must list the same legal moves, in the same order, at every step of
random games on every map and player count, and random play must make the
same games move for move. Claims that the generator vouches for are carried
out unchecked only while nothing has changed since they were made.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.reference_engine.game import Game as ReferenceGame
from bench.reference_engine.random_play import play_random as reference_play_random
from engine import Claim, Game, GameError
from engine.claims import ClaimMoves, LatePayments, most_left, payment_counters
from engine.errors import AlreadyClaimed
from engine.moves import DrawCard, Move, move_to_json
from engine.random_play import play_random, random_move
from engine.snapshot import snapshot
from maps import MAP_NAMES, WILD, load_board

SETUPS = [
    (name, players)
    for name in MAP_NAMES
    for players in sorted({load_board(name).rules.min_players, load_board(name).rules.max_players})
]


def both(name: str, players: int, seed: int | str, trains: int | None = None) -> tuple[Game, ReferenceGame]:
    board = load_board(name)
    names = [f"p{i}" for i in range(players)]
    return Game(board, names, seed, trains=trains), ReferenceGame(board, names, seed, trains=trains)


def check_same_moves(game: Game, ref: ReferenceGame) -> None:
    """Every player's legal moves agree with the reference, and the grouped and lazy forms agree with the list."""
    for name in game.names:
        moves = game.legal_moves(name)
        assert moves == ref.legal_moves(name)
        grouped: dict[str, list[Move]] = {}
        for m in moves:
            grouped.setdefault(type(m).__name__, []).append(m)
        kinds = game.moves_by_kind(name)
        assert sorted(kinds) == sorted(grouped)
        for kind, seq in kinds.items():
            assert len(seq) == len(grouped[kind])
            assert [seq[i] for i in range(len(seq))] == grouped[kind]
            assert list(seq) == grouped[kind]
        claims = game.claim_moves(name)
        assert bool(claims) == any(isinstance(m, Claim) for m in moves)
        assert [(o.route.id, o.payments, o.souvenirs) for o in game.claim_options(name)] == [
            (o.route.id, o.payments, o.souvenirs) for o in ref.claim_options(name)
        ]
        assert game.has_action(name) == ref.has_action(name)


# a random game that has not ended by now never will (the players draw and pass): see play_random's own cap
MAX_STEPS = 1500


def play_both(game: Game, ref: ReferenceGame, rng: random.Random, every: int = 1) -> None:
    """Random play on `game`, the same moves on `ref` and on a twin of `game` that checks every move in full."""
    twin = game.initial()
    step = 0
    while True:
        if step % every == 0:
            check_same_moves(game, ref)
        move = random_move(game, rng)
        if move is None:
            assert ref.waiting_for() == []
            break
        if step == MAX_STEPS:
            return  # random players can stall a game (nobody claims, the decks run dry): compared this far
        game.apply(move)  # vouched for by the generator: carried out unchecked
        ref.apply(move)
        twin.apply(move)  # not made by the twin: checked
        step += 1
        if step % every == 0:
            assert snapshot(game) == snapshot(twin)
        assert game.state.owner == ref.state.owner
        assert [p.hand for p in game.state.players] == [p.hand for p in ref.state.players]
    assert game.state.phase.value == "over"
    assert [s.total for s in game.score()] == [s.total for s in ref.score()]


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_same_legal_moves_at_every_step(name: str, players: int) -> None:
    for seed in range(3):
        game, ref = both(name, players, seed)
        play_both(game, ref, random.Random(seed))


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_same_random_games_move_for_move(name: str, players: int) -> None:
    for seed in range(12):
        game, ref = both(name, players, seed)
        play_random(game, random.Random(seed))
        reference_play_random(ref, random.Random(seed))
        assert [move_to_json(m) for m in game.moves] == [move_to_json(m) for m in ref.moves]
        assert game.state.phase.value == "over"


@settings(max_examples=25)
@given(
    st.sampled_from(SETUPS),
    st.one_of(st.integers(0, 10**9), st.text(min_size=1, max_size=6)),
    st.integers(0, 2**32),
    st.one_of(st.none(), st.integers(5, 25)),
)
def test_same_games_for_any_seed(setup: tuple[str, int], seed: int | str, play_seed: int, trains: int | None) -> None:
    name, players = setup
    game, ref = both(name, players, seed, trains)
    play_both(game, ref, random.Random(play_seed), every=7)
    again, ref_again = both(name, players, seed, trains)
    play_random(again, random.Random(play_seed))
    reference_play_random(ref_again, random.Random(play_seed))
    assert again.moves == ref_again.moves


def turn_with_claims(game: Game, rng: random.Random) -> ClaimMoves:
    """Plays random moves until the player to move may claim; their claims."""
    for _ in range(2000):
        tm = game.to_move()
        assert tm is not None, "the game ended before anyone could claim"
        if tm.must == "turn":
            claims = game.claim_moves(tm.player)
            if claims:
                return claims
        move = random_move(game, rng)
        assert move is not None
        game.apply(move)
    raise AssertionError("no claim in 2000 moves")


def test_a_vouched_claim_is_checked_again_once_the_game_moved_on() -> None:
    game = Game(load_board("usa"), ["a", "b"], 7)
    rng = random.Random(7)
    claims = turn_with_claims(game, rng)
    first = claims[0]
    again = claims[0]  # the same claim, built again: only this object is vouched for now
    assert first == again and first is not again
    game.apply(again)
    # the route is taken: the older object must not slip through unchecked
    with pytest.raises(GameError):
        game.check(first)
    for _ in range(200):
        tm = game.to_move()
        assert tm is not None
        if tm.player == first.player and tm.must == "turn":
            break
        move = random_move(game, rng)
        assert move is not None
        game.apply(move)
    with pytest.raises(GameError) as caught:
        game.apply(first)
    refusal = caught.value.refusal
    assert isinstance(refusal, AlreadyClaimed) and {refusal.a, refusal.b} == {first.a, first.b}


def test_a_vouched_claim_is_not_trusted_by_a_copy_or_after_another_move() -> None:
    game = Game(load_board("usa"), ["a", "b", "c"], 11)
    claims = turn_with_claims(game, random.Random(11))
    claim = claims[len(claims) - 1]
    copy = game.copy()
    assert copy._vouched is None
    # another move of the same player first: the claim is out of turn now and refused as such
    draws = game.card_draws(claim.player)
    game.apply(DrawCard(claim.player, draws[0]))
    if game.state.pending is not None:
        with pytest.raises(GameError):
            game.apply(claim)
    # the copy checks it in full, and it is legal there
    events = copy.apply(claim)
    assert events[0].kind == "claim"
    assert copy.state.owner != game.state.owner


def test_claim_moves_index_like_a_list() -> None:
    game = Game(load_board("india"), ["a", "b", "c", "d"], 3)
    claims = turn_with_claims(game, random.Random(3))
    listed = list(claims)
    assert claims[-1] == listed[-1]
    assert claims[1:4] == listed[1:4]
    with pytest.raises(IndexError):
        claims[len(claims)]


def test_a_listed_claim_is_checked_again_once_the_game_moved_on() -> None:
    """`legal_moves` keeps each claim it builds and lists it again later: only its last list is trusted."""
    game = Game(load_board("usa"), ["a", "b"], 5)
    rng = random.Random(5)
    turn_with_claims(game, rng)
    name = game.waiting_for()[0]
    listed = game.legal_moves(name)
    claim = next(m for m in listed if isinstance(m, Claim))
    assert game.copy()._listed is None
    game.apply(claim)
    for _ in range(400):
        tm = game.to_move()
        assert tm is not None
        if tm.player == name and tm.must == "turn":
            break
        move = random_move(game, rng)
        assert move is not None
        game.apply(move)
    assert claim not in game.legal_moves(name)
    with pytest.raises(GameError) as caught:
        game.apply(claim)
    refusal = caught.value.refusal
    assert isinstance(refusal, AlreadyClaimed) and {refusal.a, refusal.b} == {claim.a, claim.b}


def test_listed_moves_are_built_again_alike() -> None:
    """Listed claims equal the moves as `claim_for` writes them; kept ones are the same objects, new lists alike."""
    game = Game(load_board("switzerland"), ["a", "b", "c"], 9)
    turn_with_claims(game, random.Random(9))
    name = game.waiting_for()[0]
    first = game.legal_moves(name)
    again = game.legal_moves(name)
    assert first == again
    assert all(m is n for m, n in zip(first, again, strict=True) if isinstance(m, (Claim, DrawCard)))
    claims = [m for m in first if isinstance(m, Claim)]
    assert claims == [
        game.claim_for(name, option.route, pay) for option in game.claim_options(name) for pay in option.payments
    ]
    for claim in claims:
        built = Claim(claim.player, claim.a, claim.b, claim.pay, claim.route, claim.souvenir)
        assert (hash(built), repr(built), list(vars(built).items())) == (
            hash(claim),
            repr(claim),
            list(vars(claim).items()),
        )


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_lazy_claim_options_read_as_the_listed_ones(name: str, players: int) -> None:
    """`claim_options(lazy=True)` lists each option's payments when read: the same options, the same payments."""
    game = Game(load_board(name), [f"p{i}" for i in range(players)], 4)
    rng = random.Random(4)
    compared = 0
    while (move := random_move(game, rng)) is not None:
        for player in game.waiting_for():
            lazy = game.claim_options(player, lazy=True)
            listed = game.claim_options(player)
            assert [(o.route, o.souvenirs) for o in lazy] == [(o.route, o.souvenirs) for o in listed]
            assert [list(o.payments) for o in lazy] == [o.payments for o in listed]
            compared += len(listed)
        game.apply(move)
    assert compared > 0


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(MAP_NAMES),
    counts=st.lists(st.integers(min_value=0, max_value=9), min_size=10, max_size=10),
)
def test_what_a_payment_leaves_is_read_without_listing_the_payments(name: str, counts: list[int]) -> None:
    """`most_left` read from the claim index gives what the listed payments leave, on every route of every map."""
    board = load_board(name)
    game = Game(board, ["p0", "p1"], 1)
    colours = [*board.rules.colors, WILD]
    hand = Counter({c: n for c, n in zip(colours, counts, strict=False) if n})
    for indexed in game._index.routes:
        payments = payment_counters(indexed, hand)
        assert indexed.most_left(hand) == most_left(payments, hand)
        late = LatePayments(indexed, hand)
        assert late.most_left() == most_left(payments, hand)  # before the payments are listed
        assert list(late) == payments
        assert late.most_left() == most_left(payments, hand)  # and after
