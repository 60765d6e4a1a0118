"""What a map's extra rule may add to the core game: the hooks the core calls.

Every hook of the base class does nothing (or adds nothing), so a rule
overrides only the hooks it needs; the core calls each hook of every rule
that applies to its board (see `Extras` in engine/extras/registry.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.extras.host import CheckedClaim, ClaimHost, FlowHost
from maps import Board, Route, Ticket

if TYPE_CHECKING:
    from engine.events import Action, Event
    from engine.moves import Move, TicketRef
    from engine.scoring import Network, PlayerScore
    from engine.state import GameState


class Extra(ABC):
    """One rule that some maps add to the game; an instance serves one board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.rules = board.rules

    @staticmethod
    @abstractmethod
    def applies(board: Board) -> bool:
        """Whether this rule is part of the game on `board`."""

    # ----- setup -------------------------------------------------------------

    def setup(self, state: GameState) -> None:
        """Add what the rule brings to a freshly dealt game."""
        return

    def placement_order(self, players: int) -> list[int]:
        """Seats that place something after the starting tickets are kept, in order."""
        return []

    def unplaced_symbols(self, state: GameState) -> list[str]:
        """What is still to be placed before play starts."""
        return []

    def placement_moves(self, game: FlowHost, seat: int) -> list[Move]:
        """Every legal placement for `seat` now."""
        return []

    def plan_placement(self, game: FlowHost, seat: int, move: Move) -> Action | None:
        """Check a move made while things are placed; None when the rule places nothing."""
        return None

    # ----- turns -------------------------------------------------------------

    def plan_move(self, game: ClaimHost, seat: int, move: Move) -> Action | None:
        """Check a move of a kind the rule adds; None for kinds it does not add."""
        return None

    def pending_payments(self, state: GameState) -> list[Counter[str]] | None:
        """The payments the move this rule waits for may make (a tunnel's surcharge); None: it waits for none."""
        return None

    def check_payment(self, route: Route, pay: Counter[str]) -> None:
        """Raise a GameError if the rule forbids paying `route` with `pay`."""
        return

    def settle_claim(self, game: ClaimHost, claim: CheckedClaim) -> list[Event] | None:
        """Take over a paid claim before its route is placed; None leaves it to the core."""
        return None

    def after_claim(
        self, state: GameState, seat: int, route: Route, souvenir: str | None, public: dict[str, Any]
    ) -> None:
        """Give what claiming `route` earns under this rule, noting it in the claim's `public`."""
        return

    # ----- tickets and scoring ----------------------------------------------

    def ticket_ref(self, ticket: Ticket) -> TicketRef | None:
        """How records name `ticket`, if this rule names it; None otherwise."""
        return None

    def bonus(self, state: GameState, scores: list[PlayerScore], networks: list[Network]) -> None:
        """Add this rule's end-of-game bonus to each score."""
        return


class SouvenirRule(Extra):
    """A rule under which claiming a route may take a souvenir at one of its ends."""

    @abstractmethod
    def souvenir_ends(self, state: GameState, seat: int, route: Route) -> tuple[str, ...]:
        """Ends of `route` where claiming it would take a souvenir."""

    @abstractmethod
    def claim_souvenir(self, game: FlowHost, seat: int, route: Route, asked: str | None) -> str | None:
        """The end whose souvenir a claim takes (None: none); `asked` is the end the move names."""
