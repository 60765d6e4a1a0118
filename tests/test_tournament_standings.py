"""Tournament standings (issue 14): bot/service/tournaments/standings.py.

Random tournaments are ranked by the module and by a second, simple
implementation here (place points by counting the better and the tied
players, ranks by counting the players strictly ahead); they must agree on
every figure of every row.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.tournaments import Finish, StandingRow, StandingsError, TableResult, place_points, standings

# --- the second implementation ----------------------------------------------------------------------------


def simple_points(finishes: list[Finish], player: int) -> Fraction:
    """Places better+1 .. better+tied are shared: the average of N-k over them is N - better - (tied + 1) / 2."""
    mine = next(f.place for f in finishes if f.player == player)
    better = sum(1 for f in finishes if f.place < mine)
    tied = sum(1 for f in finishes if f.place == mine)
    return Fraction(2 * len(finishes) - 2 * better - tied - 1, 2)


def simple_standings(games: list[TableResult], extra: list[int]) -> list[tuple[object, ...]]:
    everyone = sorted({f.player for g in games for f in g.finishes} | set(extra))
    points = {
        p: sum(
            (simple_points(list(g.finishes), p) for g in games if any(f.player == p for f in g.finishes)), Fraction()
        )
        for p in everyone
    }
    figures = {}
    for p in everyone:
        mine = [
            (g, next(f for f in g.finishes if f.player == p)) for g in games if any(f.player == p for f in g.finishes)
        ]
        met = [f.player for g, _ in mine for f in g.finishes if f.player != p]
        strength = Fraction(sum(points[o] for o in met), len(met)) if met else Fraction(0)
        figures[p] = (
            points[p],
            sum(f.score for _, f in mine),
            sum(f.tickets for _, f in mine),
            strength,
            len(mine),
            sum(1 for _, f in mine if f.place == 1),
        )
    rows = []
    for p in everyone:
        key = figures[p][:4]
        rank = 1 + sum(1 for q in everyone if figures[q][:4] > key)
        rows.append((rank, p, *figures[p]))
    return sorted(rows)


def as_tuple(row: StandingRow) -> tuple[object, ...]:
    return (
        row.rank,
        row.player,
        row.place_points,
        row.score,
        row.tickets,
        row.opponents_strength,
        row.games,
        row.wins,
    )


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[TableResult], list[int]]:
    players = draw(st.integers(2, 40))
    rounds = draw(st.integers(1, 9))
    rng = random.Random(draw(st.integers(0, 2**32)))
    ties = draw(st.sampled_from([0.0, 0.3, 1.0]))  # 1.0: everything ties, ranks shared
    narrow = draw(st.booleans())  # scores and tickets from few values, so the later tie-breakers matter
    games = []
    active = list(range(players))
    for _ in range(rounds):
        if len(active) > 2 and rng.random() < 0.2:
            active.remove(rng.choice(active))  # a drop
        rng.shuffle(active)
        start = 0
        while len(active) - start >= 2:
            size = min(rng.randint(2, 5), len(active) - start)
            if len(active) - start - size == 1:
                size += 1
            seats = active[start : start + size]
            start += size
            finishes = []
            place = 1
            for position, player in enumerate(seats, start=1):
                if position > 1 and rng.random() >= ties:
                    place = position if rng.random() < 0.8 else place + 1  # standard or dense ranking
                score = rng.randint(0, 3) if narrow else rng.randint(0, 200)
                tickets = rng.randint(0, 1) if narrow else rng.randint(0, 8)
                finishes.append(Finish(player, place, score if ties < 1 else 0, tickets if ties < 1 else 0))
            games.append(TableResult(finishes))
    return games, [players + 5, players + 6]  # registered players with no game


@given(tournaments())
def test_standings_equal_an_independent_computation(tournament: tuple[list[TableResult], list[int]]) -> None:
    games, extra = tournament
    rows = standings(games, extra)
    assert [as_tuple(row) for row in rows] == simple_standings(games, extra)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    for game in games:  # place points of a table always add up to 0 + 1 + ... + N-1
        n = len(game.finishes)
        assert sum(place_points(game.finishes).values()) == n * (n - 1) // 2


def test_place_points_examples() -> None:
    four = [Finish(1, 1, 100, 3), Finish(2, 1, 100, 3), Finish(3, 3, 80, 1), Finish(4, 4, 50, 0)]
    assert place_points(four) == {1: Fraction(5, 2), 2: Fraction(5, 2), 3: 1, 4: 0}
    three = [Finish(1, 1, 0, 0), Finish(2, 1, 0, 0), Finish(3, 1, 0, 0)]
    assert place_points(three) == {1: 1, 2: 1, 3: 1}
    plain = [Finish(7, 2, 0, 0), Finish(8, 1, 0, 0), Finish(9, 3, 0, 0)]
    assert place_points(plain) == {8: 2, 7: 1, 9: 0}


def test_tie_breakers_in_order_and_a_shared_rank() -> None:
    games = [
        # place points: 1 and 2 get 1.5 each; score breaks it for 1
        TableResult([Finish(1, 1, 120, 2), Finish(2, 1, 110, 5), Finish(3, 3, 90, 9)]),
        # 4 and 5: same points and score, tickets decide for 5
        TableResult([Finish(4, 1, 100, 1), Finish(5, 1, 100, 2), Finish(6, 3, 10, 0)]),
        # 7 and 8: equal on points, score and tickets; 8's opponent (9) is stronger than 7's (10)
        TableResult([Finish(7, 1, 50, 1), Finish(10, 2, 40, 0)]),
        TableResult([Finish(8, 1, 50, 1), Finish(9, 2, 40, 0)]),
        TableResult([Finish(9, 1, 30, 0), Finish(11, 2, 20, 0)]),
        # 12 and 13: equal on everything, the rank is shared
        TableResult([Finish(12, 1, 70, 1), Finish(13, 1, 70, 1)]),
    ]
    rows = {row.player: row for row in standings(games)}
    assert rows[1].rank < rows[2].rank
    assert rows[5].rank < rows[4].rank
    assert rows[8].rank < rows[7].rank
    assert rows[8].opponents_strength == 1 and rows[7].opponents_strength == 0
    assert rows[12].rank == rows[13].rank
    ordered = standings(games)
    after = ordered.index(rows[13]) + 1
    assert ordered[after].rank == rows[13].rank + 2  # the next rank skips the shared one


def test_bad_results_are_refused() -> None:
    with pytest.raises(StandingsError):
        standings([TableResult([Finish(1, 1, 0, 0), Finish(1, 2, 0, 0)])])
    with pytest.raises(StandingsError):
        standings([TableResult([Finish(1, 0, 0, 0), Finish(2, 1, 0, 0)])])
