"""Small things that told members less than they needed (issue 25): a tournament's clock said as "the server's",
a refusal to leave a running tournament without what to do, Switzerland's border numbers only in texts, and the
final image of a game a moderator ended still saying whose turn it was."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from helpers.service_support import GUILD, open_service
from PIL import Image

from bot.present.i18n import speaking
from bot.present.image_words import image_words
from bot.present.refusals import refusal_text
from bot.present.tournament_message import settings_lines
from bot.service import NO_CLOCK, ClockSettings, ServiceError, Why
from bot.service.kinds import Language
from bot.service.tournaments.models import TablePlan, TournamentSettings
from bot.store import Database
from engine import Game
from engine.autopilot import choose_move
from maps import load_board
from render.layout import board_layout
from render.palette import INK
from render.panel import header_block
from render.static_layer import build_static_board

MOD = 900
CHANNEL = 5000
USERS = [100 + i for i in range(6)]


class Threads:
    def __init__(self) -> None:
        self.ids = itertools.count(7000)

    async def __call__(self, plan: TablePlan) -> int:
        return next(self.ids)


def test_a_tournament_on_the_servers_clock_says_that_clock() -> None:
    settings = TournamentSettings(maps=("usa",), rounds=1)  # no clock of its own: the server's
    with speaking(Language.EN):
        unknown = settings_lines(settings)[1]
        told = settings_lines(settings, ClockSettings(turn_seconds=12 * 3600, reserve_seconds=2 * 86400))[1]
    assert unknown == "Turn clock: the server's."
    assert told.startswith("Turn clock (the server's): 12h a turn, 2d in reserve;"), told


async def test_leaving_a_running_tournament_says_to_ask_a_moderator(database: Database) -> None:
    service = await open_service(database)
    try:
        info = await service.tournaments.registration.create_tournament(
            GUILD, CHANNEL, MOD, "Cup", TournamentSettings(("usa",), 1, clock=NO_CLOCK)
        )
        await service.tournaments.registration.open_registration(info.id, MOD)
        for user in USERS:
            await service.tournaments.registration.join_tournament(info.id, user, f"p{user}")
        await service.tournaments.rounds.start_round(info.id, MOD, Threads())
        with pytest.raises(ServiceError) as refused:
            await service.tournaments.registration.leave_tournament(info.id, USERS[0])
        assert refused.value.why is Why.TOURNAMENT_IS
        for language, words in ((Language.EN, "ask one of its moderators"), (Language.SV, "moderator")):
            with speaking(language):
                text = refusal_text(refused.value)
            assert words in text and "/ttrtour" in text, text
        # someone who is not in it is told just that
        with pytest.raises(ServiceError) as stranger:
            await service.tournaments.registration.leave_tournament(info.id, 999)
        assert stranger.value.why is Why.TOURNAMENT_IS and "leaving" not in stranger.value.facts
    finally:
        await service.close()


def border_points() -> Iterator[tuple[str, float, float]]:
    board = load_board("switzerland")
    for place in board.places.values():
        if place.country in ("France", "Italia"):  # flags with a white middle: the number shows dark on it
            yield place.name, place.x, place.y


def test_switzerlands_border_points_show_their_numbers_on_the_board() -> None:
    board = load_board("switzerland")
    layout = board_layout("switzerland")
    static = build_static_board(board, layout, None)
    image = static.image.convert("RGB")
    found = list(border_points())
    assert found
    for name, x, y in found:
        px, py = layout.to_pixel(x, y)
        box = image.crop((int(px) - 4, int(py) - 6, int(px) + 5, int(py) + 7))
        raw = box.tobytes()
        pixels = [raw[i : i + 3] for i in range(0, len(raw), 3)]
        dark = sum(1 for p in pixels if sum(p) < sum(_rgb(INK)) + 60)
        assert dark >= 4, f"no number on the flag of {name}"


def _rgb(colour: object) -> tuple[int, int, int]:
    if isinstance(colour, tuple):
        return colour[0], colour[1], colour[2]
    converted = Image.new("RGB", (1, 1), colour).getpixel((0, 0))  # type: ignore[arg-type]
    assert isinstance(converted, tuple)
    return converted[0], converted[1], converted[2]


def test_the_final_image_of_a_game_ended_by_a_moderator_names_nobody_to_move() -> None:
    game = Game(load_board("usa"), ["ann", "bob"], seed=3)
    while len(game.moves) < 12:
        to_move = game.waiting_for()[0]
        game.apply(choose_move(game, to_move))
    assert not game.finished and game.to_move() is not None
    words = image_words(Language.EN)
    playing = header_block(game, 600, words, title="USA · final scores")
    ended = header_block(game, 600, words, title="USA · final scores", ended=True)
    assert ended.height < playing.height  # the whose-turn line is left out
