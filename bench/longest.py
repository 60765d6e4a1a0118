"""Longest-path benchmark on a crowded board (issue #16): ms per board, old and new.

Run: .venv/bin/python -m bench.longest [--repeat N]

bench/data/crowded_usa.json holds four players' disjoint, loop-rich networks
on the USA board and their correct longest paths (43, 37, 40, 40). A board
is the four longest paths, as final scoring, `/ttr status` and the board
panel compute them. The old search (bench/reference_engine/scoring.py, as on main
at baada59) and the new one (engine/longest.py) are timed alternately in
this one run, each board's best of `repeat`; both must find the right
lengths. The floor is 10 ms per board (PASS/FAIL).
Prints figures; asserts nothing (speed targets live here, not in tests).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.reference_engine.scoring import longest_trail as reference_longest_trail
from engine.longest import longest_trail
from maps import Board, Route, load_board

DATA = Path(__file__).parent / "data" / "crowded_usa.json"
FLOOR_MS = 10.0  # issue #16: the longest paths of a crowded four-player board within 10 ms

Search = Callable[[Sequence[Route]], tuple[int, list[Route]]]


def crowded_networks(board: Board) -> tuple[list[list[Route]], list[int]]:
    """The file's four networks as board routes, and their correct longest paths."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    networks = []
    for owned in data["players"]:
        taken: set[int] = set()
        routes = []
        for a, b, length in owned:
            route = next(r for r in board.routes_between(a, b) if r.length == length and r.id not in taken)
            taken.add(route.id)
            routes.append(route)
        networks.append(routes)
    return networks, list(data["longest"])


def board_ms(search: Search, networks: list[list[Route]]) -> tuple[float, list[int]]:
    start = time.perf_counter()
    lengths = [search(routes)[0] for routes in networks]
    return (time.perf_counter() - start) * 1000, lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20, help="timed boards per search")
    args = parser.parse_args()
    networks, expected = crowded_networks(load_board("usa"))
    best = {"old": float("inf"), "new": float("inf")}
    found: dict[str, list[int]] = {}
    for _ in range(args.repeat):
        for name, search in (("old", reference_longest_trail), ("new", longest_trail)):
            ms, lengths = board_ms(search, networks)
            best[name] = min(best[name], ms)
            found[name] = lengths
    right = found["new"] == expected and found["old"] == expected
    verdict = "PASS" if best["new"] <= FLOOR_MS and right else "FAIL"
    print(f"crowded USA board, four players, longest paths expected {expected}; best of {args.repeat}")
    print(f"  old search (main at baada59) {best['old']:8.2f} ms per board, found {found['old']}")
    print(f"  new search (engine/longest)  {best['new']:8.2f} ms per board, found {found['new']}")
    faster = best["old"] / best["new"]
    print(f"  {faster:.0f}x faster; floor {FLOOR_MS:.0f} ms per board, right lengths: {right}  {verdict}")


if __name__ == "__main__":
    main()
