"""The review's chart: each player's chance of winning over the game, as chess sites draw an evaluation graph, and
below it each player's luck and choices as bars.

One line per player in the seat's colour (render/palette.py, with the seat's
mark at the line's end for colour-blind readers), the turns on the x axis,
the chance from 0 to 100% on the y axis, and the key turns marked with a
dashed line and their number. Below, a row per player: their luck and their
choices in points of their chance of winning, a bar each from a middle zero
line (right: gained; left: lost), each bar's figure written beside it. Every
text comes from the caller (`ChartWords`, in the reader's language); the
chart draws and arranges only.

It is read on a phone: Discord shows an image about `PHONE_WIDTH` pixels
wide there, so no text is drawn smaller than `SMALLEST` pixels of the
chart's `WIDTH` (at least `PHONE_TEXT` pixels on that phone; tests/
test_render_review_chart.py measures every text drawn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.compose import encode_png
from render.fonts import fitted, font, line_height, text_width
from render.images import RenderedImage
from render.palette import INK, PANEL, RULE, SOFT_INK, player_style

WIDTH = 960
PHONE_WIDTH = 360  # about how wide Discord shows an image on a phone
PHONE_TEXT = 9  # the smallest text, in pixels on that phone
SMALLEST = -(-PHONE_TEXT * WIDTH // PHONE_WIDTH)  # 24: the smallest text drawn
PLOT_HEIGHT = 560  # the line chart's part, title and axes included
SCALE = 2  # drawn at twice the size, then scaled down: smooth lines
LEFT, RIGHT, TOP = 112, 30, 104
TITLE = 32
LABEL = 26
TICK = SMALLEST
LEGEND = 26
BAR_TEXT = SMALLEST
KEY: tuple[int, int, int] = (120, 110, 96)
GAIN: tuple[int, int, int] = (46, 125, 50)
LOSS: tuple[int, int, int] = (183, 28, 28)


@dataclass(frozen=True)
class ChartBars:
    """The bars under the chart: per seat, luck and choices in points of their chance of winning."""

    title: str
    luck: str  # "Luck"
    choices: str  # "Choices"
    values: tuple[tuple[float, float], ...]  # per seat: (luck, choices)
    labels: tuple[tuple[str, str], ...]  # per seat: the figures as written ("+4", "−12")


@dataclass(frozen=True)
class ChartWords:
    """The chart's texts, in the reader's language."""

    title: str
    x_axis: str  # "Turn"
    y_axis: str  # "Chance of winning"
    y_ticks: tuple[str, ...]  # the labels of 0, 25, 50, 75 and 100%
    names: tuple[str, ...]  # per seat, for the legend
    alt_text: str
    bars: ChartBars | None = None


class _Pen:
    """Draws text at twice the size and notes every size drawn (at the chart's scale)."""

    def __init__(self, draw: ImageDraw.ImageDraw, sizes: list[int] | None) -> None:
        self.draw = draw
        self.sizes = sizes

    def text(self, x: float, y: float, text: str, size: int, fill: tuple[int, int, int], bold: bool = False) -> None:
        if self.sizes is not None:
            self.sizes.append(size)
        self.draw.text((x * SCALE, y * SCALE), text, fill=fill, font=font(size * SCALE, bold=bold))


def _dashed(draw: ImageDraw.ImageDraw, x: float, top: float, bottom: float, width: int) -> None:
    step = 8 * SCALE
    for y in range(int(top), int(bottom), step * 2):
        draw.line([(x, y), (x, min(bottom, y + step))], fill=KEY, width=width)


def _mark(draw: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: float, fill: tuple[int, int, int]) -> None:
    if shape == "circle":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=INK, width=SCALE)
    elif shape == "triangle":
        draw.polygon([(x, y - r), (x + r, y + r), (x - r, y + r)], fill=fill, outline=INK, width=SCALE)
    elif shape == "square":
        draw.rectangle([x - r, y - r, x + r, y + r], fill=fill, outline=INK, width=SCALE)
    elif shape == "diamond":
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=fill, outline=INK, width=SCALE)
    else:
        draw.line([(x - r, y - r), (x + r, y + r)], fill=fill, width=3 * SCALE)
        draw.line([(x - r, y + r), (x + r, y - r)], fill=fill, width=3 * SCALE)


