"""Where each place's name goes: beside its dot, clear of tracks and of other names.

Placement is greedy over a mask of everything already drawn: each name tries
eight directions at two distances (and two lines for long names) and keeps
the spot that covers the least. It runs once per map, with the static layer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageStat

from maps import Board, Place
from render import fonts
from render.layout import BoardLayout
from render.sprites import rounded_rect

LABEL_SIZE = 19
STROKE = 3  # the pale outline that keeps names readable over tracks
EDGE = 8  # names stay this far inside the board area

ANGLES = range(0, 360, 15)  # directions tried around a dot, clockwise from east (y down)


@dataclass(frozen=True)
class Label:
    place: str
    text: str  # may hold one line break
    box: tuple[int, int, int, int]  # left, top, right, bottom in board pixels


def _split(name: str) -> list[str]:
    """The name on one line, and on two lines when it has a space near the middle."""
    options = [name]
    if " " in name:
        spaces = [i for i, c in enumerate(name) if c == " "]
        mid = min(spaces, key=lambda i: abs(i - len(name) / 2))
        options.append(name[:mid] + "\n" + name[mid + 1 :])
    return options


def text_box(text: str) -> tuple[int, int, int, int]:
    """The drawn extent of a label at the origin, stroke included."""
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = probe.multiline_textbbox(
        (0, 0), text, font=fonts.font(LABEL_SIZE, True), stroke_width=STROKE, align="center", spacing=1
    )
    return (int(left), int(top), math.ceil(right), math.ceil(bottom))


def obstacle_mask(board: Board, layout: BoardLayout, reserve: float) -> Image.Image:
    """Tracks, dots (with `reserve` pixels around them) and the board's edge, in white."""
    mask = Image.new("L", (layout.width, layout.height), 0)
    pen = ImageDraw.Draw(mask)
    for route in board.routes:
        for space in route.spaces:
            x, y = layout.to_pixel(space.x, space.y)
            pts = rounded_rect(x, y, layout.car_lengths[route.id] + 4, layout.car_width + 4, space.angle, 0)
            pen.polygon(pts, fill=255)
    for place in board.places.values():
        x, y = layout.to_pixel(place.x, place.y)
        r = reserve if place.country is None else 20 * layout.scale
        pen.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return mask


def centre_mask(board: Board, layout: BoardLayout) -> Image.Image:
    """A small square at every space's centre: a name may touch a space but never hide its centre."""
    mask = Image.new("L", (layout.width, layout.height), 0)
    pen = ImageDraw.Draw(mask)
    for route in board.routes:
        for space in route.spaces:
            x, y = layout.to_pixel(space.x, space.y)
            pen.rectangle((x - 4, y - 4, x + 4, y + 4), fill=255)
    return mask


def place_labels(board: Board, layout: BoardLayout, mask: Image.Image, places: list[Place], gap: float) -> list[Label]:
    """Choose a spot for each name, marking the chosen boxes in `mask` as it goes."""
    pen = ImageDraw.Draw(mask)
    centres = centre_mask(board, layout)

    def crowding(place: Place) -> float:
        x, y = layout.to_pixel(place.x, place.y)
        box = (int(x - 90), int(y - 60), int(x + 90), int(y + 60))
        return float(ImageStat.Stat(mask.crop(box)).sum[0])

    labels = []
    for place in sorted(places, key=crowding, reverse=True):
        cx, cy = layout.to_pixel(place.x, place.y)
        best: tuple[float, tuple[int, int, int, int], str] | None = None
        for lines, text in enumerate(_split(fonts.drawable(place.name, place.name))):
            left, top, right, bottom = text_box(text)
            w, h = right - left, bottom - top
            for far, distance in enumerate((gap, gap + 12, gap + 26)):
                for degrees in ANGLES:
                    a = math.radians(degrees)
                    ux, uy = math.cos(a), math.sin(a)
                    # the box's centre goes out along the direction until its edge is `distance` away
                    bx = cx + ux * (distance + w / 2) - w / 2
                    by = cy + uy * (distance + h / 2) - h / 2
                    box = (round(bx), round(by), round(bx) + w, round(by) + h)
                    outside = (
                        box[0] < EDGE or box[1] < EDGE or box[2] > layout.width - EDGE or box[3] > layout.height - EDGE
                    )
                    covered = ImageStat.Stat(mask.crop(box)).sum[0] / 255
                    hides = ImageStat.Stat(centres.crop(box)).sum[0] > 0
                    # right of the dot reads best, then left; above and below come after
                    turn = min(degrees, 360 - degrees)
                    preference = turn / 15 if turn <= 90 else 3 + (180 - turn) / 30
                    cost = covered + preference * 6 + far * 40 + lines * 30
                    cost += (1e6 if outside else 0) + (1e5 if hides else 0)
                    if best is None or cost < best[0]:
                        best = (cost, box, text)
        assert best is not None
        _, box, text = best
        pen.rectangle(box, fill=255)
        labels.append(Label(place.name, text, box))
    return labels


@dataclass(frozen=True)
class LabelTile:
    """A name ready to stamp: the pale outline's mask and the letters' mask."""

    x: int
    y: int
    outline: Image.Image  # L
    letters: Image.Image  # L

    def stamp(self, image: Image.Image, ink: tuple[int, int, int], halo: tuple[int, int, int]) -> None:
        image.paste(halo, (self.x, self.y), self.outline)
        image.paste(ink, (self.x, self.y), self.letters)


def label_tile(label: Label) -> LabelTile:
    left, top, _, _ = text_box(label.text)
    size = (label.box[2] - label.box[0], label.box[3] - label.box[1])
    masks = []
    # Both masks are drawn with the stroke, the letters' one in black, because
    # the stroke width also sets the spacing of the lines.
    for stroke_fill in (255, 0):
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).multiline_text(
            (-left, -top),
            label.text,
            font=fonts.font(LABEL_SIZE, True),
            fill=255,
            stroke_width=STROKE,
            stroke_fill=stroke_fill,
            align="center",
            spacing=1,
        )
        masks.append(mask)
    return LabelTile(label.box[0], label.box[1], masks[0], masks[1])
