#!/usr/bin/env bash
# Install everything into .venv and run all checks: tests, ruff, mypy.
# Usage: scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
echo "== ruff"
.venv/bin/ruff check .
echo "== ruff format"
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
