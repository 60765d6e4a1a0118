"""What an extra rule sees of the game it serves: the state and the players (`FlowHost`), the claim steps it
may finish (`ClaimHost`), and a claim that passed every check (`CheckedClaim`).

The hooks of engine/extras/base.py are given the game as one of these, so the extras import nothing of the
core that calls them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from engine.events import Event
from engine.moves import Payment
from engine.state import GameState
from maps import Route


class FlowHost(Protocol):
    """The game as a rule sees it at setup: its state and its players' names, in seat order."""

    @property
    def state(self) -> GameState: ...

    @property
    def names(self) -> list[str]: ...


class ClaimHost(FlowHost, Protocol):
    """The game as a rule sees it while a claim is settled: it may place the route and end the turn."""

    def _place_route(self, seat: int, route: Route, paid: Counter[str], souvenir: str | None) -> list[Event]: ...

    def _end_turn(self) -> list[Event]: ...


@dataclass(frozen=True)
class CheckedClaim:
    """A claim that passed every check: the route it takes and what it costs."""

    seat: int
    route: Route
    pay: Counter[str]
    paid: Payment  # the payment as the move wrote it
    souvenir: str | None  # the end whose token it takes
