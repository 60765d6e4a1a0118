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

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from engine.extras.registry import least_wilds
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
    zeros: tuple[int, ...]  # as many zeros as `colours`: `map(hand.get, colours, zeros)` reads a hand

    def payment_count(self, hand: Counter[str]) -> int:
        """How many payments `engine.payment.payment_options` lists for this route from `hand`."""
        length = self.length
        if self.wilds_allowed:
            lo = self.least_wilds
            hi = min(hand.get(WILD, 0), length)
        else:
            lo = hi = 0
        if lo > hi:
            return 0
        count = 1 if hi >= length else 0  # all wilds
        top = min(hi, length - 1)
        if top < lo:
            return count
        for colour in self.colours:
            have = hand.get(colour, 0)
            if have:
                start = length - have
                if start < lo:
                    start = lo
                if top >= start:
                    count += top - start + 1
        return count

    def most_left(self, hand: Counter[str]) -> int:
        """The most wilds and cards of its colour a payment of this route leaves in `hand` (0 at least; 0
        when none is payable), found without listing the payments `payment_count` counts: a payment of
        colour c leaves the hand's wilds and cards of c less the route's length, whatever its wilds."""
        length = self.length
        wilds = hand.get(WILD, 0)
        if self.wilds_allowed:
            lo = self.least_wilds
            hi = min(wilds, length)
        else:
            lo = hi = 0
        if lo > hi:
            return 0
        best = wilds - length if hi >= length else 0  # all wilds
        top = min(hi, length - 1)
        if top >= lo:
            for colour in self.colours:
                have = hand.get(colour, 0)
                if have >= length - top and wilds + have - length > best:
                    best = wilds + have - length
        return max(0, best)


# routes of one colour written on the board, by shape, shortest first: (length, shape number, a route of
# the shape, the bits of its routes)
Shape = tuple[int, int, IndexedRoute, int]
Shapes = tuple[Shape, ...]
# (the colours that may pay, as many zeros if they are several (else none), shapes)
Bucket = tuple[tuple[str, ...], tuple[int, ...], Shapes]


