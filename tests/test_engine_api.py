"""check, can, claim_for and replay_until agree with apply (hypothesis, all five maps)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Claim,
    DrawCard,
    DrawTickets,
    Game,
    GameError,
    Keep,
    Move,
    Pass,
    Phase,
    PlaceStack,
    Refusal,
    TunnelPay,
)
from engine.errors import GameOver
from engine.moves import payment_of
from engine.random_play import play_random
from engine.snapshot import snapshot
from maps import GRAY, MAP_NAMES, WILD, load_board

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn) -> tuple[Game, random.Random]:
    """A game on any map after some random legal moves, and a random source to go on with."""
    name = draw(st.sampled_from(MAP_NAMES))
    board = load_board(name)
    n = draw(st.integers(board.rules.min_players, board.rules.max_players))
    trains = draw(st.one_of(st.none(), st.none(), st.integers(6, 25)))
    game = Game(board, [f"p{i}" for i in range(n)], draw(st.integers(0, 10**6)), trains=trains)
    rng = random.Random(draw(st.integers(0, 2**32)))
    return play_random(game, rng, draw(st.integers(0, 250))), rng


def candidate_moves(game: Game, rng: random.Random) -> list[Move]:
    """Legal moves of everyone who may act, and plausible moves that break a rule."""
    board = game.board
    moves: list[Move] = [Pass("nobody")]
    for name in game.waiting_for():
        legal = game.legal_moves(name)
        moves += rng.sample(legal, min(len(legal), 6))
    cards = [*board.rules.colors, WILD, "purple"]
    for name in {*game.waiting_for()[:1], rng.choice(game.names)}:
        hand = game.player(name).hand
        offered = game.player(name).offered or []
        moves += [
            DrawCard(name, "deck"),
            DrawCard(name, rng.choice(cards)),
            DrawTickets(name),
            Pass(name),
            Keep(name, ()),
            Keep(name, tuple(game.ticket_ref(t) for t in offered[:1])),
            TunnelPay(name, None),
            TunnelPay(name, payment_of({rng.choice(cards): rng.randrange(1, 4)})),
            PlaceStack(name, rng.choice(["cable car", "x"]), rng.choice(list(board.places))),
        ]
        for route in rng.sample(board.routes, 4):
            colour = route.color if route.color != GRAY else rng.choice(cards)
            held = max(cards, key=lambda c: (hand[c], c))
            souvenir = rng.choice([None, None, *route.ends])
            moves += [
                Claim(name, route.a, route.b, payment_of({colour: route.length})),
                Claim(
                    name, route.a, route.b, payment_of({WILD: route.length}), rng.choice([None, route.color, "pink"])
                ),
                Claim(name, route.a, route.b, payment_of({held: route.length - route.ferries, WILD: route.ferries})),
                Claim(name, route.a, route.b, payment_of({held: hand[held]}), None, souvenir),
            ]
    return moves


def outcome(run: Any, move: Move) -> tuple[str, Refusal | None]:
    try:
        run(move)
    except GameError as exc:
        return type(exc).__name__, exc.refusal
    return "ok", None


@SETTINGS
@given(positions())
def test_check_and_can_agree_with_apply_and_change_nothing(case: tuple[Game, random.Random]) -> None:
    game, rng = case
    for move in candidate_moves(game, rng):
        before = snapshot(game)
        checked = outcome(game.check, move)
        assert snapshot(game) == before  # check changed nothing
        assert game.can(move) is (checked[0] == "ok")
        assert snapshot(game) == before  # neither did can
        assert outcome(game.copy().apply, move) == checked


def test_check_raises_what_apply_raises_when_the_game_is_over() -> None:
    game = play_random(Game(load_board("usa"), ["ann", "bob"], 1, trains=3), random.Random(1))
    assert game.finished
    with pytest.raises(GameError) as checked:
        game.check(Pass("ann"))
    with pytest.raises(GameError) as applied:
        game.apply(Pass("ann"))
    assert checked.value.refusal == applied.value.refusal == GameOver()
    assert not game.can(DrawCard("bob", "deck"))


@SETTINGS
@given(positions())
def test_replay_until_is_the_game_after_that_many_moves(case: tuple[Game, random.Random]) -> None:
    game, rng = case
    played = Game(game.board, game.names, game.seed, game.trains_option, game.initial_cards, game.initial_tickets)
    snapshots = [snapshot(played)]
    for move in game.moves:
        played.apply(move)
        snapshots.append(snapshot(played))
    assert snapshot(game.initial()) == snapshots[0]
    for n in {0, len(game.moves), rng.randrange(len(game.moves) + 1)}:
        again = game.replay_until(n)
        assert snapshot(again) == snapshots[n]
        assert again.moves == game.moves[:n]
    assert snapshot(game) == snapshots[-1]  # the game itself is untouched


def test_replay_until_refuses_a_move_count_out_of_range() -> None:
    game = Game(load_board("india"), ["ann", "bob"], 3)
    game.apply(game.legal_moves("ann")[0])
    for n in (-1, 2):
        with pytest.raises(ValueError):
            game.replay_until(n)


@SETTINGS
@given(positions())
def test_claim_for_builds_the_listed_claims_and_they_apply(case: tuple[Game, random.Random]) -> None:
    game, rng = case
    tm = game.to_move()
    if tm is None or game.state.phase is not Phase.PLAY:
        return
    listed = [m for m in game.legal_moves(tm.player) if isinstance(m, Claim)]
    built = []
    for option in game.claim_options(tm.player):
        souvenirs = option.souvenirs if len(option.souvenirs) == 2 else (None,)
        for pay in option.payments:
            for souvenir in souvenirs:
                move = game.claim_for(tm.player, option.route, pay, souvenir)
                assert game.claim_for(tm.player, option.route.id, dict(pay), souvenir) == move
                built.append(move)
    assert built == listed
    for move in rng.sample(built, min(len(built), 5)):
        game.copy().apply(move)


def test_claim_for_names_the_colour_only_where_places_have_several_tracks() -> None:
    board = load_board("usa")
    game = Game(board, ["ann", "bob"], 0)
    for route in board.routes:
        move = game.claim_for("ann", route, {route.color: route.length})
        assert (move.a, move.b, move.pay) == (route.a, route.b, ((route.color, route.length),))
        assert move.route == (route.color if len(board.routes_between(route.a, route.b)) > 1 else None)
        assert move.souvenir is None
