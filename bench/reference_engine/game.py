"""A game of Ticket to Ride on one board: ask what is legal, check, apply."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from bench.reference_engine import payment as pay_rules
from bench.reference_engine.cards import CardPiles
from bench.reference_engine.errors import (
    AmbiguousMoveError,
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)
from bench.reference_engine.scoring import (
    Network,
    PlayerScore,
    longest_trail,
    ranked_bonus,
    ticket_points,
    two_disjoint_paths,
    winners,
)
from bench.reference_engine.state import GameState, Pending, Phase, PlayerState, Stack, TunnelState
from engine.events import Event
from engine.moves import (
    Claim,
    DrawCard,
    DrawTickets,
    Keep,
    Move,
    Pass,
    PlaceStack,
    TicketRef,
    TunnelPay,
    describe_payment,
    payment_counter,
    payment_of,
)
from maps import GRAY, WILD, Board, Route

MIN_TRAINS_OPTION = 3
MAX_TRAINS_OPTION = 60


@dataclass(frozen=True)
class ToMove:
    player: str
    must: str  # "keep" | "place" | "turn" | "draw" | "tunnel"


@dataclass(frozen=True)
class ClaimOption:
    route: Route
    payments: list[Counter[str]]
    souvenirs: tuple[str, ...]  # ends whose token may be taken; two means the player must choose


def ticket_key(board: Board, ref: TicketRef) -> tuple[str, frozenset[str]]:
    """The interchangeability key (Ticket.key) a record's ticket reference names."""

    def place(name: str) -> str:
        resolved = board.resolve_place(name)
        if resolved is None:
            raise InvalidMoveError(f"'{name}' is not a place on this map")
        return resolved

    if ref.country:
        return (place(ref.origin), frozenset(place(d) for d in ref.dests))
    return ("", frozenset((place(ref.origin), place(ref.dests[0]))))


