"""What `replay` and `render` read: a bounded amount of text, and error messages that never echo a file whole.

A game record of a long game is well under 1 MB, so `MAX_BYTES` (16 MB) only
stops files that are not records (or are made to be read whole); `--max-bytes
N` raises it. Messages that quote the input (an unknown map's name, an
illegal move) quote at most `ECHO_CHARS` characters of each quoted piece, and
a whole message is at most `MESSAGE_CHARS` characters.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import BinaryIO

MAX_BYTES = 16 * 1024 * 1024
ECHO_CHARS = 80
MESSAGE_CHARS = 400
ELLIPSIS = "…"
READ_PIECE = 1024 * 1024  # bytes read at a time

# A quoted piece of a message, as repr() writes it: 'text' or "text".
# Possessive, so that a quote left open never makes the search backtrack.
_QUOTED = re.compile(r"'(?:[^'\\]++|\\.)*+'" + r'|"(?:[^"\\]++|\\.)*+"', re.DOTALL)


class InputTooLarge(ValueError):
    """The file is larger than the limit; the message says how to read it anyway."""


def add_max_bytes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-bytes",
        type=_positive,
        default=MAX_BYTES,
        metavar="N",
        help=f"refuse a record larger than N bytes (default {MAX_BYTES}, 16 MB)",
    )


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {clip(repr(text))}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def read_text(path: str, max_bytes: int) -> str:
    """The file at `path` (`-`: standard input) as UTF-8 text, reading at most `max_bytes` bytes.

    Raises InputTooLarge above the limit, OSError and UnicodeDecodeError as
    reading does. Line ends in a file read as text mode would (\\r\\n and \\r
    become \\n); standard input is taken as it comes.
    """
    if path == "-":
        data = _read_at_most(sys.stdin.buffer, max_bytes + 1)
    else:
        with open(path, "rb") as handle:
            data = _read_at_most(handle, max_bytes + 1)
    if len(data) > max_bytes:
        raise InputTooLarge(
            f"{'standard input' if path == '-' else path} is larger than {max_bytes} bytes, "
            "far larger than a game record; use --max-bytes N to read it anyway"
        )
    text = data.decode("utf-8")
    if path != "-":
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _read_at_most(handle: BinaryIO, count: int) -> bytes:
    """Up to `count` bytes of `handle`, a piece at a time: a `count` of any size (the user's --max-bytes)
    costs no more memory than the input has, where one `read(count)` would set it aside at once or overflow."""
    pieces: list[bytes] = []
    left = count
    while left > 0:
        piece = handle.read(min(READ_PIECE, left))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def clip(message: str, echo: int = ECHO_CHARS, total: int = MESSAGE_CHARS) -> str:
    """`message` with every quoted piece cut to `echo` characters and the whole to `total` (with an ellipsis)."""

    def cut(match: re.Match[str]) -> str:
        quoted = match.group(0)
        if len(quoted) <= echo:
            return quoted
        return quoted[: echo - 1] + ELLIPSIS + quoted[-1]

    shorter = _QUOTED.sub(cut, message)
    if len(shorter) > total:
        shorter = shorter[: total - 1] + ELLIPSIS
    return shorter
