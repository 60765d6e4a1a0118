"""Claims: which routes a player may claim, how they pay, and placing the trains."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import overload

from engine import payment as pay_rules
from engine.claim_index import IndexedRoute, claim_index
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


class ClaimMoves(Sequence[Claim]):
    """The claims of one player now, in the order `legal_moves` lists them: by route, payment, souvenir.

    Whether there is any is answered by the first payable route; its length is
    counted without building any move; indexing builds one route's payments
    only. Random play picks from it with `rng.choice`, which draws the same
    index as from the full list, so games stay the same. A claim it builds is
    vouched for: `apply` carries it out without checking it again, as long as
    it is the very object built here and no move was applied since.
    """

    def __init__(self, game: Claims, name: str, seat: int | None) -> None:
        self._game = game
        self._name = name
        self._seat = seat  # None: this player may not claim now
        self._routes: list[tuple[IndexedRoute, int, tuple[str, ...]]] | None = None
        self._sizes: list[int] = []
        self._len = 0

    def _count(self) -> list[tuple[IndexedRoute, int, tuple[str, ...]]]:
        if self._routes is None:
            self._routes = [] if self._seat is None else self._game._claimable(self._seat)
            self._sizes = [count * (2 if len(souvenirs) == 2 else 1) for _, count, souvenirs in self._routes]
            self._len = sum(self._sizes)
        return self._routes

    def __bool__(self) -> bool:
        if self._routes is not None:
            return self._len > 0
        return self._seat is not None and self._game._can_claim_any(self._seat)

    def __len__(self) -> int:
        self._count()
        return self._len

    @overload
    def __getitem__(self, index: int) -> Claim: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Claim]: ...

    def __getitem__(self, index: int | slice) -> Claim | Sequence[Claim]:
        routes = self._count()
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("claim index out of range")
        for (r, _, souvenirs), size in zip(routes, self._sizes, strict=True):
            if index >= size:
                index -= size
                continue
            assert self._seat is not None
            game = self._game
            payments = pay_rules.payment_options(game.rules, r.route, game.state.players[self._seat].hand)
            if len(souvenirs) == 2:
                pay, souvenir = payments[index // 2], souvenirs[index % 2]
            else:
                pay, souvenir = payments[index], None
            move = game.claim_for(self._name, r.route, pay, souvenir)
            taken = game.extras.claim_souvenir(game, self._seat, r.route, souvenir)
            game._vouched = (move, CheckedClaim(self._seat, r.route, pay, move.pay, taken))
            return move
        raise AssertionError("unreachable: the sizes add up to the length")

    def __iter__(self) -> Iterator[Claim]:
        routes = self._count()
        if not routes:
            return
        game = self._game
        hand = game.state.players[game.seat(self._name)].hand
        for r, _, souvenirs in routes:
            ends: tuple[str | None, ...] = souvenirs if len(souvenirs) == 2 else (None,)
            for payment in pay_rules.payment_options(game.rules, r.route, hand):
                for souvenir in ends:
                    yield game.claim_for(self._name, r.route, payment, souvenir)


class Claims(TurnFlow):
    """Claiming routes, tunnels' surcharges included."""

    # the last claim `ClaimMoves` built, with its checks' result (see `ClaimMoves`)
    _vouched: tuple[Claim, CheckedClaim] | None = None

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
        hand = s.players[seat].hand
        return [
            ClaimOption(r.route, pay_rules.payment_options(self.rules, r.route, hand), souvenirs)
            for r, _, souvenirs in self._claimable(seat)
        ]

    def _claimable(self, seat: int) -> list[tuple[IndexedRoute, int, tuple[str, ...]]]:
        """The routes `seat` can claim and pay now, in board order, with their payment counts and souvenir ends."""
        s = self.state
        p = s.players[seat]
        one_track = len(self.names) < self.rules.both_doubles_from
        payable = claim_index(self.board).payable(p.hand, p.trains, s.owner, seat, one_track)
        extras = self.extras
        if not extras.has_souvenirs:
            return [(r, count, ()) for _, r, count in payable]
        return [(r, count, extras.souvenir_ends(s, seat, r.route)) for _, r, count in payable]

    def _can_claim_any(self, seat: int) -> bool:
        s = self.state
        p = s.players[seat]
        one_track = len(self.names) < self.rules.both_doubles_from
        return claim_index(self.board).any_payable(p.hand, p.trains, s.owner, seat, one_track)

    def claim_for(self, player: str, route: Route | int, pay: Mapping[str, int], souvenir: str | None = None) -> Claim:
        """The move by which `player` claims `route` paying `pay` (taking the souvenir at the end `souvenir`).

        It names the track's colour when its two places have several tracks, as records do.
        """
        if isinstance(route, int):
            route = self.board.routes[route]
        colour = route.color if self.board.parallel(route) else None
        return Claim(player, route.a, route.b, payment_of(pay), colour, souvenir)

    def claim_moves(self, name: str) -> ClaimMoves:
        """Every claim this player may make now, as a sequence that builds only the moves it is asked for."""
        s = self.state
        seat = self.seat(name)
        if s.phase is not Phase.PLAY or s.pending is not None or s.current != seat:
            return ClaimMoves(self, name, None)
        return ClaimMoves(self, name, seat)

    def _claim_moves(self, name: str) -> list[Move]:
        return list(self.claim_moves(name))

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
        vouched = self._vouched
        if vouched is not None and vouched[0] is move:
            return partial(self._claim, vouched[1])
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
