"""The choices made when a game is set up: how many players, how many trains each."""

from __future__ import annotations

from engine.errors import GameError
from maps import Rules

MIN_TRAINS_OPTION = 3
MAX_TRAINS_OPTION = 60


def check_player_count(rules: Rules, count: int) -> None:
    """Raise GameError unless the map is played by `count` players."""
    if not rules.min_players <= count <= rules.max_players:
        raise GameError(f"{rules.title} is played by {rules.min_players} to {rules.max_players} players, not {count}")


def check_trains_option(trains: object) -> None:
    """Raise GameError unless `trains` is a whole number of trains each player may start with."""
    if isinstance(trains, bool) or not isinstance(trains, int):
        raise GameError(f"the trains option must be a whole number, not {trains!r}")
    if not MIN_TRAINS_OPTION <= trains <= MAX_TRAINS_OPTION:
        raise GameError(f"the trains option must be from {MIN_TRAINS_OPTION} to {MAX_TRAINS_OPTION}, not {trains}")