def _legend_rows(names: Sequence[str]) -> list[list[tuple[int, str]]]:
    """The legend's rows: as many names to a row as fit, each name fitted to one line."""
    room = WIDTH - LEFT - RIGHT
    rows: list[list[tuple[int, str]]] = [[]]
    used = 0
    for seat, name in enumerate(names):
        lines, _size = fitted(name, room - 48, LEGEND, max_lines=1, floor=SMALLEST)
        wide = 48 + text_width(lines[0], LEGEND) + 28
        if rows[-1] and used + wide > room:
            rows.append([])
            used = 0
        rows[-1].append((seat, lines[0]))
        used += wide
    return rows


def _bar_height(bars: ChartBars | None, seats: int) -> int:
    if bars is None:
        return 0
    return 24 + line_height(LABEL) + 12 + seats * (3 * (line_height(BAR_TEXT) + 6) + 10)


def review_chart_image(
    chances: Sequence[Sequence[float]], key_turns: Sequence[int], words: ChartWords, sizes: list[int] | None = None
) -> Image.Image:
    """The chart: `chances[i]` is each seat's chance after turn i (0: the start; the last: the result). Every text
    size drawn is added to `sizes`, if given."""
    s = SCALE
    seats = len(words.names)
    rows = _legend_rows(words.names)
    legend_h = len(rows) * (line_height(LEGEND) + 10) + 10
    height = PLOT_HEIGHT + legend_h + _bar_height(words.bars, seats)
    image = Image.new("RGB", (WIDTH * s, height * s), PANEL)
    draw = ImageDraw.Draw(image)
    pen = _Pen(draw, sizes)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, PLOT_HEIGHT - 96

    title_lines, title_size = fitted(words.title, WIDTH - 40, TITLE, bold=True, max_lines=2, floor=SMALLEST)
    y = 12.0
    for line in title_lines[:2]:
        pen.text(20, y, line, title_size, INK, bold=True)
        y += line_height(title_size)
    top = max(top, int(y) + 40)

    turns = max(1, len(chances) - 1)

    def px(i: float) -> float:
        return (left + (right - left) * i / turns) * s

    def py(chance: float) -> float:
        return (bottom - (bottom - top) * chance) * s

    for k, label in enumerate(words.y_ticks[:5]):  # the grid and the y axis's labels
        yy = py(k / 4)
        draw.line([(left * s, yy), (right * s, yy)], fill=RULE, width=s)
        pen.text(left - text_width(label, TICK) - 8, yy / s - TICK * 0.6, label, TICK, SOFT_INK)
    step = max(1, round(turns / 6 / 5) * 5) if turns > 12 else 2 if turns > 6 else 1  # about six numbers
    for turn in range(0, turns + 1, step):
        xx = px(turn)
        draw.line([(xx, bottom * s), (xx, (bottom + 6) * s)], fill=SOFT_INK, width=s)
        label = str(turn)
        pen.text(xx / s - text_width(label, TICK) / 2, bottom + 8, label, TICK, SOFT_INK)
    draw.line([(left * s, top * s), (left * s, bottom * s), (right * s, bottom * s)], fill=INK, width=s)
    x_lines, x_size = fitted(words.x_axis, right - left, LABEL, max_lines=1, floor=SMALLEST)
    pen.text((left + right) / 2 - text_width(x_lines[0], x_size) / 2, bottom + 44, x_lines[0], x_size, INK)
    y_lines, y_size = fitted(words.y_axis, bottom - top, LABEL, max_lines=1, floor=SMALLEST)
    label_img = Image.new("RGB", ((text_width(y_lines[0], y_size) + 8) * s, (line_height(y_size) + 4) * s), PANEL)
    ImageDraw.Draw(label_img).text((4 * s, 0), y_lines[0], fill=INK, font=font(y_size * s))
    if sizes is not None:
        sizes.append(y_size)
    turned = label_img.rotate(90, expand=True)
    image.paste(turned, (6 * s, int((top + bottom) / 2 * s - turned.height / 2)))

    for turn in key_turns:  # the key turns
        if 0 < turn <= turns:
            xx = px(turn)
            _dashed(draw, xx, top * s, bottom * s, 2 * s)
            label = str(turn)
            wide = text_width(label, TICK, bold=True)
            draw.rounded_rectangle(
                [xx - (wide / 2 + 6) * s, (top - 36) * s, xx + (wide / 2 + 6) * s, (top - 4) * s],
                radius=5 * s,
                fill=KEY,
            )
            pen.text(xx / s - wide / 2, top - 34, label, TICK, PANEL, bold=True)

    for seat in sorted(range(seats), key=lambda i: chances[-1][i] if chances else 0):  # the leader's last
        style = player_style(seat)
        points = [(px(i), py(max(0.0, min(1.0, c[seat])))) for i, c in enumerate(chances)]
        if len(points) > 1:
            draw.line(points, fill=style.rgb, width=4 * s, joint="curve")
        if points:
            _mark(draw, style.mark, points[-1][0], points[-1][1], 8 * s, style.rgb)

    y = PLOT_HEIGHT - 10.0  # the legend
    for row in rows:
        x = float(LEFT)
        for seat, name in row:
            style = player_style(seat)
            cy = (y + line_height(LEGEND) / 2) * s
            draw.line([(x * s, cy), ((x + 36) * s, cy)], fill=style.rgb, width=4 * s)
            _mark(draw, style.mark, (x + 18) * s, cy, 7 * s, style.rgb)
            pen.text(x + 44, y + 1, name, LEGEND, INK)
            x += 48 + text_width(name, LEGEND) + 28
        y += line_height(LEGEND) + 10
    if words.bars is not None:
        _bars(draw, pen, words, rows, y + 14)
    return image.resize((WIDTH, height), Image.Resampling.LANCZOS)