class Game:
    """The whole game: board, seats, decks as dealt, moves so far and the state."""

    def __init__(
        self,
        board: Board,
        players: Sequence[str],
        seed: str | int,
        trains: int | None = None,
        cards: Sequence[str] | None = None,
        tickets: Sequence[int] | None = None,
    ) -> None:
        rules = board.rules
        names = list(players)
        if len(names) != len(set(names)) or any(not isinstance(n, str) or not n for n in names):
            raise GameError("player names must be unique and not empty")
        if not rules.min_players <= len(names) <= rules.max_players:
            raise GameError(
                f"{rules.title} is played by {rules.min_players} to {rules.max_players} players, not {len(names)}"
            )
        if trains is not None and not MIN_TRAINS_OPTION <= trains <= MAX_TRAINS_OPTION:
            raise GameError(f"the trains option must be from {MIN_TRAINS_OPTION} to {MAX_TRAINS_OPTION}, not {trains}")
        self.board = board
        self.rules = rules
        self.names = names
        self.seed = seed
        self.trains_option = trains
        seed_text = str(seed)
        if cards is None:
            deck = rules.deck()
            random.Random(f"{seed_text}:cards").shuffle(deck)
        else:
            deck = list(cards)
            if Counter(deck) != Counter(rules.deck()):
                raise GameError(f"the card deck is not the {rules.title} deck ({_deck_difference(deck, rules.deck())})")
        if tickets is None:
            ticket_ids = [t.id for t in board.tickets]
            random.Random(f"{seed_text}:tickets").shuffle(ticket_ids)
        else:
            ticket_ids = list(tickets)
            if sorted(ticket_ids) != [t.id for t in board.tickets]:
                raise GameError(f"the ticket deck is not the {rules.title} ticket deck")
        ticket_ids = _canonical_copies(board, ticket_ids)
        self.initial_cards = list(deck)
        self.initial_tickets = list(ticket_ids)
        self.moves: list[Move] = []
        start = trains if trains is not None else rules.trains
        self.state = GameState(
            players=[PlayerState(n, start) for n in names],
            piles=CardPiles(seed_text, deck),
            ticket_deck=ticket_ids,
        )
        self._setup()

    # ----- setup -------------------------------------------------------------

    def _setup(self) -> None:
        s, rules = self.state, self.rules
        for p in s.players:
            for _ in range(rules.starting_hand):
                card = s.piles.take_top()
                if card is not None:
                    p.hand[card] += 1
        s.piles.refill_and_check()
        for p in s.players:
            p.offered = s.ticket_deck[: rules.initial_deal]
            del s.ticket_deck[: rules.initial_deal]
        if rules.merchandise:
            s.merchandise_left = rules.merchandise.cards
        if rules.tourists:
            size = rules.tourists.stack_size[len(s.players)]
            for symbol, home in rules.tourists.fixed:
                s.stacks[home] = Stack(symbol, size)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.moves = list(self.moves)
        other.state = self.state.copy()
        return other

    # ----- questions ---------------------------------------------------------

    def seat(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise InvalidMoveError(f"'{name}' is not a player in this game") from None

    def player(self, name: str) -> PlayerState:
        return self.state.players[self.seat(name)]

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.OVER

    def placement_order(self) -> list[int]:
        """Seats that place the two free tourist stacks, in order (San Francisco)."""
        if not self.rules.tourists:
            return []
        n = len(self.names)
        if n == 2:
            return [1] * len(self.rules.tourists.placed)
        return [n - 1 - i for i in range(len(self.rules.tourists.placed))]

    def placement_size(self) -> int:
        assert self.rules.tourists
        n = len(self.names)
        return 1 if n == 2 else self.rules.tourists.stack_size[n]

    def unplaced_symbols(self) -> list[str]:
        if not self.rules.tourists:
            return []
        on_board = {st.symbol for st in self.state.stacks.values()}
        return [sym for sym in self.rules.tourists.placed if sym not in on_board]

    def to_move(self) -> ToMove | None:
        s = self.state
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.SETUP_KEEP:
            for p in s.players:
                if not p.setup_done:
                    return ToMove(p.name, "keep")
            raise AssertionError("setup without a player to keep")
        if s.phase is Phase.SETUP_PLACE:
            return ToMove(self.names[self.placement_order()[s.placements]], "place")
        must = s.pending.value if s.pending else "turn"
        return ToMove(self.names[s.current], must)

    def waiting_for(self) -> list[str]:
        """Everyone who may act now (all unchosen players during setup)."""
        if self.state.phase is Phase.SETUP_KEEP:
            return [p.name for p in self.state.players if not p.setup_done]
        tm = self.to_move()
        return [tm.player] if tm else []

    def keep_minimum(self, name: str) -> int:
        p = self.player(name)
        offered = len(p.offered or [])
        base = self.rules.initial_keep if self.state.phase is Phase.SETUP_KEEP else self.rules.draw_keep
        return min(base, offered)

    def can_draw_blind(self) -> bool:
        return self.state.piles.can_take_blind()

    def face_up_choices(self, second: bool) -> list[str]:
        """Face-up colours that may be taken now (first or second card)."""
        out: list[str] = []
        for card in self.state.piles.face_up:
            if card is None or card in out:
                continue
            if second and card == WILD and self.rules.faceup_wild_ends_draw:
                continue
            out.append(card)
        return out

    def card_draws(self, name: str) -> list[str]:
        """Legal `draw` sources for this player now: "deck" and face-up colours."""
        s = self.state
        if s.phase is not Phase.PLAY or s.current != self.seat(name):
            return []
        if s.pending not in (None, Pending.DRAW):
            return []
        second = s.pending is Pending.DRAW
        sources = ["deck"] if self.can_draw_blind() else []
        return sources + self.face_up_choices(second)

    def can_draw_tickets(self, name: str) -> bool:
        s = self.state
        return s.phase is Phase.PLAY and s.pending is None and s.current == self.seat(name) and bool(s.ticket_deck)

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

    def souvenir_ends(self, seat: int, route: Route) -> tuple[str, ...]:
        """Ends of `route` holding a token whose symbol this player lacks."""
        s = self.state
        owned = set(s.players[seat].souvenirs)
        out = []
        for end in route.ends:
            st = s.stacks.get(end)
            if st and st.tokens > 0 and st.symbol not in owned:
                out.append(end)
        return tuple(out)

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
                out.append(ClaimOption(route, payments, self.souvenir_ends(seat, route)))
        return out

    def _can_claim_any(self, seat: int) -> bool:
        p = self.state.players[seat]
        return any(
            route.length <= p.trains
            and self.route_status(seat, route) is None
            and pay_rules.can_pay(self.rules, route, p.hand)
            for route in self.board.routes
        )

    def has_action(self, name: str) -> bool:
        """True when this player, at the start of a turn, has something other than pass."""
        seat = self.seat(name)
        s = self.state
        return (
            s.piles.can_take_blind()
            or any(c is not None for c in s.piles.face_up)
            or bool(s.ticket_deck)
            or self._can_claim_any(seat)
        )

    def tunnel_options(self, name: str) -> list[Counter[str]]:
        s = self.state
        if s.pending is not Pending.TUNNEL or s.tunnel is None or s.current != self.seat(name):
            return []
        return pay_rules.tunnel_options(s.tunnel.colour, s.tunnel.surcharge, s.players[s.current].hand)

    def legal_moves(self, name: str) -> list[Move]:
        """Every legal move for this player now (payments and keeps enumerated)."""
        s = self.state
        seat = self.seat(name)
        p = s.players[seat]
        if s.phase is Phase.OVER:
            return []
        if s.phase is Phase.SETUP_KEEP:
            if p.setup_done:
                return []
            return self._keep_moves(name)
        if s.phase is Phase.SETUP_PLACE:
            if self.placement_order()[s.placements] != seat:
                return []
            return [
                PlaceStack(name, sym, place)
                for sym in self.unplaced_symbols()
                for place in self.board.places
                if place not in s.stacks
            ]
        if s.current != seat:
            return []
        if s.pending is Pending.KEEP:
            return self._keep_moves(name)
        if s.pending is Pending.DRAW:
            return [DrawCard(name, src) for src in self.card_draws(name)]
        if s.pending is Pending.TUNNEL:
            moves: list[Move] = [TunnelPay(name, payment_of(c)) for c in self.tunnel_options(name)]
            return [*moves, TunnelPay(name, None)]
        moves = [DrawCard(name, src) for src in self.card_draws(name)]
        if s.ticket_deck:
            moves.append(DrawTickets(name))
        for opt in self.claim_options(name):
            colour = opt.route.color if len(self.board.routes_between(opt.route.a, opt.route.b)) > 1 else None
            for payment in opt.payments:
                choices: tuple[str | None, ...] = opt.souvenirs if len(opt.souvenirs) == 2 else (None,)
                for souvenir in choices:
                    moves.append(Claim(name, opt.route.a, opt.route.b, payment_of(payment), colour, souvenir))
        if not moves:
            moves.append(Pass(name))
        return moves

    def _keep_moves(self, name: str) -> list[Move]:
        p = self.player(name)
        offered = p.offered or []
        least = self.keep_minimum(name)
        out: list[Move] = []
        for k in range(least, len(offered) + 1):
            for combo in combinations(offered, k):
                out.append(Keep(name, tuple(self.ticket_ref(t) for t in combo)))
        return out

    def ticket_ref(self, ticket_id: int) -> TicketRef:
        t = self.board.tickets[ticket_id]
        if t.is_country_ticket:
            return TicketRef(t.origin, tuple(x.name for x in t.targets), country=True)
        return TicketRef(t.origin, (t.targets[0].name,))

    # ----- applying moves ----------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        """Check `move` and apply it; on any error nothing has changed."""
        s = self.state
        if s.phase is Phase.OVER:
            raise IllegalMoveError("the game is over; no more moves can be made")
        seat = self.seat(move.player)
        resets, reshuffles = s.piles.resets, s.piles.reshuffles
        events: list[Event]
        if s.phase is Phase.SETUP_KEEP or s.phase is Phase.SETUP_PLACE:
            events = self._apply_setup(seat, move)
        else:
            self._check_turn(seat, move)
            events = self._apply_turn(seat, move)
        s.piles.refill_and_check()
        if s.pending is Pending.DRAW and not self.card_draws(move.player):
            s.pending = None
            events += self._end_turn()
        if s.piles.reshuffles != reshuffles:
            events.insert(0, Event("reshuffle", None, {"count": s.piles.reshuffles - reshuffles}))
        if s.piles.resets != resets:
            events.append(Event("face_up_reset", None, {"count": s.piles.resets - resets}))
        self.moves.append(move)
        return events

    def _apply_setup(self, seat: int, move: Move) -> list[Event]:
        s = self.state
        name = self.names[seat]
        if s.phase is Phase.SETUP_KEEP:
            if not isinstance(move, Keep):
                waiting = ", ".join(self.waiting_for())
                raise IllegalMoveError(f"the game is still being set up: first {waiting} must choose tickets")
            if s.players[seat].setup_done:
                raise NotYourTurnError(f"{name} has already chosen starting tickets")
            return self._keep(seat, move)
        if not isinstance(move, PlaceStack):
            tm = self.to_move()
            assert tm is not None
            raise IllegalMoveError(f"the game is still being set up: {tm.player} must place a tourist stack")
        placer = self.placement_order()[s.placements]
        if placer != seat:
            raise NotYourTurnError(f"{self.names[placer]} places the next tourist stack, not {name}")
        return self._place(seat, move)

    def _check_turn(self, seat: int, move: Move) -> None:
        s = self.state
        name = self.names[seat]
        current = self.names[s.current]
        if seat != s.current:
            raise NotYourTurnError(f"it is {current}'s turn, not {name}'s")
        expected = {
            None: (DrawCard, DrawTickets, Claim, Pass),
            Pending.DRAW: (DrawCard,),
            Pending.KEEP: (Keep,),
            Pending.TUNNEL: (TunnelPay,),
        }[s.pending]
        if not isinstance(move, expected):
            need = {
                None: "take a turn (draw cards, claim a route or draw tickets)",
                Pending.DRAW: "draw a second card",
                Pending.KEEP: "choose which drawn tickets to keep",
                Pending.TUNNEL: "pay the tunnel surcharge or give the tunnel up",
            }[s.pending]
            raise IllegalMoveError(f"{name} must {need} now")

    def _apply_turn(self, seat: int, move: Move) -> list[Event]:
        if isinstance(move, DrawCard):
            return self._draw_card(seat, move.source)
        if isinstance(move, DrawTickets):
            return self._draw_tickets(seat)
        if isinstance(move, Keep):
            return self._keep(seat, move)
        if isinstance(move, Claim):
            return self._claim(seat, move)
        if isinstance(move, TunnelPay):
            return self._tunnel(seat, move)
        if isinstance(move, Pass):
            return self._pass(seat)
        raise IllegalMoveError("tourist stacks are placed only while the game is set up")

    # -- cards

    def _draw_card(self, seat: int, source: str) -> list[Event]:
        s = self.state
        p = s.players[seat]
        second = s.pending is Pending.DRAW
        piles = s.piles
        wild_name = self.rules.wild_name
        if source == "deck":
            if not piles.can_take_blind():
                raise IllegalMoveError("the deck and the discard pile are empty: take a face-up card instead")
            card = piles.take_top()
            assert card is not None
            p.hand[card] += 1
            event = Event("draw_deck", p.name, {"second": second}, {"card": card})
        else:
            if source != WILD and source not in self.rules.colors:
                choices = ", ".join(self.face_up_choices(second))
                raise InvalidMoveError(f"'{source}' is not a card on this map: draw \"deck\" or one of {choices}")
            slot = piles.slot_of(source)
            if slot is None:
                row = ", ".join(c for c in piles.face_up if c) or "nothing"
                raise IllegalMoveError(f"there is no face-up {source} card; the row shows {row}")
            if second and source == WILD and self.rules.faceup_wild_ends_draw:
                raise IllegalMoveError(f"a face-up {wild_name} may not be the second card")
            card = piles.take_face_up(slot)
            p.hand[card] += 1
            event = Event("draw_face_up", p.name, {"card": card, "slot": slot, "second": second})
        events = [event]
        if second:
            s.pending = None
            events += self._end_turn()
        elif source == WILD and self.rules.faceup_wild_ends_draw:
            events += self._end_turn()
        else:
            s.pending = Pending.DRAW
        return events

    # -- tickets

    def _draw_tickets(self, seat: int) -> list[Event]:
        s = self.state
        if not s.ticket_deck:
            raise IllegalMoveError(f"the {self.rules.ticket_name} deck is empty: draw cards or claim a route")
        n = self.rules.draw_tickets
        p = s.players[seat]
        p.offered = s.ticket_deck[:n]
        del s.ticket_deck[:n]
        s.pending = Pending.KEEP
        return [Event("draw_tickets", p.name, {"count": len(p.offered)}, {"offered": list(p.offered)})]

    def resolve_ticket(self, ref: TicketRef) -> tuple[str, frozenset[str]]:
        return ticket_key(self.board, ref)

    def _keep(self, seat: int, move: Keep) -> list[Event]:
        s = self.state
        p = s.players[seat]
        offered = list(p.offered or [])
        least = self.keep_minimum(p.name)
        remaining = list(offered)
        kept: list[int] = []
        for ref in move.tickets:
            key = self.resolve_ticket(ref)
            match = next((t for t in remaining if self.board.tickets[t].key == key), None)
            if match is None:
                raise IllegalMoveError(
                    f"{self._ref_text(ref)} is not among the {self.rules.ticket_name}s offered to {p.name}"
                )
            remaining.remove(match)
            kept.append(match)
        if len(kept) < least:
            raise IllegalMoveError(
                f"{p.name} must keep at least {least} of the {len(offered)} {self.rules.ticket_name}s offered"
            )
        kept.sort(key=offered.index)
        p.tickets.extend(kept)
        p.offered = None
        returned = remaining  # still in the order they were offered
        if self.rules.returned_tickets_removed:
            s.removed_tickets.extend(returned)
        else:
            s.ticket_deck.extend(returned)
        events = [
            Event(
                "keep",
                p.name,
                {"kept": len(kept), "returned": len(returned), "setup": s.phase is Phase.SETUP_KEEP},
                {"kept": kept},
            )
        ]
        if s.phase is Phase.SETUP_KEEP:
            p.setup_done = True
            if all(q.setup_done for q in s.players):
                s.phase = Phase.SETUP_PLACE if self.rules.tourists else Phase.PLAY
                events.append(Event("setup_done" if s.phase is Phase.PLAY else "place_stacks", None))
            return events
        s.pending = None
        return events + self._end_turn()

    def _ref_text(self, ref: TicketRef) -> str:
        if ref.country:
            return f"{ref.origin} to {', '.join(ref.dests)}"
        return f"{ref.origin} - {ref.dests[0]}"

    # -- San Francisco stacks

    def _place(self, seat: int, move: PlaceStack) -> list[Event]:
        s = self.state
        remaining = self.unplaced_symbols()
        if move.symbol not in remaining:
            raise IllegalMoveError(f"'{move.symbol}' is not a stack left to place; left: {', '.join(remaining)}")
        at = self.board.resolve_place(move.at)
        if at is None or at not in self.board.places:
            raise InvalidMoveError(f"'{move.at}' is not a place on this map")
        if at in s.stacks:
            raise IllegalMoveError(f"{at} already holds a stack; choose a place without one")
        size = self.placement_size()
        s.stacks[at] = Stack(move.symbol, size)
        s.placements += 1
        events = [Event("place", self.names[seat], {"symbol": move.symbol, "at": at, "tokens": size})]
        if s.placements == len(self.placement_order()):
            s.phase = Phase.PLAY
            events.append(Event("setup_done", None))
        return events

    # -- claims

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

    def _claim(self, seat: int, move: Claim) -> list[Event]:
        s = self.state
        p = s.players[seat]
        route = self._choose_route(seat, move)
        if p.trains < route.length:
            raise IllegalMoveError(
                f"{route.a} - {route.b} needs {route.length} {self.rules.piece_name}; {p.name} has {p.trains} left"
            )
        pay = payment_counter(move.pay)
        pay_rules.check_payment(self.rules, route, pay, p.hand)
        souvenir = self._souvenir(seat, route, move.souvenir)
        p.hand -= pay
        if not route.tunnel:
            s.piles.discard.extend(sorted(pay.elements()))
            return self._place_route(seat, route, pay, souvenir) + self._end_turn()
        revealed = []
        for _ in range(3):
            card = s.piles.take_top()
            if card is None:
                break
            revealed.append(card)
        colours = [c for c in pay if c != WILD]
        colour = colours[0] if colours else None
        surcharge = pay_rules.tunnel_surcharge(colour, revealed)
        reveal = Event(
            "tunnel_reveal",
            p.name,
            {"route": route.id, "paid": describe_payment(move.pay), "revealed": revealed, "surcharge": surcharge},
        )
        if surcharge == 0:
            s.piles.discard.extend(sorted(pay.elements()))
            s.piles.discard.extend(revealed)
            return [reveal, *self._place_route(seat, route, pay, souvenir), *self._end_turn()]
        s.tunnel = TunnelState(route.id, pay, revealed, colour, surcharge, souvenir)
        s.pending = Pending.TUNNEL
        return [reveal]

    def _souvenir(self, seat: int, route: Route, asked: str | None) -> str | None:
        qualifying = self.souvenir_ends(seat, route)
        name = self.names[seat]
        if asked is not None:
            if not self.rules.tourists:
                raise InvalidMoveError("souvenirs exist only on the San Francisco map")
            end = self.board.resolve_place(asked)
            if end not in route.ends:
                raise IllegalMoveError(f"{asked} is not an end of {route.a} - {route.b}")
            if end not in qualifying:
                raise IllegalMoveError(f"no token {name} could take at {end}")
            return end
        if len(qualifying) == 2:
            raise IllegalMoveError(
                f"both {route.a} and {route.b} hold a token {name} can take: say which with 'souvenir'"
            )
        return qualifying[0] if qualifying else None

    def _place_route(self, seat: int, route: Route, paid: Counter[str], souvenir: str | None) -> list[Event]:
        s = self.state
        p = s.players[seat]
        s.owner[route.id] = seat
        p.routes.append(route.id)
        p.trains -= route.length
        points = self.rules.route_points[route.length]
        p.route_points += points
        public: dict[str, object] = {"route": route.id, "paid": describe_payment(payment_of(paid)), "points": points}
        if route.cart and self.rules.merchandise:
            if s.merchandise_left > 0:
                s.merchandise_left -= 1
                p.merchandise += 1
                public["merchandise"] = 1
            else:
                public["merchandise"] = 0
        if souvenir is not None:
            stack = s.stacks[souvenir]
            stack.tokens -= 1
            p.souvenirs.append(stack.symbol)
            public["souvenir"] = {"symbol": stack.symbol, "at": souvenir}
        return [Event("claim", p.name, public)]

    def _tunnel(self, seat: int, move: TunnelPay) -> list[Event]:
        s = self.state
        t = s.tunnel
        assert t is not None
        p = s.players[seat]
        route = self.board.routes[t.route]
        if move.pay is None:
            p.hand += t.laid
            s.piles.discard.extend(t.revealed)
            events = [Event("tunnel_abandoned", p.name, {"route": route.id})]
        else:
            extra = payment_counter(move.pay)
            pay_rules.check_tunnel_payment(self.rules, t.colour, t.surcharge, extra, p.hand)
            p.hand -= extra
            s.piles.discard.extend(sorted((t.laid + extra).elements()))
            s.piles.discard.extend(t.revealed)
            events = self._place_route(seat, route, t.laid + extra, t.souvenir)
        s.tunnel = None
        s.pending = None
        return events + self._end_turn()

    def _pass(self, seat: int) -> list[Event]:
        name = self.names[seat]
        if self.has_action(name):
            raise IllegalMoveError(f"{name} may not pass: a legal action exists")
        return [Event("pass", name), *self._end_turn()]

    def _end_turn(self) -> list[Event]:
        s = self.state
        seat = s.current
        p = s.players[seat]
        s.turn += 1
        events: list[Event] = []
        if s.final_turns is not None:
            s.final_turns -= 1
            if s.final_turns == 0:
                s.phase = Phase.OVER
                return [Event("game_over", None)]
        elif p.trains <= self.rules.end_game_trains:
            s.final_turns = len(s.players)
            s.final_trigger = seat
            events.append(Event("final_round", p.name, {"trains": p.trains}))
        s.current = (seat + 1) % len(s.players)
        return events

    # ----- scoring -----------------------------------------------------------

    def network(self, seat: int) -> Network:
        return Network(self.board.routes[r] for r in self.state.players[seat].routes)

    def longest(self, seat: int) -> tuple[int, list[Route]]:
        return longest_trail([self.board.routes[r] for r in self.state.players[seat].routes])

    def ticket_progress(self, seat: int) -> list[tuple[int, bool, int]]:
        """(ticket id, done now, points it would score now) for each kept ticket."""
        network = self.network(seat)
        out = []
        for t in self.state.players[seat].tickets:
            done, points = ticket_points(self.board, self.board.tickets[t], network)
            out.append((t, done, points))
        return out

    def score(self) -> list[PlayerScore]:
        """Every player's full score as if the game ended now."""
        rules = self.rules
        s = self.state
        scores = []
        for seat, p in enumerate(s.players):
            sc = PlayerScore(p.name, p.route_points)
            network = self.network(seat)
            mandala = 0
            for t in p.tickets:
                ticket = self.board.tickets[t]
                done, points = ticket_points(self.board, ticket, network)
                sc.ticket_results.append((t, done, points))
                sc.ticket_points += points
                if done:
                    sc.completed += 1
                    if rules.mandala_bonus and not ticket.is_country_ticket:
                        if two_disjoint_paths(network, ticket.origin, ticket.targets[0].name):
                            mandala += 1
                else:
                    sc.failed += 1
            sc.bonus["mandala"] = rules.mandala_points(mandala)
            sc.longest, sc.longest_routes = self.longest(seat)
            if rules.tourists:
                sc.bonus["tourists"] = rules.tourists.bonus[len(set(p.souvenirs))]
            scores.append(sc)
        if rules.longest_bonus:
            best = max(sc.longest for sc in scores)
            for sc in scores:
                if best > 0 and sc.longest == best:
                    sc.bonus["longest"] = rules.longest_bonus
        if rules.merchandise:
            ladder = rules.merchandise.bonus[len(scores)]
            counts = [p.merchandise for p in s.players]
            for sc, bonus in zip(scores, ranked_bonus(counts, ladder), strict=True):
                sc.bonus["merchandise"] = bonus
        return scores

    def winners(self) -> list[str]:
        return winners(self.score(), self.rules.longest_bonus > 0)


def _canonical_copies(board: Board, ticket_ids: list[int]) -> list[int]:
    """Give interchangeable tickets their ids in deck order.

    Records cannot tell two copies of a ticket apart, so a replayed game must
    hand out the same id for the same position as the game that was recorded.
    """
    groups: dict[tuple[str, frozenset[str]], list[int]] = {}
    for t in board.tickets:
        groups.setdefault(t.key, []).append(t.id)
    taken: Counter[tuple[str, frozenset[str]]] = Counter()
    out = []
    for ticket_id in ticket_ids:
        key = board.tickets[ticket_id].key
        out.append(groups[key][taken[key]])
        taken[key] += 1
    return out


def _deck_difference(deck: list[str], expected: list[str]) -> str:
    have, want = Counter(deck), Counter(expected)
    parts = []
    for card in sorted(set(have) | set(want)):
        if have[card] != want[card]:
            parts.append(f"{have[card]} {card} instead of {want[card]}")
    return ", ".join(parts) or "different cards"
