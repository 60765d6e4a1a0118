"""One image from the board area and the panel's blocks, and its PNG bytes."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from render.layout import IMAGE_WIDTH, BoardLayout
from render.palette import PANEL, PAPER_EDGE

PAD = 22  # around and between the panel's blocks
GAP = 16  # between blocks of one column

Block = Callable[[int], Image.Image]  # draws a block at the given width


def column_widths(layout: BoardLayout, shares: Sequence[float]) -> list[int]:
    """Widths for panel columns below the board, in proportion to `shares`."""
    room = layout.width - PAD * (len(shares) + 1)
    total = sum(shares)
    widths = [int(room * s / total) for s in shares]
    widths[-1] += room - sum(widths)
    return widths


def compose(
    layout: BoardLayout, board: Image.Image, columns: Sequence[Sequence[Block]], shares: Sequence[float]
) -> Image.Image:
    """The board with the panel below it (several columns) or beside it (one column).

    With the panel beside the board, all blocks go in one column, in order.
    """
    if layout.panel_below:
        widths = column_widths(layout, shares)
        drawn = [[block(w) for block in column] for column, w in zip(columns, widths, strict=True)]
        heights = [sum(b.height for b in col) + GAP * max(0, len(col) - 1) for col in drawn]
        panel_h = max(heights, default=0) + 2 * PAD
        image = Image.new("RGB", (layout.width, layout.height + panel_h), PANEL)
        image.paste(board, (0, 0))
        x = PAD
        for col, w in zip(drawn, widths, strict=True):
            y = layout.height + PAD
            for block_image in col:
                image.paste(block_image, (x, y))
                y += block_image.height + GAP
            x += w + PAD
        ImageDraw.Draw(image).line((0, layout.height, layout.width, layout.height), fill=PAPER_EDGE, width=3)
        return image
    width = layout.panel_width - 2 * PAD
    blocks = [block(width) for column in columns for block in column]
    panel_h = sum(b.height for b in blocks) + GAP * max(0, len(blocks) - 1) + 2 * PAD
    image = Image.new("RGB", (IMAGE_WIDTH, max(layout.height, panel_h)), PANEL)
    image.paste(board, (0, 0))
    y = PAD
    for block_image in blocks:
        image.paste(block_image, (layout.width + PAD, y))
        y += block_image.height + GAP
    return image


# Chosen by measurement (bench/render.py prints the comparison): level 1 encodes
# about a third faster than level 6 for ~4% more bytes (every image stays far
# under 1 MB). A 256-colour palette would be ~2.5x smaller and faster still,
# but the images hold 2,000-4,000 colours (anti-aliasing), so a palette moves
# colours: Pillow maps to a palette through 6-bit boxes (the halo of names and
# the panel's paper fall in one box) and an adaptive palette depends on the
# whole image, so one more claim would change pixels everywhere. RGB keeps
# every pixel exact: owner colours and the colour-blind marks included.
PNG_COMPRESS_LEVEL = 1


def encode_png(image: Image.Image) -> bytes:
    """RGB PNG bytes. No palette: pixels keep the exact colours tests compare with."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
