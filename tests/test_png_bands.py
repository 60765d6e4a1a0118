"""The PNG's pixels deflated in bands side by side (render/compose.py): one valid zlib stream, every pixel exact."""

from __future__ import annotations

import io
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render.compose import adler32_combine, deflate, encode_png


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_the_checksums_of_two_parts_combine_into_that_of_the_whole(first: bytes, second: bytes) -> None:
    assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


def test_the_checksum_of_long_parts_combines_too() -> None:
    first, second = bytes(range(256)) * 700, b"\xff" * 200_000  # sums past the modulus many times
    assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


@settings(max_examples=30)
@given(st.integers(1, 700), st.integers(1, 40), st.binary(min_size=1, max_size=64))
def test_banded_deflate_is_one_stream_of_the_same_bytes(rows: int, width: int, pattern: bytes) -> None:
    row = (pattern * (width // len(pattern) + 1))[:width]
    raw = b"".join(bytes([y % 7]) + row[y % len(row) :] + row[: y % len(row)] for y in range(rows))
    packed = deflate(raw, rows)
    assert zlib.decompress(packed) == raw  # the checksum at its end is checked too


def test_a_large_image_keeps_every_pixel() -> None:
    image = Image.new("RGB", (600, 1000), (250, 240, 230))
    for y in range(0, 1000, 37):
        for x in range(0, 600, 13):
            image.putpixel((x, y), (x % 256, y % 256, (x * y) % 256))
    png = encode_png(image)
    back = Image.open(io.BytesIO(png))
    back.load()
    assert back.mode == "RGB" and back.tobytes() == image.tobytes()
