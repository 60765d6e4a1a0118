"""Circles in a graph of imports (module -> the modules it imports), for the tests of the code's shape."""

from __future__ import annotations

from collections.abc import Mapping, Set


def circles(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """Every circle a depth-first walk meets, each as the modules around it (the first one again at its end)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found
