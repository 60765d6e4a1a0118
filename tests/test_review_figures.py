"""engine/review_figures.py: Lichess's accuracy, the grades by chance lost, luck and choices, the autopilot's moves
left out; each checked against a computation of its own from the spots and the record."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.review import Chance, NotCounted, review_game
from engine.review_figures import all_figures, grade, move_accuracy, player_figures
from tests.test_review_engine import SMALL, finished


def test_lichess_accuracy_of_a_move() -> None:
    assert move_accuracy(0) == pytest.approx(99.9999, abs=1e-3)
    assert move_accuracy(10) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert move_accuracy(10) == pytest.approx(63.58, abs=0.01)
    assert move_accuracy(-5) == move_accuracy(0)  # a move better than the expert's is a perfect one
    assert move_accuracy(100) == 0.0  # clamped


@given(st.floats(0, 100), st.floats(0, 100))
def test_accuracy_falls_as_the_loss_grows(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert 0 <= move_accuracy(high) <= move_accuracy(low) <= 100


def test_grades_by_points_of_chance_lost() -> None:
    assert [grade(x) for x in (0, 4.9, 5, 9.9, 10, 19.9, 20, 60)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_the_figures_are_the_spots_own_and_leave_out_the_autopilots_moves() -> None:
    game = finished()
    plain = review_game(game, SMALL)
    # the record's marks: every move of bob's from the middle of the game on was the autopilot's
    middle = len(game.moves) // 2
    marks = {i: NotCounted.AUTOPILOT for i, m in enumerate(game.moves) if m.player == "bob" and i >= middle}
    review = replace(plain, not_counted=marks)
    for seat, name in enumerate(game.names):
        figures = player_figures(review, seat)
        # computed here from the spots' chances and the record's moves alone
        own = [
            s
            for s in review.spots
            if game.moves[s.index].player == name and s.index not in marks and s.weighed and s.worlds > 0
        ]
        decisions = [s for s in own if s.win_expert is not None and s.win_played is not None]
        losses = [0.0 if s.played == s.expert else max(0.0, 100 * (s.win_expert - s.win_played)) for s in decisions]  # type: ignore[operator]
        accuracies = [min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * x) - 3.1669)) for x in losses]
        assert figures.decisions == len(decisions)
        assert figures.accuracy == pytest.approx(sum(accuracies) / len(accuracies))
        assert figures.inaccuracies == sum(1 for x in losses if 5 <= x < 10)
        assert figures.mistakes == sum(1 for x in losses if 10 <= x < 20)
        assert figures.blunders == sum(1 for x in losses if x >= 20)
        gains = [0.0 if s.played == s.expert else 100 * (s.win_played - s.win_expert) for s in decisions]  # type: ignore[operator]
        assert figures.choices == pytest.approx(sum(gains))
        for kind in Chance:
            lucky = [100 * s.luck for s in own if s.chance is kind and s.luck is not None]
            assert figures.luck.get(kind, 0.0) == pytest.approx(sum(lucky))
            assert (kind in figures.luck) == bool(lucky)
        worst = sorted(losses, reverse=True)[:3]
        assert [100 * review.spots[i].loss for i in figures.costliest] == pytest.approx([x for x in worst if x > 0])
        assert all(review.spots[i].index not in marks for i in figures.costliest)
        turns = {s.number for s in review.spots if game.moves[s.index].player == name and s.index in marks}
        assert figures.not_counted == len(turns)
    bob = player_figures(review, 1)
    assert bob.not_counted > 3 and bob.decisions < player_figures(plain, 1).decisions
    assert player_figures(review, 0) == player_figures(plain, 0)  # ann's figures are hers alone
    assert len(all_figures(review)) == 3
