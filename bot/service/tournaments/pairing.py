"""Swiss pairing of a tournament round for multiplayer tables (issue 14). Pure: no store, no Discord, no text.

`pair_round(players, history, ...)` splits the active players (best standing
first) into tables and draws each table's seat order:

- **Sizes** (`table_sizes`): as few tables as the tournament's table size
  allows (k = ceil(n / size)), sizes balanced (they differ by at most 1, the
  larger tables first: 10 players at size 4 are 4 + 3 + 3). If that would
  put a table below the map's minimum (9 players at size 2), fewer, larger
  tables are used, up to the map's maximum (3 + 2 + 2 + 2). A field that no
  balanced split fits (fewer players than the map's minimum, or 5 players on
  a 3-4 player map) raises `PairingError`.
- **Who sits together**, in this order of importance: the fewest repeated
  pairs (two players at one table who met before), then the fewest earlier
  meetings of those pairs (meeting a third time is worse than a second), then
  standing: each player has a home table (the best players fill the first
  table, and so on down) and a player `d` tables from home costs `d * d`.
  Small fields (at most `EXACT_LIMIT` ways to fill the tables) are searched
  exhaustively (branch and bound), so the repeat count is the least possible.
  Larger ones start from the home tables and swap players between tables
  while a swap lowers that cost: the result has no single swap that would
  lower the number of repeated pairs. While repeated pairs are left, it then
  tries up to `KICKS` times (within a budget of `KICK_WORK` swaps weighed)
  to escape: a player of a repeated pair swaps with a random player at a
  nearby table, the swaps run again, and the result is kept if it costs less
  (a seeded draw and a count, not a clock, so still deterministic).
- **Seat order**: each table is ordered by how often its players sat first
  before (fewest first), ties by a shuffle drawn from `seed`, so first seats
  spread over the rounds.

Everything is deterministic for a given seed (tournaments are audited).
Drops are players left out of `players`; a late substitute either starts
fresh (a new id, no history) or takes over a dropped player's history
(`History.substitute`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

# the exhaustive search is used when the tables can be filled in at most this many ways (9 players: at most 7,560)
EXACT_LIMIT = 50_000
# how many random kicks the local search tries when repeated pairs are left (see `_Search.kicks`)
KICKS = 60
# and stop once they have weighed this many more swaps (a few tenths of a second), whatever the size of the field
KICK_WORK = 100_000


class PairingProblem(StrEnum):
    """Why a round cannot be paired; the facts are on the `PairingError`."""

    BAD_RANGE = "bad_range"  # the map's range is empty or below 1
    TABLE_SIZE_OUTSIDE_MAP = "table_size_outside_map"  # the tournament's table size is not within the map's range
    DUPLICATE_PLAYER = "duplicate_player"  # a player is listed twice
    FIELD_DOES_NOT_FIT = "field_does_not_fit"  # no balanced split of the field fits the map's range


class PairingError(ValueError):
    """A round that cannot be paired: `problem` says why, the other fields are its facts."""

    def __init__(self, problem: PairingProblem, *, players: int, table_size: int, low: int, high: int) -> None:
        super().__init__(f"{problem}: {players} players, table size {table_size}, map range {low}-{high}")
        self.problem = problem
        self.players = players
        self.table_size = table_size
        self.low = low
        self.high = high


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class History:
    """Who met whom (pair -> number of games together) and how often each player sat first."""

    met: Mapping[tuple[int, int], int] = field(default_factory=dict)
    first_seats: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def from_rounds(cls, rounds: Iterable[Iterable[Sequence[int]]]) -> History:
        """The history of played rounds, each a list of tables in seat order."""
        history = cls()
        for tables in rounds:
            history = history.after_round(tables)
        return history

    def meetings(self, a: int, b: int) -> int:
        return self.met.get(_pair(a, b), 0)

    def firsts(self, player: int) -> int:
        return self.first_seats.get(player, 0)

    def opponents(self) -> dict[int, dict[int, int]]:
        """Each player's earlier opponents with the number of games together."""
        table: dict[int, dict[int, int]] = {}
        for (a, b), count in self.met.items():
            if count > 0:
                table.setdefault(a, {})[b] = count
                table.setdefault(b, {})[a] = count
        return table

    def after_round(self, tables: Iterable[Sequence[int]]) -> History:
        """This history with one more round played at `tables` (each in seat order)."""
        met = dict(self.met)
        first_seats = dict(self.first_seats)
        for seats in tables:
            if seats:
                first_seats[seats[0]] = first_seats.get(seats[0], 0) + 1
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    key = _pair(a, b)
                    met[key] = met.get(key, 0) + 1
        return History(met, first_seats)

    def substitute(self, old: int, new: int) -> History:
        """`new` takes over `old`'s history (meetings and first seats); `old` has none left.

        `new` must have no history of its own (a fresh id); a substitute who
        starts fresh needs no call at all.
        """
        if old == new:
            return self
        if new in self.first_seats or any(new in pair for pair in self.met):
            raise ValueError(f"player {new} already has a history")
        met: dict[tuple[int, int], int] = {}
        for (a, b), count in self.met.items():
            key = _pair(new if a == old else a, new if b == old else b)
            met[key] = count
        first_seats = {(new if player == old else player): count for player, count in self.first_seats.items()}
        return History(met, first_seats)


