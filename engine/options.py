"""The choices made when a game is set up: how many players, how many trains each."""

from __future__ import annotations

from engine.errors import GameError, MapNames, PlayerCount, TrainsNotANumber, TrainsOutOfRange
from maps import Rules

MIN_TRAINS_OPTION = 3
MAX_TRAINS_OPTION = 60


def check_player_count(rules: Rules, count: int) -> None:
    """Raise GameError unless the map is played by `count` players."""
    if not rules.min_players <= count <= rules.max_players:
        raise GameError(PlayerCount(rules.min_players, rules.max_players, count, MapNames.of(rules)))


def check_trains_option(trains: object) -> None:
    """Raise GameError unless `trains` is a whole number of trains each player may start with."""
    if isinstance(trains, bool) or not isinstance(trains, int):
        raise GameError(TrainsNotANumber(repr(trains)))
    if not MIN_TRAINS_OPTION <= trains <= MAX_TRAINS_OPTION:
        raise GameError(TrainsOutOfRange(MIN_TRAINS_OPTION, MAX_TRAINS_OPTION, trains))
