"""The digest's faster search for the routes a player needs gives exactly the autopilot's answer."""

from __future__ import annotations

import random

import pytest

from bot.service.paths import missing_routes
from engine import Game, GameError
from engine.autopilot import missing_routes as autopilot_missing_routes
from engine.random_play import random_move
from maps import MAP_NAMES, load_board


@pytest.mark.parametrize("map_name", MAP_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_needed_routes_are_the_autopilots_at_every_move(map_name: str, players: int) -> None:
    rng = random.Random(f"{map_name}-{players}")
    for game_number in range(2):
        try:
            game = Game(load_board(map_name), [f"p{i}" for i in range(players)], f"seed-{game_number}")
        except GameError:
            pytest.skip(f"{map_name} is not played by {players}")
        checked = 0
        while (move := random_move(game, rng)) is not None:
            game.apply(move)
            if len(game.moves) % 2:
                continue
            for seat in range(players):
                fast = missing_routes(game, seat)
                assert list(fast.items()) == list(autopilot_missing_routes(game, seat).items())
                checked += bool(fast)
        assert checked > 0  # positions where something is needed were compared, not only empty answers
