"""The standings image: a table of the caller's strings, every row drawn, long names cut, numbers right-aligned."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops
from test_render_support import changed_pixels, decode

from render import fonts, render_standings
from render.palette import INK, PANEL, RULE
from render.standings import (
    BAR_W,
    BODY,
    COLUMN_HEADING,
    HIGHLIGHT,
    HIGHLIGHT_BAR,
    MAX_WIDTH,
    SHADE,
    looks_numeric,
    standings_image,
    standings_layout,
)

COLUMNS = ["#", "Spelare", "Platspoäng", "Poäng", "Biljetter", "Motståndarnas styrka"]
NAMES = ["Åsa Öberg", "Matti Meikäläinen", "Jöns Ärlig", "ann", "Pekka Häkkinen", "Liisa Törmä", "Bo", "Väinö"]


def table(count: int, name: str = "Spelare {n} Åäö") -> list[list[str]]:
    return [
        [f"{i + 1}.", name.format(n=i + 1), str(2 * count - i), str(300 - i), str(i % 7), f"{(600 - i) / 7:.1f}"]
        for i in range(count)
    ]


def render(rows: Sequence[Sequence[str]], heading: str = "Ställning efter omgång 3", **kw: object) -> Image.Image:
    return decode(render_standings(heading, COLUMNS, rows, alt_text="alt", **kw).png)  # type: ignore[arg-type]


def test_the_image_grows_with_its_rows_and_stays_at_most_1200_wide() -> None:
    heights = []
    for count in (1, 2, 10, 60, 500):
        result = render_standings("Standings", COLUMNS, table(count), alt_text=f"{count} players")
        image = decode(result.png)
        assert (result.width, result.height) == image.size
        assert result.alt_text == f"{count} players"
        assert image.width <= MAX_WIDTH
        heights.append(image.height)
    assert heights == sorted(set(heights))
    # every row adds the same height
    assert (heights[4] - heights[3]) / 440 == (heights[3] - heights[2]) / 50


def _other(cell: str) -> str:
    """The same cell with other digits of the same width (DejaVu's digits all have one width)."""
    return "".join(str((int(c) + 1) % 10) if c.isdigit() else c for c in cell)


def test_every_row_is_drawn_in_its_own_band() -> None:
    rows = table(12)
    heading = "Ställning efter omgång 3 " * 5  # wider than the table: the layout stays put as a name changes
    base = render(rows, heading)
    layout = standings_layout(heading, COLUMNS, rows)
    for index in range(len(rows)):
        for column in range(len(COLUMNS)):
            changed = [list(r) for r in rows]
            changed[index][column] = "Örjan" if column == 1 else _other(rows[index][column])
            assert standings_layout(heading, COLUMNS, changed).widths == layout.widths
            image = render(changed, heading)
            box = changed_pixels(base, image).getbbox()
            assert box is not None, (index, column)
            _left, top, _right, bottom = layout.row_box(index)
            assert top <= box[1] and box[3] <= bottom + 1, (index, column, box)
            assert layout.lefts[column] - 2 <= box[0] and box[2] <= layout.lefts[column] + layout.widths[column] + 2


def test_each_band_holds_ink_and_empty_cells_draw_nothing() -> None:
    rows = table(8)
    image = render(rows)
    layout = standings_layout("Ställning efter omgång 3", COLUMNS, rows)
    for index in range(len(rows)):
        band = image.crop(layout.row_box(index))
        dark = band.convert("L").point(lambda v: 255 if v < 90 else 0)
        assert dark.getbbox() is not None, index
    blank = [[""] * len(COLUMNS) for _ in range(8)]
    image = render(blank)
    layout = standings_layout("Ställning efter omgång 3", COLUMNS, blank)
    for index in range(len(blank)):
        band = image.crop(layout.row_box(index))
        assert {c for _n, c in band.getcolors()} <= {PANEL, SHADE, RULE}, index  # type: ignore[union-attr]


def test_the_renderer_writes_no_words_of_its_own() -> None:
    """With every string empty only the table's lines and bands are left: no text of the renderer's."""
    rows = [[""] * 3 for _ in range(5)]
    image = decode(render_standings("", ["", "", ""], rows, highlight={2}, alt_text="").png)
    colours = {c for _n, c in image.getcolors(maxcolors=1 << 16)}  # type: ignore[union-attr]
    assert colours <= {PANEL, SHADE, INK, RULE, HIGHLIGHT, HIGHLIGHT_BAR}


def test_rows_alternate_and_highlighted_rows_are_marked() -> None:
    rows = table(10)
    image = render(rows, highlight=[0, 3, 99])
    layout = standings_layout("Ställning efter omgång 3", COLUMNS, rows, highlight=[0, 3, 99])
    assert layout.highlight == {0, 3}
    for index in range(len(rows)):
        left, top, _right, bottom = layout.row_box(index)
        edge = image.getpixel((left + BAR_W + 1, (top + bottom) // 2))
        bar = image.getpixel((left + 1, (top + bottom) // 2))
        if index in (0, 3):
            assert (bar, edge) == (HIGHLIGHT_BAR, HIGHLIGHT)
        else:
            assert bar == edge == (SHADE if index % 2 else PANEL)
    # a highlighted row is drawn bold: more ink than the same text plain
    plain = render(rows)
    plain_layout = standings_layout("Ställning efter omgång 3", COLUMNS, rows)
    for index in range(4):
        bold = _ink_pixels(image.crop(layout.row_box(index)))
        regular = _ink_pixels(plain.crop(plain_layout.row_box(index)))
        assert (bold > regular * 1.2) if index in (0, 3) else (bold == regular), index


def _ink_pixels(image: Image.Image) -> int:
    return sum(image.convert("L").histogram()[:110])


def _ink_box(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """The box of dark pixels (text) inside `box`, in image coordinates."""
    dark = image.crop(box).convert("L").point(lambda v: 255 if v < 110 else 0).getbbox()
    return None if dark is None else (dark[0] + box[0], dark[1] + box[1], dark[2] + box[0], dark[3] + box[1])


def test_numbers_are_right_aligned_and_text_left_aligned() -> None:
    rows = [["1.", "Åsa", "10", "1 120", "5", "10,5"], ["12.", "Bo Långnamn", "7", "99", "", "9,0"]]
    image = render(rows)
    layout = standings_layout("Ställning efter omgång 3", COLUMNS, rows)
    assert layout.numeric == (True, False, True, True, True, True)
    for column in range(len(COLUMNS)):
        edges = []
        for index, row in enumerate(rows):
            if not row[column]:
                continue
            _l, top, _r, bottom = layout.row_box(index)
            box = (layout.lefts[column] - 1, top, layout.lefts[column] + layout.widths[column] + 2, bottom)
            ink = _ink_box(image, box)
            assert ink is not None
            edges.append(ink[2] if layout.numeric[column] else ink[0])
        assert max(edges) - min(edges) <= 2, (column, edges)


@pytest.mark.parametrize(
    ("cell", "numeric"),
    [
        ("12", True),
        ("−3", True),
        ("+4", True),
        ("-4", True),
        ("1.5", True),
        ("2,5", True),
        ("1.", True),
        ("3/5", True),
        ("45%", True),
        ("1 234", True),
        (" 7 ", True),
        ("", False),
        ("Åsa", False),
        ("1st", False),
        ("v2", False),
        ("—", False),
        ("1..2", False),
    ],
)
def test_what_looks_numeric(cell: str, numeric: bool) -> None:
    assert looks_numeric(cell) is numeric


def test_a_column_with_one_word_is_not_numeric() -> None:
    rows = [["1", "x", "3", "4", "5", "6"], ["2", "y", "3", "4", "5", "withdrawn"]]
    assert standings_layout("", COLUMNS, rows).numeric == (True, False, True, True, True, False)


LONG_NAMES = [
    "Jöns Jacob Berzelius von Ärlighetens Långa Namn och Släkt till Åbo och Österbotten " * 8,
    "Äänekosken Ylivieskan Pietarsaaren Hämeenlinnan Jyväskylän Seinäjoen Kärsämäen " * 8,
    "ÅÄÖ" * 300,
]


@pytest.mark.parametrize("name", LONG_NAMES)
def test_long_names_are_cut_with_an_ellipsis_and_never_overflow(name: str) -> None:
    rows = [list(r) for r in table(4)]
    rows[1][1] = name
    image = render(rows)
    layout = standings_layout("Ställning efter omgång 3", COLUMNS, rows)
    assert image.width == MAX_WIDTH
    shown = fonts.fit(name, layout.widths[1], BODY)
    assert shown.endswith("…") and len(shown) < len(name)
    # another long name changes nothing outside the name cell
    other = [list(r) for r in rows]
    other[1][1] = "Ö" + name[1:][::-1]
    second = render(other)
    assert second.size == image.size
    box = changed_pixels(image, second).getbbox()
    assert box is not None
    _left, top, _right, bottom = layout.row_box(1)
    assert top <= box[1] and box[3] <= bottom + 1
    assert layout.lefts[1] - 2 <= box[0] and box[2] <= layout.lefts[1] + layout.widths[1] + 2
    # the numbers beside it keep their room
    assert all(
        w >= fonts.text_width(c, COLUMN_HEADING, True) for w, c in zip(layout.widths[2:], COLUMNS[2:], strict=True)
    )


def test_letters_the_font_lacks_are_left_out_not_drawn_as_boxes() -> None:
    rows = table(3)
    with_emoji = [list(r) for r in rows]
    with_emoji[0][1] = "Ölli 🚂 Töö"
    plain = [list(r) for r in rows]
    plain[0][1] = "Ölli Töö"
    assert ImageChops.difference(render(with_emoji), render(plain)).getbbox() is None


def test_sixty_long_rows_stay_under_a_megabyte() -> None:
    rows = table(60, name="Spelaren med ett mycket långt namn nummer {n} från Åbo och Österbotten i Finland")
    result = render_standings("Ställning " * 20, COLUMNS, rows, highlight=range(0, 60, 3), alt_text="alt")
    assert result.width == MAX_WIDTH
    assert len(result.png) < 1_000_000


def test_the_bytes_are_deterministic() -> None:
    rows = table(25)
    first = render_standings("Ställning", COLUMNS, rows, highlight={4, 1}, alt_text="a").png
    again = render_standings("Ställning", COLUMNS, [list(r) for r in rows], highlight=[1, 4], alt_text="a").png
    assert first == again


def test_a_row_of_the_wrong_length_or_no_columns_is_refused() -> None:
    with pytest.raises(ValueError, match="row 1"):
        standings_image("x", ["a", "b"], [["1", "2"], ["1"]])
    with pytest.raises(ValueError, match="column"):
        standings_image("x", [], [])


cells = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=60)


@settings(max_examples=40, deadline=None)
@given(
    heading=cells,
    data=st.data(),
    count=st.integers(1, 6),
    length=st.integers(0, 30),
)
def test_any_table_fits_its_frame(heading: str, data: st.DataObject, count: int, length: int) -> None:
    columns = data.draw(st.lists(cells, min_size=count, max_size=count))
    rows = data.draw(st.lists(st.lists(cells, min_size=count, max_size=count), min_size=length, max_size=length))
    image = standings_image(heading, columns, rows, highlight={0})
    layout = standings_layout(heading, columns, rows, highlight={0})
    assert image.size == (layout.width, layout.height) and image.width <= MAX_WIDTH
    # the columns stay inside the image, in order
    assert all(a + w < b for a, w, b in zip(layout.lefts, layout.widths, layout.lefts[1:], strict=False))
    assert layout.lefts[-1] + layout.widths[-1] <= layout.width
