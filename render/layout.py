"""Where a board goes in the image: canvas coordinates to pixels, and the sizes of things.

Every map is drawn from the drawing positions in its data file (maps/data: place
centres, each space's centre and angle on the map's canvas). The layout crops the canvas to
what the board uses, scales it to the image's board area and puts the panel
below a landscape board or beside a tall one, so that every image is about
1,750 pixels wide.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import cache

from maps import Board, Route, load_board

IMAGE_WIDTH = 1744  # every image is this wide
SIDE_PANEL_WIDTH = 560  # the panel's width when it sits beside the board
CONTENT_MARGIN = 44.0  # canvas units kept around the outermost places and spaces
LANDSCAPE_ASPECT = 1.4  # boards at least this wide for their height get the panel below

# Where the printed Switzerland board shows the four countries' names
# (maps/data/switzerland.json, coordinate_system note: "the country label positions in BGA are ...").
COUNTRY_LABELS: dict[str, dict[str, tuple[float, float]]] = {
    "switzerland": {
        "France": (250.0, 150.0),
        "Deutschland": (1470.0, 60.0),
        "Österreich": (1540.0, 400.0),
        "Italia": (1440.0, 960.0),
    }
}


@dataclass(frozen=True)
class BoardLayout:
    """The board area of an image: `to_pixel` maps the map's canvas onto it."""

    map_name: str
    scale: float  # pixels per canvas unit
    left: float  # the canvas x drawn at pixel x = 0
    top: float  # the canvas y drawn at pixel y = 0
    width: int  # board area, pixels
    height: int
    panel_below: bool  # True: panel under the board; False: beside it, on the right
    car_width: float  # a train space's width across the track, pixels
    car_lengths: tuple[float, ...]  # each route's space length along the track, pixels, by route id
    city_radius: float  # a place's dot, pixels

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        """The image position of canvas point (x, y), in (fractional) pixels."""
        return ((x - self.left) * self.scale, (y - self.top) * self.scale)

    def pixel_at(self, x: float, y: float) -> tuple[int, int]:
        """The pixel (column, row) that contains canvas point (x, y)."""
        px, py = self.to_pixel(x, y)
        return (math.floor(px), math.floor(py))

    def reach(self, route: Route) -> float:
        """How far from a space's centre anything drawn for that space may reach, in pixels."""
        return math.hypot(self.car_lengths[route.id], self.car_width) / 2 + 8

    @property
    def panel_width(self) -> int:
        return self.width if self.panel_below else SIDE_PANEL_WIDTH


def _content_box(board: Board) -> tuple[float, float, float, float]:
    xs = [p.x for p in board.places.values()] + [s.x for r in board.routes for s in r.spaces]
    ys = [p.y for p in board.places.values()] + [s.y for r in board.routes for s in r.spaces]
    for x, y in COUNTRY_LABELS.get(board.name, {}).values():
        xs.append(x)
        ys.append(y)
    m = CONTENT_MARGIN
    return (min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m)


def _track_gap(board: Board) -> float:
    """The closest two tracks of a double route come, centre to centre, in canvas units."""
    gaps = []
    for route in board.routes:
        for other in board.parallel(route):
            if other.id > route.id:
                for s in route.spaces:
                    gaps.append(min(math.hypot(s.x - o.x, s.y - o.y) for o in other.spaces))
    return min(gaps) if gaps else 24.0


def _spacings(route: Route) -> list[float]:
    return [math.hypot(a.x - b.x, a.y - b.y) for a, b in zip(route.spaces, route.spaces[1:], strict=False)]


def _car_lengths(board: Board) -> tuple[float, ...]:
    """Each route's space length in canvas units: its spacing less a small gap."""
    every = [d for r in board.routes for d in _spacings(r)]
    typical = statistics.median(every) if every else 64.0
    lengths = []
    for route in board.routes:
        spacing = min(_spacings(route), default=typical)
        lengths.append(min(max(spacing - 7.0, 34.0), 58.0))
    return tuple(lengths)


def layout_for(board: Board) -> BoardLayout:
    left, top, right, bottom = _content_box(board)
    w, h = right - left, bottom - top
    panel_below = w / h >= LANDSCAPE_ASPECT
    scale = IMAGE_WIDTH / w if panel_below else min((IMAGE_WIDTH - SIDE_PANEL_WIDTH) / w, 1.1 * IMAGE_WIDTH / h)
    width, height = round(w * scale), round(h * scale)
    if not panel_below:
        # centre the board in its area when the height limited the scale
        extra = (IMAGE_WIDTH - SIDE_PANEL_WIDTH) - width
        left -= extra / 2 / scale
        width = IMAGE_WIDTH - SIDE_PANEL_WIDTH
    # The width leaves a little room between the two tracks of a double route.
    car_width = min(18.0, _track_gap(board) - 4.5) * scale
    lengths = tuple(length * scale for length in _car_lengths(board))
    return BoardLayout(
        map_name=board.name,
        scale=scale,
        left=left,
        top=top,
        width=width,
        height=height,
        panel_below=panel_below,
        car_width=car_width,
        car_lengths=lengths,
        city_radius=10.0 * scale,
    )


@cache
def board_layout(map_name: str) -> BoardLayout:
    """The layout every image of `map_name` uses."""
    return layout_for(load_board(map_name))
