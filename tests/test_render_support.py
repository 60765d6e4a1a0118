"""Games and image helpers shared by the render tests (this module holds no tests).

Games are built once per session and must not be changed by a test: use
`game.copy()` before applying moves.
"""

from __future__ import annotations

import io
import random
from functools import cache

from PIL import Image, ImageChops, ImageDraw

from engine import Game
from engine.random_play import play_random, random_move
from maps import load_board
from render import board_layout

# Names with letters beyond ASCII, as Discord users have them.
NAMES = ("Zoë", "Björn", "Chandra", "Dörte", "Émile")


@cache
def start_game(map_name: str) -> Game:
    board = load_board(map_name)
    return Game(board, list(NAMES[: board.rules.min_players]), seed="start")


@cache
def crowded_game(map_name: str) -> Game:
    """A finished game with as many players as the map allows: a crowded board."""
    board = load_board(map_name)
    game = Game(board, list(NAMES[: board.rules.max_players]), seed="crowded")
    play_random(game, random.Random(7))
    assert game.finished
    return game


@cache
def claim_pair(map_name: str) -> tuple[Game, Game]:
    """A mid-game state, and the same game right after its next route was placed."""
    board = load_board(map_name)
    game = Game(board, list(NAMES[: board.rules.max_players]), seed="claim")
    rng = random.Random(11)
    while True:
        move = random_move(game, rng)
        assert move is not None, "the game ended before a claim was found"
        before = game.copy()
        game.apply(move)
        if len(game.state.owner) > len(before.state.owner) and len(before.state.owner) >= 8:
            return before, game


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.mode == "RGB"
    return image


def board_area(image: Image.Image, map_name: str) -> Image.Image:
    layout = board_layout(map_name)
    return image.crop((0, 0, layout.width, layout.height))


def changed_pixels(a: Image.Image, b: Image.Image) -> Image.Image:
    """An L image, white wherever any channel of `a` and `b` differs."""
    r, g, bl = ImageChops.difference(a, b).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), bl).point(lambda v: 255 if v else 0)


def discs(size: tuple[int, int], centres: list[tuple[float, float, float]]) -> Image.Image:
    """An L image, white inside each (x, y, radius) disc."""
    mask = Image.new("L", size, 0)
    pen = ImageDraw.Draw(mask)
    for x, y, r in centres:
        pen.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return mask


def outside(changed: Image.Image, allowed: Image.Image) -> tuple[int, int, int, int] | None:
    """The box of changed pixels outside the allowed region, or None when there are none."""
    return ImageChops.subtract(changed, allowed).getbbox()
