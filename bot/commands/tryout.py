"""`python -m bot try`: the real bot in a local simulated Discord, played in a browser page (no token needed)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path

from maps.loader import MAP_NAMES

NAME = "try"
HELP = "try the bot in your browser: a local simulated Discord on 127.0.0.1, no Discord application or token"

LEVELS = ("steady", "strong", "expert")
LANGUAGES = ("en", "sv", "fi")
MAX_BOTS = 4  # as /ttr new allows
MAX_FRIENDS = 4
# what the try-out needs beyond the bot's own dependencies: SimCord's preview (the `try` extra)
PREVIEW_MODULES = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "av")
MISSING_EXTRA = (
    "error: the try-out needs SimCord's preview, which is not installed. Install it with "
    "`.venv/bin/python -m pip install -e '.[try]'` (scripts/run.sh does so when there is no DISCORD_TOKEN)."
)


def count(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"a whole number from {low} to {high}, not {text!r}")
        return int(text)

    return parse


def port_number(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port number from 0 to 65535 (0: any free one), not {text!r}")
    return int(text)


def member_name(text: str) -> str:
    name = text.strip()
    if not 1 <= len(name) <= 32 or not name.isprintable():
        raise argparse.ArgumentTypeError("a name of 1 to 32 printable characters")
    return name


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bots",
        type=count(1, MAX_BOTS),
        metavar="N",
        help=f"open a game against N autopilot players at once (1-{MAX_BOTS}); without it, open one from the page",
    )
    parser.add_argument("--level", choices=LEVELS, default="steady", help="how well the autopilot plays (with --bots)")
    parser.add_argument("--map", choices=MAP_NAMES, default="usa", help="the board of that game (with --bots)")
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the language of the server and of every member's private texts (default: English, "
        "or what /ttr config and /ttr settings chose in the page)",
    )
    parser.add_argument("--name", type=member_name, default="Alex", help="your name in the server (default: Alex)")
    parser.add_argument(
        "--friends",
        type=count(0, MAX_FRIENDS),
        default=3,
        metavar="N",
        help=f"friends in the server to switch to and play for (0-{MAX_FRIENDS}, default 3)",
    )
    parser.add_argument(
        "--port", type=port_number, default=8765, help="the page's port on 127.0.0.1 (default 8765; taken: a free one)"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=Path("data/tryout"),
        metavar="DIR",
        help="the try-out's own folder: its SQLite database, never the bot's (default data/tryout)",
    )


def run(args: argparse.Namespace) -> int:
    missing = [name for name in PREVIEW_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        print(MISSING_EXTRA, file=sys.stderr)
        return 2
    # imported here: the other subcommands need neither SimCord nor discord.py
    from bot.runtime.logs import setup_logging
    from bot.runtime.settings import SettingsError, log_format_setting, metrics_address_setting
    from bot.service.kinds import Language
    from bot.tryout.session import GameRequest, TryOptions, main

    try:  # the operator's settings of the environment (not .env): where to serve the metrics, the log's format
        metrics, log_format = metrics_address_setting(os.environ), log_format_setting(os.environ)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    setup_logging("WARNING", "WARNING", log_format=log_format)
    if metrics is not None:
        host, port = metrics
        print(f"Metrics and health on http://{host}:{port}: /metrics, /healthz, /readyz.", flush=True)
    game = None if args.bots is None else GameRequest(args.map, args.bots, args.level)
    options = TryOptions(
        data=args.data,
        port=args.port,
        name=args.name,
        friends=args.friends,
        language=None if args.language is None else Language(args.language),
        game=game,
        metrics=metrics,
    )
    return main(options)
