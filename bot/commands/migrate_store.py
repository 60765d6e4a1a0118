"""`python -m bot migrate-store FROM TO`: copy an SQLite database into an empty PostgreSQL one, and check the copy.

FROM is an SQLite file (the bot's database, or a backup of either store);
TO a `postgresql://` URL of an empty database (its schema is made if
missing; a database with any row in it is refused, nothing is written).
FROM is only read: opened read-only, copied as one state into a private file
in the temporary folder, and checked there (SQLite's quick check, Conductor's
tables; an older schema is brought up to date in that copy, never in FROM),
and so is every game in it: dealt again from its seed and its moves replayed
by the rules, its decks, moves, status and snapshot must be what they make
(bot/commands/game_checks.py), or the copy is refused naming the game and
the move or what differs, before anything is written to TO.
The copy into TO is one transaction, so a failure leaves TO empty. Then it is
checked: the rows of every table counted on both sides, and every started
game replayed from its moves on both sides to the same state; if that fails,
TO is emptied again. Every problem is one line on standard error and exit 1.
Stop the bot before, so that nothing changes FROM while it is copied.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.runtime.settings import database_setting
from bot.store import StoreError, describe

NAME = "migrate-store"
HELP = "copy an SQLite database into an empty PostgreSQL database and verify the copy"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="FROM", help="the SQLite database file to copy")
    parser.add_argument("target", metavar="TO", help="the empty PostgreSQL database, as a postgresql:// URL")


def run(args: argparse.Namespace) -> int:
    from bot.commands.store_copy import copy_to_postgres

    source = database_setting(args.source)
    target = database_setting(args.target)
    if isinstance(source, str):
        print("migrate-store: FROM must be an SQLite file, not a URL", file=sys.stderr)
        return 1
    if not isinstance(target, str):
        print("migrate-store: TO must be a postgresql:// URL", file=sys.stderr)
        return 1
    try:
        report = asyncio.run(copy_to_postgres(Path(source), target))
    except StoreError as exc:
        print(f"migrate-store failed: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # the temporary folder for the private copy of FROM
        print(f"migrate-store failed: cannot write a private copy of FROM: {exc}", file=sys.stderr)
        return 1
    rows = sum(report.counts.values())
    print(
        f"copied {source} to {describe(target)}: {rows} rows in {len(report.counts)} tables "
        f"({report.counts['games']} games, {report.counts['moves']} moves), counts equal, "
        f"{report.games_replayed} games replayed to the same state"
    )
    return 0
