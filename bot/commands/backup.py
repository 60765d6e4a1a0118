"""`python -m bot backup PATH`: a consistent copy of the live database, safe while the bot runs.

SQLite's online backup copies the database as of one moment (it reads inside
one transaction; with write-ahead logging the bot keeps writing meanwhile).
The copy is written next to PATH, checked, and only then renamed to PATH, so
PATH is never a half-written file. PATH may not be the live database nor
one of the files SQLite keeps beside it (`-wal`, `-shm`, `-journal`), however
it is spelled (links and `..` are resolved): writing there would destroy
committed games.

On PostgreSQL (`--database` or CONDUCTOR_DATABASE a `postgresql://` URL) the
copy is the same kind of file: every table read in one REPEATABLE READ
transaction (one consistent moment, while the bots keep writing) and written
into a new SQLite database (bot/commands/store_copy.py). It does not need
pg_dump; `python -m bot migrate-store COPY URL` puts it back into an empty
PostgreSQL database, and the bot can run on it as it is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

from bot.runtime.settings import Settings, SettingsError, database_setting
from bot.store import StoreError, describe

NAME = "backup"
HELP = "write a consistent copy of the bot's database to PATH (safe while the bot runs)"


class BackupError(RuntimeError):
    """The backup could not be made; the message says why."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="where to write the copy (replaced if it exists)")
    parser.add_argument(
        "--database",
        help="the live database, an SQLite file or a postgresql:// URL (default: CONDUCTOR_DATABASE from the "
        "environment or .env, else data/conductor.sqlite3)",
    )


def backup(source: Path, target: Path) -> int:
    """Copy `source` to `target` as one self-contained file; the number of games in the copy."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    live = _live_file(source, target)
    if live is not None:
        raise BackupError(
            f"the copy must not overwrite the live database or one of its files ({live}); choose another path"
        )
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        # mode=rw: a mistyped path must not create an empty "database" to back up
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                # one file, no -wal beside it, whatever mode the live database uses
                dst.execute("PRAGMA journal_mode = DELETE")
                check = dst.execute("PRAGMA integrity_check").fetchone()[0]
                if check != "ok":
                    raise BackupError(f"the copy fails SQLite's integrity check: {check}")
                games = _count_games(dst)
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot back up {source}: {exc}") from None
    except OSError as exc:
        raise BackupError(f"cannot write {target}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return games


# The files SQLite keeps beside a database: the write-ahead log, its index, the rollback journal.
LIVE_SUFFIXES = ("", "-wal", "-shm", "-journal")


def _live_file(source: Path, target: Path) -> Path | None:
    """The live database's file that `target` is (after links and `..`), if it is one of them."""
    where = target.resolve()
    database = source.resolve()
    for suffix in LIVE_SUFFIXES:
        live = database.with_name(database.name + suffix)
        if where == live:
            return live
        try:
            if target.exists() and live.exists() and os.path.samefile(target, live):
                return live  # a hard link to it
        except OSError:
            continue
    return None


def _count_games(conn: sqlite3.Connection) -> int:
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'").fetchone() is None:
        raise BackupError("this is not a Conductor database (it has no games table)")
    count: int = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    return count


def backup_postgres(url: str, target: Path) -> int:
    """Export the PostgreSQL database at `url` into the new SQLite file `target`; the number of games in it."""
    from bot.commands.store_copy import export_to_sqlite

    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        counts = asyncio.run(export_to_sqlite(url, partial))
        os.replace(partial, target)
    except StoreError as exc:
        raise BackupError(str(exc)) from None
    except OSError as exc:
        raise BackupError(f"cannot write {target}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return counts["games"]


def run(args: argparse.Namespace) -> int:
    try:
        source = database_setting(args.database) if args.database else Settings.from_env().database
        target = Path(args.path)
        games = backup_postgres(source, target) if isinstance(source, str) else backup(source, target)
    except (BackupError, SettingsError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    size = target.stat().st_size
    shown = describe(source)
    print(f"backed up {shown} ({games} game{'' if games == 1 else 's'}, {size // 1024} KiB) to {target}")
    return 0
