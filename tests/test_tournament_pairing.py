"""Swiss pairing of tournament rounds (issue 14): bot/service/tournaments/pairing.py.

Whole tournaments are played with hypothesis (3 to 200 players, 1 to 9
rounds, random results, drops and substitutes) and every round is checked
against what the issue asks, each property worked out again here: every
active player at exactly one table; sizes balanced, within the map's range,
as few tables as the table size allows; no repeated pair while a pairing
without it exists (an exhaustive search here for fields of at most 9 players;
for larger fields, no single swap of two players would lower the repeats);
first seats to the players who sat first least often.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.tournaments import (
    History,
    Pairing,
    PairingError,
    PairingProblem,
    pair_round,
    table_sizes,
)
from maps import load_board

MAPS = ["usa", "india", "switzerland", "amsterdam", "san_francisco"]

# the five maps' player ranges, and two more: a minimum of 3 (some fields cannot be split at all) and 2-2
MAP_RANGES = sorted({(b.rules.min_players, b.rules.max_players) for b in map(load_board, MAPS)} | {(3, 4), (2, 2)})


# --- independent oracles ----------------------------------------------------------------------------------


def expected_sizes(players: int, table_size: int, low: int, high: int) -> list[int] | None:
    """Balanced splits within [low, high]: the fewest tables of at most table_size, else the most tables there are."""
    valid = []
    for count in range(1, players + 1):
        sizes = [players // count + (1 if i < players % count else 0) for i in range(count)]
        if low <= min(sizes) and max(sizes) <= high:
            valid.append(sizes)
    within = [sizes for sizes in valid if max(sizes) <= table_size]
    if within:
        return min(within, key=len)
    return max(valid, key=len) if valid else None


def repeats_of(tables: Sequence[Sequence[int]], history: History) -> int:
    count = 0
    for seats in tables:
        for a, b in itertools.combinations(seats, 2):
            if history.met.get((min(a, b), max(a, b)), 0) > 0:
                count += 1
    return count


def partitions(players: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of `players` into unlabelled groups of `sizes`."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in mates]
            for others in partitions(remaining, left):
                yield [(first, *mates), *others]


def least_repeats(players: list[int], sizes: list[int], history: History) -> int:
    return min(repeats_of(split, history) for split in partitions(players, sizes))


def swap_lowers_repeats(tables: Sequence[Sequence[int]], history: History) -> bool:
    for t, u in itertools.combinations(range(len(tables)), 2):
        before = repeats_of([tables[t], tables[u]], history)
        for i, j in itertools.product(range(len(tables[t])), range(len(tables[u]))):
            a, b = list(tables[t]), list(tables[u])
            a[i], b[j] = b[j], a[i]
            if repeats_of([a, b], history) < before:
                return True
    return False


def check_round(
    pairing: Pairing, active: list[int], history: History, table_size: int, low: int, high: int, seed: int | str
) -> None:
    tables = pairing.tables
    seated = [p for seats in tables for p in seats]
    assert sorted(seated) == sorted(active), "every active player at exactly one table"
    sizes = [len(seats) for seats in tables]
    assert sizes == expected_sizes(len(active), table_size, low, high)
    assert max(sizes) - min(sizes) <= 1 and low <= min(sizes) and max(sizes) <= high
    assert pairing.repeats == repeats_of(tables, history)
    if len(active) <= 9:
        assert pairing.exact
        assert pairing.repeats == least_repeats(active, sizes, history)
    elif len(active) <= 40:  # the swap check is quadratic; larger fields are covered by the bench's figure
        assert not swap_lowers_repeats(tables, history)
    for seats in tables:  # first seats spread: fewest earlier first seats first
        firsts = [history.first_seats.get(p, 0) for p in seats]
        assert firsts == sorted(firsts)
    again = pair_round(active, history, table_size=table_size, min_players=low, max_players=high, seed=seed)
    assert again == pairing, "deterministic for a seed"


# --- whole tournaments ------------------------------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, int, int, int, int, int, list[int]]:
    low, high = draw(st.sampled_from(MAP_RANGES))
    table_size = draw(st.integers(low, high))
    players = draw(st.integers(max(3, low), 200))
    rounds = draw(st.integers(1, 9))
    seed = draw(st.integers(0, 2**32))
    actions = draw(st.lists(st.integers(0, 9), min_size=rounds, max_size=rounds))
    return low, high, table_size, players, rounds, seed, actions


@given(tournaments(), st.randoms(use_true_random=False))
def test_whole_tournaments_pair_every_round_as_the_issue_asks(
    tournament: tuple[int, int, int, int, int, int, list[int]], rng: random.Random
) -> None:
    low, high, table_size, players, rounds, seed, actions = tournament
    active = list(range(1, players + 1))
    history = History()
    next_id = 10_000
    for number in range(rounds):
        rng.shuffle(active)  # random results: the standing order
        action = actions[number]
        if action in (1, 2) and len(active) > max(low, 3):  # a drop
            dropped = active.pop(rng.randrange(len(active)))
            if action == 2:  # a substitute takes over the dropped player's history and place
                next_id += 1
                before = history
                history = history.substitute(dropped, next_id)
                for other in active:
                    assert history.meetings(next_id, other) == before.meetings(dropped, other)
                    assert history.meetings(dropped, other) == 0
                assert history.firsts(next_id) == before.firsts(dropped)
                active.insert(rng.randrange(len(active) + 1), next_id)
        elif action == 3:  # a late entrant, fresh
            next_id += 1
            active.append(next_id)
        if expected_sizes(len(active), table_size, low, high) is None:  # e.g. an odd field on a 2-2 map
            with pytest.raises(PairingError) as caught:
                pair_round(active, history, table_size=table_size, min_players=low, max_players=high, seed=seed)
            assert caught.value.problem is PairingProblem.FIELD_DOES_NOT_FIT
            return
        pairing = pair_round(
            active, history, table_size=table_size, min_players=low, max_players=high, seed=f"{seed}:{number}"
        )
        check_round(pairing, active, history, table_size, low, high, f"{seed}:{number}")
        if number == 0 and action == 0:  # no history: the tables are the standing order cut into blocks
            flat = [p for seats in pairing.tables for p in sorted(seats, key=active.index)]
            assert flat == active
        history = history.after_round(pairing.tables)


@given(
    st.integers(3, 9),
    st.sampled_from([(2, 5), (2, 4), (2, 3), (3, 4)]),
    st.integers(1, 6),
    st.integers(0, 1000),
    st.randoms(use_true_random=False),
)
def test_small_fields_have_the_fewest_repeats_possible(
    players: int, span: tuple[int, int], rounds: int, seed: int, rng: random.Random
) -> None:
    """Random (not paired) histories, so that repeats are often forced; the exhaustive minimum is matched."""
    low, high = span
    if expected_sizes(players, high, low, high) is None:
        return
    table_size = rng.randint(low, high)
    active = list(range(players))
    history = History()
    for _ in range(rounds):
        rng.shuffle(active)
        sizes = expected_sizes(players, table_size, low, high)
        assert sizes is not None
        cut = list(itertools.accumulate(sizes))
        history = history.after_round([active[a:b] for a, b in zip([0, *cut], cut, strict=False)])
    rng.shuffle(active)
    pairing = pair_round(active, history, table_size=table_size, min_players=low, max_players=high, seed=seed)
    sizes = [len(t) for t in pairing.tables]
    assert pairing.repeats == least_repeats(active, sizes, history)
    assert pairing.repeats == repeats_of(pairing.tables, history)


@given(st.integers(10, 30), st.integers(2, 5), st.integers(1, 5), st.randoms(use_true_random=False))
def test_the_local_search_leaves_no_swap_that_lowers_repeats(
    players: int, table_size: int, rounds: int, rng: random.Random
) -> None:
    """Fields too large for the exhaustive search, and small ones with it switched off."""
    active = list(range(players))
    history = History()
    for _ in range(rounds):
        rng.shuffle(active)
        history = history.after_round([active[i : i + table_size] for i in range(0, players, table_size)])
    for field in (active, active[:9]):
        pairing = pair_round(field, history, table_size=table_size, min_players=2, max_players=5, seed=1, exact_limit=0)
        assert not pairing.exact
        assert sorted(p for t in pairing.tables for p in t) == sorted(field)
        assert not swap_lowers_repeats(pairing.tables, history)


# --- examples and refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "table_size", "low", "high", "sizes"),
    [
        (10, 4, 2, 5, (4, 3, 3)),  # the issue's example
        (8, 4, 2, 5, (4, 4)),
        (9, 2, 2, 5, (3, 2, 2, 2)),  # a table of 1 would be below the minimum: fewer, larger tables
        (3, 4, 2, 5, (3,)),
        (2, 4, 2, 4, (2,)),
        (7, 3, 3, 4, (4, 3)),
        (500, 4, 2, 5, (4,) * 125),
        (501, 4, 2, 5, (4,) * 123 + (3,) * 3),
    ],
)
def test_table_sizes(players: int, table_size: int, low: int, high: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(players, table_size, low, high) == sizes
    assert sum(sizes) == players


@pytest.mark.parametrize(
    ("players", "table_size", "low", "high", "problem"),
    [
        (1, 4, 2, 5, PairingProblem.FIELD_DOES_NOT_FIT),
        (0, 4, 2, 5, PairingProblem.FIELD_DOES_NOT_FIT),
        (5, 3, 3, 4, PairingProblem.FIELD_DOES_NOT_FIT),  # 2+3 is below the minimum, 5 above the maximum
        (10, 6, 2, 5, PairingProblem.TABLE_SIZE_OUTSIDE_MAP),
        (10, 1, 2, 5, PairingProblem.TABLE_SIZE_OUTSIDE_MAP),
        (10, 3, 4, 3, PairingProblem.BAD_RANGE),
    ],
)
def test_fields_that_cannot_be_paired_raise_a_typed_error(
    players: int, table_size: int, low: int, high: int, problem: PairingProblem
) -> None:
    with pytest.raises(PairingError) as caught:
        pair_round(list(range(players)), History(), table_size=table_size, min_players=low, max_players=high, seed=0)
    assert caught.value.problem is problem
    assert (caught.value.players, caught.value.table_size) == (players, table_size)


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(PairingError) as caught:
        pair_round([1, 2, 3, 1], History(), table_size=4, min_players=2, max_players=5, seed=0)
    assert caught.value.problem is PairingProblem.DUPLICATE_PLAYER


def test_substitute_refuses_an_id_with_a_history_of_its_own() -> None:
    history = History.from_rounds([[(1, 2, 3), (4, 5, 6)]])
    with pytest.raises(ValueError):
        history.substitute(1, 4)
    assert history.substitute(1, 1) is history


def test_repeats_are_avoided_when_a_pairing_without_them_exists() -> None:
    """16 players at tables of 4 (the local search): after two rounds without repeats the players form a 4 x 4
    grid (every table of round 1 meets every table of round 2 once), so a third round without repeats always
    exists (the cells of one symbol of a Latin square); the pairing finds it."""
    active = list(range(16))
    history = History()
    for number in range(3):
        pairing = pair_round(active, history, table_size=4, min_players=2, max_players=5, seed=number)
        assert pairing.repeats == 0, number
        history = history.after_round(pairing.tables)
    assert sorted(history.met.values()) == [1] * (6 * 4 * 3)


@pytest.mark.parametrize(("players", "rounds"), [(5, 5), (4, 8), (3, 7)])
def test_first_seats_go_round_a_table(players: int, rounds: int) -> None:
    """One table, many rounds: the first seat goes round, nobody sits first twice before everyone did once."""
    active = list(range(players))
    history = History()
    for number in range(rounds):
        pairing = pair_round(active, history, table_size=5, min_players=2, max_players=5, seed=number)
        history = history.after_round(pairing.tables)
        counts = [history.firsts(p) for p in active]
        assert max(counts) - min(counts) <= 1
        active = active[1:] + active[:1]  # the standings move around


def test_the_seed_draws_the_seat_order_but_not_the_tables() -> None:
    active = list(range(12))
    orders = set()
    for seed in range(20):
        pairing = pair_round(active, History(), table_size=4, min_players=2, max_players=5, seed=seed)
        assert [sorted(t) for t in pairing.tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
        orders.add(pairing.tables)
    assert len(orders) > 1