def _bars(draw: ImageDraw.ImageDraw, pen: _Pen, words: ChartWords, rows: list[list[tuple[int, str]]], y: float) -> None:
    """Per seat, its name, then two bars from a middle zero line: luck, then choices, each with its figure."""
    bars = words.bars
    assert bars is not None
    s = SCALE
    lines, size = fitted(bars.title, WIDTH - 40, LABEL, bold=True, max_lines=1, floor=SMALLEST)
    pen.text(20, y, lines[0], size, INK, bold=True)
    y += line_height(LABEL) + 12
    names = {seat: name for row in rows for seat, name in row}
    kinds = (bars.luck, bars.choices)
    kind_w = max(text_width(k, BAR_TEXT) for k in kinds)
    low, high = 60 + kind_w + 96, WIDTH - RIGHT - 96  # room for a figure each side
    middle, reach = (low + high) / 2, (high - low) / 2
    most = max([abs(v) for pair in bars.values for v in pair] + [10.0])
    step = line_height(BAR_TEXT) + 6
    for seat, (pair, labels) in enumerate(zip(bars.values, bars.labels, strict=True)):
        style = player_style(seat)
        _mark(draw, style.mark, 30 * s, (y + step / 2) * s, 7 * s, style.rgb)
        pen.text(44, y, names.get(seat, words.names[seat]), BAR_TEXT, INK, bold=True)
        draw.line([(middle * s, (y + step) * s), (middle * s, (y + 3 * step) * s)], fill=INK, width=s)
        for k, (value, label, kind) in enumerate(zip(pair, labels, kinds, strict=True)):
            row_y = y + step * (k + 1)
            pen.text(60, row_y, kind, BAR_TEXT, SOFT_INK)
            length = reach * min(1.0, abs(value) / most)
            x0, x1 = (middle, middle + length) if value >= 0 else (middle - length, middle)
            draw.rectangle([x0 * s, (row_y + 4) * s, x1 * s, (row_y + step - 4) * s], fill=GAIN if value >= 0 else LOSS)
            wide = text_width(label, BAR_TEXT)
            pen.text(x1 + 8 if value >= 0 else x0 - 8 - wide, row_y, label, BAR_TEXT, INK)
        y += 3 * step + 10


def render_review_chart(
    chances: Sequence[Sequence[float]], key_turns: Sequence[int], words: ChartWords
) -> RenderedImage:
    """The chart as PNG bytes with the caller's alt text."""
    image = review_chart_image(chances, key_turns, words)
    return RenderedImage(encode_png(image), words.alt_text, image.width, image.height)


__all__ = [
    "PHONE_TEXT",
    "PHONE_WIDTH",
    "SMALLEST",
    "ChartBars",
    "ChartWords",
    "render_review_chart",
    "review_chart_image",
]
