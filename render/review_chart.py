"""The review's chart: each player's chance of winning over the game, as chess sites draw an evaluation graph.

One line per player in the seat's colour (render/palette.py, with the seat's
mark at the line's end for colour-blind readers), the turns on the x axis,
the chance from 0 to 100% on the y axis, and the key turns marked with a
dashed line and their number. Every text comes from the caller
(`ChartWords`, in the reader's language); the chart draws and arranges only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.compose import encode_png
from render.fonts import fitted, font, line_height, text_width
from render.images import RenderedImage
from render.palette import INK, PANEL, RULE, SOFT_INK, player_style

WIDTH, HEIGHT = 960, 520
SCALE = 2  # drawn at twice the size, then scaled down: smooth lines
LEFT, RIGHT, TOP = 84, 28, 64
TITLE = 22
LABEL = 15
TICK = 14
LEGEND = 16
KEY: tuple[int, int, int] = (120, 110, 96)


@dataclass(frozen=True)
class ChartWords:
    """The chart's texts, in the reader's language."""

    title: str
    x_axis: str  # "Turn"
    y_axis: str  # "Chance of winning"
    y_ticks: tuple[str, ...]  # the labels of 0, 25, 50, 75 and 100%
    names: tuple[str, ...]  # per seat, for the legend
    alt_text: str


def _dashed(draw: ImageDraw.ImageDraw, x: int, top: int, bottom: int, width: int) -> None:
    step = 8 * SCALE
    for y in range(top, bottom, step * 2):
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


def review_chart_image(chances: Sequence[Sequence[float]], key_turns: Sequence[int], words: ChartWords) -> Image.Image:
    """The chart: `chances[i]` is each seat's chance after turn i (0: the start; the last: the result)."""
    s = SCALE
    seats = len(words.names)
    # the legend's rows: as many names to a row as fit
    legend_rows: list[list[int]] = [[]]
    room = WIDTH - LEFT - RIGHT
    used = 0
    for seat, name in enumerate(words.names):
        lines, size = fitted(name, room - 40, LEGEND, max_lines=1)
        wide = 40 + text_width(lines[0], size) + 24
        if legend_rows[-1] and used + wide > room:
            legend_rows.append([])
            used = 0
        legend_rows[-1].append(seat)
        used += wide
    legend_h = len(legend_rows) * (line_height(LEGEND) + 8) + 8
    height = HEIGHT + legend_h
    image = Image.new("RGB", (WIDTH * s, height * s), PANEL)
    draw = ImageDraw.Draw(image)
    plot_left, plot_right = LEFT * s, (WIDTH - RIGHT) * s
    plot_top, plot_bottom = TOP * s, (HEIGHT - 70) * s

    title_lines, title_size = fitted(words.title, WIDTH - 40, TITLE, bold=True, max_lines=2)
    y = 14
    for line in title_lines:
        draw.text((20 * s, y * s), line, fill=INK, font=font(title_size * s, bold=True))
        y += line_height(title_size)

    turns = max(1, len(chances) - 1)

    def px(i: float) -> float:
        return plot_left + (plot_right - plot_left) * i / turns

    def py(chance: float) -> float:
        return plot_bottom - (plot_bottom - plot_top) * chance

    # the grid and the y axis's labels
    tick_font = font(TICK * s)
    for k, label in enumerate(words.y_ticks[:5]):
        yy = py(k / 4)
        draw.line([(plot_left, yy), (plot_right, yy)], fill=RULE, width=s)
        wide = text_width(label, TICK) * s
        draw.text((plot_left - wide - 8 * s, yy - TICK * s * 0.6), label, fill=SOFT_INK, font=tick_font)
    # the x axis's labels: about ten numbers
    step = max(1, round(turns / 10 / 5) * 5) if turns > 10 else 1
    for turn in range(0, turns + 1, step):
        xx = px(turn)
        draw.line([(xx, plot_bottom), (xx, plot_bottom + 5 * s)], fill=SOFT_INK, width=s)
        label = str(turn)
        wide = text_width(label, TICK) * s
        draw.text((xx - wide / 2, plot_bottom + 8 * s), label, fill=SOFT_INK, font=tick_font)
    draw.line([(plot_left, plot_top), (plot_left, plot_bottom), (plot_right, plot_bottom)], fill=INK, width=s)
    # the axes' names
    x_lines, x_size = fitted(words.x_axis, WIDTH - LEFT - RIGHT, LABEL, max_lines=1)
    x_wide = text_width(x_lines[0], x_size) * s
    draw.text(
        ((plot_left + plot_right) / 2 - x_wide / 2, plot_bottom + 32 * s), x_lines[0], fill=INK, font=font(x_size * s)
    )
    y_lines, y_size = fitted(words.y_axis, HEIGHT - TOP - 90, LABEL, max_lines=1)
    label_w = text_width(y_lines[0], y_size) * s + 8 * s
    label_img = Image.new("RGB", (label_w, line_height(y_size) * s + 4 * s), PANEL)
    ImageDraw.Draw(label_img).text((4 * s, 0), y_lines[0], fill=INK, font=font(y_size * s))
    turned = label_img.rotate(90, expand=True)
    image.paste(turned, (8 * s, int((plot_top + plot_bottom) / 2 - turned.height / 2)))

    # the key turns
    key_font = font(TICK * s, bold=True)
    for turn in key_turns:
        if 0 < turn <= turns:
            xx = int(px(turn))
            _dashed(draw, xx, plot_top, plot_bottom, 2 * s)
            label = str(turn)
            wide = text_width(label, TICK, bold=True) * s
            draw.rounded_rectangle(
                [xx - wide / 2 - 5 * s, plot_top - 24 * s, xx + wide / 2 + 5 * s, plot_top - 4 * s],
                radius=4 * s,
                fill=KEY,
            )
            draw.text((xx - wide / 2, plot_top - 23 * s), label, fill=PANEL, font=key_font)

    # the lines, the leader's last
    for seat in sorted(range(seats), key=lambda i: chances[-1][i] if chances else 0):
        style = player_style(seat)
        points = [(px(i), py(max(0.0, min(1.0, c[seat])))) for i, c in enumerate(chances)]
        if len(points) > 1:
            draw.line(points, fill=style.rgb, width=3 * s, joint="curve")
        if points:
            _mark(draw, style.mark, points[-1][0], points[-1][1], 6 * s, style.rgb)

    # the legend
    y = HEIGHT - 8
    for row in legend_rows:
        x = LEFT
        for seat in row:
            style = player_style(seat)
            cy = (y + line_height(LEGEND) / 2) * s
            draw.line([(x * s, cy), ((x + 28) * s, cy)], fill=style.rgb, width=3 * s)
            _mark(draw, style.mark, (x + 14) * s, cy, 5 * s, style.rgb)
            lines, size = fitted(words.names[seat], room - 40, LEGEND, max_lines=1)
            draw.text(((x + 36) * s, (y + 1) * s), lines[0], fill=INK, font=font(size * s))
            x += 40 + text_width(lines[0], size) + 24
        y += line_height(LEGEND) + 8
    return image.resize((WIDTH, height), Image.Resampling.LANCZOS)


def render_review_chart(
    chances: Sequence[Sequence[float]], key_turns: Sequence[int], words: ChartWords
) -> RenderedImage:
    """The chart as PNG bytes with the caller's alt text."""
    image = review_chart_image(chances, key_turns, words)
    return RenderedImage(encode_png(image), words.alt_text, image.width, image.height)


__all__ = ["ChartWords", "render_review_chart", "review_chart_image"]
