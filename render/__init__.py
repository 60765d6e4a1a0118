"""Board images: pure functions from a game state to PNG bytes."""

from render.board import last_claimed_route, last_move_route
from render.compose import encode_png
from render.fonts import missing_glyphs
from render.images import (
    RenderedImage,
    board_image,
    final_image,
    private_image,
    render_board,
    render_final,
    render_private,
)
from render.layout import BoardLayout, board_layout
from render.palette import PLAYER_STYLES, ROUTE_COLOURS, PlayerStyle, player_style
from render.standings import render_standings
from render.static_layer import static_board
from render.words import ImageWords, LegendMark

__all__ = [
    "PLAYER_STYLES",
    "ROUTE_COLOURS",
    "BoardLayout",
    "ImageWords",
    "LegendMark",
    "PlayerStyle",
    "RenderedImage",
    "board_image",
    "board_layout",
    "encode_png",
    "final_image",
    "last_claimed_route",
    "last_move_route",
    "missing_glyphs",
    "player_style",
    "private_image",
    "render_board",
    "render_final",
    "render_private",
    "render_standings",
    "static_board",
]
