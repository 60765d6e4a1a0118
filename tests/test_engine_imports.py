"""The engine's modules import one another one way only: no circle, and no import hidden inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.import_graph import circles

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def _module(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run (those under `if TYPE_CHECKING:` only name types)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skipped]


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    modules = {_module(p): p for p in ENGINE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    hidden: list[str] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        for node in _runtime_imports(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                targets = [a.name for a in node.names]
            targets = [t for t in targets if t in modules and t != name]
            if targets and id(node) not in top:
                hidden.append(f"{name}: {', '.join(targets)}")
            graph[name] |= set(targets)
    return graph, hidden


def test_no_module_of_the_engine_imports_inside_a_function() -> None:
    _, hidden = _graph()
    assert hidden == []


def test_the_engine_has_no_import_circle() -> None:
    graph, _ = _graph()
    assert circles(graph) == []


def test_the_autopilots_import_one_way() -> None:
    graph, _ = _graph()
    assert "engine.steady" in graph["engine.strong"] and "engine.strong" not in graph["engine.steady"]
    assert {"engine.steady", "engine.strong"} <= graph["engine.autopilot"]
    assert graph["engine.paths"].isdisjoint({"engine.autopilot", "engine.steady", "engine.strong"})
