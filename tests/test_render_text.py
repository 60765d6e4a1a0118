"""Names with letters beyond ASCII draw as letters, never as replacement boxes; alt text fits Discord."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import Image, ImageChops, ImageDraw
from test_render_support import NAMES, crowded_game, start_game

from bot.present.image_words import IMAGE_WORDS
from bot.present.words import plural
from maps import MAP_NAMES, load_board
from render import missing_glyphs, render_board, static_board
from render.alt_text import LIMIT, board_alt, final_alt, fit_sentences, private_alt
from render.describe import player_name
from render.fonts import drawable, font, has_glyph


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_every_place_and_country_name_has_its_glyphs(map_name: str) -> None:
    board = load_board(map_name)
    for name in [*board.places, *board.countries]:
        assert missing_glyphs(name, bold=True) == [], name


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_every_name_on_the_board_is_drawn_whole(map_name: str) -> None:
    static = static_board(map_name, words=IMAGE_WORDS)
    named = {p.name for p in static.board.places.values() if p.country is None}
    assert {label.place for label in static.labels} == named
    for label in static.labels:
        assert label.text.replace("\n", " ") == label.place
    for tile in static.tiles:
        assert tile.letters.getbbox() is not None


def test_the_glyph_check_tells_letters_from_replacement_boxes() -> None:
    for char in "äöüÄÖÜéèâçñßëÉ–→✓★▶":
        assert has_glyph(char, bold=True), char
    for char in ("\ue000", "\U0001f682", "中"):
        assert not has_glyph(char, bold=True), repr(char)


def test_an_umlaut_is_drawn_as_a_letter_with_its_dots() -> None:
    """'Zürich' must differ from 'Zurich' exactly where the dots go: above the u."""
    bold = font(40, bold=True)
    images = []
    for text in ("Zürich", "Zurich"):
        image = Image.new("L", (200, 60), 0)
        ImageDraw.Draw(image).text((5, 5), text, font=bold, fill=255)
        images.append(image)
    box = ImageChops.difference(images[0], images[1]).getbbox()
    assert box is not None
    u_left = 5 + bold.getlength("Z")
    u_right = 5 + bold.getlength("Zu")
    assert u_left - 1 <= box[0] and box[2] <= u_right + 1
    assert box[3] <= 5 + bold.getbbox("u")[1]  # above the top of the u


def test_player_names_keep_their_letters_and_lose_only_what_the_font_lacks() -> None:
    game = crowded_game("usa")
    assert [player_name(game, seat, IMAGE_WORDS) for seat in range(len(game.names))] == list(NAMES)
    assert drawable("🚂 Anna") == "Anna"
    assert drawable("🚂🚃", fallback="Player 2") == "Player 2"


def test_alt_text_fits_discords_limit_and_stops_at_a_whole_sentence() -> None:
    text = fit_sentences(["One.", "Two two.", "x" * LIMIT])
    assert text == "One. Two two."
    for map_name in MAP_NAMES:
        alt = render_board(crowded_game(map_name), words=IMAGE_WORDS).alt_text
        assert len(alt) <= LIMIT
        assert alt.endswith(".")
        assert "Players:" in alt


def test_the_start_alt_text_names_whose_turn_it_is() -> None:
    alt = render_board(start_game("switzerland"), words=IMAGE_WORDS).alt_text
    assert "Setup: Zoë, Björn to choose tickets." in alt


def test_counts_read_naturally() -> None:
    assert plural(1, "cable cars") == "1 cable car"
    assert plural(3, "trains") == "3 trains"
    assert plural(1, "ticket") == "1 ticket"
    assert plural(0, "contract") == "0 contracts"


class _Shouting:
    """The English words in capitals: a text the renderer wrote itself would stay in small letters."""

    def __getattr__(self, name: str) -> Callable[..., str]:
        english = getattr(IMAGE_WORDS, name)

        def shout(*args: object) -> str:
            return str(english(*args)).upper()

        return shout


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_every_word_of_the_alt_texts_comes_from_the_words_given(map_name: str) -> None:
    shouting = _Shouting()
    for game in (start_game(map_name), crowded_game(map_name)):
        assert board_alt(game, shouting) == board_alt(game, IMAGE_WORDS).upper()
        assert private_alt(game, 0, shouting) == private_alt(game, 0, IMAGE_WORDS).upper()
        assert final_alt(game, shouting) == final_alt(game, IMAGE_WORDS).upper()
