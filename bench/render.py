"""Render benchmark: a crowded end-of-game board per map, against PNG encoding alone.

Run: .venv/bin/python -m bench.render [--repeat N]
For each map it prints the static layer's build time (once per process), the
time to render the public board (drawing and encoding), the time Pillow takes
only to encode that same image, their ratio (the aim is under 2) and the PNG
size; then the same for the private and final images. Asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable

from PIL import Image, ImageChops

from bench.engine import crowded_game
from bot.present.image_words import IMAGE_WORDS
from engine import Game
from maps import MAP_NAMES
from render.compose import PNG_ZLIB_LEVEL, encode_png
from render.images import (
    RenderedImage,
    board_image,
    final_image,
    private_image,
    render_board,
    render_final,
    render_private,
)
from render.static_layer import static_board


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(
    game: Game, render: Callable[[Game], RenderedImage], draw: Callable[[Game], Image.Image], repeat: int
) -> tuple[float, float, int, tuple[int, int]]:
    """(render seconds, encode-only seconds, PNG bytes, size) for one kind of image."""
    rendered = render(game)  # warm the sprite caches, as a running bot has them
    image = draw(game)
    render_s = median_seconds(lambda: render(game), repeat)
    encode_s = median_seconds(lambda: encode_png(image), repeat)
    return render_s, encode_s, len(rendered.png), (rendered.width, rendered.height)


def _save(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


ENCODINGS: dict[str, Callable[[Image.Image], bytes]] = {
    "Pillow PNG level 6 (before)": lambda im: _save(im, "PNG", compress_level=6),
    f"unfiltered, zlib {PNG_ZLIB_LEVEL} (chosen)": encode_png,
    "Pillow PNG level 1": lambda im: _save(im, "PNG", compress_level=1),
    "Pillow PNG level 3": lambda im: _save(im, "PNG", compress_level=3),
    "Pillow PNG level 1, RLE": lambda im: _save(im, "PNG", compress_level=1, compress_type=3),
    "PNG 256 octree, level 1": lambda im: _save(
        im.quantize(256, method=Image.Quantize.FASTOCTREE), "PNG", compress_level=1
    ),
    "WebP lossless, method 0": lambda im: _save(im, "WEBP", lossless=True, method=0, quality=0),
}


def differing_pixels(image: Image.Image, data: bytes) -> int:
    decoded = Image.open(io.BytesIO(data)).convert("RGB")
    r, g, b = ImageChops.difference(image, decoded).split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v else 0)
    return int(mask.histogram()[255])


def compare_encodings(repeat: int) -> None:
    print(f"\n{'map':<14} {'image':<8} {'encoding':<26} {'encode (ms)':>11} {'KB':>6} {'pixels off':>10}")
    for name in MAP_NAMES:
        game = crowded_game(name)
        for kind, image in (
            ("board", board_image(game, words=IMAGE_WORDS)),
            ("private", private_image(game, 0, words=IMAGE_WORDS)),
        ):
            for label, encode in ENCODINGS.items():
                data = encode(image)
                ms = median_seconds(lambda: encode(image), repeat) * 1000  # noqa: B023
                off = differing_pixels(image, data)
                print(f"{name:<14} {kind:<8} {label:<26} {ms:>11.1f} {len(data) / 1024:>6.0f} {off:>10}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per figure (the median is printed)")
    parser.add_argument("--encodings-only", action="store_true", help="only the comparison of encodings")
    args = parser.parse_args()
    if args.encodings_only:
        compare_encodings(args.repeat)
        return
    kinds: list[tuple[str, Callable[[Game], RenderedImage], Callable[[Game], Image.Image]]] = [
        ("board", lambda g: render_board(g, words=IMAGE_WORDS), lambda g: board_image(g, words=IMAGE_WORDS)),
        (
            "private",
            lambda g: render_private(g, 0, words=IMAGE_WORDS),
            lambda g: private_image(g, 0, words=IMAGE_WORDS),
        ),
        ("final", lambda g: render_final(g, words=IMAGE_WORDS), lambda g: final_image(g, words=IMAGE_WORDS)),
    ]
    print(
        f"{'map':<14} {'image':<8} {'routes':>6} {'static (ms)':>11} {'render (ms)':>11} "
        f"{'encode (ms)':>11} {'ratio':>6} {'PNG (KB)':>9} {'size':>10}"
    )
    for name in MAP_NAMES:
        game = crowded_game(name)
        start = time.perf_counter()
        static = static_board(name, words=IMAGE_WORDS)
        static_ms = (time.perf_counter() - start) * 1000
        for kind, render, draw in kinds:
            render_s, encode_s, size, (w, h) = measure(game, render, draw, args.repeat)
            first = f"{static_ms:>11.0f}" if kind == "board" else f"{'':>11}"
            print(
                f"{name:<14} {kind:<8} {len(game.state.owner):>6} {first} {render_s * 1000:>11.1f} "
                f"{encode_s * 1000:>11.1f} {render_s / encode_s:>6.2f} {size / 1024:>9.0f} {w:>5}x{h:<4}"
            )
        assert static.image.size == (static.layout.width, static.layout.height)
    compare_encodings(args.repeat)


if __name__ == "__main__":
    main()
