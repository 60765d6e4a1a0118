"""The expert's inference: worlds dealt by what the table has seen, and still blind to what it has not (its worlds
and moves are tested blind in tests/test_autopilot_expert.py, reading the table and not)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.expert import Search, choose_expert, sample_world, seen_cards, ticket_leanings
from engine.moves import Claim, DrawCard
from engine.random_play import random_move
from engine.strong import choose_strong
from maps import load_board
from tests.test_autopilot_strong import games

INFER = 16.0


def strong_game(map_name: str, players: int, seed: str, turns: int) -> Game:
    game = Game(load_board(map_name), [f"p{i}" for i in range(players)], seed)
    while not game.finished and game.state.turn < turns:
        game.apply(choose_strong(game, game.waiting_for()[0]))
    return game


@settings(max_examples=30, deadline=None)
@given(games(), st.integers(0, 2**32), st.booleans())
def test_the_seen_cards_are_in_the_hands(game: Game, seed: int, strong_players: bool) -> None:
    """What the table saw go into a hand and not come out is there, whoever plays, tunnels given up included."""
    rng = random.Random(seed)
    for _ in range(rng.randrange(300)):
        if game.finished:
            break
        move = choose_strong(game, game.waiting_for()[0]) if strong_players else random_move(game, rng)
        if move is None:
            break
        game.apply(move)
        for seat, seen in enumerate(seen_cards(game)):
            hand = game.state.players[seat].hand
            assert all(hand[card] >= n for card, n in seen.items()), (seat, seen, hand)


def test_seen_cards_follow_the_face_up_draws_and_payments() -> None:
    """Before a player's first claim, the seen cards are all they took face up; after it, less what it paid."""
    checked = 0
    for seed in range(12):
        game = Game(load_board("usa"), ["p0", "p1"], f"seen-{seed}")
        taken: Counter[str] = Counter()
        while True:
            move = choose_strong(game, game.waiting_for()[0])
            if isinstance(move, Claim) and move.player == "p1":
                break
            game.apply(move)
            if isinstance(move, DrawCard) and move.player == "p1" and move.source != "deck":
                taken[move.source] += 1
        assert seen_cards(game)[1] == taken
        game.apply(move)
        paid = Counter(dict(move.pay))
        assert seen_cards(game)[1] == taken - paid
        checked += bool(taken & paid)
    assert checked, "the test needs a claim paid with cards taken face up"


def test_the_routes_point_to_the_tickets() -> None:
    """Dealt by inference, the other players' worlds hold their real tickets far more often than by chance."""
    found = {0.0: 0, INFER: 0}
    held = 0
    for map_name, index in (("usa", 0), ("usa", 1), ("switzerland", 0), ("amsterdam", 0)):
        game = strong_game(map_name, 2, f"infer-{index}", 40)
        leanings = ticket_leanings(game, "p0")
        real = set(game.state.players[1].tickets)
        held += 8 * len(real)
        for strength in found:
            rng = random.Random(f"{map_name}-{index}")
            for k in range(8):
                world = sample_world(game, "p0", rng, f"w{k}", leanings, strength)
                found[strength] += len(real & set(world.state.players[1].tickets))
    assert found[INFER] > 3 * found[0.0]
    assert found[INFER] > 0.3 * held


def test_it_reads_the_table_only_up_to_its_number_of_players() -> None:
    """In a three-player game a search that reads the table up to two players plays as one that never does,
    while one that reads it up to four plays otherwise somewhere."""
    fields: dict[str, Any] = {"seed": "t", "worlds": 4, "work": 10**6, "time_limit": None, "confidence_many": None}
    up_to_2 = Search(**fields, infer=INFER, infer_players=2)
    never = Search(**fields, infer=None)
    up_to_4 = Search(**fields, infer=INFER, infer_players=4)
    game = Game(load_board("usa"), ["a", "b", "c"], "ip", trains=15)
    differ = 0
    for _ in range(30):
        if game.finished:
            break
        name = game.waiting_for()[0]
        move = choose_expert(game, name, never)
        assert choose_expert(game, name, up_to_2) == move
        differ += choose_expert(game, name, up_to_4) != move
        game.apply(choose_strong(game, name))
    assert differ