class ClaimIndex:
    """The routes of one board, as bits of masks (bit `id` for route `id`), ready for counting payments.

    Within each colour written on routes (gray apart), routes are grouped by
    "shape" (length, whether wilds may pay, ferries): routes of one colour
    and shape have the same payments from a given hand, so a hand's payable
    routes and payments are counted one shape at a time, shortest first,
    stopping at the first shape the hand cannot reach.
    """

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
                zeros=(0,) * (len(rules.colors) if r.color == GRAY else 1),
            )
            for r in board.routes
        )
        self.doubled: frozenset[int] = frozenset(r.id for r in self.routes if r.parallel)
        # per route with parallel tracks: the tracks a claim naming its places and colour may mean, in
        # board order, when they are all alike (else None: `Claims._choose_route` would call it ambiguous)
        self.alike: dict[int, tuple[int, ...] | None] = {}
        for r in self.routes:
            if r.parallel:
                same = [r.route] + [board.routes[p] for p in r.parallel]
                same = sorted((t for t in same if t.color == r.route.color), key=lambda t: t.id)
                alike = len({t.kind() for t in same}) == 1
                self.alike[r.id] = tuple(t.id for t in same) if alike else None
        self.parallel_bits: tuple[int, ...] = tuple(sum(1 << p for p in r.parallel) for r in self.routes)
        shapes: dict[tuple[str, int, bool, int], list[IndexedRoute]] = {}
        for r in sorted(self.routes, key=lambda r: (r.length, r.id)):
            shapes.setdefault((r.route.color, r.length, r.wilds_allowed, r.least_wilds), []).append(r)
        # shape_of[id]: the number of the route's shape; each shape's first route stands for it
        self.shape_of: list[int] = [0] * len(self.routes)
        buckets: dict[str, list[tuple[int, int, IndexedRoute, int]]] = {}
        for number, ((colour, length, _, _), group) in enumerate(shapes.items()):
            for r in group:
                self.shape_of[r.id] = number
            buckets.setdefault(colour, []).append((length, number, group[0], sum(1 << r.id for r in group)))
        gray = buckets.pop(GRAY, None)
        if gray is not None:
            buckets[GRAY] = gray  # last: its best colour costs the most to find
        # (colours, as many zeros, shapes): `zeros` lets `map(hand.get, colours, zeros)` read a hand
        self.buckets: tuple[Bucket, ...] = tuple(
            (colours, (0,) * len(colours) if len(colours) > 1 else (), tuple(group))
            for group in buckets.values()
            for colours in (group[0][2].colours,)
        )

    def closed_bits(self, owner: dict[int, int], seat: int, one_track: bool, start: int = 0, bits: int = 0) -> int:
        """The routes `seat` may not claim as `owner` (route id -> seat) stands: claimed ones and
        doubles closed by the double-route rules (see `Claims.route_status`); `one_track` when
        only one track of a double is used. `start`, `bits`: a result for `owner`'s first `start`
        claims, to add the later ones to (claims are never taken back within a game state).
        """
        parallel_bits = self.parallel_bits
        items = owner.items() if start == 0 else islice(owner.items(), start, None)
        for rid, holder in items:
            bits |= 1 << rid
            if holder == seat or one_track:
                bits |= parallel_bits[rid]
        return bits

    def payable(self, hand: Counter[str], trains: int, closed: int) -> tuple[int, dict[int, int], int]:
        """The routes `hand` can pay and `trains` cover, `closed` ones aside, as bits; the number
        of payments of each shape among them; and their payments in all."""
        wilds = hand.get(WILD, 0)
        found = 0
        counts: dict[int, int] = {}
        total = 0
        opened = ~closed
        for colours, zeros, shapes in self.buckets:
            best = max(map(hand.get, colours, zeros)) if zeros else hand.get(colours[0], 0)
            cap = best + wilds
            if cap > trains:
                cap = trains
            for length, number, route, bits in shapes:
                if length > cap:
                    break
                free = bits & opened
                if free:
                    if zeros or not route.wilds_allowed or route.least_wilds:
                        count = route.payment_count(hand)
                    else:
                        # one colour, any wilds: `payment_count` in short (`best` is the colour's count)
                        top = wilds if wilds < length else length - 1
                        start = length - best if best < length else 0
                        count = (top - start + 1 if top >= start else 0) + (1 if wilds >= length else 0)
                    if count:
                        counts[number] = count
                        found |= free
                        total += count * free.bit_count()
        return found, counts, total

    def payable_bits(self, hand: Counter[str], trains: int, closed: int) -> int:
        """The routes of `payable`, without counting their payments."""
        wilds = hand.get(WILD, 0)
        found = 0
        opened = ~closed
        for colours, zeros, shapes in self.buckets:
            best = max(map(hand.get, colours, zeros)) if zeros else hand.get(colours[0], 0)
            cap = best + wilds
            if cap > trains:
                cap = trains
            for length, _, route, bits in shapes:
                if length > cap:
                    break
                free = bits & opened
                # with wilds allowed and no ferry, a length within `cap` can be paid (as in `any_payable`)
                if free and ((route.wilds_allowed and not route.least_wilds) or route.payment_count(hand)):
                    found |= free
        return found

    def any_payable(self, hand: Counter[str], trains: int, closed: int) -> Shape | None:
        """A shape of which `payable` would find a route, or None if it would find none."""
        wilds = hand.get(WILD, 0)
        for colours, zeros, shapes in self.buckets:
            best = max(map(hand.get, colours, zeros)) if zeros else hand.get(colours[0], 0)
            cap = best + wilds
            if cap > trains:
                cap = trains
            for shape in shapes:
                length, _, route, bits = shape
                if length > cap:
                    break
                # with wilds allowed and no ferry, a length within `cap` can be paid
                if bits & ~closed and ((route.wilds_allowed and not route.least_wilds) or route.payment_count(hand)):
                    return shape
        return None

    @staticmethod
    def still_payable(shape: Shape, hand: Counter[str], trains: int, closed: int) -> bool:
        """Whether `payable` would find a route of `shape` (one `any_payable` found before, say)."""
        length, _, route, bits = shape
        return length <= trains and bits & ~closed != 0 and route.payment_count(hand) > 0


def route_ids(bits: int) -> Iterator[int]:
    """The route ids whose bits are set, in increasing order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


_INDEXES: dict[int, tuple[Board, ClaimIndex]] = {}


def claim_index(board: Board) -> ClaimIndex:
    """The index of `board`, built on first use and kept."""
    found = _INDEXES.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    index = ClaimIndex(board)
    _INDEXES[id(board)] = (board, index)
    return index
