"""Text is fitted to its width in logarithmic steps, with the same cut as trimming one character at a time."""

from __future__ import annotations

import random

import pytest

from bot.present.image_words import IMAGE_WORDS
from engine import Game
from maps import load_board
from render import fonts, render_board, render_final, render_private
from render.fonts import fit, text_width


def fit_one_at_a_time(text: str, width: int, size: int, bold: bool = False) -> str:
    """The way text was fitted before: trim a character until it fits."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


NAMES = [
    "Zoë",
    "Björn Ångström-Lindqvist",
    "Chandra Sekhar Venkataraman",
    "AVAVAVAV Wa To Ty LT",
    "Łukasz the Conductor of the Night Train",
    "e\u0301e\u0301e\u0301 combining accents everywhere e\u0301e\u0301",
    "中文名字 mixed with Latin letters",
    "   spaces   between   words   ",
    "W" * 60,
    "i" * 200,
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("width", "size", "bold"), [(40, 14, False), (120, 18, True), (300, 24, True), (1, 14, False)])
def test_the_halving_fit_cuts_where_trimming_did(name: str, width: int, size: int, bold: bool) -> None:
    assert fit(name, width, size, bold) == fit_one_at_a_time(name, width, size, bold)


def test_random_names_are_cut_the_same() -> None:
    rng = random.Random(11)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ äöüßéèçñ.-_'0123456789ŁŻĄ"
    for _ in range(300):
        name = "".join(rng.choice(letters) for _ in range(rng.randint(1, 60)))
        width, size, bold = rng.randint(1, 400), rng.choice([14, 16, 20]), rng.random() < 0.5
        assert fit(name, width, size, bold) == fit_one_at_a_time(name, width, size, bold)


class Measurements:
    """Counts how often render measures a text's width."""

    def __init__(self) -> None:
        self.count = 0
        self.measure = fonts.text_width

    def __call__(self, text: str, size: int, bold: bool = False) -> int:
        self.count += 1
        return self.measure(text, size, bold)


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Measurements:
    counter = Measurements()
    monkeypatch.setattr(fonts, "text_width", counter)
    return counter


def test_a_4000_character_name_is_fitted_in_a_few_measurements(measured: Measurements) -> None:
    name = "Ω" + "w" * 3999
    fitted = fit(name, 200, 18, True)
    assert measured.count <= 20
    measure = measured.measure
    assert fitted.endswith("…") and measure(fitted, 18, True) <= 200
    assert measure(name[: len(fitted)] + "…", 18, True) > 200  # one more character would not fit


def test_a_game_with_4000_character_names_is_drawn_in_few_measurements(measured: Measurements) -> None:
    """Every text of every image is fitted in logarithmic steps (counted, not timed: speed lives in bench/)."""
    board = load_board("usa")
    names = ["A" * 4000, "Björn " * 700, "z" * 4000]
    game = Game(board, names, seed="long names")
    for image in (
        render_board(game, words=IMAGE_WORDS),
        render_private(game, 0, words=IMAGE_WORDS),
        render_final(game, words=IMAGE_WORDS),
    ):
        assert image.png.startswith(b"\x89PNG")
    # about 270 measurements; trimming one character at a time took thousands per name
    assert measured.count <= 600
