"""Amsterdam's merchandise: claiming a route with a cart takes a merchandise card.

The cards are few; at the end the players who hold the most score a bonus
by rank, from the map's ladder for the number of players.

State: the cards left (GameState.merchandise_left) and each player's cards
(PlayerState.merchandise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.extras.base import Extra
from engine.scoring import Network, PlayerScore
from engine.state import GameState
from maps import Board, Route
from maps.board import MerchandiseRules


def ranked_bonus(counts: Sequence[int], ladder: Sequence[int]) -> list[int]:
    """Merchandise-style ranking: ties share a rank and skip the ranks they cover."""
    out = []
    for c in counts:
        if c <= 0:
            out.append(0)
            continue
        rank = sum(1 for other in counts if other > c)
        out.append(ladder[rank] if rank < len(ladder) else 0)
    return out


class Merchandise(Extra):
    def __init__(self, board: Board) -> None:
        super().__init__(board)
        assert board.rules.merchandise is not None
        self.merchandise: MerchandiseRules = board.rules.merchandise

    @staticmethod
    def applies(board: Board) -> bool:
        return board.rules.merchandise is not None

    def setup(self, state: GameState) -> None:
        state.merchandise_left = self.merchandise.cards

    def after_claim(
        self, state: GameState, seat: int, route: Route, souvenir: str | None, public: dict[str, Any]
    ) -> None:
        if not route.cart:
            return
        if state.merchandise_left > 0:
            state.merchandise_left -= 1
            state.players[seat].merchandise += 1
            public["merchandise"] = 1
        else:
            public["merchandise"] = 0

    def bonus(self, state: GameState, scores: list[PlayerScore], networks: list[Network]) -> None:
        ladder = self.merchandise.bonus[len(scores)]
        counts = [p.merchandise for p in state.players]
        for sc, bonus in zip(scores, ranked_bonus(counts, ladder), strict=True):
            sc.bonus["merchandise"] = bonus
