"""The three images the bot posts, as PNG bytes with their alt text.

Pure functions of a game (and a viewer): no I/O and no Discord. They only
read shared caches, so they may run in worker threads (asyncio.to_thread).
Every text in an image and its alt text comes from `words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from engine import Game
from render import alt_text
from render.board import draw_board, last_move_route
from render.compose import compose, encode_png
from render.final import longest_note, longest_path_routes, scores_block
from render.layout import board_layout
from render.panel import cards_block, header_block, legend_block, players_block
from render.private import hand_block, ticket_marks, tickets_block
from render.words import ImageWords


@dataclass(frozen=True)
class RenderedImage:
    png: bytes
    alt_text: str
    width: int
    height: int


def _rendered(image: Image.Image, alt: str) -> RenderedImage:
    return RenderedImage(encode_png(image), alt, image.width, image.height)


def board_image(game: Game, labels: Mapping[int, str] | None = None, *, words: ImageWords) -> Image.Image:
    """The public board after the last move, with the panel (`labels`: names to show by seat)."""
    layout = board_layout(game.board.name)
    board = draw_board(game, words, highlight=last_move_route(game))
    return compose(
        layout,
        board,
        [
            [lambda w: header_block(game, w, words), lambda w: players_block(game, w, words, labels)],
            [lambda w: cards_block(game, w, words)],
            [lambda w: legend_block(game.board, w, words)],
        ],
        shares=(1.35, 1.0, 1.05),
    )


def private_image(game: Game, seat: int, labels: Mapping[int, str] | None = None, *, words: ImageWords) -> Image.Image:
    """`seat`'s own view: the public board plus their cards and tickets, ringed on the board."""
    if not 0 <= seat < len(game.names):
        raise ValueError(f"no seat {seat} in a game of {len(game.names)}")
    layout = board_layout(game.board.name)
    board = draw_board(game, words, highlight=last_move_route(game), tickets=ticket_marks(game, seat))
    return compose(
        layout,
        board,
        [
            [lambda w: header_block(game, w, words), lambda w: players_block(game, w, words, labels)],
            [lambda w: hand_block(game, seat, w, words), lambda w: tickets_block(game, seat, w, words)],
            [lambda w: cards_block(game, w, words), lambda w: legend_block(game.board, w, words, private=True)],
        ],
        shares=(1.1, 1.25, 0.95),
    )


def final_image(game: Game, ended: bool = False, *, words: ImageWords) -> Image.Image:
    """Every player's score broken down, with the longest path drawn on the board.

    For a game still being played it shows the scores as if it ended now;
    `ended`: the game was ended there (by a moderator), so they are its final scores.
    """
    layout = board_layout(game.board.name)
    scores = game.score()
    board = draw_board(game, words, longest=longest_path_routes(game, scores))
    title = words.final_heading(game.rules) if game.finished or ended else words.if_ended_heading(game.rules)
    return compose(
        layout,
        board,
        [
            [
                lambda w: header_block(game, w, words, title=title, ended=ended),
                lambda w: scores_block(game, w, words),
                lambda w: longest_note(game, scores, w, words, over=game.finished or ended),
            ]
        ],
        shares=(1.0,),
    )


def render_board(game: Game, labels: Mapping[int, str] | None = None, *, words: ImageWords) -> RenderedImage:
    """The public board; `labels` names seats otherwise than the game ("ann (autopilot)")."""
    return _rendered(board_image(game, labels, words=words), alt_text.board_alt(game, words, labels))


def render_private(
    game: Game, seat: int, labels: Mapping[int, str] | None = None, *, words: ImageWords
) -> RenderedImage:
    return _rendered(private_image(game, seat, labels, words=words), alt_text.private_alt(game, seat, words, labels))


def render_final(game: Game, ended: bool = False, *, words: ImageWords) -> RenderedImage:
    return _rendered(final_image(game, ended, words=words), alt_text.final_alt(game, words, ended))
