"""Board data for the five maps and the loader that validates it."""

from maps.board import GRAY, WILD, Board, Place, Route, Rules, Space, Target, Ticket
from maps.loader import MAP_NAMES, MapError, check_all, load_board, parse_board

__all__ = [
    "GRAY",
    "MAP_NAMES",
    "WILD",
    "Board",
    "MapError",
    "Place",
    "Route",
    "Rules",
    "Space",
    "Target",
    "Ticket",
    "check_all",
    "load_board",
    "parse_board",
]
