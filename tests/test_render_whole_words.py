"""No text in any image is cut (issue 24): every image of every map in every language, with the longest member
names Discord allows (32 characters), through whole games, draws each text whole inside its block.

A text that does not fit its room is drawn smaller or on more lines (`fonts.fitted`), never cut with "…"; only a
name longer than Discord allows (a record's 4,000-character name) may still be cut. The check watches the two
ways text reaches an image: every cut `fonts.fit` makes, and every box `Sheet.text` draws.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from PIL import Image

import render.images as images
from bot.present.i18n import speaking
from bot.present.image_words import image_words
from bot.service.kinds import Language
from engine import Game
from engine.autopilot import choose_move
from maps import MAP_NAMES, load_board
from render import fonts
from render.layout import board_layout
from render.sheet import Sheet

# 32 characters each, the most Discord allows in a display name: wide letters, long words, no space at all
NAMES = [
    "Fredrika Lindqvist-Åkerström Wik",
    "W" * 32,
    "Äänekosken Ylivieskan Pietarsaar",
    "MMMMMMMMMMMMMMMM MMMMMMMMMMMMMMM",
    "Björn Åkesson-Öberg från Österåk",
]
assert all(len(name) == 32 for name in NAMES)


class Watch:
    """What the images drew: every cut text and every box outside its sheet."""

    def __init__(self) -> None:
        self.cut: list[str] = []
        self.outside: list[str] = []


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    seen = Watch()
    real_fit, real_text = fonts.fit, Sheet.text

    def fit(text: str, width: int, size: int, bold: bool = False) -> str:
        shown = real_fit(text, width, size, bold)
        if shown != text:
            seen.cut.append(f"{text!r} cut to {shown!r}")
        return shown

    def text(sheet: Sheet, x: float, y: float, line: str, size: int, *args: Any, **kwargs: Any) -> Any:
        box = real_text(sheet, x, y, line, size, *args, **kwargs)
        if "…" in line:
            seen.cut.append(repr(line))
        if box[0] < -1 or box[2] > sheet.width + 1:  # a glyph's side bearing may reach one pixel out
            seen.outside.append(f"{line!r} at {box[0]}..{box[2]} in a sheet {sheet.width} wide")
        return box

    monkeypatch.setattr(fonts, "fit", fit)
    monkeypatch.setattr(Sheet, "text", text)
    # the board itself (places, routes) is drawn the same in every language: a blank one keeps the test fast
    monkeypatch.setattr(images, "draw_board", lambda game, words, **kw: _blank(game.board.name))
    return seen


def _blank(map_name: str) -> Image.Image:
    layout = board_layout(map_name)
    return Image.new("RGB", (layout.width, layout.height), (255, 255, 255))


def _images(game: Game, language: Language, final: bool) -> None:
    words = image_words(language)
    images.board_image(game, words=words)
    seat = game.names.index(game.waiting_for()[0]) if game.waiting_for() else 0
    images.private_image(game, seat, words=words)
    if final:
        images.final_image(game, words=words)


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_no_image_cuts_a_word(map_name: str, language: Language, watch: Watch) -> None:
    board = load_board(map_name)
    game = Game(board, NAMES[: board.rules.max_players], seed=f"whole words {map_name}")
    moves = 0
    with speaking(language):
        while not game.finished:
            if moves % 7 == 0:  # the start, a claim, tickets drawn, a tunnel...: every seventh state
                _images(game, language, final=moves % 35 == 0)
            game.apply(choose_move(game, game.waiting_for()[0]))
            moves += 1
        _images(game, language, final=True)
    assert moves > 35
    assert watch.cut == [], watch.cut[:10]
    assert watch.outside == [], watch.outside[:10]


def test_the_watch_sees_a_cut_and_an_overflow(watch: Watch) -> None:
    """The check above can fail: a cut and a text wider than its sheet are both seen."""
    fonts.fit("a name far too long for forty pixels", 40, 17)
    Sheet(50).text(0, 0, "wider than fifty pixels", 17)
    assert len(watch.cut) == 1 and len(watch.outside) == 1


@pytest.mark.parametrize("language", list(Language))
def test_the_standings_image_cuts_no_name(language: Language, watch: Watch) -> None:
    """A tournament's standings with 32-character names, each with the longest status word of the language."""
    from types import SimpleNamespace
    from typing import cast

    from bot.present.tournament_standings import standings_table
    from bot.service.tournaments.models import StandingLine, TournamentInfo
    from bot.store.tournament_rows import ParticipantStatus, TournamentStatus
    from render.standings import standings_image

    info = cast(TournamentInfo, SimpleNamespace(status=TournamentStatus.FINISHED, name="Höstcupen i Ylivieska 2026"))
    statuses = list(ParticipantStatus)
    lines = [
        StandingLine(
            k + 1,
            100 + k,
            NAMES[k % len(NAMES)],
            statuses[k % len(statuses)],
            Fraction(7, 2),
            123,
            4,
            Fraction(1, 3),
            5,
            2,
        )
        for k in range(12)
    ]
    with speaking(language):
        heading, columns, rows, _alt = standings_table(info, lines)
    standings_image(heading, columns, rows, highlight=[1])
    assert watch.cut == [], watch.cut[:10]
