"""A tournament's standings as a table image: a heading, column headings and one row per player.

Writes no words of its own: the heading, the column headings and every cell
come in as strings (the caller words them and pages long tables; every row
given is drawn). A column whose cells all look like numbers is right-aligned.
Text too wide for its column is drawn smaller, then on two lines (every row
grows alike, `fonts.fitted`), a column heading on two lines; only a cell
longer than any name may be (far past Discord's 32 characters) is cut with
"…". Characters the font lacks (emoji) are left out, as in player names on
the board.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import fonts
from render.compose import encode_png
from render.images import RenderedImage
from render.palette import INK, PANEL, RGB, RULE, SOFT_INK, lighter, player_style

MAX_WIDTH = 1200  # the image is never wider; text columns give way first
MIN_WIDTH = 480
PAD = 22  # around the table
COL_GAP = 22  # between columns
CELL_PAD = 10  # inside a row, left and right of the cells
MIN_TEXT_COLUMN = 80  # a text column is never squeezed below this (unless nothing else fits)

HEADING = 28
COLUMN_HEADING = 16
BODY = 19
ROW_H = 34
HEAD_H = 34  # the column headings' row

SHADE: RGB = (243, 237, 224)  # every other row
HIGHLIGHT: RGB = lighter(player_style(0).rgb, 0.8)  # a highlighted row's band
HIGHLIGHT_BAR: RGB = player_style(0).rgb  # and the bar at its left edge, a cue that is not only colour
BAR_W = 5

# "12", "−3", "+4", "1.5", "2,5" (a decimal comma), "3/5", "45%", "1." (a rank), "12:30"
_NUMERIC = re.compile(r"[+\-−±]?\d[\d\s\u00a0\u202f]*(?:[.,:/]\d+)*[.%]?")


def looks_numeric(cell: str) -> bool:
    """True for a number as a table shows one (sign, decimal comma or point, a rank's dot, a share)."""
    return _NUMERIC.fullmatch(cell.strip()) is not None


def numeric_columns(rows: Sequence[Sequence[str]], count: int) -> list[bool]:
    """For each column: its cells all look numeric (blank cells aside; at least one is not blank)."""
    flags = []
    for k in range(count):
        cells = [row[k].strip() for row in rows if row[k].strip()]
        flags.append(bool(cells) and all(looks_numeric(c) for c in cells))
    return flags


def _clean(text: str) -> str:
    """One line, without the characters the font would draw as boxes."""
    kept = fonts.drawable(text, fallback="", bold=False) if text.strip() else ""
    return " ".join(kept.split())


def _fit_widths(natural: list[int], numeric: list[bool], room: int) -> list[int]:
    """Column widths that add up to at most `room`: the widest text columns give way first.

    Water-filling: the columns wider than a common level are cut to it, text
    columns first (down to `MIN_TEXT_COLUMN`), then every column if that is
    not enough.
    """
    widths = list(natural)
    for floor, which in ((MIN_TEXT_COLUMN, [not n for n in numeric]), (1, [True] * len(widths))):
        excess = sum(widths) - room
        if excess <= 0:
            break
        movable = [k for k, w in enumerate(widths) if which[k] and w > floor]
        if not movable:
            continue
        # the highest level such that cutting every movable column above it frees `excess`
        low, high = floor, max(widths[k] for k in movable)
        while low < high:
            level = (low + high + 1) // 2
            freed = sum(max(0, widths[k] - level) for k in movable)
            if freed >= excess:
                low = level
            else:
                high = level - 1
        for k in movable:
            widths[k] = min(widths[k], low)
    return widths


@dataclass(frozen=True)
class StandingsLayout:
    """Where everything goes: the image's size, each column's left edge and width, where rows start."""

    width: int
    height: int
    heading: str  # as drawn (before fitting)
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    highlight: frozenset[int]
    lefts: tuple[int, ...]
    widths: tuple[int, ...]
    numeric: tuple[bool, ...]
    rows_top: int  # the first row's top pixel
    row_h: int = ROW_H  # every row's height: ROW_H, or more when a cell takes two lines
    head_h: int = HEAD_H  # the column headings' row: HEAD_H, or more when a heading takes two lines

    def row_box(self, index: int) -> tuple[int, int, int, int]:
        """A row's band (left, top, right, bottom), edges included."""
        top = self.rows_top + self.row_h * index
        return (PAD, top, self.width - PAD - 1, top + self.row_h - 1)

    def heading_lines(self, k: int) -> tuple[list[str], int]:
        """Column `k`'s heading as drawn: its lines and size."""
        return fonts.fitted(self.columns[k], self.widths[k], COLUMN_HEADING, True, max_lines=2)

    def cell_lines(self, index: int, k: int) -> tuple[list[str], int]:
        """Row `index`'s cell `k` as drawn: its lines and size."""
        return fonts.fitted(self.rows[index][k], self.widths[k], BODY, index in self.highlight, max_lines=2)


def standings_layout(
    heading: str, columns: Sequence[str], rows: Sequence[Sequence[str]], *, highlight: Collection[int] = ()
) -> StandingsLayout:
    count = len(columns)
    if count == 0:
        raise ValueError("a standings table needs at least one column")
    for index, row in enumerate(rows):
        if len(row) != count:
            raise ValueError(f"row {index} has {len(row)} cells for {count} columns")
    marked = frozenset(k for k in highlight if 0 <= k < len(rows))
    titles = tuple(_clean(c) for c in columns)
    cells = tuple(tuple(_clean(c) for c in row) for row in rows)
    numeric = numeric_columns(cells, count)

    cell_widths = [
        max((fonts.text_width(row[k], BODY, index in marked) for index, row in enumerate(cells)), default=0)
        for k in range(count)
    ]
    natural = [max(fonts.text_width(titles[k], COLUMN_HEADING, True), cell_widths[k]) for k in range(count)]
    chrome = 2 * PAD + 2 * CELL_PAD + COL_GAP * (count - 1)
    widths = _fit_widths(natural, numeric, MAX_WIDTH - chrome)

    def cuts(widths: list[int]) -> bool:
        """Some text cell would still be cut at these widths (after shrinking and two lines)."""
        return any(
            not numeric[k]
            and row[k]
            and fonts.fitted(row[k], widths[k], BODY, i in marked, max_lines=2)[0][-1][-1:] == "…"
            for i, row in enumerate(cells)
            for k in range(count)
        )

    if cuts(widths):
        # the numbers' headings on two lines leave the names more room, if that lets them be drawn whole
        narrow = [
            max(max((fonts.text_width(w, COLUMN_HEADING, True) for w in titles[k].split()), default=0), cell_widths[k])
            if numeric[k]
            else natural[k]
            for k in range(count)
        ]
        wider = _fit_widths(narrow, numeric, MAX_WIDTH - chrome)
        if not cuts(wider):
            widths = wider
    heading_text = _clean(heading)
    width = max(sum(widths) + chrome, fonts.text_width(heading_text, HEADING, True) + 2 * PAD, MIN_WIDTH)
    width = min(width, MAX_WIDTH)
    # a table narrower than its heading: the room left goes to the first text column (the names)
    spare = width - chrome - sum(widths)
    if spare > 0:
        widths[numeric.index(False) if False in numeric else count - 1] += spare
    lefts = []
    x = PAD + CELL_PAD
    for w in widths:
        lefts.append(x)
        x += w + COL_GAP

    def lines(text: str, k: int, size: int, bold: bool) -> int:
        return len(fonts.fitted(text, widths[k], size, bold, max_lines=2)[0]) if text else 1

    head_h = HEAD_H
    if any(lines(titles[k], k, COLUMN_HEADING, True) > 1 for k in range(count)):
        head_h += fonts.line_height(COLUMN_HEADING)
    row_h = ROW_H
    if any(lines(row[k], k, BODY, i in marked) > 1 for i, row in enumerate(cells) for k in range(count)):
        row_h += fonts.line_height(BODY) - 4
    rows_top = PAD + (HEADING + 18 if heading_text else 0) + head_h
    return StandingsLayout(
        width=width,
        height=rows_top + row_h * len(rows) + PAD,
        heading=heading_text,
        columns=titles,
        rows=cells,
        highlight=marked,
        lefts=tuple(lefts),
        widths=tuple(widths),
        numeric=tuple(numeric),
        rows_top=rows_top,
        row_h=row_h,
        head_h=head_h,
    )


def standings_image(
    heading: str, columns: Sequence[str], rows: Sequence[Sequence[str]], *, highlight: Collection[int] = ()
) -> Image.Image:
    """The table as an image, every row given drawn, `highlight`ed rows (indices into `rows`) marked."""
    layout = standings_layout(heading, columns, rows, highlight=highlight)
    width = layout.width
    image = Image.new("RGB", (width, layout.height), PANEL)
    pen = ImageDraw.Draw(image)
    if layout.heading:
        shown, size = fonts.fitted(layout.heading, width - 2 * PAD, HEADING, True, max_lines=1)
        pen.text((PAD, PAD), shown[0], font=fonts.font(size, True), fill=INK, anchor="la")

    def draw_cells(texts: Sequence[str], middle: float, size: int, bold: bool, fill: RGB) -> None:
        for k, text in enumerate(texts):
            if not text:
                continue
            shown, fitted_size = fonts.fitted(text, layout.widths[k], size, bold, max_lines=2)
            font = fonts.font(fitted_size, bold)
            step = fonts.line_height(fitted_size)
            for n, line in enumerate(shown):
                y = middle + (n - (len(shown) - 1) / 2) * step
                if layout.numeric[k]:
                    pen.text((layout.lefts[k] + layout.widths[k], y), line, font=font, fill=fill, anchor="rm")
                else:
                    pen.text((layout.lefts[k], y), line, font=font, fill=fill, anchor="lm")

    y = layout.rows_top
    draw_cells(layout.columns, y - layout.head_h / 2, COLUMN_HEADING, True, SOFT_INK)
    pen.rectangle((PAD, y - 2, width - PAD - 1, y - 1), fill=INK)  # under the column headings, above the rows
    for index, row in enumerate(layout.rows):
        band = layout.row_box(index)
        if index in layout.highlight:
            pen.rectangle(band, fill=HIGHLIGHT)
            pen.rectangle((band[0], band[1], band[0] + BAR_W - 1, band[3]), fill=HIGHLIGHT_BAR)
        elif index % 2:
            pen.rectangle(band, fill=SHADE)
        draw_cells(row, (band[1] + band[3] + 1) / 2, BODY, index in layout.highlight, INK)
    if layout.rows:
        bottom = layout.row_box(len(layout.rows) - 1)[3]
        pen.line((PAD, bottom, width - PAD - 1, bottom), fill=RULE, width=1)
    return image


def render_standings(
    heading: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    highlight: Collection[int] = (),
    alt_text: str,
) -> RenderedImage:
    """The standings table as PNG bytes with the caller's `alt_text` (see `standings_image`)."""
    image = standings_image(heading, columns, rows, highlight=highlight)
    return RenderedImage(encode_png(image), alt_text, image.width, image.height)
