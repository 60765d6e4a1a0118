"""One image from the board area and the panel's blocks, and its PNG bytes."""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

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


# Chosen by measurement (`python -m bench.render` prints the comparison): an
# RGB PNG whose rows are left unfiltered (PNG filter type 0), deflated by zlib
# at level 1. The images are flat colours with long runs, which deflate finds
# without a filter, so this is 2-3x faster to encode than Pillow's PNG (which
# tries the five filters on every row) and a quarter smaller than its level 6.
# A 256-colour palette would be smaller still, but the images hold 2,000-4,000
# colours (anti-aliasing): quantising moves colours (an adaptive palette
# depends on the whole image, so one more claim would change pixels
# everywhere, and Pillow maps to a palette through 6-bit boxes). RGB keeps
# every pixel exact: owner colours and the colour-blind marks included.
PNG_ZLIB_LEVEL = 1
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# The pixels are deflated in bands side by side (zlib works without the GIL): each band's stream ends on a
# byte boundary (a sync flush) and the next starts afresh, which PNG readers take as one zlib stream; the
# checksum of the whole is combined from the bands'. Bands of fewer rows are not worth a thread.
PNG_BANDS = 4
_BAND_ROWS = 128
_ADLER_BASE = 65521
_encoders = ThreadPoolExecutor(max_workers=2, thread_name_prefix="conductor-png")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _deflate_band(band: memoryview, last: bool) -> tuple[bytes, int]:
    """A band of rows deflated (raw deflate, ending on a byte boundary unless `last`), and its Adler-32."""
    packer = zlib.compressobj(PNG_ZLIB_LEVEL, zlib.DEFLATED, -15)
    data = packer.compress(band) + packer.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
    return data, zlib.adler32(band)


def deflate(raw: bytes | bytearray, rows: int) -> bytes:
    """`raw` (`rows` rows of equal length) as one zlib stream (level `PNG_ZLIB_LEVEL`), deflated in bands side by
    side when it is large."""
    bands = max(1, min(PNG_BANDS, rows // _BAND_ROWS))
    if bands == 1:
        return zlib.compress(raw, PNG_ZLIB_LEVEL)
    row = len(raw) // rows
    view = memoryview(raw)
    cuts = [row * (rows * k // bands) for k in range(bands + 1)]
    parts = [view[a:b] for a, b in itertools.pairwise(cuts)]
    done = list(_encoders.map(_deflate_band, parts, [k == bands - 1 for k in range(bands)]))
    checksum = 1
    for (_, adler), part in zip(done, parts, strict=True):
        checksum = adler32_combine(checksum, adler, len(part))
    return b"".join([b"\x78\x01", *(data for data, _ in done), struct.pack(">I", checksum)])


def encode_png(image: Image.Image) -> bytes:
    """RGB PNG bytes (8 bits a channel, unfiltered rows, zlib level `PNG_ZLIB_LEVEL`).

    No palette: pixels keep the exact colours tests compare with. zlib works
    without the GIL, so encoding in a worker thread leaves the event loop free.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    width, height = image.size
    pixels = memoryview(image.tobytes())
    stride = width * 3
    raw = bytearray(height * (stride + 1))  # each row after its filter byte (0: none)
    for y in range(height):
        start = y * (stride + 1) + 1
        raw[start : start + stride] = pixels[y * stride : (y + 1) * stride]
    header = struct.pack(
        ">IIBBBBB", width, height, 8, 2, 0, 0, 0
    )  # 8 bits, truecolour, deflate, no filter, no interlace
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", deflate(raw, height)),
            _chunk(b"IEND", b""),
        )
    )
