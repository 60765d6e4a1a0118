"""`python -m bot replay FILE`: replay a game record and print its outcome as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.record import replay_text

NAME = "replay"
HELP = "replay a game record (JSON) and print the outcome, or the first illegal move"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the game record, or - for standard input")


def _error(message: str) -> dict[str, Any]:
    return {"error": {"move": None, "message": message}}


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(json.dumps(_error(f"cannot read {args.file}: {exc}")))
        return 1
    try:
        status, result = replay_text(text)
    except Exception as exc:  # noqa: BLE001 - the replay contract forbids tracebacks
        status, result = 1, _error(f"internal error while replaying ({type(exc).__name__}: {exc}); please report it")
    print(json.dumps(result))
    return status
