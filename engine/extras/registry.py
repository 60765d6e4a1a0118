"""Every extra rule, and the ones a board uses, called together at each hook."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.errors import InvalidMoveError, SouvenirsOnlySF
from engine.extras.base import Extra, SouvenirRule
from engine.extras.country_tickets import CountryTickets
from engine.extras.ferries import Ferries
from engine.extras.host import CheckedClaim, ClaimHost, FlowHost
from engine.extras.mandala import Mandala
from engine.extras.merchandise import Merchandise
from engine.extras.tourists import Tourists
from engine.extras.tunnels import Tunnels
from engine.moves import TicketRef
from maps import Board, Route, Ticket

if TYPE_CHECKING:
    from engine.events import Action, Event
    from engine.moves import Move
    from engine.scoring import Network, PlayerScore
    from engine.state import GameState

# In this order the rules are asked, and note what a claim earns.
EXTRAS: tuple[type[Extra], ...] = (Merchandise, Tourists, Mandala, CountryTickets, Tunnels, Ferries)

# The wilds any payment for a route needs (the ferries' rule), for the core's listing of payments: the core
# reaches the maps' rules only through this module.
least_wilds = Ferries.least_wilds


class Extras:
    """The extra rules of one board; each hook asks every one of them."""

    def __init__(self, board: Board) -> None:
        self.active: tuple[Extra, ...] = tuple(kind(board) for kind in EXTRAS if kind.applies(board))
        self._souvenirs = next((e for e in self.active if isinstance(e, SouvenirRule)), None)
        self.has_souvenirs = self._souvenirs is not None

    def setup(self, state: GameState) -> None:
        for extra in self.active:
            extra.setup(state)

    def placement_order(self, players: int) -> list[int]:
        return [seat for extra in self.active for seat in extra.placement_order(players)]

    def unplaced_symbols(self, state: GameState) -> list[str]:
        return [symbol for extra in self.active for symbol in extra.unplaced_symbols(state)]

    def placement_moves(self, game: FlowHost, seat: int) -> list[Move]:
        return [move for extra in self.active for move in extra.placement_moves(game, seat)]

    def plan_placement(self, game: FlowHost, seat: int, move: Move) -> Action:
        for extra in self.active:
            action = extra.plan_placement(game, seat, move)
            if action is not None:
                return action
        raise AssertionError("things are being placed, but no rule of this map places anything")

    def plan_move(self, game: ClaimHost, seat: int, move: Move) -> Action:
        for extra in self.active:
            action = extra.plan_move(game, seat, move)
            if action is not None:
                return action
        raise AssertionError(f"no rule of this map makes a {type(move).__name__} move")

    def pending_payments(self, state: GameState) -> list[Counter[str]]:
        """The payments the move the game waits for may make (a tunnel's surcharge); none when it waits for none."""
        for extra in self.active:
            found = extra.pending_payments(state)
            if found is not None:
                return found
        return []

    def check_payment(self, route: Route, pay: Counter[str]) -> None:
        for extra in self.active:
            extra.check_payment(route, pay)

    def souvenir_ends(self, state: GameState, seat: int, route: Route) -> tuple[str, ...]:
        if self._souvenirs is None:
            return ()
        return self._souvenirs.souvenir_ends(state, seat, route)

    def claim_souvenir(self, game: FlowHost, seat: int, route: Route, asked: str | None) -> str | None:
        if self._souvenirs is not None:
            return self._souvenirs.claim_souvenir(game, seat, route, asked)
        if asked is not None:
            raise InvalidMoveError(SouvenirsOnlySF())
        return None

    def settle_claim(self, game: ClaimHost, claim: CheckedClaim) -> list[Event] | None:
        for extra in self.active:
            events = extra.settle_claim(game, claim)
            if events is not None:
                return events
        return None

    def after_claim(
        self, state: GameState, seat: int, route: Route, souvenir: str | None, public: dict[str, Any]
    ) -> None:
        for extra in self.active:
            extra.after_claim(state, seat, route, souvenir, public)

    def ticket_ref(self, ticket: Ticket) -> TicketRef:
        """How records name `ticket`: a rule's own form, or [A, B]."""
        for extra in self.active:
            ref = extra.ticket_ref(ticket)
            if ref is not None:
                return ref
        return TicketRef(ticket.origin, (ticket.targets[0].name,))

    def bonus(self, state: GameState, scores: list[PlayerScore], networks: list[Network]) -> None:
        for extra in self.active:
            extra.bonus(state, scores, networks)
