"""Small anti-aliased pieces (train spaces, trains, halos, dots), drawn once and reused.

Pillow draws polygons without anti-aliasing, so each piece is drawn four
times larger and reduced. A piece is an RGBA tile plus where to paste it;
pieces are cached by their full description, so a board that is drawn again
only pastes tiles it already has. Tiles are never modified after they are
made, which keeps sharing them between threads safe.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.palette import INK, RGB, WILD_STRIPES

SUPERSAMPLE = 4

Point = tuple[float, float]
Local = Callable[[float, float], Point]  # image pixels -> the supersampled pen's
Draw = Callable[[ImageDraw.ImageDraw, Local], None]


@dataclass(frozen=True)
class Sprite:
    image: Image.Image  # RGBA
    x: int  # where its top-left corner goes
    y: int

    def paste_on(self, target: Image.Image) -> None:
        target.paste(self.image, (self.x, self.y), self.image)


def quantise(value: float) -> float:
    """Positions and sizes to a quarter pixel, so equal pieces share one cache entry."""
    return round(value * 4) / 4


def custom(cx: float, cy: float, radius: float, under: RGB, draw: Draw) -> Sprite:
    """A piece drawn by `draw(pen, local)` around (cx, cy) within `radius` pixels at 4x, then reduced.

    `local` maps image pixels to the pen's. Transparent pixels carry the colour
    `under` so that the reduced edges fade into that colour rather than into
    black. Not cached: the named pieces below are.
    """
    x0 = math.floor(cx - radius) - 1
    y0 = math.floor(cy - radius) - 1
    size = math.ceil(cx + radius) + 2 - x0, math.ceil(cy + radius) + 2 - y0
    big = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (*under, 0))
    pen = ImageDraw.Draw(big)

    def local(x: float, y: float) -> Point:
        return ((x - x0) * SUPERSAMPLE, (y - y0) * SUPERSAMPLE)

    draw(pen, local)
    return Sprite(big.reduce(SUPERSAMPLE), x0, y0)


def rounded_rect(cx: float, cy: float, length: float, width: float, angle: float, corner: float) -> list[Point]:
    """The outline of a rectangle centred on (cx, cy), its long side at `angle` degrees."""
    corner = max(0.0, min(corner, width / 2, length / 2))
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    hl, hw = length / 2 - corner, width / 2 - corner
    points: list[Point] = []
    corners = ((hl, hw, 0.0), (-hl, hw, 90.0), (-hl, -hw, 180.0), (hl, -hw, 270.0))
    for sx, sy, start in corners:
        steps = 4 if corner > 0 else 0
        for k in range(steps + 1):
            t = math.radians(start + 90.0 * k / max(steps, 1))
            lx = sx + corner * math.cos(t)
            ly = sy + corner * math.sin(t)
            points.append((cx + lx * ux + ly * vx, cy + lx * uy + ly * vy))
    return points


def along(cx: float, cy: float, angle: float, distance: float, across: float = 0.0) -> Point:
    """The point `distance` along the track from (cx, cy), and `across` to its side."""
    a = math.radians(angle)
    return (cx + distance * math.cos(a) - across * math.sin(a), cy + distance * math.sin(a) + across * math.cos(a))


def draw_mark(
    pen: ImageDraw.ImageDraw,
    local: Local,
    x: float,
    y: float,
    shape: str,
    size: float,
    fill: RGB,
) -> None:
    """A player's mark, upright whatever the track's angle so a square never turns into a diamond."""
    h = size / 2
    if shape == "circle":
        pts = [local(x - h, y - h), local(x + h, y + h)]
        pen.ellipse((pts[0], pts[1]), fill=fill)
    elif shape == "triangle":
        pen.polygon(
            [local(x, y - h * 1.1), local(x + h * 1.1, y + h * 0.85), local(x - h * 1.1, y + h * 0.85)], fill=fill
        )
    elif shape == "square":
        s = h * 0.86
        pen.polygon([local(x - s, y - s), local(x + s, y - s), local(x + s, y + s), local(x - s, y + s)], fill=fill)
    elif shape == "diamond":
        s = h * 1.15
        pen.polygon([local(x, y - s), local(x + s, y), local(x, y + s), local(x - s, y)], fill=fill)
    elif shape == "cross":
        t = h * 0.38
        s = h * 1.05
        pen.polygon([local(x - t, y - s), local(x + t, y - s), local(x + t, y + s), local(x - t, y + s)], fill=fill)
        pen.polygon([local(x - s, y - t), local(x + s, y - t), local(x + s, y + t), local(x - s, y + t)], fill=fill)
    else:
        raise ValueError(f"unknown mark {shape!r}")


@dataclass(frozen=True)
class CarSpec:
    """One space or train: where, how big, and how it is dressed."""

    cx: float
    cy: float
    length: float
    width: float
    angle: float
    fill: RGB
    rim: RGB
    rim_width: float
    mark: str | None = None  # the owner's mark, drawn near both ends
    mark_rgb: RGB = INK
    tunnel: bool = False  # dashed heavy rim
    ferry: bool = False  # wild-card stripes near both ends
    shine: bool = False  # a lighter band along one side: a train, not printed track


@lru_cache(maxsize=4096)
def car(spec: CarSpec) -> Sprite:
    """A space or a train as described.

    A crowded board pastes about 400 pieces of about 16 KB each; 4,096 keeps the cache under 70 MB.
    """
    s = spec
    radius = math.hypot(s.length, s.width) / 2 + 1

    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        outer = rounded_rect(s.cx, s.cy, s.length, s.width, s.angle, s.width * 0.22)
        pen.polygon([local(*p) for p in outer], fill=s.rim)
        inner = rounded_rect(
            s.cx, s.cy, s.length - 2 * s.rim_width, s.width - 2 * s.rim_width, s.angle, s.width * 0.22 - s.rim_width / 2
        )
        pen.polygon([local(*p) for p in inner], fill=s.fill)
        inner_len, inner_w = s.length - 2 * s.rim_width, s.width - 2 * s.rim_width
        if s.shine:
            # a pale band along one long side, well clear of the centre pixel
            band = inner_w * 0.16
            x, y = along(s.cx, s.cy, s.angle, 0.0, -inner_w / 2 + band * 1.1)
            pts = rounded_rect(x, y, inner_len * 0.86, band, s.angle, 0.0)
            pen.polygon([local(*p) for p in pts], fill=_mix(s.fill, (255, 255, 255), 0.45))
        if s.tunnel:
            # gaps in the heavy rim make it dashed, like the tunnels printed on the board
            gap = s.rim_width * 1.2
            for k in (-0.3, 0.0, 0.3):
                for side in (-1, 1):
                    x, y = along(s.cx, s.cy, s.angle, k * s.length, side * (s.width / 2 - s.rim_width / 2))
                    pts = rounded_rect(x, y, gap, s.rim_width + 0.6, s.angle, 0.0)
                    pen.polygon([local(*p) for p in pts], fill=_mix(s.fill, (255, 255, 255), 0.3))
        if s.ferry:
            # the wild card's rainbow across both ends says "pay with a wild here"
            n = len(WILD_STRIPES)
            stripe = inner_len * 0.3 / n
            for end in (-1, 1):
                for k in range(n):
                    d = end * (inner_len / 2 - stripe * (k + 0.5))
                    x, y = along(s.cx, s.cy, s.angle, d)
                    pts = rounded_rect(x, y, stripe + 0.3, inner_w, s.angle, 0.0)
                    pen.polygon([local(*p) for p in pts], fill=WILD_STRIPES[k])
        if s.mark:
            size = s.width * 0.6
            d = s.length / 2 - s.width * 0.5 - 1.0
            for end in (-1, 1):
                x, y = along(s.cx, s.cy, s.angle, end * d)
                draw_mark(pen, local, x, y, s.mark, size, s.mark_rgb)

    return custom(s.cx, s.cy, radius, s.rim, draw)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@lru_cache(maxsize=4096)
def halo(cx: float, cy: float, length: float, width: float, angle: float, grow: float, colour: RGB, rim: RGB) -> Sprite:
    """A glow around a space: `grow` pixels of `colour` with a thin `rim` outside."""
    radius = math.hypot(length + 2 * grow + 3, width + 2 * grow + 3) / 2 + 1

    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        outer = rounded_rect(cx, cy, length + 2 * grow + 3, width + 2 * grow + 3, angle, width * 0.3 + grow + 1.5)
        pen.polygon([local(*p) for p in outer], fill=rim)
        inner = rounded_rect(cx, cy, length + 2 * grow, width + 2 * grow, angle, width * 0.3 + grow - 1)
        pen.polygon([local(*p) for p in inner], fill=colour)

    return custom(cx, cy, radius, rim, draw)


@lru_cache(maxsize=1024)
def disc(cx: float, cy: float, radius: float, fill: RGB, rim: RGB, rim_width: float) -> Sprite:
    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        pen.ellipse((local(cx - radius, cy - radius), local(cx + radius, cy + radius)), fill=rim)
        r = radius - rim_width
        pen.ellipse((local(cx - r, cy - r), local(cx + r, cy + r)), fill=fill)

    return custom(cx, cy, radius, rim, draw)


@lru_cache(maxsize=1024)
def ring(cx: float, cy: float, radius: float, colour: RGB, width: float, dashed: bool = False) -> Sprite:
    """A circle outline; dashed rings mark what is not done yet."""

    def draw(pen: ImageDraw.ImageDraw, local: Local) -> None:
        box = (local(cx - radius, cy - radius), local(cx + radius, cy + radius))
        w = round(width * SUPERSAMPLE)
        if not dashed:
            pen.ellipse(box, outline=colour, width=w)
            return
        for start in range(0, 360, 30):
            pen.arc(box, start, start + 18, fill=colour, width=w)

    return custom(cx, cy, radius + width, colour, draw)
