"""The fast longest-path search (engine/longest.py) against the plain one of main at baada59."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.reference_engine.scoring import longest_trail as reference_longest_trail
from engine.longest import longest_trail
from maps import MAP_NAMES, Route, load_board

CROWDED = Path(__file__).parent.parent / "bench" / "data" / "crowded_usa.json"  # bench/longest.py times it


def crowded_networks() -> tuple[list[list[Route]], list[int]]:
    """The four networks of the crowded USA board as routes, and their known longest paths."""
    board = load_board("usa")
    data = json.loads(CROWDED.read_text(encoding="utf-8"))
    networks = []
    for owned in data["players"]:
        routes: list[Route] = []
        for a, b, length in owned:
            routes.append(next(r for r in board.routes_between(a, b) if r.length == length and r not in routes))
        networks.append(routes)
    return networks, list(data["longest"])


def check_trail(length: int, trail: list[Route]) -> None:
    """`trail` is a trail of `length` trains: each route once, each one starting where the last ended."""
    assert sum(r.length for r in trail) == length
    assert len({r.id for r in trail}) == len(trail)
    if trail:
        assert any(_walks(trail, start) for start in trail[0].ends)


def _walks(trail: list[Route], place: str) -> bool:
    for r in trail:
        if place not in r.ends:
            return False
        place = r.b if r.a == place else r.a
    return True


def grown_network(name: str, seed: int, size: int, extra: int) -> list[Route]:
    """`size` routes grown from one place, so they form loops, plus `extra` routes anywhere."""
    board = load_board(name)
    rng = random.Random(seed)
    at: dict[str, list[Route]] = {}
    for r in board.routes:
        at.setdefault(r.a, []).append(r)
        at.setdefault(r.b, []).append(r)
    reached = [rng.choice(board.routes).a]
    chosen: dict[int, Route] = {}
    while len(chosen) < size:
        options = [r for p in reached for r in at[p] if r.id not in chosen]
        if not options:
            break
        r = rng.choice(options)
        chosen[r.id] = r
        reached += [p for p in r.ends if p not in reached]
    for r in rng.sample(board.routes, extra):
        chosen.setdefault(r.id, r)
    routes = list(chosen.values())
    rng.shuffle(routes)
    return routes


def test_the_crowded_board_has_its_known_longest_paths() -> None:
    networks, expected = crowded_networks()
    assert expected == [43, 37, 40, 40]
    for routes, want in zip(networks, expected, strict=True):
        length, trail = longest_trail(routes)
        assert length == want
        check_trail(length, trail)


def test_small_cases() -> None:
    board = load_board("usa")
    assert longest_trail([]) == (0, [])
    one = board.routes[0]
    assert longest_trail([one]) == (one.length, [one])


@settings(max_examples=150)
@given(st.sampled_from(MAP_NAMES), st.integers(0, 2**32), st.integers(1, 17), st.integers(0, 4))
def test_same_length_as_the_plain_search(name: str, seed: int, size: int, extra: int) -> None:
    routes = grown_network(name, seed, size, extra)
    length, trail = longest_trail(routes)
    assert length == reference_longest_trail(routes)[0]
    check_trail(length, trail)
    assert all(r in routes for r in trail)


def test_same_length_on_many_loop_rich_networks() -> None:
    for seed in range(300):
        name = MAP_NAMES[seed % len(MAP_NAMES)]
        routes = grown_network(name, seed, 8 + seed % 12, seed % 3)
        length, trail = longest_trail(routes)
        assert length == reference_longest_trail(routes)[0], (name, seed)
        check_trail(length, trail)
