"""Turn flow: the final round, wrong moves, passing, San Francisco setup and
tourist tokens, Amsterdam merchandise.

Hand-computed from the rules (docs/rules.md: the game's end, drawing cards,
San Francisco, Amsterdam) and the record format (docs/game-record.md: moves,
their order, the end of the game).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from helpers.rules_support import NAMES, WILD, dealt_game, finish_setup, keep_tickets, pay

from engine import (
    Claim,
    DrawCard,
    DrawTickets,
    Game,
    GameError,
    IllegalMoveError,
    Keep,
    NotYourTurnError,
    Pass,
    PlaceStack,
    TunnelPay,
)
from engine.random_play import random_move
from engine.record import outcome, replay_text, to_record
from maps import load_board


def new_game(map_name, n=2, seed="fl", trains=None):
    return dealt_game(map_name, n, seed, trains)


def play_game(map_name="usa", n=2, seed="fl", trains=None):
    return finish_setup(new_game(map_name, n, seed, trains), least=True)


def tm(g):
    t = g.to_move()
    return None if t is None else (t.player, t.must)


# ------------------------------------------------------------ final round


def test_final_round_every_player_one_more_turn_then_over():
    g = play_game("usa", 3, trains=5)
    g.state.players[0].hand = Counter({"red": 3, "green": 1})
    g.apply(Claim("ann", "Denver", "Salt Lake City", pay(red=3), route="red"))  # 5 - 3 = 2 trains: final round
    assert g.state.players[0].trains == 2
    assert tm(g) == ("bob", "turn")
    g.apply(DrawCard("bob", "deck"))
    g.apply(DrawCard("bob", "deck"))  # bob's last turn (two moves)
    assert tm(g) == ("cid", "turn")
    g.apply(DrawTickets("cid"))
    assert tm(g) == ("cid", "keep")
    g.apply(Keep("cid", (g.ticket_ref(g.state.players[2].offered[0]),)))  # cid's last turn
    assert tm(g) == ("ann", "turn")
    assert not g.finished
    g.apply(Claim("ann", "Dallas", "Houston", pay(green=1)))  # ann's last turn: 2 - 1 = 1 train
    assert g.finished
    assert g.to_move() is None
    for move in (DrawCard("bob", "deck"), DrawCard("ann", "deck"), DrawTickets("bob"), Pass("bob")):
        with pytest.raises(IllegalMoveError):
            g.apply(move)
    assert g.legal_moves("bob") == []


def test_three_trains_left_is_not_the_end():
    g = play_game("usa", 2, trains=6)
    g.state.players[0].hand = Counter({"red": 3})
    g.apply(Claim("ann", "Denver", "Salt Lake City", pay(red=3), route="red"))  # 6 - 3 = 3
    assert g.state.final_turns is None
    g.apply(DrawCard("bob", "deck"))
    g.apply(DrawCard("bob", "deck"))
    g.apply(DrawCard("ann", "deck"))
    g.apply(DrawCard("ann", "deck"))
    assert tm(g) == ("bob", "turn")
    assert not g.finished


def test_final_round_triggered_by_a_middle_seat_goes_round_to_that_seat():
    g = play_game("usa", 3, trains=4)
    g.apply(DrawCard("ann", "deck"))
    g.apply(DrawCard("ann", "deck"))
    g.state.players[1].hand = Counter({"red": 4})
    g.apply(Claim("bob", "Denver", "Oklahoma City", pay(red=4)))  # 4 - 4 = 0
    order = []
    while not g.finished:
        name, must = tm(g)
        assert must == "turn"
        order.append(name)
        g.apply(DrawTickets(name))
        g.apply(Keep(name, (g.ticket_ref(g.player(name).offered[0]),)))
    assert order == ["cid", "ann", "bob"]


def test_a_second_low_player_in_the_final_round_does_not_extend_it():
    g = play_game("usa", 2, trains=5)
    g.state.players[0].hand = Counter({"red": 3})
    g.state.players[1].hand = Counter({"red": 4})
    g.apply(Claim("ann", "Denver", "Salt Lake City", pay(red=3), route="red"))  # ann: 2, final round
    g.apply(Claim("bob", "Denver", "Oklahoma City", pay(red=4)))  # bob: 1
    assert tm(g) == ("ann", "turn")
    g.apply(DrawCard("ann", "deck"))
    g.apply(DrawCard("ann", "deck"))
    assert g.finished


def test_pass_counts_as_the_final_turn():
    g = play_game("usa", 2, trains=5)
    g.state.players[0].hand = Counter({"red": 3})
    g.apply(Claim("ann", "Denver", "Salt Lake City", pay(red=3), route="red"))
    s = g.state
    s.piles.deck, s.piles.discard, s.piles.face_up = [], [], [None] * 5
    s.ticket_deck = []
    s.players[1].hand = Counter()
    s.players[0].hand = Counter()
    g.apply(Pass("bob"))
    g.apply(Pass("ann"))
    assert g.finished


def test_refused_tunnel_is_a_turn():
    g = play_game("switzerland", 2, trains=6)
    s = g.state
    s.players[0].hand = Counter({"red": 4})
    s.piles.deck = ["red", "green", "white", "blue"]
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))
    assert tm(g) == ("ann", "tunnel")
    g.apply(TunnelPay("ann", None))
    assert tm(g) == ("bob", "turn")
    assert s.players[0].trains == 6  # not claimed: no final round
    assert s.final_turns is None


def test_paid_tunnel_ending_at_two_trains_starts_the_final_round_after_the_tunnel_move():
    g = play_game("switzerland", 2, trains=6)
    s = g.state
    s.players[0].hand = Counter({"red": 5})
    s.piles.deck = ["red", "green", "white", "blue", "pink", "black"]
    g.apply(Claim("ann", "Brig", "Wassen", pay(red=4)))  # surcharge 1 (one red revealed)
    assert s.final_turns is None and tm(g) == ("ann", "tunnel")
    g.apply(TunnelPay("ann", pay(red=1)))
    assert s.players[0].trains == 2  # 6 - 4
    assert tm(g) == ("bob", "turn")
    g.apply(DrawCard("bob", "deck"))
    g.apply(DrawCard("bob", "deck"))
    assert tm(g) == ("ann", "turn")
    s.players[0].hand = Counter({"red": 1})
    s.piles.deck = ["red", "blue", "white", "green", "pink"]
    g.apply(Claim("ann", "Bellinzona", "Lugano", pay(red=1), route="red"))  # ann's last turn is a tunnel
    assert not g.finished and tm(g) == ("ann", "tunnel")
    g.apply(TunnelPay("ann", None))
    assert g.finished and g.to_move() is None


# ------------------------------------------------------ wrong moves


def test_wrong_player():
    g = play_game("usa", 3)
    for move in (DrawCard("bob", "deck"), DrawTickets("cid"), Claim("bob", "Denver", "Santa Fe", pay(red=2))):
        with pytest.raises(NotYourTurnError):
            g.apply(move)
    with pytest.raises(GameError):
        g.apply(DrawCard("zed", "deck"))  # not a player at all
    assert tm(g) == ("ann", "turn")


def test_wrong_kind_while_a_second_card_is_due():
    g = play_game("usa", 2)
    g.state.players[0].hand = Counter({"red": 4})
    g.apply(DrawCard("ann", "deck"))
    for move in (
        DrawTickets("ann"),
        Claim("ann", "Denver", "Oklahoma City", pay(red=4)),
        Pass("ann"),
        TunnelPay("ann", None),
        Keep("ann", ()),
    ):
        with pytest.raises(IllegalMoveError):
            g.apply(move)
    with pytest.raises(NotYourTurnError):
        g.apply(DrawCard("bob", "deck"))
    assert tm(g) == ("ann", "draw")


def test_wrong_kind_at_the_start_of_a_turn():
    g = play_game("usa", 2)
    with pytest.raises(IllegalMoveError):
        g.apply(Keep("ann", ()))
    with pytest.raises(IllegalMoveError):
        g.apply(TunnelPay("ann", None))
    with pytest.raises(GameError):
        g.apply(PlaceStack("ann", "cable_car", "Denver"))


def test_turn_moves_during_setup_are_refused():
    g = new_game("usa", 2)
    for move in (DrawCard("ann", "deck"), DrawTickets("ann"), Pass("ann"), Claim("ann", "Denver", "Santa Fe", ())):
        with pytest.raises(IllegalMoveError):
            g.apply(move)
    assert tm(g) == ("ann", "keep")


# ---------------------------------------------------------------- pass


def stripped(map_name="usa"):
    """A game where ann has nothing to do: no cards anywhere, no tickets, no hand."""
    g = play_game(map_name, 2)
    s = g.state
    s.piles.deck, s.piles.discard, s.piles.face_up = [], [], [None] * 5
    s.ticket_deck = []
    s.players[0].hand = Counter()
    return g


def test_pass_when_nothing_else_is_legal():
    g = stripped()
    assert not g.has_action("ann")
    assert g.legal_moves("ann") == [Pass("ann")]
    g.apply(Pass("ann"))
    assert tm(g) == ("bob", "turn")


def test_pass_refused_at_the_start_of_a_normal_turn():
    g = play_game("usa", 2)
    with pytest.raises(IllegalMoveError):
        g.apply(Pass("ann"))


@pytest.mark.parametrize("left", ["face_up", "discard", "tickets", "claim"])
def test_pass_refused_when_any_action_exists(left):
    g = stripped()
    s = g.state
    if left == "face_up":
        s.piles.face_up = [None, None, None, WILD, None]
    elif left == "discard":
        s.piles.discard = ["red"]
    elif left == "tickets":
        s.ticket_deck = [0]
    else:
        s.players[0].hand = Counter({"green": 1})  # Dallas - Houston is gray 1
    assert g.has_action("ann")
    with pytest.raises(IllegalMoveError):
        g.apply(Pass("ann"))


def test_pass_with_cards_but_not_enough_trains():
    g = stripped()
    g.state.players[0].hand = Counter({"red": 6, WILD: 4})
    g.state.players[0].trains = 0
    assert not g.has_action("ann")
    g.apply(Pass("ann"))
    assert tm(g) == ("bob", "turn")


def test_pass_with_only_unusable_locomotives_on_switzerland():
    g = stripped("switzerland")
    g.state.players[0].hand = Counter({WILD: 1})
    # every length-1 tunnel can be paid with one locomotive: that is a legal claim
    assert g.has_action("ann")
    tunnels_1 = [r for r in g.board.routes if r.tunnel and r.length == 1]
    for r in tunnels_1:
        g.state.owner[r.id] = 1
    # with every length-1 tunnel taken, one locomotive pays for nothing
    assert not g.has_action("ann")
    g.apply(Pass("ann"))


# ---------------------------------------------------- San Francisco setup

SF = "san_francisco"
FIXED = {
    "Alcatraz": "alcatraz",
    "Golden Gate Bridge": "golden_gate_bridge",
    "The Embarcadero": "embarcadero",
    "Sunset": "sunset",
    "Potrero Hill": "potrero_hill",
}


@pytest.mark.parametrize(("n", "size"), [(2, 2), (3, 2), (4, 3)])
def test_fixed_stacks_by_player_count(n, size):
    g = new_game(SF, n)
    stacks = {place: (st.symbol, st.tokens) for place, st in g.state.stacks.items()}
    assert stacks == {place: (sym, size) for place, sym in FIXED.items()}


@pytest.mark.parametrize(("n", "size"), [(3, 2), (4, 3)])
def test_placement_last_then_next_to_last(n, size):
    g = keep_tickets(new_game(SF, n), least=True)
    last, before_last = NAMES[n - 1], NAMES[n - 2]
    assert tm(g) == (last, "place")
    with pytest.raises(NotYourTurnError):
        g.apply(PlaceStack(before_last, "lombard_street", "Mission"))
    with pytest.raises(IllegalMoveError):
        g.apply(DrawCard("ann", "deck"))
    g.apply(PlaceStack(last, "lombard_street", "Mission"))
    assert (g.state.stacks["Mission"].symbol, g.state.stacks["Mission"].tokens) == ("lombard_street", size)
    assert tm(g) == (before_last, "place")
    with pytest.raises(IllegalMoveError):
        g.apply(PlaceStack(before_last, "lombard_street", "Castro"))  # already placed
    g.apply(PlaceStack(before_last, "cable_car", "Castro"))
    assert (g.state.stacks["Castro"].symbol, g.state.stacks["Castro"].tokens) == ("cable_car", size)
    assert tm(g) == ("ann", "turn")
    assert len(g.state.stacks) == 7


def test_two_players_second_places_both_single_token_stacks():
    g = keep_tickets(new_game(SF, 2), least=True)
    assert tm(g) == ("bob", "place")
    with pytest.raises(NotYourTurnError):
        g.apply(PlaceStack("ann", "cable_car", "Mission"))
    g.apply(PlaceStack("bob", "cable_car", "Mission"))
    assert tm(g) == ("bob", "place")
    with pytest.raises(IllegalMoveError):
        g.apply(PlaceStack("bob", "cable_car", "Castro"))  # one of each remaining symbol
    g.apply(PlaceStack("bob", "lombard_street", "Castro"))
    assert {p: (st.symbol, st.tokens) for p, st in g.state.stacks.items() if p in ("Mission", "Castro")} == {
        "Mission": ("cable_car", 1),
        "Castro": ("lombard_street", 1),
    }
    assert tm(g) == ("ann", "turn")


def test_placing_on_a_place_with_a_stack_or_unknown():
    g = keep_tickets(new_game(SF, 3), least=True)
    with pytest.raises(IllegalMoveError):
        g.apply(PlaceStack("cid", "cable_car", "Alcatraz"))  # fixed stack there
    with pytest.raises(GameError):
        g.apply(PlaceStack("cid", "cable_car", "Atlantis"))
    with pytest.raises(GameError):
        g.apply(PlaceStack("cid", "alcatraz", "Mission"))  # a fixed symbol, not a stack left to place
    g.apply(PlaceStack("cid", "cable_car", "Mission"))
    with pytest.raises(IllegalMoveError):
        g.apply(PlaceStack("bob", "lombard_street", "Mission"))  # stack placed there just now
    g.apply(PlaceStack("bob", "lombard_street", "Marina District"))  # an alias of Marina
    assert g.state.stacks["Marina"].symbol == "lombard_street"


def test_place_before_all_keeps_is_refused():
    g = new_game(SF, 2)
    with pytest.raises(IllegalMoveError):
        g.apply(PlaceStack("bob", "cable_car", "Mission"))
    assert tm(g) == ("ann", "keep")


def test_place_phase_refuses_keep_and_turn_moves():
    g = keep_tickets(new_game(SF, 2), least=True)
    with pytest.raises(GameError):
        g.apply(Keep("bob", ()))
    with pytest.raises(GameError):
        g.apply(DrawCard("bob", "deck"))


# ---------------------------------------------------- tourist tokens


def sf_game(n=2):
    g = play_game(SF, n)
    for p in g.state.players:
        p.hand = Counter({"red": 6, "black": 6, WILD: 4})
    return g


def test_token_from_the_one_qualifying_end():
    g = sf_game()
    g.apply(Claim("ann", "Fisherman's Wharf", "Alcatraz", pay(red=1, locomotive=1), route="gray"))
    assert g.state.players[0].souvenirs == ["alcatraz"]
    assert g.state.stacks["Alcatraz"].tokens == 1  # 2 - 1


@pytest.mark.parametrize(
    ("b", "paid", "souvenir", "symbol"),
    [
        ("Fisherman's Wharf", pay(red=1, locomotive=1), "Alcatraz", "alcatraz"),  # the one qualifying end
        ("The Embarcadero", pay(red=3, locomotive=1), "Embarcadero", "embarcadero"),  # a place alias
    ],
    ids=["the-one-qualifying-end", "a-place-alias"],
)
def test_souvenir_may_be_named(b, paid, souvenir, symbol):
    g = sf_game()
    g.apply(Claim("ann", "Alcatraz", b, paid, souvenir=souvenir))
    assert g.state.players[0].souvenirs == [symbol]


def test_souvenir_naming_the_non_qualifying_end_is_an_error():
    g = sf_game()
    with pytest.raises(IllegalMoveError):
        g.apply(Claim("ann", "Alcatraz", "Fisherman's Wharf", pay(red=1, locomotive=1), souvenir="Fisherman's Wharf"))
    with pytest.raises(IllegalMoveError):
        g.apply(Claim("ann", "Alcatraz", "Fisherman's Wharf", pay(red=1, locomotive=1), souvenir="Sunset"))
    assert g.state.players[0].souvenirs == []
    assert tm(g) == ("ann", "turn")


def test_both_ends_qualify_the_player_must_choose():
    g = sf_game()
    move = Claim("ann", "Alcatraz", "The Embarcadero", pay(red=3, locomotive=1))  # gray 4 ferry
    with pytest.raises(IllegalMoveError):
        g.apply(move)
    g.apply(Claim("ann", "Alcatraz", "The Embarcadero", pay(red=3, locomotive=1), souvenir="The Embarcadero"))
    assert g.state.players[0].souvenirs == ["embarcadero"]
    assert g.state.stacks["The Embarcadero"].tokens == 1
    assert g.state.stacks["Alcatraz"].tokens == 2


def test_owned_symbol_is_not_taken_again():
    g = sf_game()
    g.state.players[0].souvenirs = ["alcatraz"]
    with pytest.raises(IllegalMoveError):
        g.apply(Claim("ann", "Alcatraz", "Treasure Island", pay(red=3, locomotive=1), souvenir="Alcatraz"))
    g.apply(Claim("ann", "Alcatraz", "Treasure Island", pay(red=3, locomotive=1)))
    assert g.state.players[0].souvenirs == ["alcatraz"]
    assert g.state.stacks["Alcatraz"].tokens == 2


def test_owned_symbol_leaves_one_qualifying_end_no_choice_needed():
    g = sf_game()
    g.state.players[0].souvenirs = ["alcatraz"]
    g.apply(Claim("ann", "Alcatraz", "The Embarcadero", pay(red=3, locomotive=1)))  # only Embarcadero qualifies
    assert g.state.players[0].souvenirs == ["alcatraz", "embarcadero"]


def test_empty_stack_gives_nothing():
    g = sf_game()
    g.state.stacks["Alcatraz"].tokens = 0
    with pytest.raises(IllegalMoveError):
        g.apply(Claim("ann", "Fisherman's Wharf", "Alcatraz", pay(red=1, locomotive=1), souvenir="Alcatraz"))
    g.apply(Claim("ann", "Fisherman's Wharf", "Alcatraz", pay(red=1, locomotive=1)))
    assert g.state.players[0].souvenirs == []


def test_two_player_placed_stack_of_one_empties():
    g = play_game(SF, 2)  # bob placed lombard_street at Civic Center (1 token), cable_car at Japantown
    assert (g.state.stacks["Civic Center"].symbol, g.state.stacks["Civic Center"].tokens) == ("lombard_street", 1)
    g.state.players[0].hand = Counter({"green": 2})
    g.apply(Claim("ann", "Civic Center", "Union Square", pay(green=2)))  # green 2
    assert g.state.players[0].souvenirs == ["lombard_street"]
    assert g.state.stacks["Civic Center"].tokens == 0
    g.state.players[1].hand = Counter({"blue": 2})
    g.apply(Claim("bob", "Civic Center", "SoMa", pay(blue=2)))  # blue 2
    assert g.state.players[1].souvenirs == []


def test_souvenir_on_another_map_is_an_error():
    g = play_game("usa", 2)
    g.state.players[0].hand = Counter({"red": 2})
    with pytest.raises(GameError):
        g.apply(Claim("ann", "Denver", "Santa Fe", pay(red=2), souvenir="Denver"))
    assert g.state.owner == {}


# ---------------------------------------------------- Amsterdam merchandise


def test_one_merchandise_card_per_cart_route_whatever_its_length():
    board = load_board("amsterdam")
    g = play_game("amsterdam", 2)
    s = g.state
    s.players[0].hand = Counter({"blue": 4, "black": 1})
    s.players[1].hand = Counter({"green": 2, "black": 1})
    g.apply(Claim("ann", "Vondelpark", "Jordaan", pay(blue=4)))  # blue 4, cart
    assert (s.players[0].merchandise, s.merchandise_left) == (1, 15)
    g.apply(Claim("bob", "Haarlemmerpoort", "Westerdok", pay(green=2)))  # green 2, cart
    assert (s.players[1].merchandise, s.merchandise_left) == (1, 14)
    g.apply(Claim("ann", "Jordaan", "Westerkerk", pay(black=1)))  # black 1, no cart
    assert (s.players[0].merchandise, s.merchandise_left) == (1, 14)
    assert not board.routes_between("Jordaan", "Westerkerk")[0].cart


# ------------------------------------------- random games against a model
#
# An independent model of the rules (cards moving, turn order, final round,
# tickets, scoring), written from the documents alone, follows random legal
# games move by move; engine and model must agree on every pile, hand, turn
# and, at the end, every score.


class ModelPiles:
    def __init__(self, seed, deck):
        self.seed = str(seed)
        self.deck = list(deck)
        self.discard = []
        self.face = [None] * 5
        self.k = 0

    def take(self):
        if not self.deck:
            if not self.discard:
                return None
            self.k += 1
            cards = sorted(self.discard)
            random.Random(f"{self.seed}:reshuffle:{self.k}").shuffle(cards)
            self.deck, self.discard = cards, []
        return self.deck.pop(0)

    def refill(self):
        for i in range(5):
            if self.face[i] is None:
                card = self.take()
                if card is None:
                    return
                self.face[i] = card

    def refill_and_check(self):
        self.refill()
        resets = 0
        while sum(1 for c in self.face if c == WILD) >= 3:
            if len(self.deck) + len(self.discard) < 5 or resets == 3:
                return
            for i in range(5):
                if self.face[i] is not None:
                    self.discard.append(self.face[i])
                    self.face[i] = None
            self.refill()
            resets += 1


def ref_key(ref):
    if ref.country:
        return (ref.origin, frozenset(ref.dests))
    return ("", frozenset((ref.origin, ref.dests[0])))


class Model:
    def __init__(self, board, names, seed, cards, trains):
        r = self.rules = board.rules
        self.board = board
        self.names = list(names)
        n = len(names)
        self.piles = ModelPiles(seed, cards)
        self.hands = [Counter() for _ in names]
        for hand in self.hands:
            for _ in range(r.starting_hand):
                hand[self.piles.take()] += 1
        self.piles.refill_and_check()
        self.trains = [trains or r.trains] * n
        self.routes = [[] for _ in names]
        self.owner = {}
        self.kept = [[] for _ in names]  # ticket keys
        self.offered = [None] * n
        self.setup_kept = [False] * n
        self.merch = [0] * n
        self.merch_left = r.merchandise.cards if r.merchandise else 0
        self.souvenirs = [[] for _ in names]
        self.stacks = {}
        if r.tourists:
            size = r.tourists.stack_size[n]
            self.stacks = {home: [sym, size] for sym, home in r.tourists.fixed}
        self.placers = ([1, 1] if n == 2 else [n - 1, n - 2]) if r.tourists else []
        self.phase = "keep"
        self.current = 0
        self.pending = None
        self.tunnel = None
        self.countdown = None

    def deal_tickets(self, ticket_keys):
        k = self.rules.initial_deal
        self.ticket_deck = list(ticket_keys)
        for i in range(len(self.names)):
            self.offered[i], self.ticket_deck = self.ticket_deck[:k], self.ticket_deck[k:]

    def to_move(self):
        if self.phase == "over":
            return None
        if self.phase == "keep":
            return (self.names[self.setup_kept.index(False)], "keep")
        if self.phase == "place":
            return (self.names[self.placers[0]], "place")
        return (self.names[self.current], self.pending or "turn")

    def end_turn(self):
        seat = self.current
        self.pending = None
        if self.countdown is not None:
            self.countdown -= 1
            if self.countdown == 0:
                self.phase = "over"
                return
        elif self.trains[seat] <= 2:
            self.countdown = len(self.names)
        self.current = (seat + 1) % len(self.names)

    def second_draw_possible(self):
        p = self.piles
        if p.deck or p.discard:
            return True
        return any(c is not None and (c != WILD or not self.rules.faceup_wild_ends_draw) for c in p.face)

    def place_route(self, seat, route, souvenir):
        self.owner[route.id] = seat
        self.routes[seat].append(route)
        self.trains[seat] -= route.length
        if route.cart and self.rules.merchandise and self.merch_left > 0:
            self.merch_left -= 1
            self.merch[seat] += 1
        if souvenir is not None:
            self.stacks[souvenir][1] -= 1
            self.souvenirs[seat].append(self.stacks[souvenir][0])

    def qualifying(self, seat, route):
        return [e for e in route.ends if e in self.stacks and self.stacks[e][1] > 0
                and self.stacks[e][0] not in self.souvenirs[seat]]  # fmt: skip

    def apply(self, move):
        seat = self.names.index(move.player)
        hand = self.hands[seat]
        if isinstance(move, Keep):
            offered = list(self.offered[seat])
            kept = [ref_key(t) for t in move.tickets]
            for key in kept:
                offered.remove(key)
            self.kept[seat] += kept
            self.offered[seat] = None
            if not self.rules.returned_tickets_removed:
                self.ticket_deck += offered
            if self.phase == "keep":
                self.setup_kept[seat] = True
                if all(self.setup_kept):
                    self.phase = "place" if self.placers else "play"
            else:
                self.end_turn()
        elif isinstance(move, PlaceStack):
            n = len(self.names)
            self.stacks[move.at] = [move.symbol, 1 if n == 2 else self.rules.tourists.stack_size[n]]
            self.placers.pop(0)
            if not self.placers:
                self.phase = "play"
        elif isinstance(move, DrawTickets):
            n = self.rules.draw_tickets
            self.offered[seat], self.ticket_deck = self.ticket_deck[:n], self.ticket_deck[n:]
            self.pending = "keep"
        elif isinstance(move, DrawCard):
            second = self.pending == "draw"
            if move.source == "deck":
                card = self.piles.take()
            else:
                slot = self.piles.face.index(move.source)
                card = self.piles.face[slot]
                self.piles.face[slot] = None
                self.piles.refill_and_check()
            hand[card] += 1
            if second or (move.source == WILD and self.rules.faceup_wild_ends_draw):
                self.end_turn()
            else:
                self.pending = "draw"
        elif isinstance(move, Claim):
            candidates = [r for r in self.board.routes_between(move.a, move.b)
                          if r.id not in self.owner and (move.route is None or r.color == move.route)]  # fmt: skip
            route = candidates[0]
            quals = self.qualifying(seat, route)
            souvenir = move.souvenir or (quals[0] if quals else None)
            paid = Counter(dict(move.pay))
            hand.subtract(paid)
            hand += Counter()
            if not route.tunnel:
                self.piles.discard += list(paid.elements())
                self.place_route(seat, route, souvenir)
                self.end_turn()
            else:
                revealed = [c for c in (self.piles.take() for _ in range(3)) if c is not None]
                plain = [c for c in paid if c != WILD]
                colour = plain[0] if plain else None
                surcharge = sum(1 for c in revealed if c == WILD or (colour is not None and c == colour))
                if surcharge == 0:
                    self.piles.discard += list(paid.elements()) + revealed
                    self.place_route(seat, route, souvenir)
                    self.end_turn()
                else:
                    self.tunnel = (route, paid, revealed, souvenir)
                    self.pending = "tunnel"
        elif isinstance(move, TunnelPay):
            route, laid, revealed, souvenir = self.tunnel
            self.tunnel = None
            if move.pay is None:
                hand.update(laid)
                self.piles.discard += revealed
            else:
                extra = Counter(dict(move.pay))
                hand.subtract(extra)
                hand += Counter()
                self.piles.discard += list(laid.elements()) + list(extra.elements()) + revealed
                self.place_route(seat, route, souvenir)
            self.end_turn()
        elif isinstance(move, Pass):
            self.end_turn()
        self.piles.refill_and_check()
        if self.pending == "draw" and not self.second_draw_possible():
            self.end_turn()

    # ----- scoring, from docs/rules.md

    def connected(self, routes, sources, targets):
        adj = {}
        for r in routes:
            adj.setdefault(r.a, []).append(r.b)
            adj.setdefault(r.b, []).append(r.a)
        seen = {s for s in sources if s in adj}
        todo = list(seen)
        while todo:
            for nxt in adj[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return any(t in seen for t in targets)

    def longest(self, routes):
        best = 0

        def walk(place, used, length):
            nonlocal best
            best = max(best, length)
            for i, r in enumerate(routes):
                if i not in used and place in r.ends:
                    walk(r.other_end(place), used | {i}, length + r.length)

        for place in {e for r in routes for e in r.ends}:
            walk(place, frozenset(), 0)
        return best

    def score(self):
        board, r = self.board, self.rules
        tickets = {t.key: t for t in board.tickets}
        out = []
        for seat in range(len(self.names)):
            routes = self.routes[seat]
            points = sum({1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}[x.length] for x in routes)
            done = failed = tpoints = mandala = 0
            for key in self.kept[seat]:
                t = tickets[key]
                src = board.nodes_of(t.origin)
                made = [x.points for x in t.targets if self.connected(routes, src, board.nodes_of(x.name))]
                if made:
                    done += 1
                    tpoints += max(made)
                    if r.mandala_bonus and all(
                        self.connected([x for x in routes if x is not cut], src, board.nodes_of(t.targets[0].name))
                        for cut in routes
                    ):
                        mandala += 1
                else:
                    failed += 1
                    tpoints -= min(x.points for x in t.targets)
            bonus = {"longest": 0, "mandala": 0, "merchandise": 0, "tourists": 0}
            if mandala:
                bonus["mandala"] = {1: 5, 2: 10, 3: 20, 4: 30}.get(mandala, 40)
            if r.tourists:
                bonus["tourists"] = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 6, 6: 9, 7: 12}[len(set(self.souvenirs[seat]))]
            out.append([points, done, failed, tpoints, self.longest(routes), bonus])
        if r.longest_bonus:
            best = max(o[4] for o in out)
            for o in out:
                if best > 0 and o[4] == best:
                    o[5]["longest"] = 10
        if r.merchandise:
            ladder = {2: [8, 4], 3: [8, 5, 2], 4: [8, 6, 4, 2]}[len(out)]
            for seat, o in enumerate(out):
                c = self.merch[seat]
                rank = sum(1 for x in self.merch if x > c)
                o[5]["merchandise"] = ladder[rank] if c > 0 and rank < len(ladder) else 0
        return out


def model_winners(model, scores):
    totals = [o[0] + o[3] + sum(o[5].values()) for o in scores]
    tied = [i for i, t in enumerate(totals) if t == max(totals)]
    most = max(scores[i][1] for i in tied)
    tied = [i for i in tied if scores[i][1] == most]
    if model.rules.longest_bonus:
        holders = [i for i in tied if scores[i][5]["longest"]]
        tied = holders or tied
    return [model.names[i] for i in tied]


GAMES = [
    (m, seed, mode)
    for m in ("usa", "india", "switzerland", "amsterdam", "san_francisco")
    for seed, mode in enumerate(["mixed"] * 4 + ["hoard"] * 3)
]


def hoarding_move(g, rng):
    """Mostly draw cards, so the deck and the discard pile run dry; claim rarely."""
    tm_ = g.to_move()
    if tm_ is None:
        return None
    if tm_.must in ("turn", "draw"):
        moves = g.legal_moves(tm_.player)
        draws = [m for m in moves if isinstance(m, DrawCard)]
        if draws and rng.random() < 0.93:
            return rng.choice(draws)
        claims = [m for m in moves if isinstance(m, Claim)]
        if claims and rng.random() < 0.8:
            return rng.choice(claims)
        if len(moves) == 1:
            return moves[0]
    return random_move(g, rng)


@pytest.mark.parametrize(("map_name", "seed", "mode"), GAMES)
def test_random_game_agrees_with_an_independent_model(map_name, seed, mode):
    board = load_board(map_name)
    rng = random.Random(f"{map_name}-{seed}")
    n = rng.randint(board.rules.min_players, board.rules.max_players)
    trains = rng.choice([None, 8, 12, 20]) if board.rules.trains > 20 else rng.choice([None, 6, 10])
    cards = list(board.rules.deck())
    rng.shuffle(cards)
    tickets = list(range(len(board.tickets)))
    rng.shuffle(tickets)
    names = NAMES[:n]
    g = Game(board, names, f"model-{seed}", trains=trains, cards=cards, tickets=tickets)
    model = Model(board, names, f"model-{seed}", cards, trains)
    model.deal_tickets([board.tickets[t].key for t in tickets])

    def check():
        s = g.state
        assert s.piles.deck == model.piles.deck
        assert s.piles.face_up == model.piles.face
        assert Counter(s.piles.discard) == Counter(model.piles.discard)
        assert s.piles.reshuffles == model.piles.k
        assert [+p.hand for p in s.players] == [+h for h in model.hands]
        assert [p.trains for p in s.players] == model.trains
        assert tm(g) == model.to_move()
        assert [[board.tickets[t].key for t in p.tickets] for p in s.players] == model.kept
        assert [board.tickets[t].key for t in s.ticket_deck] == model.ticket_deck
        assert [p.merchandise for p in s.players] == model.merch
        assert [list(p.souvenirs) for p in s.players] == model.souvenirs

    check()
    driver = hoarding_move if mode == "hoard" else random_move
    for _ in range(6000):
        move = driver(g, rng)
        if move is None:
            break
        g.apply(move)
        model.apply(move)
        check()
    assert g.finished and model.phase == "over"
    scores = model.score()
    engine_scores = g.score()
    for sc, (points, done, failed, tpoints, longest, bonus) in zip(engine_scores, scores, strict=True):
        assert (sc.routes, sc.completed, sc.failed, sc.ticket_points, sc.longest) == (
            points,
            done,
            failed,
            tpoints,
            longest,
        )
        assert sc.bonus == bonus
    assert g.winners() == model_winners(model, scores)
    # the exported record replays to the same printed outcome
    status, printed = replay_text(json.dumps(to_record(g)))
    assert status == 0
    assert printed == outcome(g)
    assert [p["score"] for p in printed["players"]] == [o[0] + o[3] + sum(o[5].values()) for o in scores]
