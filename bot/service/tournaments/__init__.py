"""Tournaments (issue 14), the pure parts: Swiss pairing of multiplayer tables and standings.

No store, no Discord, no sentences: `pairing.py` pairs a round, `standings.py` ranks the players.
"""

from bot.service.tournaments.pairing import (
    EXACT_LIMIT,
    History,
    Pairing,
    PairingError,
    PairingProblem,
    pair_round,
    repeated_pairs,
    table_sizes,
)
from bot.service.tournaments.standings import (
    Finish,
    StandingRow,
    StandingsError,
    TableResult,
    place_points,
    standings,
)

__all__ = [
    "EXACT_LIMIT",
    "Finish",
    "History",
    "Pairing",
    "PairingError",
    "PairingProblem",
    "StandingRow",
    "StandingsError",
    "TableResult",
    "pair_round",
    "place_points",
    "repeated_pairs",
    "standings",
    "table_sizes",
]
