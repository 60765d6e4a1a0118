"""The digest's faster search for the routes a player needs gives exactly the autopilot's answer."""

from __future__ import annotations

import random

import pytest

from bot.service.paths import missing_routes
from engine import Game
from engine.autopilot import missing_routes as autopilot_missing_routes
from engine.random_play import random_move
from maps import MAP_NAMES, load_board

# every map at every player count it is played by, up to four
PLAYED = [
    (name, players)
    for name in MAP_NAMES
    for players in range(load_board(name).rules.min_players, min(4, load_board(name).rules.max_players) + 1)
]


@pytest.mark.parametrize(("map_name", "players"), PLAYED)
def test_the_needed_routes_are_the_autopilots_at_every_move(map_name: str, players: int) -> None:
    rng = random.Random(f"{map_name}-{players}")
    for game_number in range(2):
        game = Game(load_board(map_name), [f"p{i}" for i in range(players)], f"seed-{game_number}")
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
