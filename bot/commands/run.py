"""`python -m bot run` (and plain `python -m bot`): start the Discord bot."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.runtime.settings import Settings, SettingsError
from bot.store import Database, MigrationError, StoreError, describe, open_store
from bot.store.sqlite.core import integrity_problem

NAME = "run"
HELP = "start the Discord bot (the default when no command is given); needs DISCORD_TOKEN"

README_SECTION = 'README.md, section "Running the bot"'
MISSING_TOKEN = (
    "error: no Discord bot token. Set DISCORD_TOKEN in the environment or in a .env file "
    "(copy .env.example). How to create the Discord application, add the bot with the scopes "
    f"`bot` and `applications.commands` and invite it with its link: see {README_SECTION}. "
    "To try the bot without Discord first: `python -m bot try` (or `scripts/run.sh` without a token)."
)
ON_DISCORD = (
    "Conductor on Discord (DISCORD_TOKEN is set). To try it in a local simulated Discord in your browser "
    "instead: `python -m bot try`, or `scripts/run.sh` with no DISCORD_TOKEN."
)


def damaged_database(path: Path, problem: str) -> str:
    """The refusal to start on a database that fails SQLite's integrity check, and what to do."""
    return (
        f"error: the database {path} is damaged (SQLite's integrity check says: {problem}). "
        "The bot will not start on it, since every command would fail. To recover: keep the bot stopped, "
        f"move {path.name} and any {path.name}-wal and {path.name}-shm beside it to another folder, "
        f"copy your newest backup (made by `python -m bot backup PATH`) to {path}, and start the bot again. "
        "Games changed since that backup are lost."
    )


def store_problem(database: Database) -> str | None:
    """Why the bot cannot start on the database, in one line; None when it can.

    The store is opened once and closed, as the bot opens it: a new database gets its schema, an older one is
    brought up to date, and one that is not Conductor's (another program's tables, a revision this program does
    not know, a table missing or changed) is refused with a typed error, nothing written to it.
    """

    async def open_and_close() -> None:
        await (await open_store(database)).close()

    try:
        asyncio.run(open_and_close())
    except (MigrationError, StoreError) as exc:
        return " ".join(f"error: the bot will not start on the database {describe(database)}: {exc}".split())
    return None


def configure(parser: argparse.ArgumentParser) -> None:
    """No options: everything comes from the environment or .env (see .env.example)."""


def run(args: argparse.Namespace) -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    # SQLite's quick check; a PostgreSQL server keeps its own pages and checksums
    problem = None if isinstance(settings.database, str) else integrity_problem(settings.database)
    if problem is not None:
        assert not isinstance(settings.database, str)
        print(damaged_database(settings.database, problem), file=sys.stderr)
        return 2
    problem = store_problem(settings.database)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    # imported here so that the other subcommands do not load discord.py
    import discord

    from bot.runtime import collector
    from bot.runtime.app import create_bot
    from bot.runtime.lifecycle import run_until_stopped
    from bot.runtime.logs import setup_logging
    from bot.runtime.metrics import shard_label

    print(ON_DISCORD, flush=True)
    setup_logging(
        settings.log_level,
        settings.discord_log_level,
        log_format=settings.log_format,
        shards=shard_label(settings.shards),
    )
    collector.tune()  # a long-running process with many games in memory (bot/runtime/collector.py)
    bot = create_bot(settings)
    try:
        asyncio.run(run_until_stopped(bot, settings.token))  # until SIGTERM or Ctrl-C, then a clean stop
    except discord.LoginFailure:
        print(f"error: Discord refused the token in DISCORD_TOKEN; make a new one ({README_SECTION}).", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: Discord refused an intent the bot asked for.", file=sys.stderr)
        return 2
    return 0
