"""`python -m bot replay FILE`: replay a game record and print its outcome as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.commands.limits import InputTooLarge, add_max_bytes, clip, read_text
from engine.record import replay_text

NAME = "replay"
HELP = "replay a game record (JSON) and print the outcome, or the first illegal move"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the game record, or - for standard input")
    add_max_bytes(parser)


def _error(message: str) -> dict[str, Any]:
    return {"error": {"move": None, "message": message}}


def run(args: argparse.Namespace) -> int:
    try:
        text = read_text(args.file, args.max_bytes)
    except InputTooLarge as exc:
        print(json.dumps(_error(str(exc))))
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        print(json.dumps(_error(clip(f"cannot read {args.file}: {exc}"))))
        return 1
    try:
        status, result = replay_text(text)
    except Exception as exc:  # the replay contract forbids tracebacks
        status, result = 1, _error(f"internal error while replaying ({type(exc).__name__}: {exc}); please report it")
    if "error" in result:
        result["error"]["message"] = clip(result["error"]["message"])
    print(json.dumps(result))
    return status
