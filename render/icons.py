"""Pictograms: San Francisco's tourist symbols, Amsterdam's merchandise cart, country flags.

Each is drawn with plain shapes into a pen (see sprites.custom) inside a
square of `size` pixels centred on (x, y), so one drawing serves the board,
the panel and the legend.
"""

from __future__ import annotations

from PIL import ImageDraw

from render.palette import INK, RGB
from render.sprites import Local

# Each tourist symbol's badge colour; names as in the San Francisco board data.
TOURIST_COLOURS: dict[str, RGB] = {
    "alcatraz": (90, 110, 130),
    "golden_gate_bridge": (192, 54, 44),
    "embarcadero": (150, 120, 60),
    "sunset": (236, 120, 20),
    "potrero_hill": (60, 130, 60),
    "lombard_street": (170, 60, 110),
    "cable_car": (40, 90, 170),
}

FLAG_STRIPES: dict[str, tuple[str, tuple[RGB, ...]]] = {
    # country -> (stripe direction, colours), as on the Switzerland board's flags
    "France": ("vertical", ((0, 85, 164), (255, 255, 255), (239, 65, 53))),
    "Deutschland": ("horizontal", ((0, 0, 0), (221, 0, 0), (255, 206, 0))),
    "Österreich": ("horizontal", ((200, 16, 46), (255, 255, 255), (200, 16, 46))),
    "Italia": ("vertical", ((0, 140, 69), (255, 255, 255), (205, 33, 42))),
}


def _box(local: Local, x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], tuple[float, float]]:
    return (local(x0, y0), local(x1, y1))


def _poly(pen: ImageDraw.ImageDraw, local: Local, points: list[tuple[float, float]], fill: RGB) -> None:
    pen.polygon([local(px, py) for px, py in points], fill=fill)


def _line(pen: ImageDraw.ImageDraw, local: Local, points: list[tuple[float, float]], fill: RGB, width: float) -> None:
    a = local(0.0, 0.0)
    b = local(1.0, 0.0)
    px = max(1, round(width * (b[0] - a[0])))
    pen.line([local(x, y) for x, y in points], fill=fill, width=px, joint="curve")


