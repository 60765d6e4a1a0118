"""Claims: which routes a player may claim, how they pay, and placing the trains."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import partial

from engine import payment as pay_rules
from engine.claim_index import ClaimIndex, Shape, route_ids
from engine.claim_moves import ClaimMoves
from engine.claim_payments import ClaimOption, LatePayments, most_left, payment_counters
from engine.errors import (
    AlreadyClaimed,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    MapNames,
    NoColourRoute,
    NoRoute,
    NotAPlace,
    NotRouteColour,
    OtherTrackTaken,
    OwnOtherTrack,
    Refusal,
    SeveralTracks,
    TooFewPieces,
)
from engine.events import Action, Event
from engine.extras.host import CheckedClaim
from engine.moves import Claim, DrawCard, Move, Payment, describe_payment, new_claim, payment_counter, payment_of
from engine.state import GameState, Pending, Phase
from engine.turns import TurnFlow
from maps import GRAY, WILD, Route

# `Claims` keeps at most about this many claims it listed (a game lists a few thousand)
CLAIMS_KEPT = 20_000


class Claims(TurnFlow):
    """Claiming routes, tunnels' surcharges included."""

    # the last move `ClaimMoves` or `CardDrawMoves` built, with what carries it out: `apply`
    # trusts it while it is that very object and no move was applied since
    _vouched: tuple[Move, Action] | None = None
    # per seat: the owner map, its size and the closed routes' bits then (see `_closed`)
    _closed_kept: dict[int, tuple[dict[int, int], int, int]]
    _index: ClaimIndex  # the board's, see engine/claim_index.py
    _claim_hints: dict[int, Shape]  # per seat, the shape of routes `_can_claim_any` last found payable
    # the claims `_list_claims` listed so far, by player, by route id, wilds paid and whether either end's
    # souvenir may be taken (`route id << 6 | wilds << 1 | either`), by the colour paid (None: wilds alone):
    # one claim, or one for each souvenir. A claim is a value, so listing it again in this game or its
    # copies gives the object built before
    _claim_kept: dict[str, dict[int, dict[str | None, tuple[Claim, ...]]]]
    # every move of `_claim_kept` and `_draws_kept`, by id, with its route id (a card draw: -1)
    _kept_moves: dict[int, tuple[Move, int]]
    # per player and source, the card draws `legal_moves` listed so far
    _draws_kept: dict[tuple[str, str], DrawCard]
    # the ids of the moves `legal_moves` listed last, and when: the game's number of moves and its state
    # then. `apply` carries out such a claim or card draw without checking it again, as long as it is one of
    # these very objects and no move was applied since (like `_vouched`)
    _listed: tuple[int, GameState, set[int]] | None = None

    def route_status(self, seat: int, route: Route) -> Refusal | None:
        """None if `seat` may claim `route` by the double-route rules, else why not."""
        s = self.state
        if route.id in s.owner:
            return AlreadyClaimed(route.a, route.b, route.color)
        others = self.board.parallel(route)
        if any(s.owner.get(r.id) == seat for r in others):
            return OwnOtherTrack(route.a, route.b)
        if others and len(self.names) < self.rules.both_doubles_from and any(r.id in s.owner for r in others):
            return OtherTrackTaken(route.a, route.b, self.rules.both_doubles_from)
        return None

    def claim_options(self, name: str, *, lazy: bool = False) -> list[ClaimOption]:
        """Routes this player can claim right now, each with its legal payments.

        `lazy`: each option's payments are listed when first read (they must be read before the game
        changes), for the autopilots, which read few of them.
        """
        s = self.state
        seat = self.seat(name)
        if s.phase is not Phase.PLAY or s.pending is not None or s.current != seat:
            return []
        p = s.players[seat]
        hand = p.hand
        bits = self._index.payable_bits(hand, p.trains, self._closed(seat))
        indexed = self._index.routes
        souvenirs = self.extras.has_souvenirs
        return [
            ClaimOption(
                indexed[rid].route,
                LatePayments(indexed[rid], hand) if lazy else payment_counters(indexed[rid], hand),
                self.extras.souvenir_ends(s, seat, indexed[rid].route) if souvenirs else (),
            )
            for rid in route_ids(bits)
        ]

    def _closed(self, seat: int) -> int:
        """`ClaimIndex.closed_bits` for `seat` now, kept per seat and brought up to date with new claims."""
        owner = self.state.owner
        kept = self._closed_kept.get(seat)
        one_track = len(self.names) < self.rules.both_doubles_from
        index = self._index
        if kept is not None and kept[0] is owner:
            if kept[1] == len(owner):
                return kept[2]
            bits = index.closed_bits(owner, seat, one_track, kept[1], kept[2])
        else:
            bits = index.closed_bits(owner, seat, one_track)
        self._closed_kept[seat] = (owner, len(owner), bits)
        return bits

    def _payable(self, seat: int) -> tuple[int, dict[int, int], int]:
        p = self.state.players[seat]
        return self._index.payable(p.hand, p.trains, self._closed(seat))

    def _can_claim_any(self, seat: int) -> bool:
        p = self.state.players[seat]
        closed = self._closed(seat)
        index = self._index
        hint = self._claim_hints.get(seat)  # what was payable last time often still is
        if hint is not None and index.still_payable(hint, p.hand, p.trains, closed):
            return True
        found = index.any_payable(p.hand, p.trains, closed)
        if found is None:
            return False
        self._claim_hints[seat] = found
        return True

    def _list_claims(self, name: str, seat: int, bits: int, doubled: set[int]) -> list[Claim]:
        """The claims of `ClaimMoves`, in its order, from its payable routes `bits` (`doubled`: those
        whose claim may take either end's souvenir): each payment as `engine.payment.payment_options`
        lists them, each souvenir."""
        made = self._kept_moves
        if len(made) > CLAIMS_KEPT:
            # start afresh (new dicts: copies of this game may share the old ones)
            self._claim_kept = {}
            self._draws_kept = {}
            made = self._kept_moves = {}
        kept = self._claim_kept.get(name)
        if kept is None:
            kept = self._claim_kept[name] = {}
        hand = self.state.players[seat].hand
        routes = self._index.routes
        wild_count = hand.get(WILD, 0)
        out: list[Claim] = []
        no_souvenir: tuple[str | None, ...] = (None,)
        # gray routes: the colours held at least n times, in the rules' order, by n (found when first needed)
        all_colours = self.rules.colors
        held: dict[int, tuple[str, ...]] = {}
        while bits:
            low = bits & -bits
            rid = low.bit_length() - 1
            bits ^= low
            indexed = routes[rid]
            length = indexed.length
            wild_range = range(indexed.least_wilds, min(length, wild_count) + 1) if indexed.wilds_allowed else range(1)
            two = rid in doubled
            for wilds in wild_range:
                plain = length - wilds
                if plain == 0:
                    if wild_count < length:
                        continue
                    paid: tuple[str | None, ...] = no_souvenir  # (None,): wilds alone
                elif len(indexed.colours) == 1:
                    paid = indexed.colours if hand.get(indexed.colours[0], 0) >= plain else ()
                else:
                    found = held.get(plain)
                    if found is None:
                        found = held[plain] = tuple([c for c in all_colours if hand.get(c, 0) >= plain])
                    paid = found
                if not paid:
                    continue
                # this route's claims paying `wilds` wilds, by the colour paid with them (None: wilds alone)
                level_key = rid << 6 | wilds << 1 | two
                level = kept.get(level_key)
                if level is None:
                    level = kept[level_key] = {}
                for colour in paid:
                    claims = level.get(colour)
                    if claims is None:
                        pay: Payment  # as `payment_of` writes the payment: sorted by card
                        if colour is None:
                            pay = ((WILD, wilds),)
                        elif not wilds:
                            pay = ((colour, plain),)
                        elif colour < WILD:
                            pay = ((colour, plain), (WILD, wilds))
                        else:
                            pay = ((WILD, wilds), (colour, plain))
                        route = indexed.route
                        # as `claim_for` writes it: the track's colour named where its places have several
                        track = route.color if indexed.parallel else None
                        if two:
                            first = new_claim(name, route.a, route.b, pay, track, route.ends[0])
                            second = new_claim(name, route.a, route.b, pay, track, route.ends[1])
                            claims = level[colour] = (first, second)
                            made[id(first)] = (first, rid)
                            made[id(second)] = (second, rid)
                        else:
                            first = new_claim(name, route.a, route.b, pay, track, None)
                            claims = level[colour] = (first,)
                            made[id(first)] = (first, rid)
                    out += claims
        return out

    def _list_draws(self, name: str, sources: list[str]) -> list[DrawCard]:
        """The card draws from `sources`, each built once per game and kept (see `_kept_moves`)."""
        kept = self._draws_kept
        out: list[DrawCard] = []
        for source in sources:
            move = kept.get((name, source))
            if move is None:
                move = kept[name, source] = DrawCard(name, source)
                self._kept_moves[id(move)] = (move, -1)
            out.append(move)
        return out

    def _claim_action(self, seat: int, rid: int, move: Claim) -> Action:
        """What carries out `move`, a legal claim of route `rid` (or a track alike) by `seat`, as `_plan_claim` does."""
        route = self.board.routes[rid]
        if rid in self._index.doubled:
            # the move names the places and the colour; alike tracks resolve to the first free one
            alike = self._index.alike[rid]
            if alike is None:
                route = self._choose_route(seat, move)
            else:
                closed = self._closed(seat)
                route = self.board.routes[next(t for t in alike if not closed >> t & 1)]
        taken = self.extras.claim_souvenir(self, seat, route, move.souvenir) if self.extras.has_souvenirs else None
        # the cards as the checked path counts them (in the move's order, which snapshots keep)
        checked = CheckedClaim(seat, route, payment_counter(move.pay), move.pay, taken)
        return partial(self._claim, checked)

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

    def _claim_moves(self, name: str) -> list[Claim]:
        """`list(self.claim_moves(name))`, listed at once."""
        s = self.state
        seat = self.seat(name)
        if s.phase is not Phase.PLAY or s.pending is not None or s.current != seat:
            return []
        p = s.players[seat]
        bits = self._index.payable_bits(p.hand, p.trains, self._closed(seat))
        if not bits:
            return []
        doubled: set[int] = set()
        if self.extras.has_souvenirs:
            routes = self.board.routes
            for rid in route_ids(bits):
                if len(self.extras.souvenir_ends(s, seat, routes[rid])) == 2:
                    doubled.add(rid)
        return self._list_claims(name, seat, bits, doubled)

    def tunnel_options(self, name: str) -> list[Counter[str]]:
        s = self.state
        if s.pending is not Pending.TUNNEL or s.tunnel is None or s.current != self.seat(name):
            return []
        return self.extras.pending_payments(s)

    def _choose_route(self, seat: int, move: Claim) -> Route:
        board = self.board
        a, b = board.resolve_place(move.a), board.resolve_place(move.b)
        for raw, got in ((move.a, a), (move.b, b)):
            if got is None or got not in board.places:
                raise InvalidMoveError(NotAPlace(raw))
        assert a is not None and b is not None
        candidates = board.routes_between(a, b)
        if not candidates:
            raise IllegalMoveError(NoRoute(a, b))
        if move.route is not None:
            if move.route != GRAY and move.route not in self.rules.colors:
                raise InvalidMoveError(NotRouteColour(move.route))
            candidates = [r for r in candidates if r.color == move.route]
            if not candidates:
                raise IllegalMoveError(NoColourRoute(move.route, a, b))
        reasons = [self.route_status(seat, r) for r in candidates]
        free = [r for r, why in zip(candidates, reasons, strict=True) if why is None]
        if not free:
            raise IllegalMoveError(next(why for why in reasons if why))
        if len({r.kind() for r in free}) > 1:
            raise AmbiguousMoveError(SeveralTracks(a, b, tuple(r.color for r in free)))
        return free[0]

    def _plan_claim(self, seat: int, move: Claim) -> Action:
        p = self.state.players[seat]
        route = self._choose_route(seat, move)
        if p.trains < route.length:
            raise IllegalMoveError(
                TooFewPieces(route.a, route.b, route.length, p.name, p.trains, MapNames.of(self.rules))
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


__all__ = ["ClaimMoves", "ClaimOption", "Claims", "LatePayments", "most_left", "payment_counters"]
