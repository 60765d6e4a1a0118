"""A new game's options checked by the engine's rules: the number of seats on a map, the trains house rule."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.service.errors import InvalidInput, Why
from engine.errors import GameError
from engine.options import MAX_TRAINS_OPTION, MIN_TRAINS_OPTION, check_player_count, check_trains_option
from maps import load_board


def _allowed(check: Callable[[], None]) -> bool:
    """Does the engine's option check pass?"""
    try:
        check()
    except GameError:
        return False
    return True


def check_options(map_name: str, max_players: int | None, trains: int | None) -> int:
    """The number of seats of a new game on a known map, by the engine's option checks; InvalidInput if not."""
    rules = load_board(map_name).rules
    seats = rules.max_players if max_players is None else max_players
    if isinstance(seats, bool) or not isinstance(seats, int) or not _allowed(partial(check_player_count, rules, seats)):
        facts = {"map": map_name, "low": rules.min_players, "high": rules.max_players, "value": max_players}
        raise InvalidInput(Why.BAD_SEATS, facts)
    if trains is not None and not _allowed(partial(check_trains_option, trains)):
        facts = {"map": map_name, "low": MIN_TRAINS_OPTION, "high": MAX_TRAINS_OPTION, "value": trains}
        raise InvalidInput(Why.BAD_TRAINS, facts)
    return seats