def tourist(pen: ImageDraw.ImageDraw, local: Local, symbol: str, x: float, y: float, size: float) -> None:
    """The pictogram of a tourist symbol, in white, for a coloured badge."""
    u = size / 20.0  # the drawings below are on a 20-unit grid centred on (x, y)
    white: RGB = (255, 255, 255)

    def p(dx: float, dy: float) -> tuple[float, float]:
        return (x + dx * u, y + dy * u)

    if symbol == "alcatraz":  # the island and its lighthouse
        pen.ellipse(_box(local, *p(-9, 4), *p(9, 9)), fill=white)
        _poly(pen, local, [p(-2.2, 5), p(2.2, 5), p(1.3, -6), p(-1.3, -6)], white)
        pen.ellipse(_box(local, *p(-2.3, -9.5), *p(2.3, -5.2)), fill=white)
    elif symbol == "golden_gate_bridge":  # two towers, the cable and the deck
        for tx in (-5.0, 5.0):
            _poly(pen, local, [p(tx - 1.2, -9), p(tx + 1.2, -9), p(tx + 1.2, 8), p(tx - 1.2, 8)], white)
        _line(pen, local, [p(-10, -2), p(-5, -8), p(0, -1), p(5, -8), p(10, -2)], white, 1.3 * u)
        _poly(pen, local, [p(-10, 2), p(10, 2), p(10, 4), p(-10, 4)], white)
    elif symbol == "embarcadero":  # the Ferry Building's clock tower
        _poly(pen, local, [p(-3, -3), p(3, -3), p(3, 9), p(-3, 9)], white)
        _poly(pen, local, [p(-3.5, -3), p(0, -10), p(3.5, -3)], white)
        _poly(pen, local, [p(-9, 4), p(9, 4), p(9, 9), p(-9, 9)], white)
    elif symbol == "sunset":  # the sun going down over the ocean
        pen.pieslice(_box(local, *p(-7, -4), *p(7, 10)), 180, 360, fill=white)
        for dx, dy in ((-9, -6), (0, -9.5), (9, -6)):
            _line(pen, local, [p(dx * 0.75, dy * 0.75 + 1), p(dx, dy)], white, 1.4 * u)
        _poly(pen, local, [p(-10, 4), p(10, 4), p(10, 5.6), p(-10, 5.6)], white)
        _poly(pen, local, [p(-7, 7.5), p(7, 7.5), p(7, 9), p(-7, 9)], white)
    elif symbol == "potrero_hill":  # a hill with a house on it
        pen.pieslice(_box(local, *p(-10, -2), *p(10, 18)), 180, 360, fill=white)
        _poly(pen, local, [p(-2.5, -2), p(2.5, -2), p(2.5, -7), p(0, -9.5), p(-2.5, -7)], white)
    elif symbol == "lombard_street":  # the crooked street
        _line(pen, local, [p(-6, -9), p(6, -5), p(-6, -1), p(6, 3), p(-6, 7), p(2, 9.5)], white, 2.0 * u)
    elif symbol == "cable_car":  # a cable car on its rail
        _poly(pen, local, [p(-9, -4), p(9, -4), p(9, 5), p(-9, 5)], white)
        _line(pen, local, [p(0, -4), p(0, -9)], white, 1.2 * u)
        _line(pen, local, [p(-10, 8.5), p(10, 8.5)], white, 1.2 * u)
        for wx in (-6.0, -1.0, 4.0):
            _poly(pen, local, [p(wx, -2), p(wx + 3, -2), p(wx + 3, 1), p(wx, 1)], TOURIST_COLOURS["cable_car"])
    else:  # an unknown symbol still gets a recognisable badge
        pen.ellipse(_box(local, *p(-5, -5), *p(5, 5)), fill=white)


def cart(pen: ImageDraw.ImageDraw, local: Local, x: float, y: float, size: float, colour: RGB = INK) -> None:
    """Amsterdam's merchandise cart: a loaded box on two wheels."""
    u = size / 20.0

    def p(dx: float, dy: float) -> tuple[float, float]:
        return (x + dx * u, y + dy * u)

    _poly(pen, local, [p(-9, -5), p(9, -5), p(7, 4), p(-7, 4)], colour)
    _line(pen, local, [p(9, -5), p(10.5, -8)], colour, 1.4 * u)
    for wx in (-4.5, 4.5):
        pen.ellipse(_box(local, *p(wx - 3, 3.5), *p(wx + 3, 9.5)), fill=colour)
    _poly(pen, local, [p(-6, -9), p(-1, -9), p(-1, -5), p(-6, -5)], colour)
    _poly(pen, local, [p(1, -8), p(5, -8), p(5, -5), p(1, -5)], colour)


def flag(pen: ImageDraw.ImageDraw, local: Local, country: str, x: float, y: float, width: float, height: float) -> None:
    """A country's tricolour with an ink rim; an unknown country gets a plain marker."""
    direction, colours = FLAG_STRIPES.get(country, ("vertical", ((220, 220, 220),) * 3))
    x0, y0 = x - width / 2, y - height / 2
    rim = max(1.0, height * 0.08)
    pen.rectangle(_box(local, x0 - rim, y0 - rim, x0 + width + rim, y0 + height + rim), fill=INK)
    for k, colour in enumerate(colours):
        if direction == "vertical":
            box = _box(local, x0 + width * k / 3, y0, x0 + width * (k + 1) / 3, y0 + height)
        else:
            box = _box(local, x0, y0 + height * k / 3, x0 + width, y0 + height * (k + 1) / 3)
        pen.rectangle(box, fill=colour)
