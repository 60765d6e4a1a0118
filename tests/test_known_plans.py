"""What a process knows of the games' planned turns (bot/service/known_plans.py) never hides a plan written through
it: whatever it is told, a seat that has a plan is either known to have one or not known (read from the store)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.service.known_plans import KnownPlans
from bot.store import ALL_PLANS

GAMES = st.integers(1, 4)
SEATS = st.integers(0, 3)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("set"), GAMES, SEATS),
        st.tuples(st.just("clear"), GAMES, SEATS),
        st.tuples(st.just("clear_all"), GAMES, SEATS),
        st.tuples(st.just("read"), GAMES, SEATS),
        st.tuples(st.just("forget"), GAMES, SEATS),
    ),
    max_size=40,
)


@given(st.sets(st.tuples(GAMES, SEATS)), OPS)
def test_a_plan_written_through_it_is_never_hidden(
    at_start: set[tuple[int, int]], ops: list[tuple[str, int, int]]
) -> None:
    store = set(at_start)  # (game, seat) with a plan, as the store holds them
    known = KnownPlans()
    known.start(g for g, _ in store)
    for op, game, seat in ops:
        if op == "set":  # PlanService.add: it reads the game's rows, writes, and tells
            store.add((game, seat))
            known.learn(game, (s for g, s in store if g == game))
        elif op == "clear":  # the member's move or the plan played
            store.discard((game, seat))
            known.gone(game, (seat,))
        elif op == "clear_all":  # an undo, a seat change, the end
            store = {(g, s) for g, s in store if g != game}
            known.gone(game, ALL_PLANS)
        elif op == "read":  # a turn begins and the store is read
            if known.seats(game) is None or seat in (known.seats(game) or ()):
                known.learn(game, (s for g, s in store if g == game))
        else:
            known.forget()
            known.start(g for g, _ in store)
        for g, s in store:
            seats = known.seats(g)
            assert seats is None or s in seats, (g, s, seats)


def test_a_game_without_plans_leaves_no_entry_behind() -> None:
    known = KnownPlans()
    known.start([7])
    for game in range(100):
        known.learn(game, ())
        known.gone(game, ALL_PLANS)
    assert known.seats(3) == frozenset() and known.seats(7) == frozenset()
    assert len(known._seats) == 1  # game 7 alone: it had plans at the start
