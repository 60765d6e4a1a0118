"""The `python -m bot` command line: one subcommand per module in bot/commands."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from types import ModuleType

from bot.commands import backup, check_maps, migrate_store, render, replay, tryout, verify
from bot.commands import run as run_bot

# Each module defines NAME, HELP, configure(parser) and run(args) -> exit status.
COMMANDS: tuple[ModuleType, ...] = (run_bot, tryout, replay, check_maps, render, backup, migrate_store, verify)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Conductor: Ticket to Ride for Discord. Without a command it starts the bot (as `run`).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return run_bot.run(args)
    status: int = args.handler(args)
    return status
