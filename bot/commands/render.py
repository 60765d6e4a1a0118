"""`python -m bot render RECORD -o board.png`: draw a game record's board as a PNG."""

from __future__ import annotations

import argparse
import json
import sys

from bot.commands.limits import InputTooLarge, add_max_bytes, clip, read_text
from bot.present.image_words import image_words
from bot.service.kinds import Language
from engine import Game
from engine.errors import MoveError, RecordError
from engine.record import parse_record, replay
from render import render_board, render_final, render_private

NAME = "render"
HELP = "draw a game record's board (or a player's private view, or the final scores) as a PNG"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="the game record (JSON), or - for standard input")
    parser.add_argument("-o", "--output", required=True, help="where to write the PNG")
    view = parser.add_mutually_exclusive_group()
    view.add_argument("--player", metavar="NAME", help="draw this player's private view: their cards and tickets")
    view.add_argument(
        "--final", action="store_true", help="draw the final scores (for an unfinished game: as if it ended now)"
    )
    parser.add_argument(
        "--language",
        choices=[lang.value for lang in Language],
        default=Language.EN.value,
        help="the language of the image's words and alt text (default en)",
    )
    add_max_bytes(parser)


class _Failure(Exception):
    """A problem to report in one line, without a traceback."""


def _load(path: str, max_bytes: int) -> Game:
    try:
        text = read_text(path, max_bytes)
    except InputTooLarge as exc:
        raise _Failure(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Failure(f"cannot read {path}: {exc}") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _Failure(f"{path} is not valid JSON: {exc}") from None
    try:
        return replay(parse_record(doc))
    except RecordError as exc:
        raise _Failure(f"{path} is not a game record this bot can play: {exc}") from None
    except MoveError as exc:
        raise _Failure(f"{path} stops replaying at move {exc.index}: {exc.reason}") from None


def _seat(game: Game, name: str) -> int:
    """The seat of `name`, matched exactly, else ignoring case."""
    if name in game.names:
        return game.names.index(name)
    folded = [n for n in game.names if n.casefold() == name.casefold()]
    if len(folded) == 1:
        return game.names.index(folded[0])
    raise _Failure(f"no player {name!r} in this game; the players are {', '.join(game.names)}")


def run(args: argparse.Namespace) -> int:
    try:
        game = _load(args.record, args.max_bytes)
        words = image_words(Language(args.language))
        if args.player is not None:
            image = render_private(game, _seat(game, args.player), words=words)
        elif args.final:
            image = render_final(game, words=words)
        else:
            image = render_board(game, words=words)
    except _Failure as exc:
        print(f"error: {clip(str(exc))}", file=sys.stderr)
        return 1
    except Exception as exc:  # the command line promises a message, never a traceback
        problem = clip(f"{type(exc).__name__}: {exc}")
        print(f"error: internal error while rendering ({problem}); please report it", file=sys.stderr)
        return 1
    try:
        with open(args.output, "wb") as handle:
            handle.write(image.png)
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.output}: {image.width}x{image.height} pixels, {len(image.png) / 1024:.0f} KB")
    print(f"alt text: {image.alt_text}")
    return 0
