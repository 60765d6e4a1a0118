"""A board's routes prepared once for fast claim listing.

Listing claims is most of the work of random and simulated play, and a
handful of a board's routes are affordable on any turn. `ClaimIndex` keeps,
per route, what deciding that needs (length, the colours that may pay it,
the wilds it allows and needs, its parallel tracks), so that a route is
rejected by a few comparisons and its payments are counted by arithmetic,
without building them. The payments themselves, when needed, come from
`engine.payment.payment_options`, so their order is the one rule.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from engine.extras.ferries import least_wilds
from maps import GRAY, WILD, Board, Route


@dataclass(frozen=True, slots=True)
class IndexedRoute:
    route: Route
    id: int
    length: int
    colours: tuple[str, ...]  # the colours that may pay it (all of them on a gray route)
    wilds_allowed: bool  # False where wilds may be played only on tunnels and this is none
    least_wilds: int  # ferries' spaces
    parallel: tuple[int, ...]  # ids of the other tracks between the same places
    shape: tuple[int, bool, int]  # what its payment count depends on, with its colours

    def payment_count(self, hand: Counter[str]) -> int:
        """How many payments `engine.payment.payment_options` lists for this route from `hand`."""
        length = self.length
        if self.wilds_allowed:
            lo = self.least_wilds
            hi = min(hand[WILD], length)
        else:
            lo = hi = 0
        if lo > hi:
            return 0
        count = 1 if hi >= length else 0  # all wilds
        top = min(hi, length - 1)
        if top < lo:
            return count
        for colour in self.colours:
            have = hand[colour]
            if have:
                start = length - have
                if start < lo:
                    start = lo
                if top >= start:
                    count += top - start + 1
        return count


class ClaimIndex:
    """The routes of one board, in board order, ready for `payment_count`."""

    def __init__(self, board: Board) -> None:
        rules = board.rules
        self.board = board
        self.routes: tuple[IndexedRoute, ...] = tuple(
            IndexedRoute(
                route=r,
                id=r.id,
                length=r.length,
                colours=tuple(rules.colors) if r.color == GRAY else (r.color,),
                wilds_allowed=not (rules.wilds_only_on_tunnels and not r.tunnel),
                least_wilds=least_wilds(r),
                parallel=tuple(p.id for p in board.parallel(r)),
                shape=(r.length, not (rules.wilds_only_on_tunnels and not r.tunnel), least_wilds(r)),
            )
            for r in board.routes
        )
        # by the colour written on the route (gray apart), shortest first: the
        # routes a hand may afford are a prefix of each
        buckets: dict[str, list[IndexedRoute]] = {}
        for r in sorted(self.routes, key=lambda r: (r.length, r.id)):
            buckets.setdefault(r.route.color, []).append(r)
        self.buckets: tuple[tuple[tuple[str, ...], list[int], tuple[IndexedRoute, ...]], ...] = tuple(
            (group[0].colours, [r.length for r in group], tuple(group)) for group in buckets.values()
        )

    def payable(
        self, hand: Counter[str], trains: int, owner: dict[int, int], seat: int, one_track: bool
    ) -> list[tuple[int, IndexedRoute, int]]:
        """(id, route, payment count) of every route `seat` may claim and pay now, in board order.

        `owner` maps claimed route ids to seats; `one_track` says whether only
        one track of a double route is used (see `Claims.route_status`).
        """
        wilds = hand[WILD]
        found: list[tuple[int, IndexedRoute, int]] = []
        for colours, lengths, group in self.buckets:
            best = max([hand[c] for c in colours]) if len(colours) > 1 else hand[colours[0]]
            cap = best + wilds
            if cap > trains:
                cap = trains
            if cap < lengths[0]:
                continue
            counts: dict[tuple[int, bool, int], int] = {}
            for r in group[: bisect_right(lengths, cap)]:
                rid = r.id
                if rid in owner:
                    continue
                if r.parallel:
                    closed = False
                    for other in r.parallel:
                        holder = owner.get(other)
                        if holder is not None and (holder == seat or one_track):
                            closed = True
                    if closed:
                        continue
                count = counts.get(r.shape)
                if count is None:
                    count = counts[r.shape] = r.payment_count(hand)
                if count:
                    found.append((rid, r, count))
        found.sort()
        return found

    def any_payable(self, hand: Counter[str], trains: int, owner: dict[int, int], seat: int, one_track: bool) -> bool:
        """Whether `payable` would list a route; stops at the first."""
        wilds = hand[WILD]
        for colours, lengths, group in self.buckets:
            best = max([hand[c] for c in colours]) if len(colours) > 1 else hand[colours[0]]
            cap = best + wilds
            if cap > trains:
                cap = trains
            if cap < lengths[0]:
                continue
            for r in group[: bisect_right(lengths, cap)]:
                if r.id in owner:
                    continue
                if r.parallel:
                    closed = False
                    for other in r.parallel:
                        holder = owner.get(other)
                        if holder is not None and (holder == seat or one_track):
                            closed = True
                    if closed:
                        continue
                if r.payment_count(hand):
                    return True
        return False


_INDEXES: dict[int, tuple[Board, ClaimIndex]] = {}


def claim_index(board: Board) -> ClaimIndex:
    """The index of `board`, built on first use and kept."""
    found = _INDEXES.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    index = ClaimIndex(board)
    _INDEXES[id(board)] = (board, index)
    return index
