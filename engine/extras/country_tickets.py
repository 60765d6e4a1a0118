"""Switzerland's country tickets: from a city or a country to any of several countries.

Such a ticket scores the best connection made, or loses its lowest value
(the ticket's own scoring, in engine/scoring.py, reads the countries' border
points from the board). Records name it [ORIGIN, [COUNTRY, ...]]. It adds
nothing to the state.
"""

from __future__ import annotations

from engine.extras.base import Extra
from engine.moves import TicketRef
from maps import Board, Ticket


class CountryTickets(Extra):
    @staticmethod
    def applies(board: Board) -> bool:
        return bool(board.countries)

    def ticket_ref(self, ticket: Ticket) -> TicketRef | None:
        if not ticket.is_country_ticket:
            return None
        return TicketRef(ticket.origin, tuple(t.name for t in ticket.targets), country=True)
