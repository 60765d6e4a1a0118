"""Who sits at which table in a round: the players in standing order (before any game: an order drawn from the
round's seed), Swiss-paired over who met whom (substitutes take over their players' meetings)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.service.errors import Why, WrongState
from bot.service.tournaments.models import TournamentSettings
from bot.service.tournaments.pairing import History, PairingError, pair_round
from bot.service.tournaments.results import standing_lines
from bot.service.tournaments.tour_core import entries_of
from bot.store.tournament_rows import TableStatus, TournamentData
from maps import load_board


def ranked(data: TournamentData, active: Sequence[int], seed: str) -> list[int]:
    """The active players, best standing first (before any game: in an order drawn from `seed`)."""
    if not data.results:
        order = sorted(active)
        random.Random(f"conductor-round-order:{seed}").shuffle(order)
        return order
    rank = {line.user_id: i for i, line in enumerate(standing_lines(data, keep_all=True))}
    return sorted(active, key=lambda u: (rank.get(u, len(rank)), u))


def pair(
    data: TournamentData,
    order: Sequence[int],
    settings: TournamentSettings,
    map_name: str,
    seed: str,
    final: bool,
) -> tuple[tuple[tuple[int, ...], ...], int]:
    rules = load_board(map_name).rules
    size = len(order) if final else settings.size
    try:
        pairing = pair_round(
            order,
            met_before(data),
            table_size=max(rules.min_players, min(size, rules.max_players)),
            min_players=rules.min_players,
            max_players=rules.max_players,
            seed=seed,
        )
    except PairingError as exc:
        facts = {
            "tournament_id": data.tournament.id,
            "players": len(order),
            "low": rules.min_players,
            "table_size": size,
        }
        raise WrongState(Why.TOO_FEW_PLAYERS, facts) from exc
    return pairing.tables, pairing.repeats


def met_before(data: TournamentData) -> History:
    """Who met whom and who sat first, over the tables paired so far (substitutes take over their players')."""
    entry = entries_of(data)
    rounds: dict[int, list[tuple[int, ...]]] = {}
    for row in data.tables:
        if row.status is not TableStatus.VOID:
            rounds.setdefault(row.round, []).append(tuple(entry(u) for u in row.seats))
    return History.from_rounds(rounds[r] for r in sorted(rounds))
