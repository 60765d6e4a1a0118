"""render/review_chart.py: one line per seat in its colour, the key turns marked, every word the caller's."""

from __future__ import annotations

import io

from PIL import Image

from render.palette import player_style
from render.review_chart import ChartWords, render_review_chart, review_chart_image

TICKS = ("0%", "25%", "50%", "75%", "100%")


def words(names: tuple[str, ...]) -> ChartWords:
    return ChartWords("Chances of winning, game #3 (USA)", "Turn", "Chance of winning", TICKS, names, "the alt text")


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


def test_many_long_names_take_more_legend_rows() -> None:
    chances = [(0.2,) * 5] * 30
    short = review_chart_image(chances, (), words(("a", "b", "c", "d", "e")))
    long = review_chart_image(chances, (), words(tuple("x" * 32 + str(i) for i in range(5))))
    assert long.height > short.height and long.width == short.width
