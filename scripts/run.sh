#!/usr/bin/env bash
# Install the bot into .venv if needed and start it (python -m bot).
# Usage: scripts/run.sh [subcommand and options of python -m bot]
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
if ! .venv/bin/python -c "import bot, discord, PIL, aiosqlite, networkx" 2>/dev/null; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
fi
exec .venv/bin/python -m bot "$@"
