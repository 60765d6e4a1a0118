"""Ferries (India, San Francisco): some spaces of a route must be paid with wilds.

Listing payments starts from `least_wilds` (engine/payment.py, through the
registry); the hook refuses a payment with fewer. It adds nothing to the state.
"""

from __future__ import annotations

from collections import Counter

from engine.errors import FerryNeeds, IllegalMoveError, MapNames
from engine.extras.base import Extra
from maps import WILD, Board, Route


class Ferries(Extra):
    @staticmethod
    def applies(board: Board) -> bool:
        return any(route.ferries for route in board.routes)

    @staticmethod
    def least_wilds(route: Route) -> int:
        """The wilds any payment for `route` needs: one per ferry space."""
        return route.ferries

    def check_payment(self, route: Route, pay: Counter[str]) -> None:
        if pay[WILD] < self.least_wilds(route):
            raise IllegalMoveError(FerryNeeds(route.ferries, MapNames.of(self.rules)))
