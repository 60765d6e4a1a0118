"""render/review_chart.py: one line per seat in its colour, the key turns marked, the luck and choices bars, every
word the caller's, every text readable at the width Discord shows an image on a phone."""

from __future__ import annotations

import io

from PIL import Image

from render.palette import player_style
from render.review_chart import (
    GAIN,
    LOSS,
    PHONE_TEXT,
    PHONE_WIDTH,
    ChartBars,
    ChartWords,
    render_review_chart,
    review_chart_image,
)

TICKS = ("0%", "25%", "50%", "75%", "100%")


def bars(seats: int) -> ChartBars:
    values = tuple(((-12.0 + 9 * i), (4.0 - 6 * i)) for i in range(seats))
    labels = tuple((f"{a:+.0f}", f"{b:+.0f}") for a, b in values)
    return ChartBars("Luck and choices, in points of chance of winning", "Luck", "Choices", values, labels)


def words(names: tuple[str, ...], with_bars: bool = True) -> ChartWords:
    return ChartWords(
        "Chances of winning, game #3 (USA)",
        "Turn",
        "Chance of winning",
        TICKS,
        names,
        "the alt text",
        bars(len(names)) if with_bars else None,
    )


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in image.convert("RGB").getcolors(maxcolors=1 << 20) or []}


def test_each_seat_is_drawn_in_its_colour_with_the_callers_words() -> None:
    chances = [(1 / 3, 1 / 3, 1 / 3)] + [(0.5, 0.3, 0.2)] * 40 + [(1.0, 0.0, 0.0)]
    rendered = render_review_chart(chances, (4, 17, 33), words(("ann", "bob", "cid")))
    assert rendered.alt_text == "the alt text" and rendered.width == 960
    image = Image.open(io.BytesIO(rendered.png))
    assert image.size == (rendered.width, rendered.height)
    seen = colours(image)
    for seat in range(3):
        assert player_style(seat).rgb in seen
    assert player_style(3).rgb not in seen
    assert GAIN in seen and LOSS in seen  # the bars: gained and lost


def test_the_bars_take_a_row_per_seat() -> None:
    chances = [(0.5, 0.5)] * 30
    plain = review_chart_image(chances, (), words(("ann", "bob"), with_bars=False))
    two = review_chart_image(chances, (), words(("ann", "bob")))
    four = review_chart_image([(0.25,) * 4] * 30, (), words(("a", "b", "c", "d")))
    assert plain.height < two.height < four.height
    assert GAIN not in colours(plain) and LOSS not in colours(plain)


def test_many_long_names_take_more_legend_rows() -> None:
    chances = [(0.2,) * 5] * 30
    short = review_chart_image(chances, (), words(("a", "b", "c", "d", "e")))
    long = review_chart_image(chances, (), words(tuple("x" * 32 + str(i) for i in range(5))))
    assert long.height > short.height and long.width == short.width


def test_every_text_is_readable_at_a_phones_width() -> None:
    """Discord shows the image about PHONE_WIDTH pixels wide on a phone: no text may come out smaller than
    PHONE_TEXT pixels there, long names and a long title included."""
    for names in (("ann", "bob"), tuple("Wilhelmina-Charlotta " + str(i) for i in range(5))):
        sizes: list[int] = []
        image = review_chart_image([(1 / len(names),) * len(names)] * 121, (3, 60, 117), words(names), sizes)
        assert sizes and len(sizes) > 20
        shrink = PHONE_WIDTH / image.width
        assert min(sizes) * shrink >= PHONE_TEXT, (min(sizes), image.width)
    # and the title, however long, wraps rather than shrinks past that
    sizes = []
    long = ChartWords("Vinstchanser, parti #12345 (San Francisco) " * 3, "Tur", "Vinstchans", TICKS, ("a",), "alt")
    review_chart_image([(1.0,)] * 10, (), long, sizes)
    assert min(sizes) * PHONE_WIDTH / 960 >= PHONE_TEXT
