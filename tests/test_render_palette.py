"""Player colours stay apart from the track colours and from each other, and each has its own mark."""

from __future__ import annotations

import math

from maps import MAP_NAMES, load_board
from render import PLAYER_STYLES, ROUTE_COLOURS
from render.palette import HALO, LONGEST, TICKET_MARK


def test_every_route_colour_of_every_map_has_a_colour() -> None:
    for name in MAP_NAMES:
        board = load_board(name)
        assert {r.color for r in board.routes} <= set(ROUTE_COLOURS)
        assert set(board.rules.colors) <= set(ROUTE_COLOURS)


def test_player_colours_differ_from_every_track_colour() -> None:
    for style in PLAYER_STYLES:
        for name, rgb in ROUTE_COLOURS.items():
            assert math.dist(style.rgb, rgb) >= 50, (style.name, name)


def test_players_differ_by_colour_and_by_mark() -> None:
    assert len(PLAYER_STYLES) == 5
    assert len({s.rgb for s in PLAYER_STYLES}) == 5
    assert len({s.mark for s in PLAYER_STYLES}) == 5
    for a in PLAYER_STYLES:
        for b in PLAYER_STYLES:
            if a is not b:
                assert math.dist(a.rgb, b.rgb) >= 60, (a.name, b.name)


def test_the_highlight_colours_are_not_track_or_player_colours() -> None:
    for mark in (HALO, LONGEST, TICKET_MARK):
        assert mark not in ROUTE_COLOURS.values()
        assert mark not in {s.rgb for s in PLAYER_STYLES}
