"""The part of a board that never changes: background, empty routes, places and names.

It is drawn once per map and process, then every render copies it and draws
only the game's state on top, then stamps the ready-made names. The cached
images are never modified.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageStat

from maps import Board, load_board
from render import fonts, pieces
from render.labels import Label, LabelTile, label_tile, obstacle_mask, place_labels
from render.layout import COUNTRY_LABELS, BoardLayout, board_layout
from render.palette import INK, PAPER, PAPER_EDGE, SOFT_INK
from render.words import ImageWords

CAPTION_SIZE = 16
COUNTRY_SIZE = 28
NAME_HALO = (255, 251, 240)


@dataclass(frozen=True)
class StaticBoard:
    board: Board
    layout: BoardLayout
    image: Image.Image  # RGB, the board area; shared, so never drawn on
    labels: tuple[Label, ...]
    tiles: tuple[LabelTile, ...]  # the names, stamped after the trains so tracks never hide them
    countries: dict[str, tuple[int, int, int, int]]  # where each country's name is drawn
    mask: Image.Image  # L, white where tracks, places and names are; shared, never drawn on
    seconds: float  # how long building it took


_cache: dict[tuple[str, str | None], StaticBoard] = {}
_lock = threading.Lock()  # guards _locks
_locks: dict[tuple[str, str | None], threading.Lock] = {}  # one per layer: building one map never blocks another


def static_board(map_name: str, *, words: ImageWords) -> StaticBoard:
    """The static layer of `map_name`, built on first use (once per caption `words` give it).

    The caption is the layer's only text, so the key is what the layer shows: the languages whose
    caption reads the same (a published board has none) share one layer, and each other language has its own.

    The bot builds every map's layer at start (`Images.warm_up`), in a thread.
    """
    board = load_board(map_name)
    key = (map_name, caption(board, words))
    found = _cache.get(key)
    if found is not None:
        return found
    with _lock:
        building = _locks.setdefault(key, threading.Lock())
    with building:
        found = _cache.get(key)
        if found is None:
            found = build_static_board(board, board_layout(map_name), key[1])
            _cache[key] = found
    return found


def caption(board: Board, words: ImageWords) -> str | None:
    """The note in the corner of a board the project designed itself; none on a published board."""
    return words.board_caption(board.rules) if board.designed else None


def _frame(image: Image.Image) -> None:
    pen = ImageDraw.Draw(image)
    w, h = image.size
    pen.rectangle((0, 0, w - 1, h - 1), outline=PAPER_EDGE, width=6)
    pen.rectangle((9, 9, w - 10, h - 10), outline=(196, 182, 150), width=1)


def _least_covered(
    mask: Image.Image, pen: ImageDraw.ImageDraw, at: tuple[float, float], text: str, font: fonts.Font
) -> tuple[float, float]:
    best: tuple[float, tuple[float, float]] | None = None
    w, h = mask.size
    for dx in range(-120, 121, 20):
        for dy in range(-60, 61, 15):
            x, y = at[0] + dx, at[1] + dy
            box = pen.textbbox((x, y), text, font=font, anchor="mm")
            if box[0] < 14 or box[1] < 14 or box[2] > w - 14 or box[3] > h - 14:
                continue
            cost = ImageStat.Stat(mask.crop(box)).sum[0] / 255 + abs(dx) + abs(dy)
            if best is None or cost < best[0]:
                best = (cost, (x, y))
    return best[1] if best else at


def _spaced(text: str) -> str:
    return "\u2009".join(text.upper())  # thin spaces: letter-spaced, yet short enough to stay clear


def build_static_board(board: Board, layout: BoardLayout, note: str | None) -> StaticBoard:
    """The static layer; `note`, when given, is written in the bottom right corner."""
    started = time.perf_counter()
    image = Image.new("RGB", (layout.width, layout.height), PAPER)
    _frame(image)
    pen = ImageDraw.Draw(image)
    reserve = pieces.stack_radius(layout) + 3 if board.rules.tourists else layout.city_radius + 8
    mask = obstacle_mask(board, layout, reserve)
    mask_pen = ImageDraw.Draw(mask)

    # Country names first, under everything: large, pale and letter-spaced,
    # nudged from the data file's position to where they cover the least.
    country_font = fonts.font(COUNTRY_SIZE, True)
    countries: dict[str, tuple[int, int, int, int]] = {}
    for country, (x, y) in COUNTRY_LABELS.get(board.name, {}).items():
        text = _spaced(country)
        px, py = _least_covered(mask, pen, layout.to_pixel(x, y), text, country_font)
        pen.text((px, py), text, font=country_font, fill=(168, 154, 124), anchor="mm")
        box = pen.textbbox((px, py), text, font=country_font, anchor="mm")
        countries[country] = (int(box[0]), int(box[1]), int(box[2]), int(box[3]))
        mask_pen.rectangle(box, fill=255)

    if note is not None:
        small = fonts.font(CAPTION_SIZE)
        corner = (layout.width - 22, layout.height - 20)
        pen.text(corner, note, font=small, fill=SOFT_INK, anchor="rd")
        mask_pen.rectangle(pen.textbbox(corner, note, font=small, anchor="rd"), fill=255)

    for route in board.routes:
        for index in range(len(route.spaces)):
            pieces.empty_space(layout, route, index).paste_on(image)
    for route in board.routes:
        if route.cart:
            pieces.cart_badge(layout, route).paste_on(image)
    for place in board.places.values():
        marker = pieces.border_flag(layout, place) if place.country else pieces.place_dot(layout, place)
        marker.paste_on(image)
    number_font = fonts.font(CAPTION_SIZE)
    for place in board.places.values():
        # a border point is named by its country and number ("France 4", as menus and texts write it): the flag
        # shows the country, the number is written on it
        number = place.name.rpartition(" ")[2]
        if place.country and number.isdigit():
            x, y = layout.to_pixel(place.x, place.y)
            pen.text((x, y), number, font=number_font, fill=INK, anchor="mm", stroke_width=2, stroke_fill=PAPER)

    labels = place_labels(board, layout, mask, pieces.board_places(board), reserve + 3)
    tiles = tuple(label_tile(label) for label in labels)
    return StaticBoard(board, layout, image, tuple(labels), tiles, countries, mask, time.perf_counter() - started)


def stamp_names(image: Image.Image, static: StaticBoard) -> None:
    for tile in static.tiles:
        tile.stamp(image, INK, NAME_HALO)