@dataclass(frozen=True)
class Pairing:
    """A paired round: tables in standing order (top table first), each in seat order; its repeated pairs."""

    tables: tuple[tuple[int, ...], ...]
    repeats: int  # pairs sitting together who met before
    exact: bool  # True when the exhaustive search chose the tables


def table_sizes(players: int, table_size: int, low: int, high: int) -> tuple[int, ...]:
    """The sizes of the round's tables, largest first (see the module's doc); raises `PairingError`."""

    def fail(problem: PairingProblem) -> PairingError:
        return PairingError(problem, players=players, table_size=table_size, low=low, high=high)

    if low < 1 or high < low:
        raise fail(PairingProblem.BAD_RANGE)
    if not low <= table_size <= high:
        raise fail(PairingProblem.TABLE_SIZE_OUTSIDE_MAP)
    if players < low:
        raise fail(PairingProblem.FIELD_DOES_NOT_FIT)
    # the fewest tables of at most table_size first, then fewer (larger, up to the map's maximum) tables
    for count in range(math.ceil(players / table_size), math.ceil(players / high) - 1, -1):
        small, extra = divmod(players, count)
        if small >= low and small + (1 if extra else 0) <= high:
            return tuple([small + 1] * extra + [small] * (count - extra))
    raise fail(PairingProblem.FIELD_DOES_NOT_FIT)


def repeated_pairs(tables: Iterable[Sequence[int]], history: History) -> int:
    """How many pairs sitting together at `tables` met before."""
    return sum(1 for seats in tables for i, a in enumerate(seats) for b in seats[i + 1 :] if history.meetings(a, b) > 0)


def pair_round(
    players: Sequence[int],
    history: History,
    *,
    table_size: int,
    min_players: int,
    max_players: int,
    seed: int | str,
    exact_limit: int = EXACT_LIMIT,
) -> Pairing:
    """Pair one round: `players` are the active players, best standing first. See the module's doc."""
    sizes = table_sizes(len(players), table_size, min_players, max_players)
    if len(set(players)) != len(players):
        raise PairingError(
            PairingProblem.DUPLICATE_PLAYER,
            players=len(players),
            table_size=table_size,
            low=min_players,
            high=max_players,
        )
    rng = random.Random(f"conductor-pairing:{seed}")
    search = _Search(players, sizes, history)
    search.improve()
    exact = _fillings(sizes) <= exact_limit
    if exact:
        search.exhaustive()
    else:
        search.kicks(rng, KICKS)
    tables = []
    for members in search.tables:
        ids = sorted(players[i] for i in members)
        draws = {player: rng.random() for player in ids}
        tables.append(tuple(sorted(ids, key=lambda player: (history.firsts(player), draws[player]))))
    return Pairing(tuple(tables), repeated_pairs(tables, history), exact)


def _fillings(sizes: Sequence[int]) -> int:
    """The number of ways to fill tables of these sizes (labelled tables)."""
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    return count


Cost = tuple[int, int, int]  # repeated pairs, their earlier meetings, standing displacement


