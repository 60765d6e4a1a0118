"""What the installed package holds: the product's folders, not the benchmarks' reference engine."""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent


def test_the_reference_engine_is_not_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = config["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(str(ROOT), include=found["include"], exclude=found.get("exclude", ()))
    assert "engine" in packages and "bot" in packages
    assert [p for p in packages if "reference" in p or p.split(".")[0] in {"bench", "tests", "tools"}] == []
    assert (ROOT / "bench" / "reference_engine" / "game.py").is_file()
