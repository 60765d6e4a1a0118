"""engine/review.py: a finished game reviewed turn by turn, the same every time, blind to what a seat cannot know."""

from __future__ import annotations

import random
import time
from functools import cache

from engine import Game
from engine.record import to_record
from engine.review import (
    ReviewSearch,
    assemble,
    assemble_record,
    plan_record,
    plan_review,
    review_game,
    review_record_turns,
    review_turn,
    review_turns,
    soft_win,
)
from engine.steady import choose_steady
from engine.strong import choose_strong
from maps import load_board
from tests.test_autopilot_expert import hidden_anew

# bounded by work alone: the same on a busy machine as on a quiet one
SMALL = ReviewSearch(seed="test", work=4000, min_worlds=2, max_worlds=2, time_limit=None)


@cache
def finished(map_name: str = "usa", seed: str = "review-1") -> Game:
    """A short finished game, played by steady (so that strong's suggestions often differ)."""
    game = Game(load_board(map_name), ["ann", "bob", "cid"], seed, trains=12)
    while not game.finished:
        who = game.waiting_for()[0]
        game.apply(choose_steady(game, who))
    return game


def test_the_turns_are_the_historys_and_strong_suggests_at_each() -> None:
    game = finished()
    plan = plan_review(game, SMALL)
    assert [s.number for s in plan.spots] == list(range(1, len(plan.spots) + 1))
    assert plan.spots[-1].end == len(game.moves)
    for spot in plan.spots:
        start = game.replay_until(spot.start)
        assert start.state.turn == spot.number - 1 and start.state.current == spot.seat
        assert spot.played == game.moves[spot.start]
        assert spot.suggested == choose_strong(start, game.names[spot.seat])
    assert any(s.played != s.suggested for s in plan.spots)
    assert plan.worlds == 2


def test_a_review_is_the_same_every_time_and_whole() -> None:
    game = finished()
    steps: list[tuple[int, int]] = []
    first = review_game(game, SMALL, progress=lambda i, n: steps.append((i, n)))
    again = review_game(game, SMALL)
    assert first == again
    n = len(first.turns)
    assert steps == [(i, n) for i in range(1, n + 1)]
    winners = set(game.winners())
    assert first.final == tuple((1 / len(winners)) if p in winners else 0.0 for p in game.names)
    assert first.scores == tuple(sc.total for sc in game.score())
    curve = first.chances()
    assert len(curve) == n + 1 and curve[0] == (1 / 3, 1 / 3, 1 / 3) and curve[-1] == first.final
    for point in curve:
        assert abs(sum(point) - 1) < 1e-9 and all(0 <= c <= 1 for c in point)
    for turn in first.turns:
        if turn.same:
            assert turn.loss == 0 and turn.played_value is None and turn.worlds == 0
        else:
            assert turn.worlds == 2 and turn.played_value is not None and turn.suggested_value is not None
            assert turn.loss == turn.suggested_value - turn.played_value
    keys = first.key_turns(0)
    assert len(keys) == 3 and list(keys) == sorted(keys)
    assert all(first.turns[k - 1].seat == 0 for k in keys)
    worst = max((t for t in first.turns if t.seat == 0), key=lambda t: t.loss)
    assert worst.loss <= 0 or worst.number in keys
    assert first.cut_short == 0


def test_a_review_in_batches_from_the_record_is_the_same_as_in_one_go() -> None:
    game = finished("switzerland", "review-2")
    doc = to_record(game)
    plan = plan_record(doc, SMALL)
    assert plan == plan_review(game, SMALL)
    turns = []
    for first in range(0, len(plan.spots), 5):
        turns += review_record_turns(doc, plan, first, min(len(plan.spots), first + 5), 0.0)
    assert assemble_record(doc, plan, turns) == review_game(game, SMALL)


def test_a_turns_suggestion_and_values_do_not_depend_on_what_its_seat_cannot_see() -> None:
    """The other hands, the tickets and the deck's order dealt anew: the same suggestion, the same values (the
    chances read the real position after the game's end, so they may differ)."""
    game = finished()
    plan = plan_review(game, SMALL)
    spots = [s for s in plan.spots if s.played != s.suggested][:4]
    assert spots
    rng = random.Random(5)
    for spot in spots:
        start = game.replay_until(spot.start)
        after = game.replay_until(spot.end)
        name = game.names[spot.seat]
        real = review_turn(start, after, spot, plan)
        for _ in range(2):
            other = hidden_anew(start, name, rng)
            assert choose_strong(other, name) == spot.suggested
            seen = review_turn(other, after, spot, plan)
            assert (seen.suggested, seen.played_value, seen.suggested_value, seen.worlds) == (
                real.suggested,
                real.played_value,
                real.suggested_value,
                real.worlds,
            )


def test_a_turn_behind_its_schedule_is_played_out_in_one_world() -> None:
    game = finished()
    plan = plan_review(game, ReviewSearch(seed="test", work=10**6, min_worlds=4, max_worlds=4, time_limit=None))
    spot = next(s for s in plan.spots if s.played != s.suggested)
    start, after = game.replay_until(spot.start), game.replay_until(spot.end)
    assert review_turn(start, after, spot, plan).worlds == 4
    late = review_turn(start, after, spot, plan, deadline=0.0)  # long past
    assert late.worlds == 1 and late.weighed and late.played_value is not None


def test_once_the_time_limit_is_spent_the_turns_left_are_not_weighed() -> None:
    game = finished()
    search = ReviewSearch(seed="test", work=10**6, min_worlds=2, max_worlds=2, time_limit=0.0)
    spent = review_game(game, search)
    assert len(spent.turns) == len(plan_review(game).spots) and spent.unweighed == len(spent.turns)
    for turn in spent.turns:
        assert not turn.weighed and turn.loss == 0 and turn.worlds == 0 and turn.played_value is None
        assert turn.chances == (1 / 3, 1 / 3, 1 / 3)  # carried on from the start
    assert [t.suggested for t in spent.turns] == [s.suggested for s in plan_review(game).spots]
    assert spent.cut_short == sum(1 for t in spent.turns if not t.same)
    # part of the way: the turns before keep their worth, the chances carry on from the last one weighed
    plan = plan_review(game, ReviewSearch(seed="test", work=4000, min_worlds=2, max_worlds=2, time_limit=3600.0))
    weighed = review_turns(game, plan, 0, 10)
    rest = review_turns(game, plan, 10, len(plan.spots), began=time.monotonic() - 7200)
    whole = assemble(game, plan, weighed + rest)
    assert whole.unweighed == len(rest) and all(t.weighed for t in whole.turns[:10])
    assert all(t.chances == weighed[-1].chances for t in whole.turns[10:])


def test_a_softened_win() -> None:
    assert soft_win([50, 50]) == (0.5, 0.5)
    big, small = soft_win([80, 50])
    assert big > 0.99 and abs(big + small - 1) < 1e-12
    assert soft_win([60, 50], scale=30)[0] < soft_win([60, 50])[0]
