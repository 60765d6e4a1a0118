"""Claims: which routes a player may claim, how they pay, and placing the trains."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from engine import payment as pay_rules
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from engine.events import Action, Event
from engine.extras.tunnels import surcharge_payments
from engine.moves import Claim, Move, Payment, describe_payment, payment_counter, payment_of
from engine.state import Pending, Phase
from engine.turns import TurnFlow
from maps import GRAY, Route


@dataclass(frozen=True)
class ClaimOption:
    route: Route
    payments: list[Counter[str]]
    souvenirs: tuple[str, ...]  # ends whose token may be taken; two means the player must choose


@dataclass(frozen=True)
class CheckedClaim:
    """A claim that passed every check: the route it takes and what it costs."""

    seat: int
    route: Route
    pay: Counter[str]
    paid: Payment  # the payment as the move wrote it
    souvenir: str | None  # the end whose token it takes


class Claims(TurnFlow):
    """Claiming routes, tunnels' surcharges included."""

    def route_status(self, seat: int, route: Route) -> str | None:
        """None if `seat` may claim `route` by the double-route rules, else why not."""
        s = self.state
        if route.id in s.owner:
            return f"{route.a} - {route.b} ({route.color}) is already claimed"
        others = self.board.parallel(route)
        if any(s.owner.get(r.id) == seat for r in others):
            return f"you already own the other track of {route.a} - {route.b}; nobody may own both"
        if others and len(self.names) < self.rules.both_doubles_from and any(r.id in s.owner for r in others):
            return (
                f"the other track of {route.a} - {route.b} is taken, and with fewer than "
                f"{self.rules.both_doubles_from} players only one track of a double route is used"
            )
        return None

    def claim_options(self, name: str) -> list[ClaimOption]:
        """Routes this player can claim right now, each with its legal payments."""
        s = self.state
        seat = self.seat(name)
        if s.phase is not Phase.PLAY or s.pending is not None or s.current != seat:
            return []
        p = s.players[seat]
        out = []
        for route in self.board.routes:
            if route.length > p.trains or self.route_status(seat, route) is not None:
                continue
            payments = pay_rules.payment_options(self.rules, route, p.hand)
            if payments:
                out.append(ClaimOption(route, payments, self.extras.souvenir_ends(s, seat, route)))
        return out

    def _can_claim_any(self, seat: int) -> bool:
        p = self.state.players[seat]
        return any(
            route.length <= p.trains
            and self.route_status(seat, route) is None
            and pay_rules.can_pay(self.rules, route, p.hand)
            for route in self.board.routes
        )

    def claim_for(self, player: str, route: Route | int, pay: Mapping[str, int], souvenir: str | None = None) -> Claim:
        """The move by which `player` claims `route` paying `pay` (taking the souvenir at the end `souvenir`).

        It names the track's colour when its two places have several tracks, as records do.
        """
        if isinstance(route, int):
            route = self.board.routes[route]
        colour = route.color if self.board.parallel(route) else None
        return Claim(player, route.a, route.b, payment_of(pay), colour, souvenir)

    def _claim_moves(self, name: str) -> list[Move]:
        moves: list[Move] = []
        for opt in self.claim_options(name):
            souvenirs: tuple[str | None, ...] = opt.souvenirs if len(opt.souvenirs) == 2 else (None,)
            for payment in opt.payments:
                for souvenir in souvenirs:
                    moves.append(self.claim_for(name, opt.route, payment, souvenir))
        return moves

    def tunnel_options(self, name: str) -> list[Counter[str]]:
        s = self.state
        if s.pending is not Pending.TUNNEL or s.tunnel is None or s.current != self.seat(name):
            return []
        return surcharge_payments(s.tunnel.colour, s.tunnel.surcharge, s.players[s.current].hand)

    def _choose_route(self, seat: int, move: Claim) -> Route:
        board = self.board
        a, b = board.resolve_place(move.a), board.resolve_place(move.b)
        for raw, got in ((move.a, a), (move.b, b)):
            if got is None or got not in board.places:
                raise InvalidMoveError(f"'{raw}' is not a place on this map")
        assert a is not None and b is not None
        candidates = board.routes_between(a, b)
        if not candidates:
            raise IllegalMoveError(f"there is no route between {a} and {b}")
        if move.route is not None:
            if move.route != GRAY and move.route not in self.rules.colors:
                raise InvalidMoveError(f"'{move.route}' is not a route colour on this map")
            candidates = [r for r in candidates if r.color == move.route]
            if not candidates:
                raise IllegalMoveError(f"there is no {move.route} route between {a} and {b}")
        reasons = [self.route_status(seat, r) for r in candidates]
        free = [r for r, why in zip(candidates, reasons, strict=True) if why is None]
        if not free:
            raise IllegalMoveError(next(why for why in reasons if why))
        if len({r.kind() for r in free}) > 1:
            colours = " and ".join(r.color for r in free)
            raise AmbiguousMoveError(f"{a} - {b} has several free tracks ({colours}): say which with its colour")
        return free[0]

    def _plan_claim(self, seat: int, move: Claim) -> Action:
        p = self.state.players[seat]
        route = self._choose_route(seat, move)
        if p.trains < route.length:
            raise IllegalMoveError(
                f"{route.a} - {route.b} needs {route.length} {self.rules.piece_name}; {p.name} has {p.trains} left"
            )
        pay = payment_counter(move.pay)
        pay_rules.check_payment(self.rules, route, pay, p.hand)
        self.extras.check_payment(route, pay)
        souvenir = self.extras.claim_souvenir(self, seat, route, move.souvenir)
        return partial(self._claim, CheckedClaim(seat, route, pay, move.pay, souvenir))

    def _claim(self, claim: CheckedClaim) -> list[Event]:
        s = self.state
        s.players[claim.seat].hand -= claim.pay
        held = self.extras.settle_claim(self, claim)
        if held is not None:
            return held
        s.piles.discard.extend(sorted(claim.pay.elements()))
        return self._place_route(claim.seat, claim.route, claim.pay, claim.souvenir) + self._end_turn()

    def _place_route(self, seat: int, route: Route, paid: Counter[str], souvenir: str | None) -> list[Event]:
        s = self.state
        p = s.players[seat]
        s.owner[route.id] = seat
        p.routes.append(route.id)
        p.trains -= route.length
        points = self.rules.route_points[route.length]
        p.route_points += points
        public: dict[str, object] = {"route": route.id, "paid": describe_payment(payment_of(paid)), "points": points}
        self.extras.after_claim(s, seat, route, souvenir, public)
        return [Event("claim", p.name, public)]
