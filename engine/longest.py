"""The longest continuous path of a player's routes, fast on crowded boards.

The longest trail (each route at most once, places may repeat) of each
connected group of routes, by these facts:

- A longest trail cannot be extended. If it is closed it uses every route of
  its group, whose places then all have even degree; so a group without a
  place of odd degree is one closed trail, all its routes (an Euler circuit,
  built by Hierholzer's method), and a group with exactly two odd places is
  one open trail between them.
- Otherwise a longest trail is open and ends at two odd places, so a search
  needs to start only from the odd places, and not from the last of them
  (a trail ending there was found from its other end).
- A place with just two routes, which is even, is never an end of a longest
  trail: a trail uses both its routes one after the other or neither, so the
  two become one longer edge before the search ("chains" contracted).
- The search is a depth-first walk over edges marked used in a bit mask; it
  gives up a branch when even every unused edge of the group could not make
  it longer than the best found, and stops at a trail as long as a bound:
  every odd place but two keeps an unused edge, and an edge serves at most
  two of them, so at least half the sum of the shortest edges of all odd
  places but the two with the longest ones stays unused.

`bench.reference_engine.scoring.longest_trail` is the plain search it must agree
with (tests/test_longest.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from maps import Route

# an edge after chains are contracted: (one end, other end, length, route indices from the first end)
Edge = tuple[int, int, int, list[int]]


def longest_trail(routes: Sequence[Route]) -> tuple[int, list[Route]]:
    """The longest trail in trains, and its routes in order along it."""
    places: dict[str, int] = {}
    ends: list[tuple[int, int]] = []
    for r in routes:
        a = places.setdefault(r.a, len(places))
        b = places.setdefault(r.b, len(places))
        ends.append((a, b))
    incident: list[list[int]] = [[] for _ in places]
    for i, (a, b) in enumerate(ends):
        incident[a].append(i)
        incident[b].append(i)
    lengths = [r.length for r in routes]

    best = 0
    best_trail: list[int] = []
    seen = [False] * len(places)
    for root in range(len(places)):
        if seen[root]:
            continue
        group = [root]
        seen[root] = True
        for place in group:
            for i in incident[place]:
                a, b = ends[i]
                nxt = b if a == place else a
                if not seen[nxt]:
                    seen[nxt] = True
                    group.append(nxt)
        edges = sorted({i for place in group for i in incident[place]})
        total = sum(lengths[i] for i in edges)
        if total <= best:
            continue
        odd = [p for p in group if len(incident[p]) % 2]
        if len(odd) <= 2:
            best = total
            best_trail = _euler(odd[0] if odd else root, edges, ends, incident)
            continue
        length, trail = _search(group, odd, edges, ends, lengths, total, best)
        if length > best:
            best, best_trail = length, trail
    return best, [routes[i] for i in best_trail]


def _euler(start: int, edges: list[int], ends: list[tuple[int, int]], incident: list[list[int]]) -> list[int]:
    """Every edge of a group, in the order of a trail from `start` (Hierholzer's method)."""
    used = dict.fromkeys(edges, False)
    position = {start: 0}
    stack = [start]
    taken: list[int] = []
    trail: list[int] = []
    while stack:
        place = stack[-1]
        around = incident[place]
        k = position.get(place, 0)
        while k < len(around) and used[around[k]]:
            k += 1
        position[place] = k
        if k == len(around):
            stack.pop()
            if taken:
                trail.append(taken.pop())
            continue
        i = around[k]
        used[i] = True
        a, b = ends[i]
        stack.append(b if a == place else a)
        taken.append(i)
    trail.reverse()
    return trail


def _contract(group: list[int], edge_ids: list[int], ends: list[tuple[int, int]], lengths: list[int]) -> list[Edge]:
    """The group's edges with every place of exactly two distinct routes removed and its routes joined."""
    edges: dict[int, Edge] = {i: (ends[i][0], ends[i][1], lengths[i], [i]) for i in edge_ids}
    at: dict[int, list[int]] = {p: [] for p in group}
    for i in edge_ids:
        a, b = ends[i]
        at[a].append(i)
        at[b].append(i)
    next_id = max(edge_ids) + 1
    for place in group:
        around = at[place]
        if len(around) != 2 or around[0] == around[1]:
            continue
        first, second = around
        a1, b1, l1, seq1 = edges.pop(first)
        a2, b2, l2, seq2 = edges.pop(second)
        # first as a walk towards `place`, second as a walk away from it
        if b1 == place:
            start, left = a1, seq1
        else:
            start, left = b1, seq1[::-1]
        if a2 == place:
            end, right = b2, seq2
        else:
            end, right = a2, seq2[::-1]
        joined = next_id
        next_id += 1
        edges[joined] = (start, end, l1 + l2, left + right)
        del at[place]
        for end_place, old in ((start, first), (end, second)):
            around_end = at[end_place]
            around_end[around_end.index(old)] = joined
    return list(edges.values())


def _search(
    group: list[int],
    odd: list[int],
    edge_ids: list[int],
    ends: list[tuple[int, int]],
    lengths: list[int],
    total: int,
    floor: int,
) -> tuple[int, list[int]]:
    """The longest trail of a group with more than two odd places, if longer than `floor`."""
    edges = _contract(group, edge_ids, ends, lengths)
    adjacency: dict[int, list[tuple[int, int, int]]] = {}  # place -> (edge bit, other end, length)
    for k, (a, b, length, _) in enumerate(edges):
        bit = 1 << k
        adjacency.setdefault(a, []).append((bit, b, length))
        if b != a:
            adjacency.setdefault(b, []).append((bit, a, length))
    for around in adjacency.values():
        around.sort(key=lambda e: -e[2])  # long edges first: good trails early, so more branches are cut
    # At least len(odd) - 2 odd places keep an unused edge (not a loop), and an edge serves at
    # most two of them, each at least its shortest: no trail is longer than `bound`.
    shortest = sorted(min(e[2] for e in adjacency[p] if e[1] != p) for p in odd)
    bound = total - (sum(shortest[: len(odd) - 2]) + 1) // 2
    best = floor
    best_path: list[tuple[int, int]] = []  # (edge bit, the place it was left from)
    path: list[tuple[int, int]] = []

    def walk(place: int, used: int, length: int, left: int) -> bool:
        """False once a trail as long as `bound` is found: the search is over."""
        nonlocal best, best_path
        if length > best:
            best = length
            best_path = list(path)
            if best >= bound:
                return False
        elif length + left <= best:
            return True
        for bit, nxt, edge_length in adjacency[place]:
            if used & bit:
                continue
            path.append((bit, place))
            going = walk(nxt, used | bit, length + edge_length, left - edge_length)
            path.pop()
            if not going:
                return False
        return True

    if floor < bound:
        for start in odd[:-1]:
            if not walk(start, 0, 0, total):
                break
    if not best_path:
        return floor, []
    trail: list[int] = []
    for bit, place in best_path:
        a, _, _, seq = edges[bit.bit_length() - 1]
        trail.extend(seq if a == place else seq[::-1])
    return best, trail
