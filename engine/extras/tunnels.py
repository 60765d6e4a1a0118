"""Tunnels (Switzerland): a claimed tunnel may cost more than its length.

Once the cards are laid, the top three cards of the deck are turned over;
each of the paid colour (or a wild) asks for one more card of that colour or
a wild (only wilds when only wilds were laid). The player pays the surcharge
or gives the tunnel up, taking the laid cards back.

State: the tunnel being claimed (GameState.tunnel) while the turn waits for
the surcharge (Pending.TUNNEL); it adds the TunnelPay move.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from engine.errors import IllegalMoveError, MapNames, SurchargeCards, SurchargeCount
from engine.events import Action, Event
from engine.extras.base import Extra
from engine.extras.host import CheckedClaim, ClaimHost
from engine.moves import Move, TunnelPay, describe_payment, payment_counter
from engine.payment_checks import check_card_names, check_in_hand
from engine.state import GameState, Pending, TunnelState
from maps import WILD, Board, Rules

REVEALED = 3


def tunnel_surcharge(colour: str | None, revealed: list[str]) -> int:
    """Extra cards a tunnel demands; `colour` None means the payment was all wilds."""
    if colour is None:
        return sum(1 for c in revealed if c == WILD)
    return sum(1 for c in revealed if c in (colour, WILD))


def surcharge_payments(colour: str | None, surcharge: int, hand: Counter[str]) -> list[Counter[str]]:
    """Every way to pay a tunnel surcharge from `hand`, fewest wilds first."""
    if colour is None:
        return [Counter({WILD: surcharge})] if hand[WILD] >= surcharge else []
    found = []
    for wilds in range(min(hand[WILD], surcharge) + 1):
        plain = surcharge - wilds
        if hand[colour] >= plain:
            found.append(Counter({k: v for k, v in ((colour, plain), (WILD, wilds)) if v}))
    return found


def check_surcharge_payment(
    rules: Rules, colour: str | None, surcharge: int, pay: Counter[str], hand: Counter[str]
) -> None:
    check_card_names(rules, pay)
    total = sum(pay.values())
    if total != surcharge:
        raise IllegalMoveError(SurchargeCount(surcharge, total))
    allowed = {WILD} if colour is None else {colour, WILD}
    wrong = sorted(set(pay) - allowed)
    if wrong:
        raise IllegalMoveError(SurchargeCards(colour, tuple(wrong), MapNames.of(rules)))
    check_in_hand(rules, pay, hand)


class Tunnels(Extra):
    @staticmethod
    def applies(board: Board) -> bool:
        return any(route.tunnel for route in board.routes)

    def settle_claim(self, game: ClaimHost, claim: CheckedClaim) -> list[Event] | None:
        """Turn over the cards a tunnel claim reveals; the claim ends now only without a surcharge."""
        route = claim.route
        if not route.tunnel:
            return None
        s = game.state
        revealed = []
        for _ in range(REVEALED):
            card = s.piles.take_top()
            if card is None:
                break
            revealed.append(card)
        colours = [c for c in claim.pay if c != WILD]
        colour = colours[0] if colours else None
        surcharge = tunnel_surcharge(colour, revealed)
        reveal = Event(
            "tunnel_reveal",
            game.names[claim.seat],
            {"route": route.id, "paid": describe_payment(claim.paid), "revealed": revealed, "surcharge": surcharge},
        )
        if surcharge == 0:
            s.piles.discard.extend(sorted(claim.pay.elements()))
            s.piles.discard.extend(revealed)
            return [reveal, *game._place_route(claim.seat, route, claim.pay, claim.souvenir), *game._end_turn()]
        s.tunnel = TunnelState(route.id, claim.pay, revealed, colour, surcharge, claim.souvenir)
        s.pending = Pending.TUNNEL
        return [reveal]

    def pending_payments(self, state: GameState) -> list[Counter[str]] | None:
        """Every way the player to move can pay the surcharge of the tunnel being claimed."""
        t = state.tunnel
        if t is None:
            return None
        return surcharge_payments(t.colour, t.surcharge, state.players[state.current].hand)

    def plan_move(self, game: ClaimHost, seat: int, move: Move) -> Action | None:
        """Check paying the surcharge (or giving the tunnel up, when `pay` is None)."""
        if not isinstance(move, TunnelPay):
            return None
        if move.pay is None:
            return partial(self._finish, game, seat, None)
        t = game.state.tunnel
        assert t is not None
        extra = payment_counter(move.pay)
        check_surcharge_payment(self.rules, t.colour, t.surcharge, extra, game.state.players[seat].hand)
        return partial(self._finish, game, seat, extra)

    def _finish(self, game: ClaimHost, seat: int, extra: Counter[str] | None) -> list[Event]:
        s = game.state
        t = s.tunnel
        assert t is not None
        p = s.players[seat]
        route = self.board.routes[t.route]
        if extra is None:
            p.hand += t.laid
            s.piles.discard.extend(t.revealed)
            events = [Event("tunnel_abandoned", p.name, {"route": route.id})]
        else:
            p.hand -= extra
            s.piles.discard.extend(sorted((t.laid + extra).elements()))
            s.piles.discard.extend(t.revealed)
            events = game._place_route(seat, route, t.laid + extra, t.souvenir)
        s.tunnel = None
        s.pending = None
        return events + game._end_turn()
