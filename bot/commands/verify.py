"""`python -m bot verify RECORD`: is this record the game the bot committed to? (engine/verify.py)"""

from __future__ import annotations

import argparse
import json

from bot.commands.limits import InputTooLarge, add_max_bytes, clip, read_text
from engine.verify import verify

NAME = "verify"
HELP = "check a game record against its commitment and hash chain (and the commitment and head the bot posted)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the game record the bot exported, or - for standard input")
    parser.add_argument("--commitment", help="the commitment the bot posted when the game started")
    parser.add_argument("--head", help="the chain head the bot posted when the game ended")
    add_max_bytes(parser)


def run(args: argparse.Namespace) -> int:
    try:
        text = read_text(args.file, args.max_bytes)
        doc = json.loads(text.removeprefix("\ufeff"))
    except InputTooLarge as exc:
        print(f"NOT VERIFIED: {exc}")
        return 1
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        print(clip(f"NOT VERIFIED: cannot read {args.file}: {exc}"))
        return 1
    verdict = verify(doc, posted_commitment=args.commitment, posted_head=args.head)
    for check in verdict.checks:
        detail = f" ({clip(check.detail)})" if check.detail else ""
        print(f"{'ok ' if check.ok else 'NO '} {check.what}{detail}")
    for change in verdict.seat_changes:
        print(clip(f"seat change {change}"))
    for note in verdict.notes:
        print(clip(note))
    if verdict.commitment is not None:
        print(f"commitment {verdict.commitment}")
        print(f"head       {verdict.head}")
    print(verdict.summary)
    return 0 if verdict.ok else 1
