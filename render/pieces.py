"""The board's pieces as sprites: empty spaces, trains, halos, place markers.

Both the static layer and each render build their pieces here, so a train is
always the exact size and position of the space it covers.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw

from maps import Board, Place, Route, Space
from render import icons, sprites
from render.layout import BoardLayout
from render.palette import CITY_FILL, HALO, INK, RGB, PlayerStyle, outline_of, route_colour
from render.sprites import Local, Sprite, quantise


def space_centre(layout: BoardLayout, space: Space) -> tuple[float, float]:
    x, y = layout.to_pixel(space.x, space.y)
    return (quantise(x), quantise(y))


def _placement(layout: BoardLayout, route: Route, index: int) -> tuple[float, float, float, float, float]:
    """(cx, cy, length, width, angle) of anything drawn on a route's space, quantised so equal pieces share a tile."""
    space = route.spaces[index]
    cx, cy = space_centre(layout, space)
    return cx, cy, quantise(layout.car_lengths[route.id]), quantise(layout.car_width), round(space.angle, 1)


def empty_space(layout: BoardLayout, route: Route, index: int) -> Sprite:
    """A space of an unclaimed route: the route's colour, a darker rim, its tunnel or ferry mark."""
    fill = route_colour(route.color)
    return sprites.car(
        sprites.CarSpec(
            *_placement(layout, route, index),
            fill=fill,
            rim=INK if route.tunnel else outline_of(fill),
            rim_width=quantise(max(1.5, layout.car_width * (0.16 if route.tunnel else 0.09))),
            tunnel=route.tunnel,
            ferry=index < route.ferries,
        )
    )


def train(layout: BoardLayout, route: Route, index: int, style: PlayerStyle) -> Sprite:
    """A player's train on a space: their colour, an ink rim and their mark near both ends."""
    return sprites.car(
        sprites.CarSpec(
            *_placement(layout, route, index),
            fill=style.rgb,
            rim=INK,
            rim_width=quantise(max(1.5, layout.car_width * 0.11)),
            mark=style.mark,
            mark_rgb=style.mark_rgb,
            shine=True,
        )
    )


def route_halo(layout: BoardLayout, route: Route, index: int, colour: RGB = HALO, grow: float = 5.0) -> Sprite:
    """A glow around one space of a route (the last move, or the longest path)."""
    return sprites.halo(*_placement(layout, route, index), quantise(grow * max(1.0, layout.scale)), colour, INK)


def cart_position(layout: BoardLayout, route: Route) -> tuple[float, float]:
    """Where a route's cart badge sits: between its two middle spaces, off every centre."""
    n = len(route.spaces)
    if n == 1:
        s = route.spaces[0]
        cx, cy = space_centre(layout, s)
        return sprites.along(cx, cy, s.angle, layout.car_lengths[route.id] / 2)
    k = (n - 1) // 2
    a, b = space_centre(layout, route.spaces[k]), space_centre(layout, route.spaces[k + 1])
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def cart_badge(layout: BoardLayout, route: Route) -> Sprite:
    x, y = cart_position(layout, route)
    return cart_badge_at(quantise(x), quantise(y), quantise(layout.car_width * 0.72))


@lru_cache(maxsize=512)
def cart_badge_at(x: float, y: float, r: float) -> Sprite:
    """Amsterdam's merchandise cart in a white disc of radius `r`."""

    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        pen.ellipse((local(x - r, y - r), local(x + r, y + r)), fill=INK)
        inner = r - max(1.2, r * 0.12)
        pen.ellipse((local(x - inner, y - inner), local(x + inner, y + inner)), fill=(255, 255, 255))
        icons.cart(pen, local, x, y, r * 1.25)

    return sprites.custom(x, y, r, INK, draw)


def place_dot(layout: BoardLayout, place: Place) -> Sprite:
    x, y = layout.to_pixel(place.x, place.y)
    r = layout.city_radius
    return sprites.disc(quantise(x), quantise(y), quantise(r), CITY_FILL, INK, quantise(max(2.0, r * 0.26)))


def border_flag(layout: BoardLayout, place: Place) -> Sprite:
    """A Switzerland border point: the country's flag."""
    x, y = layout.to_pixel(place.x, place.y)
    w, h = 30 * layout.scale, 20 * layout.scale
    country = place.country or ""

    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        icons.flag(pen, local, country, x, y, w, h)

    return sprites.custom(x, y, w / 2 + 3, INK, draw)


def stack_radius(layout: BoardLayout) -> float:
    return 19.0 * max(1.0, layout.scale)


def stack_badge(layout: BoardLayout, place: Place, symbol: str, tokens: int) -> tuple[Sprite, tuple[float, float]]:
    """A San Francisco tourist stack on its place, and where its token count goes."""
    x, y = layout.to_pixel(place.x, place.y)
    r = stack_radius(layout)
    badge = stack_badge_at(quantise(x), quantise(y), quantise(r), symbol, tokens == 0)
    return badge, sprites.along(x, y, -45.0, r * 1.05)


@lru_cache(maxsize=512)
def stack_badge_at(x: float, y: float, r: float, symbol: str, empty: bool = False) -> Sprite:
    """A tourist symbol in a disc of its colour (gray once its stack is empty)."""
    colour = (196, 190, 180) if empty else icons.TOURIST_COLOURS.get(symbol, (120, 120, 120))

    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        pen.ellipse((local(x - r, y - r), local(x + r, y + r)), fill=INK)
        inner = r - max(2.0, r * 0.11)
        pen.ellipse((local(x - inner, y - inner), local(x + inner, y + inner)), fill=colour)
        icons.tourist(pen, local, symbol, x, y, r * 1.2)

    return sprites.custom(x, y, r, INK, draw)


def board_places(board: Board) -> list[Place]:
    """Places that get a dot and a name (not Switzerland's border points)."""
    return [p for p in board.places.values() if p.country is None]
