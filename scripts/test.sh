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
# The store tests run on SQLite and on PostgreSQL: tests/conftest.py starts a throwaway server
# (initdb + pg_ctl in a temporary folder, tools/pg_server.py) unless CONDUCTOR_TEST_PG_URL names one.
# Debian's postgresql package puts the programs in /usr/lib/postgresql/VERSION/bin.
if [ -z "${CONDUCTOR_TEST_PG_URL:-}" ]; then
    for bin in /usr/lib/postgresql/*/bin; do
        [ -x "$bin/initdb" ] && PATH="$PATH:$bin"
    done
    if ! command -v initdb >/dev/null 2>&1; then
        if [ "${CI:-}" = "true" ] || [ "$(id -u)" = "0" ]; then
            echo "== installing PostgreSQL (the store tests need a server)"
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
            for bin in /usr/lib/postgresql/*/bin; do
                [ -x "$bin/initdb" ] && PATH="$PATH:$bin"
            done
        else
            echo "PostgreSQL's initdb and pg_ctl are missing: install PostgreSQL (Debian: sudo apt-get install postgresql)" >&2
            echo "or set CONDUCTOR_TEST_PG_URL to a server the tests may create databases on" >&2
            exit 1
        fi
    fi
    export PATH
fi
# The try-out's browser test (tests/test_tryout_browser.py) drives Debian's Chromium with Playwright;
# no browser is ever downloaded. CONDUCTOR_CHROMIUM names another Chromium executable.
if [ -z "${CONDUCTOR_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    if [ "${CI:-}" = "true" ] || [ "$(id -u)" = "0" ]; then
        echo "== installing Chromium (the try-out's browser test needs it)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "Chromium is missing: install it (Debian: sudo apt-get install chromium)" >&2
        echo "or set CONDUCTOR_CHROMIUM to a Chromium executable" >&2
        exit 1
    fi
fi
echo "== ruff"
.venv/bin/ruff check .
echo "== ruff format"
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
