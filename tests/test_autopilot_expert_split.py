"""The expert's search split between processes: each part plays worlds of its own, the parts decide together,
and every part reads only what the seat may know."""

from __future__ import annotations

import json
import random
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DrawTickets, Game
from engine.autopilot import choose_split, share_in_snapshot
from engine.expert import Search, Share, choose_expert, choose_shared, search_share, searching
from engine.moves import DrawCard
from engine.snapshot import restore, snapshot_text
from engine.state import Pending
from engine.strong import choose_strong
from maps import load_board
from tests.test_autopilot_expert import SMALL, advanced, hidden_anew
from tests.test_autopilot_strong import games

# Eight worlds, four a part when split in two, bounded by work only (never by the clock).
EIGHT = Search(seed="split", worlds=8, work=10**6, time_limit=None, infer_players=5)


def turn_start(players: int, seed: str) -> Game:
    """A game at the start of a turn, some moves in, where the expert searches."""
    game = Game(load_board("usa"), [f"p{i}" for i in range(players)], seed, trains=20)
    while len(game.moves) < 12 or not searching(game, game.waiting_for()[0]) or game.state.pending is not None:
        name = game.waiting_for()[0]
        game.apply(choose_strong(game, name))
    return game


def test_parts_decide_together() -> None:
    """Three worlds a part are too few to leave strong's move (four are needed); two parts together are
    enough, and a part whose candidates lead with another move adds nothing."""
    strong, other = DrawCard("ann", "deck"), DrawTickets("ann")
    one = Share([strong, other], [[], [9.0, 10.0, 11.0]])
    two = Share([strong, other], [[], [10.0, 12.0, 9.0]])
    assert choose_shared([one], 2, SMALL) == strong
    assert choose_shared([one, two], 2, SMALL) == other
    stray = Share([other, strong], [[], [50.0] * 8])
    assert choose_shared([one, stray], 2, SMALL) == strong
    assert choose_shared([one, Share([strong, other], None)], 2, SMALL) == strong


def test_a_part_plays_its_share_of_the_worlds() -> None:
    game = turn_start(2, "share")
    name = game.waiting_for()[0]
    whole = search_share(game, name, EIGHT)
    first, second = (search_share(game, name, EIGHT, k, 2) for k in range(2))
    assert whole.gains is not None and first.gains is not None and second.gains is not None
    assert whole.candidates == first.candidates == second.candidates
    assert len(whole.candidates) > 1
    assert [len(g) for g in whole.gains[1:]] == [8] * (len(whole.candidates) - 1)
    assert [len(g) for g in first.gains[1:]] == [len(g) for g in second.gains[1:]] == [4] * (len(first.candidates) - 1)
    assert first.gains != second.gains  # worlds of their own
    assert choose_expert(game, name, EIGHT) == choose_shared([whole], 2, EIGHT)


def test_a_part_sent_as_a_snapshot_is_the_part_played_here() -> None:
    game = turn_start(4, "snapshot")
    name = game.waiting_for()[0]
    sent = share_in_snapshot(snapshot_text(game), list(game.moves), name, EIGHT, 1, 2, 0.0)
    assert sent == search_share(restore(json.loads(snapshot_text(game)), game.moves), name, EIGHT, 1, 2)
    assert sent == search_share(game, name, EIGHT, 1, 2)


@pytest.mark.parametrize("players", [2, 4])
def test_a_split_search_decides_from_every_part(players: int) -> None:
    game = turn_start(players, f"split-{players}")
    name = game.waiting_for()[0]
    parts = [search_share(game, name, EIGHT, k, 2) for k in range(2)]
    with ThreadPoolExecutor(1) as workers:
        assert choose_split(game, name, EIGHT, workers, 2) == choose_shared(parts, players, EIGHT)
        assert choose_split(game, name, EIGHT, workers, 1) == choose_expert(game, name, EIGHT)


def test_a_split_search_in_worker_processes() -> None:
    game = turn_start(2, "processes")
    name = game.waiting_for()[0]
    parts = [search_share(game, name, EIGHT, k, 3) for k in range(3)]
    with ProcessPoolExecutor(2) as workers:
        assert choose_split(game, name, EIGHT, workers, 3) == choose_shared(parts, 2, EIGHT)


def test_no_part_searches_where_the_expert_plays_strong() -> None:
    game = Game(load_board("usa"), ["ann", "bob"], "draw")
    while game.state.pending is not Pending.DRAW:
        game.apply(choose_strong(game, game.waiting_for()[0]))
    name = game.waiting_for()[0]
    assert not searching(game, name)
    with ThreadPoolExecutor(1) as workers:
        assert choose_split(game, name, EIGHT, workers, 2) == choose_strong(game, name)


@settings(max_examples=6, deadline=None)
@given(game=games(), seed=st.integers(0, 2**32), share=st.integers(0, 2))
def test_every_part_reads_only_what_the_seat_may_know(game: Game, seed: int, share: int) -> None:
    rng = random.Random(seed)
    game = advanced(game, rng)
    for name in game.waiting_for()[:2]:
        part = search_share(game, name, SMALL, share, 3)
        for _ in range(2):
            assert search_share(hidden_anew(game, name, rng), name, SMALL, share, 3) == part


def test_a_part_that_waited_past_the_deadline_plays_no_world() -> None:
    """A part whose process was busy until the decision's time was up adds nothing and ends at once."""
    game = turn_start(2, "late")
    name = game.waiting_for()[0]
    hurried = replace(EIGHT, time_limit=1.0)
    late = share_in_snapshot(snapshot_text(game), list(game.moves), name, hurried, 1, 2, time.monotonic() - 5.0)
    assert late.gains is None and len(late.candidates) > 1
    on_time = share_in_snapshot(snapshot_text(game), list(game.moves), name, hurried, 1, 2, time.monotonic())
    assert on_time.gains is not None and on_time.candidates == late.candidates