class _Search:
    """The tables as lists of player indices (0 = best standing) and the swaps that improve them."""

    def __init__(self, players: Sequence[int], sizes: Sequence[int], history: History) -> None:
        index = {player: i for i, player in enumerate(players)}
        opponents = history.opponents()
        self.met: list[dict[int, int]] = [
            {index[other]: count for other, count in opponents.get(player, {}).items() if other in index}
            for player in players
        ]
        self.home: list[int] = []
        self.tables: list[list[int]] = []
        for number, size in enumerate(sizes):
            start = len(self.home)
            self.tables.append(list(range(start, start + size)))
            self.home.extend([number] * size)
        self.table_of = list(self.home)
        self.sizes = list(sizes)
        self.work = 0  # swaps weighed so far (the kicks stop at a budget of them)

    def _at(self, player: int, members: Iterable[int]) -> tuple[int, int]:
        """The repeated pairs and their earlier meetings `player` would have with `members`."""
        met = self.met[player]
        repeats = meetings = 0
        for other in members:
            count = met.get(other, 0)
            if count:
                repeats += 1
                meetings += count
        return repeats, meetings

    def _swap(self, p: int, q: int) -> None:
        t, u = self.table_of[p], self.table_of[q]
        self.tables[t][self.tables[t].index(p)] = q
        self.tables[u][self.tables[u].index(q)] = p
        self.table_of[p], self.table_of[q] = u, t

    def _best_swap(self, p: int, tables: Iterable[int]) -> tuple[Cost, int] | None:
        """The swap of `p` with a player at one of `tables` that lowers the cost most, if any does."""
        t = self.table_of[p]
        here = self.tables[t]
        met_p = self.met[p]
        home_p = self.home[p]
        r_here, m_here = self._at(p, here)
        best: tuple[Cost, int] | None = None
        for u in tables:
            there = self.tables[u]
            r_there, m_there = self._at(p, there)
            self.work += len(there)
            for q in there:
                # p and q trade places; neither counts the other (who leaves the table both would join)
                c = met_p.get(q, 0)
                seen = 1 if c else 0
                r_q_here, m_q_here = self._at(q, here)
                r_q_there, m_q_there = self._at(q, there)
                home_q = self.home[q]
                delta = (
                    r_there - seen + r_q_here - seen - r_here - r_q_there,
                    m_there - c + m_q_here - c - m_here - m_q_there,
                    (u - home_p) ** 2 + (t - home_q) ** 2 - (t - home_p) ** 2 - (u - home_q) ** 2,
                )
                if delta < (0, 0, 0) and (best is None or delta < best[0]):
                    best = (delta, q)
        return best

    def improve(self) -> None:
        """Swap players while a swap lowers the cost; stops with no swap left that lowers the repeated pairs.

        A player with a repeated pair tries every other table, nearest first,
        and takes the best swap of the nearest distance that has one; a player
        away from home tries the tables between it and home.
        """
        count = len(self.tables)
        changed = True
        while changed:
            changed = False
            for p in range(len(self.home)):
                t = self.table_of[p]
                if self._at(p, self.tables[t])[0]:
                    for distance in range(1, count):
                        ring = [u for u in (t - distance, t + distance) if 0 <= u < count]
                        best = self._best_swap(p, ring)
                        if best is not None:
                            self._swap(p, best[1])
                            changed = True
                            break
                elif t != self.home[p]:
                    step = 1 if self.home[p] > t else -1
                    best = self._best_swap(p, range(t + step, self.home[p] + step, step))
                    if best is not None:
                        self._swap(p, best[1])
                        changed = True

    def _place(self, tables: Sequence[Sequence[int]]) -> None:
        self.tables = [list(members) for members in tables]
        for number, members in enumerate(self.tables):
            for p in members:
                self.table_of[p] = number

    def kicks(self, rng: random.Random, tries: int) -> None:
        """Iterated local search: kick a player of a repeated pair to a nearby table, improve, keep if cheaper."""
        best_cost = self.cost()
        best_tables = [list(members) for members in self.tables]
        count = len(self.tables)
        budget = self.work + KICK_WORK
        for _ in range(tries):
            if best_cost[0] == 0 or count < 2 or self.work > budget:
                break
            stuck = [p for members in self.tables for p in members if self._at(p, self.tables[self.table_of[p]])[0]]
            p = rng.choice(sorted(stuck))
            t = self.table_of[p]
            u = min(max(t + rng.choice((-2, -1, 1, 2)), 0), count - 1)
            if u == t:
                u = t + 1 if t + 1 < count else t - 1
            self._swap(p, rng.choice(self.tables[u]))
            self.improve()
            cost = self.cost()
            if cost < best_cost:
                best_cost = cost
                best_tables = [list(members) for members in self.tables]
            else:
                self._place(best_tables)
        self._place(best_tables)

    def cost(self) -> Cost:
        repeats = meetings = moved = 0
        for number, members in enumerate(self.tables):
            for i, p in enumerate(members):
                r, m = self._at(p, members[i + 1 :])
                repeats += r
                meetings += m
                moved += (number - self.home[p]) ** 2
        return (repeats, meetings, moved)

    def exhaustive(self) -> None:
        """Branch and bound over every filling of the tables; keeps the cheapest (this one if none is cheaper)."""
        players = len(self.home)
        count = len(self.sizes)
        best_cost = self.cost()
        best_tables = [list(members) for members in self.tables]
        tables: list[list[int]] = [[] for _ in range(count)]
        by_distance = {home: sorted(range(count), key=lambda u: (abs(u - home), u)) for home in set(self.home)}
        order = [by_distance[home] for home in self.home]

        def place(p: int, repeats: int, meetings: int, moved: int) -> None:
            nonlocal best_cost, best_tables
            if p == players:
                if (repeats, meetings, moved) < best_cost:
                    best_cost = (repeats, meetings, moved)
                    best_tables = [list(members) for members in tables]
                return
            for u in order[p]:
                members = tables[u]
                if len(members) == self.sizes[u]:
                    continue
                r, m = self._at(p, members)
                cost = (repeats + r, meetings + m, moved + (u - self.home[p]) ** 2)
                if cost >= best_cost:
                    continue
                members.append(p)
                place(p + 1, *cost)
                members.pop()

        place(0, 0, 0, 0)
        self._place(best_tables)
