"""engine/review.py: a finished game reviewed against the expert, the same every time, blind to what a seat cannot
know but for the luck of what it really drew."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace
from functools import cache

from engine import Game
from engine.expert import own_tuning
from engine.keep_book import book_keep
from engine.moves import Claim, DrawCard, Keep
from engine.record import to_record
from engine.review import (
    Chance,
    ReviewSearch,
    assemble,
    assemble_record,
    plan_record,
    plan_review,
    review_game,
    review_record_spots,
    review_spots,
    soft_win,
    weigh_spot,
)
from engine.review_worlds import alike, forced
from engine.state import Pending, Phase
from engine.steady import choose_steady
from engine.strong import choose_strong
from maps import load_board
from tests.test_autopilot_expert import hidden_anew

# bounded by work alone: the same on a busy machine as on a quiet one
SMALL = ReviewSearch(seed="test", work=0, min_worlds=2, max_worlds=2, time_limit=None)


@cache
def finished(map_name: str = "usa", seed: str = "review-1") -> Game:
    """A short finished game, played by steady (so that the expert's moves often differ)."""
    game = Game(load_board(map_name), ["ann", "bob", "cid"], seed, trains=12)
    while not game.finished:
        who = game.waiting_for()[0]
        game.apply(choose_steady(game, who))
    return game


def test_the_spots_are_the_decisions_and_the_draws_with_the_experts_candidates() -> None:
    game = finished()
    plan = plan_review(game, SMALL)
    starts = [s for s in plan.spots if s.turn_end is not None]
    assert [s.number for s in starts] == list(range(1, len(starts) + 1))
    assert starts[-1].turn_end == len(game.moves)
    kinds: Counter[Chance | None] = Counter()
    for spot in plan.spots:
        before = game.replay_until(spot.index)
        s = before.state
        name = game.names[spot.seat]
        assert spot.played == game.moves[spot.index] and before.seat(spot.played.player) == spot.seat
        begins = s.phase is Phase.PLAY and s.pending is None
        assert (spot.turn_end is not None) == begins
        assert spot.decision == (begins or s.phase is Phase.SETUP_KEEP or s.pending is Pending.KEEP)
        if spot.decision:
            first = book_keep(before, name) or choose_strong(before, name, own_tuning(before))
            assert spot.candidates[0] == first and len(set(spot.candidates)) == len(spot.candidates)
        after = game.replay_until(spot.index + 1)
        if spot.chance in (Chance.DECK, Chance.FACE_UP):  # the cards it took from the top of the deck
            assert spot.cards and list(s.piles.deck[: len(spot.cards)]) == list(spot.cards)
            assert len(after.state.piles.deck) == len(s.piles.deck) - len(spot.cards)
        if spot.chance is Chance.TICKETS:
            assert list(s.ticket_deck[: len(spot.tickets)]) == list(spot.tickets)
        if spot.chance is Chance.DEAL:
            assert s.phase is Phase.SETUP_KEEP
        kinds[spot.chance] += 1
    assert kinds[Chance.DEAL] == 3 and kinds[Chance.DECK] > 5 and kinds[None] > 5
    assert any(isinstance(s.played, DrawCard) and s.played.source == "deck" and not s.decision for s in plan.spots)
    assert plan.worlds == 2


def test_a_review_is_the_same_every_time_and_whole() -> None:
    game = finished()
    steps: list[tuple[int, int]] = []
    first = review_game(game, SMALL, progress=lambda i, n: steps.append((i, n)))
    again = review_game(game, SMALL)
    assert first == again
    n = len(first.turn_spots())
    assert steps == [(i, n) for i in range(1, n + 1)]
    winners = set(game.winners())
    assert first.final == tuple((1 / len(winners)) if p in winners else 0.0 for p in game.names)
    assert first.scores == tuple(sc.total for sc in game.score())
    curve = first.chances()
    assert len(curve) == n + 1 and curve[0] == (1 / 3, 1 / 3, 1 / 3) and curve[-1] == first.final
    for point in curve:
        assert abs(sum(point) - 1) < 1e-9 and all(0 <= c <= 1 for c in point)
    plan = plan_review(game, SMALL)
    for spot, review in zip(plan.spots, first.spots, strict=True):
        assert review.worlds == 2 and review.index == spot.index and review.played == spot.played
        assert review.win_played is not None and 0 <= review.win_played <= 1
        if spot.decision:
            assert review.win_expert is not None and 0 <= review.win_expert <= 1
            assert review.expert in spot.candidates or review.expert == spot.played
            if review.same:
                assert review.loss == 0 and review.gain == 0
            else:
                assert review.loss == max(0.0, review.win_expert - review.win_played)
        else:
            assert review.win_expert is None and review.expert == spot.played
        assert (review.luck is None) == (spot.chance is None)
    assert any(not r.same for r in first.spots if r.decision) and first.cut_short == 0


def test_a_review_in_batches_from_the_record_is_the_same_as_in_one_go() -> None:
    game = finished("switzerland", "review-2")
    doc = to_record(game)
    plan = plan_record(doc, SMALL)
    assert plan == plan_review(game, SMALL)
    spots = []
    for first in range(0, len(plan.spots), 7):
        spots += review_record_spots(doc, plan, first, min(len(plan.spots), first + 7), 0.0)
    assert assemble_record(doc, plan, spots, {}) == review_game(game, SMALL)


def test_a_spots_values_do_not_depend_on_what_its_seat_cannot_see() -> None:
    """The other hands, the tickets and the deck's order dealt anew: the same expert's move, the same chances and
    the same luck (what was really drawn is forced on top of each world alike)."""
    game = finished()
    plan = plan_review(game, SMALL)
    spots = [s for s in plan.spots if s.decision and s.chance is not None][:2]
    spots += [s for s in plan.spots if s.decision and len(s.candidates) > 2][:2]
    assert len(spots) == 4
    rng = random.Random(5)
    for spot in spots:
        start = game.replay_until(spot.index)
        name = game.names[spot.seat]
        real = weigh_spot(start, spot, plan)
        other = weigh_spot(hidden_anew(start, name, rng), spot, plan)
        assert other == real


def test_a_spot_behind_its_schedule_is_played_out_in_one_world() -> None:
    game = finished()
    plan = plan_review(game, ReviewSearch(seed="test", work=0, min_worlds=3, max_worlds=3, time_limit=None))
    spot = next(s for s in plan.spots if s.decision and s.chance is not None)
    start = game.replay_until(spot.index)
    assert weigh_spot(start, spot, plan).worlds == 3
    late = weigh_spot(start, spot, plan, deadline=0.0)  # long past
    assert late.worlds == 1 and late.weighed and late.win_played is not None and late.luck is not None


def test_once_the_time_limit_is_spent_the_spots_left_are_not_weighed() -> None:
    game = finished()
    search = ReviewSearch(seed="test", work=0, min_worlds=2, max_worlds=2, time_limit=0.0)
    spent = review_game(game, search)
    plan = plan_review(game, search)
    assert len(spent.spots) == len(plan.spots) and spent.unweighed == len(spent.spots)
    for spot, review in zip(plan.spots, spent.spots, strict=True):
        assert not review.weighed and review.loss == 0 and review.worlds == 0 and review.win_played is None
        assert review.luck is None and review.expert in (*spot.candidates, spot.played)
        assert review.chances in (None, (1 / 3, 1 / 3, 1 / 3))  # carried on from the start
    # part of the way: the spots before keep their worth, the chances carry on from the last turn weighed
    plan = plan_review(game, replace(SMALL, time_limit=3600.0))
    weighed = review_spots(game, plan, 0, 12)
    rest = review_spots(game, plan, 12, len(plan.spots), began=time.monotonic() - 7200)
    whole = assemble(game, plan, weighed + rest)
    assert whole.unweighed == len(rest) and all(t.weighed for t in whole.spots[:12])
    last = [t.chances for t in weighed if t.chances is not None][-1]
    assert all(t.chances == last for t in whole.spots[12:] if t.chances is not None)


def test_what_was_really_drawn_is_forced_on_top_of_a_world_with_the_same_cards() -> None:
    game = finished()
    plan = plan_review(game, SMALL)
    from engine.expert import sample_world

    for spot in [s for s in plan.spots if s.chance in (Chance.DECK, Chance.TICKETS)][:12]:
        start = game.replay_until(spot.index)
        name = game.names[spot.seat]
        world = sample_world(start, name, random.Random(spot.index), "w")
        out = forced(world, spot)
        assert out is not None
        s, w = out.state, world.state
        assert s.piles.deck[: len(spot.cards)] == list(spot.cards)
        assert s.ticket_deck[: len(spot.tickets)] == list(spot.tickets)
        every = Counter(s.piles.deck) + sum((p.hand for p in s.players), Counter())
        assert every == Counter(w.piles.deck) + sum((p.hand for p in w.players), Counter())
        assert s.players[spot.seat].hand == w.players[spot.seat].hand  # the mover's own hand untouched
        assert [p.cards for p in s.players] == [p.cards for p in w.players]
        tickets = sorted(s.ticket_deck + s.removed_tickets + [t for p in s.players for t in p.tickets])
        assert tickets == sorted(w.ticket_deck + w.removed_tickets + [t for p in w.players for t in p.tickets])


def test_moves_shown_alike_are_the_same_move() -> None:
    game = finished()
    claim = next(m for m in game.moves if isinstance(m, Claim))
    assert alike(claim, replace(claim, pay=Counter({"locomotive": 9})))  # type: ignore[arg-type]
    assert not alike(claim, replace(claim, b=claim.a + "x"))
    keep = next(m for m in game.moves if isinstance(m, Keep) and len(m.tickets) > 1)
    assert alike(keep, replace(keep, tickets=tuple(reversed(keep.tickets))))
    assert not alike(keep, replace(keep, tickets=keep.tickets[:1]))


def test_a_softened_win() -> None:
    assert soft_win([50, 50]) == (0.5, 0.5)
    big, small = soft_win([80, 50])
    assert big > 0.99 and abs(big + small - 1) < 1e-12
    assert soft_win([60, 50], scale=30)[0] < soft_win([60, 50])[0]


def test_a_difference_is_shrunk_by_its_own_noise() -> None:
    from engine.review_worlds import shrunk

    assert shrunk([]) == 0 and shrunk([0.4]) == 0  # one world says nothing
    assert shrunk([0.25, 0.25, 0.25]) == 0.25  # no noise: all of it
    steady = shrunk([0.19, 0.21, 0.2, 0.2])
    assert 0.199 < steady <= 0.2
    assert shrunk([0.5, -0.5, 0.45, -0.4]) == 0  # within its noise: nothing
    wide = [0.3, -0.1, 0.25, 0.05]
    assert 0 < shrunk(wide) < sum(wide) / 4
    assert shrunk([-x for x in wide]) == -shrunk(wide)
