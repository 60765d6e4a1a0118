"""Tickets: drawing them, choosing which to keep, and naming them as records do."""

from __future__ import annotations

from functools import partial
from itertools import combinations

from engine.errors import IllegalMoveError, InvalidMoveError, KeepLeast, MapNames, NotAPlace, NotOffered, TicketsEmpty
from engine.events import Action, Event
from engine.moves import Keep, Move, TicketRef
from engine.state import Pending, Phase
from engine.turns import TurnFlow
from maps import Board


def ticket_key(board: Board, ref: TicketRef) -> tuple[str, frozenset[str]]:
    """The interchangeability key (Ticket.key) a record's ticket reference names."""

    def place(name: str) -> str:
        resolved = board.resolve_place(name)
        if resolved is None:
            raise InvalidMoveError(NotAPlace(name))
        return resolved

    if ref.country:
        return (place(ref.origin), frozenset(place(d) for d in ref.dests))
    return ("", frozenset((place(ref.origin), place(ref.dests[0]))))


def ref_text(ref: TicketRef) -> str:
    if ref.country:
        return f"{ref.origin} to {', '.join(ref.dests)}"
    return f"{ref.origin} - {ref.dests[0]}"


class Tickets(TurnFlow):
    """Ticket offers and keeps, at setup and during play."""

    def keep_minimum(self, name: str) -> int:
        p = self.player(name)
        offered = len(p.offered or [])
        base = self.rules.initial_keep if self.state.phase is Phase.SETUP_KEEP else self.rules.draw_keep
        return min(base, offered)

    def can_draw_tickets(self, name: str) -> bool:
        s = self.state
        return s.phase is Phase.PLAY and s.pending is None and s.current == self.seat(name) and bool(s.ticket_deck)

    def ticket_ref(self, ticket_id: int) -> TicketRef:
        return self.extras.ticket_ref(self.board.tickets[ticket_id])

    def resolve_ticket(self, ref: TicketRef) -> tuple[str, frozenset[str]]:
        return ticket_key(self.board, ref)

    def _keep_moves(self, name: str) -> list[Move]:
        offered = self.player(name).offered or []
        refs = {t: self.ticket_ref(t) for t in offered}
        out: list[Move] = []
        for k in range(self.keep_minimum(name), len(offered) + 1):
            for combo in combinations(offered, k):
                out.append(Keep(name, tuple(refs[t] for t in combo)))
        return out

    def _plan_ticket_draw(self, seat: int) -> Action:
        if not self.state.ticket_deck:
            raise IllegalMoveError(TicketsEmpty(MapNames.of(self.rules)))
        return partial(self._draw_tickets, seat)

    def _draw_tickets(self, seat: int) -> list[Event]:
        s = self.state
        n = self.rules.draw_tickets
        p = s.players[seat]
        p.offered = s.ticket_deck[:n]
        del s.ticket_deck[:n]
        s.pending = Pending.KEEP
        return [Event("draw_tickets", p.name, {"count": len(p.offered)}, {"offered": list(p.offered)})]

    def _plan_keep(self, seat: int, move: Keep) -> Action:
        p = self.state.players[seat]
        offered = list(p.offered or [])
        least = self.keep_minimum(p.name)
        remaining = list(offered)
        kept: list[int] = []
        for ref in move.tickets:
            key = self.resolve_ticket(ref)
            match = next((t for t in remaining if self.board.tickets[t].key == key), None)
            if match is None:
                raise IllegalMoveError(NotOffered(ref_text(ref), p.name, MapNames.of(self.rules)))
            remaining.remove(match)
            kept.append(match)
        if len(kept) < least:
            raise IllegalMoveError(KeepLeast(p.name, least, len(offered), MapNames.of(self.rules)))
        kept.sort(key=offered.index)
        return partial(self._keep, seat, kept, remaining)

    def _keep(self, seat: int, kept: list[int], returned: list[int]) -> list[Event]:
        """Keep `kept`; `returned` (in the order offered) go under the deck, or out of the game."""
        s = self.state
        p = s.players[seat]
        p.tickets.extend(kept)
        p.offered = None
        if self.rules.returned_tickets_removed:
            s.removed_tickets.extend(returned)
        else:
            s.ticket_deck.extend(returned)
        setup = s.phase is Phase.SETUP_KEEP
        events = [Event("keep", p.name, {"kept": len(kept), "returned": len(returned), "setup": setup}, {"kept": kept})]
        if not setup:
            s.pending = None
            return events + self._end_turn()
        p.setup_done = True
        if all(q.setup_done for q in s.players):
            s.phase = Phase.SETUP_PLACE if self.placement_order() else Phase.PLAY
            events.append(Event("setup_done" if s.phase is Phase.PLAY else "place_stacks", None))
        return events
