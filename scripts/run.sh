#!/usr/bin/env bash
# Install the bot into .venv if needed and start it (python -m bot).
# Without a Discord token (DISCORD_TOKEN in the environment or .env) and without arguments it starts
# the try-out instead: the real bot in a local simulated Discord, played in the browser (python -m bot try).
# Usage: scripts/run.sh [subcommand and options of python -m bot]
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
# the first run installs for a minute or more, quietly: say so before anything else
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import bot, discord, PIL, aiosqlite, networkx" 2>/dev/null; then
    echo "Conductor: installing the bot and its libraries into .venv (the first run takes a minute or two)..."
    if [ ! -x .venv/bin/python ]; then
        "$PY" -m venv .venv
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
fi
token_given() {
    [ -n "${DISCORD_TOKEN:-}" ] && return 0
    [ -f .env ] && grep -Eq "^[[:space:]]*(export[[:space:]]+)?DISCORD_TOKEN[[:space:]]*=[[:space:]]*[\"']?[^\"'[:space:]#]" .env
}
if [ $# -eq 0 ] && ! token_given; then
    set -- try
fi
if [ "${1:-}" = "try" ]; then
    # the try-out's extra: SimCord and its browser preview
    if ! .venv/bin/python -c "import simcord.preview, aiohttp, markdown_it, linkify_it, regex, av" 2>/dev/null; then
        echo "Conductor try-out (no DISCORD_TOKEN: a local simulated Discord in your browser; set DISCORD_TOKEN to run on Discord): installing SimCord and its page into .venv first..."
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[try]'
    fi
fi
exec .venv/bin/python -m bot "$@"
