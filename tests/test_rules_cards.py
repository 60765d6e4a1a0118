"""Card draws, reshuffles, refills and the wild reset, hand-computed from
the rules (docs/rules.md) and the record format's card procedures
(docs/game-record.md: setup, moves, how cards move).

Deck layout used throughout (2 players, starting hand H): cards 0..H-1 go to
the first player, H..2H-1 to the second, the next five to face-up slots 0-4,
and the rest stays in the deck, top first.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers.rules_support import WILD, dealt_game, deck_with, finish_setup

from engine import DrawCard, DrawTickets, GameError, IllegalMoveError, Keep, NotYourTurnError
from maps import load_board


def new_game(map_name, n=2, top=(), seed="t", trains=None):
    return dealt_game(map_name, n, seed, trains, cards=deck_with(map_name, top))


def play_game(map_name="usa", n=2, top=(), seed="t", trains=None):
    """Everyone keeps every ticket of the deal (San Francisco: the stacks are placed too)."""
    return finish_setup(new_game(map_name, n, top, seed, trains))


def snapshot(game):
    s = game.state
    return (
        list(s.piles.deck),
        list(s.piles.discard),
        list(s.piles.face_up),
        s.piles.reshuffles,
        [Counter(p.hand) for p in s.players],
        s.current,
        s.pending,
        game.to_move(),
    )


def reshuffled(seed, k, discard):
    """The records' reshuffle: sorted by name, then CPython's Random(f"{S}:reshuffle:{k}").shuffle."""
    cards = sorted(discard)
    random.Random(f"{seed}:reshuffle:{k}").shuffle(cards)
    return cards


# --------------------------------------------------------------------- setup


def test_setup_deals_blocks_in_seat_order_then_face_up_slots_0_to_4():
    top = ["red", "red", "blue", "blue", "green", "green", "green", "white"]
    top += ["pink", "yellow", "orange", "black", "red"]  # face-up slots 0..4
    top += ["white", "blue"]  # deck top
    g = new_game("usa", 2, top)
    s = g.state
    assert s.players[0].hand == Counter({"red": 2, "blue": 2})  # cards 0-3
    assert s.players[1].hand == Counter({"green": 3, "white": 1})  # cards 4-7
    assert s.piles.face_up == ["pink", "yellow", "orange", "black", "red"]  # cards 8-12
    assert s.piles.deck[:2] == ["white", "blue"]
    assert len(s.piles.deck) == 110 - 13  # 2 hands of 4 + 5 face-up
    assert s.piles.discard == []


@pytest.mark.parametrize(
    ("map_name", "n", "hand"),
    [("usa", 5, 4), ("india", 4, 4), ("switzerland", 3, 4), ("amsterdam", 4, 2), ("san_francisco", 4, 2)],
)
def test_starting_hand_size_per_map(map_name, n, hand):
    g = new_game(map_name, n)
    board = load_board(map_name)
    total = len(board.rules.deck())
    assert [p.cards for p in g.state.players] == [hand] * n
    # deck = whole deck - n hands - 5 face-up
    assert len(g.state.piles.deck) == total - n * hand - 5


# ------------------------------------------------------------ drawing cards


def test_face_up_card_is_replaced_at_once_and_second_draw_follows():
    hands = ["pink"] * 8
    top = [*hands, "red", "blue", "green", "white", "yellow", "black", "orange", "pink"]
    g = play_game("usa", 2, top)
    g.apply(DrawCard("ann", "blue"))
    s = g.state
    assert s.piles.face_up == ["red", "black", "green", "white", "yellow"]  # slot 1 refilled from the deck top
    assert g.to_move().player == "ann" and g.to_move().must == "draw"
    g.apply(DrawCard("ann", "deck"))  # the deck top is now orange
    assert s.players[0].hand == Counter({"pink": 4, "blue": 1, "orange": 1})
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


def test_two_blind_draws_take_the_top_two_cards():
    top = ["pink"] * 8 + ["red", "blue", "green", "white", "yellow"] + ["black", "orange"]
    g = play_game("usa", 2, top)
    g.apply(DrawCard("ann", "deck"))
    g.apply(DrawCard("ann", "deck"))
    assert g.state.players[0].hand == Counter({"pink": 4, "black": 1, "orange": 1})
    assert g.state.piles.face_up == ["red", "blue", "green", "white", "yellow"]
    assert g.to_move().player == "bob"


def test_draw_takes_the_lowest_slot_holding_the_card():
    top = ["pink"] * 8 + ["red", "blue", "red", "green", "white"] + ["black"]
    g = play_game("usa", 2, top)
    g.apply(DrawCard("ann", "red"))
    assert g.state.piles.face_up == ["black", "blue", "red", "green", "white"]  # slot 0 taken, slot 2 untouched


@pytest.mark.parametrize("map_name", ["usa", "india", "amsterdam", "san_francisco"])
def test_face_up_wild_as_first_card_ends_the_draw(map_name):
    board = load_board(map_name)
    c = board.rules.colors
    h = board.rules.starting_hand
    top = [c[0]] * (2 * h) + [WILD, c[1], c[2], c[3], c[4]] + [c[5]]
    g = play_game(map_name, 2, top)
    g.apply(DrawCard("ann", WILD))
    s = g.state
    assert s.players[0].hand[WILD] == 1
    assert s.players[0].cards == h + 1  # one card only
    assert s.piles.face_up[0] == c[5]  # replaced from the deck
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


@pytest.mark.parametrize("map_name", ["usa", "india", "amsterdam", "san_francisco"])
def test_face_up_wild_may_not_be_the_second_card(map_name):
    board = load_board(map_name)
    c = board.rules.colors
    h = board.rules.starting_hand
    top = [c[0]] * (2 * h) + [c[1], WILD, c[2], c[3], c[4]] + [c[5], c[5]]
    g = play_game(map_name, 2, top)
    g.apply(DrawCard("ann", c[1]))
    before = snapshot(g)
    assert WILD not in g.card_draws("ann")
    with pytest.raises(IllegalMoveError):
        g.apply(DrawCard("ann", WILD))
    assert snapshot(g) == before  # nothing changed
    g.apply(DrawCard("ann", c[2]))  # a plain face-up card is fine
    assert g.state.players[0].hand == Counter({c[0]: h, c[1]: 1, c[2]: 1})


def test_switzerland_face_up_locomotives_do_not_end_the_draw_and_may_be_second():
    top = ["pink"] * 8 + [WILD, WILD, "red", "blue", "green"] + ["white", "yellow", "black"]
    g = play_game("switzerland", 2, top)
    g.apply(DrawCard("ann", WILD))
    assert g.to_move().player == "ann" and g.to_move().must == "draw"
    assert g.state.piles.face_up == ["white", WILD, "red", "blue", "green"]
    assert WILD in g.card_draws("ann")
    g.apply(DrawCard("ann", WILD))
    assert g.state.players[0].hand == Counter({"pink": 4, WILD: 2})
    assert g.state.piles.face_up == ["white", "yellow", "red", "blue", "green"]
    assert g.to_move().player == "bob"


def test_switzerland_face_up_locomotive_as_second_card_after_a_blind_draw():
    top = ["pink"] * 8 + [WILD, "red", "blue", "green", "white"] + ["black", "yellow"]
    g = play_game("switzerland", 2, top)
    g.apply(DrawCard("ann", "deck"))  # black
    g.apply(DrawCard("ann", WILD))
    assert g.state.players[0].hand == Counter({"pink": 4, "black": 1, WILD: 1})
    assert g.to_move().player == "bob"


def test_drawing_a_card_not_shown_or_not_on_the_map_is_refused():
    top = ["pink"] * 8 + ["red", "blue", "green", "white", "yellow"]
    g = play_game("usa", 2, top)
    before = snapshot(g)
    with pytest.raises(IllegalMoveError):
        g.apply(DrawCard("ann", "black"))  # a USA card, but not face up
    for bad in ("purple", "joker", "gray", "tickets!"):
        with pytest.raises(GameError):
            g.apply(DrawCard("ann", bad))
    assert snapshot(g) == before


def test_amsterdam_wild_is_named_locomotive_in_moves_not_joker():
    board = load_board("amsterdam")
    top = ["pink"] * 4 + [WILD, "blue", "green", "black", "red"]
    g = play_game("amsterdam", 2, top)
    assert board.rules.wild_name == "joker"
    with pytest.raises(GameError):
        g.apply(DrawCard("ann", "joker"))
    g.apply(DrawCard("ann", WILD))
    assert g.state.players[0].hand[WILD] == 1


def test_wrong_player_may_not_draw():
    g = play_game("usa", 2)
    with pytest.raises(NotYourTurnError):
        g.apply(DrawCard("bob", "deck"))


# -------------------------------------------------------------- reshuffles


def test_empty_deck_reshuffles_sorted_discard_with_the_kth_seed():
    g = play_game("usa", 2, seed="S-1")
    piles = g.state.piles
    discard = ["red", "blue", WILD, "green", "blue", "white", "red"]
    piles.deck = []
    piles.discard = list(discard)
    expected = reshuffled("S-1", 1, discard)
    g.apply(DrawCard("ann", "deck"))
    assert g.state.players[0].hand[expected[0]] >= 1
    assert piles.reshuffles == 1
    assert piles.deck == expected[1:]
    assert piles.discard == []
    # second reshuffle of the game uses k = 2
    second = ["black", "orange", "pink", "yellow", WILD]
    piles.deck = []
    piles.discard = list(second)
    hand_before = Counter(g.state.players[0].hand)
    expected2 = reshuffled("S-1", 2, second)
    g.apply(DrawCard("ann", "deck"))
    assert g.state.players[0].hand - hand_before == Counter({expected2[0]: 1})
    assert piles.reshuffles == 2
    assert piles.deck == expected2[1:]


def test_reshuffle_depends_only_on_the_discard_contents_not_its_order():
    discard = ["yellow", "red", WILD, "blue", "red", "black", "pink", "green", "white"]
    decks = []
    for order in (discard, list(reversed(discard)), sorted(discard)):
        g = play_game("usa", 2, seed="order")
        g.state.piles.deck = []
        g.state.piles.discard = list(order)
        g.apply(DrawCard("ann", "deck"))
        decks.append(list(g.state.piles.deck))
    expected = reshuffled("order", 1, discard)
    assert decks == [expected[1:]] * 3


def test_integer_seed_names_the_reshuffle_by_its_str():
    g = play_game("usa", 2, seed=20260)
    discard = ["red", "blue", "green", "white", "black", "pink", "orange", "yellow"]
    g.state.piles.deck = []
    g.state.piles.discard = list(discard)
    g.apply(DrawCard("ann", "deck"))
    assert g.state.piles.deck == reshuffled("20260", 1, discard)[1:]


def test_face_up_refill_reshuffles_when_the_deck_is_empty():
    top = ["pink"] * 8 + ["red", "blue", "green", "white", "yellow"]
    g = play_game("usa", 2, top, seed="R")
    piles = g.state.piles
    discard = ["black", "orange", "pink", "black", "orange"]
    piles.deck = []
    piles.discard = list(discard)
    expected = reshuffled("R", 1, discard)
    g.apply(DrawCard("ann", "red"))
    assert piles.face_up == [expected[0], "blue", "green", "white", "yellow"]
    assert piles.deck == expected[1:]
    assert piles.reshuffles == 1


def test_no_reshuffle_when_no_card_must_be_taken():
    g = play_game("usa", 2)
    piles = g.state.piles
    piles.deck = []
    piles.discard = ["red", "blue", "green"]
    g.apply(DrawTickets("ann"))  # a move: refill after it, but no slot is empty
    assert piles.reshuffles == 0
    assert piles.deck == []
    assert piles.discard == ["red", "blue", "green"]


# ------------------------------------------------ deck and discard both empty


def only_face_up(map_name, face_up):
    """A 2-player game in play whose deck and discard pile are empty, with `face_up` as the row."""
    g = play_game(map_name, 2)
    g.state.piles.deck, g.state.piles.discard = [], []
    g.state.piles.face_up = list(face_up)
    return g


def test_both_piles_empty_only_face_up_cards_can_be_taken():
    g = only_face_up("usa", ["red", "blue", None, None, None])
    piles = g.state.piles
    assert g.card_draws("ann") == ["red", "blue"]
    with pytest.raises(IllegalMoveError):
        g.apply(DrawCard("ann", "deck"))
    g.apply(DrawCard("ann", "red"))
    assert piles.face_up == [None, "blue", None, None, None]  # nothing to refill with
    assert g.to_move().must == "draw"
    g.apply(DrawCard("ann", "blue"))
    assert piles.face_up == [None] * 5
    assert g.state.players[0].hand["red"] == 1 and g.state.players[0].hand["blue"] == 1
    assert g.to_move().player == "bob"


def test_second_draw_impossible_ends_the_turn_after_one_card():
    g = only_face_up("usa", ["red", None, None, None, None])
    g.apply(DrawCard("ann", "red"))
    assert g.to_move().player == "bob" and g.to_move().must == "turn"
    assert g.state.players[0].hand["red"] == 1


def test_second_draw_impossible_when_only_a_face_up_wild_is_left():
    g = only_face_up("usa", ["red", WILD, None, None, None])
    piles = g.state.piles
    g.apply(DrawCard("ann", "red"))  # the locomotive may not be the second card
    assert g.to_move().player == "bob" and g.to_move().must == "turn"
    assert piles.face_up == [None, WILD, None, None, None]


def test_switzerland_locomotive_left_face_up_is_a_legal_second_draw():
    g = only_face_up("switzerland", ["red", WILD, None, None, None])
    g.apply(DrawCard("ann", "red"))
    assert g.to_move().player == "ann" and g.to_move().must == "draw"
    g.apply(DrawCard("ann", WILD))
    assert g.to_move().player == "bob"


def test_only_a_face_up_wild_may_still_be_taken_as_first_card():
    g = only_face_up("usa", [None, None, WILD, None, None])
    assert g.card_draws("ann") == [WILD]
    g.apply(DrawCard("ann", WILD))
    assert g.to_move().player == "bob"


def test_no_card_at_all_drawing_cards_is_not_allowed():
    g = only_face_up("usa", [None] * 5)
    assert g.card_draws("ann") == []
    for src in ("deck", "red", WILD):
        with pytest.raises(IllegalMoveError):
            g.apply(DrawCard("ann", src))
    assert not any(isinstance(m, DrawCard) for m in g.legal_moves("ann"))
    assert g.has_action("ann")  # tickets can still be drawn
    g.apply(DrawTickets("ann"))


def test_discard_only_blind_draw_reshuffles():
    g = play_game("usa", 2, seed="D")
    piles = g.state.piles
    piles.deck, piles.discard = [], ["green"]
    piles.face_up = [None] * 5
    assert "deck" in g.card_draws("ann")
    g.apply(DrawCard("ann", "deck"))
    # the only card is drawn; nothing left to take, so the turn ends after one card
    assert g.state.players[0].hand["green"] >= 1
    assert piles.reshuffles == 1
    assert g.to_move().player == "bob"


# ---------------------------------------------------------------- refill


def test_refill_fills_empty_slots_from_slot_0_after_a_move():
    g = play_game("usa", 2)
    piles = g.state.piles
    piles.face_up = [None, "red", None, "blue", None]
    piles.deck = ["green", "white", "yellow", "black", "orange"]
    piles.discard = []
    g.apply(DrawTickets("ann"))
    assert piles.face_up == ["green", "red", "white", "blue", "yellow"]
    assert piles.deck == ["black", "orange"]


def test_partial_refill_stops_when_no_card_is_left():
    g = play_game("usa", 2)
    piles = g.state.piles
    piles.face_up = [None, "red", None, "blue", None]
    piles.deck = ["green"]
    piles.discard = []
    g.apply(DrawTickets("ann"))
    assert piles.face_up == ["green", "red", None, "blue", None]
    assert piles.deck == []


def test_refill_reshuffles_midway_and_continues():
    g = play_game("usa", 2, seed="mid")
    piles = g.state.piles
    piles.face_up = [None, "red", None, "blue", None]
    piles.deck = ["green"]
    piles.discard = ["white", "pink", "orange"]
    expected = reshuffled("mid", 1, ["white", "pink", "orange"])
    g.apply(DrawTickets("ann"))
    assert piles.face_up == ["green", "red", expected[0], "blue", expected[1]]
    assert piles.deck == expected[2:]
    assert piles.reshuffles == 1


# ------------------------------------------------------------- wild reset


G1 = [WILD, WILD, WILD, "red", "blue"]
G2 = [WILD, WILD, WILD, "green", "white"]
G3 = [WILD, WILD, WILD, "yellow", "orange"]
G4 = [WILD, WILD, WILD, "black", "pink"]


def test_setup_wild_reset_discards_in_slot_order_and_deals_five_new():
    top = ["pink"] * 8 + G1 + ["green", "white", "yellow", "orange", "black"]
    g = new_game("usa", 2, top)
    piles = g.state.piles
    assert piles.face_up == ["green", "white", "yellow", "orange", "black"]
    assert piles.discard == G1  # slot order
    assert len(piles.deck) == 110 - 8 - 10


def test_two_face_up_wilds_do_not_reset():
    top = ["pink"] * 8 + [WILD, WILD, "red", "blue", "green"]
    g = new_game("usa", 2, top)
    assert g.state.piles.face_up == [WILD, WILD, "red", "blue", "green"]
    assert g.state.piles.discard == []


def test_setup_wild_reset_stops_after_three_resets():
    top = ["pink"] * 8 + G1 + G2 + G3 + G4 + ["red", "red"]
    g = new_game("usa", 2, top)
    piles = g.state.piles
    assert piles.face_up == G4  # three resets made; the fourth row stays, wilds and all
    assert piles.discard == G1 + G2 + G3
    assert piles.deck[:2] == ["red", "red"]


def test_a_setup_keep_is_a_move_so_its_refill_runs_a_fresh_reset_check():
    # docs/game-record.md: a refill happens after every move, and each refill is
    # followed by the wild reset check (with its own count of three resets).
    g5 = [WILD, WILD, "red", "red", "red"]  # 14 locomotives: 4 x 3 + 2
    top = ["pink"] * 8 + G1 + G2 + G3 + G4 + g5
    g = new_game("usa", 2, top)
    p = g.state.players[0]
    g.apply(Keep("ann", tuple(g.ticket_ref(t) for t in p.offered)))
    assert g.state.piles.face_up == g5
    assert g.state.piles.discard == G1 + G2 + G3 + G4


def test_switzerland_has_the_wild_reset_too():
    top = ["pink"] * 8 + G1 + ["green", "white", "yellow", "orange", "black"]
    g = new_game("switzerland", 2, top)
    assert g.state.piles.face_up == ["green", "white", "yellow", "orange", "black"]
    assert g.state.piles.discard == G1


def test_wild_reset_skipped_when_fewer_than_five_cards_in_deck_and_discard():
    g = play_game("usa", 2)
    piles = g.state.piles
    piles.face_up = list(G1)
    piles.deck = ["green", "white", "yellow", "orange"]  # 4 + 0 < 5
    piles.discard = []
    g.apply(DrawTickets("ann"))
    assert piles.face_up == G1
    assert piles.deck == ["green", "white", "yellow", "orange"]
    assert piles.discard == []


def test_wild_reset_with_exactly_five_cards_reshuffles_the_discarded_row():
    g = play_game("usa", 2, seed="W5")
    piles = g.state.piles
    piles.face_up = list(G1)
    piles.deck = ["green", "white", "yellow", "orange"]
    piles.discard = ["black"]  # 4 + 1 = 5: the reset goes ahead
    # the row goes to the discard pile: [black] + G1; slots 0-3 from the deck,
    # slot 4 after reshuffle #1 of those six cards.
    expected = reshuffled("W5", 1, ["black", *G1])
    g.apply(DrawTickets("ann"))
    assert piles.face_up == ["green", "white", "yellow", "orange", expected[0]]
    assert piles.deck == expected[1:]
    assert piles.discard == []
    assert piles.reshuffles == 1


def test_a_full_row_still_gets_a_reset_check_after_a_move():
    g = play_game("usa", 2)
    piles = g.state.piles
    piles.face_up = list(G1)  # no empty slot: the refill places nothing
    piles.deck = ["green", "white", "yellow", "orange", "black", "pink"]
    piles.discard = []
    g.apply(DrawTickets("ann"))
    assert piles.face_up == ["green", "white", "yellow", "orange", "black"]
    assert piles.discard == G1
    assert piles.deck == ["pink"]


def test_blind_draw_move_runs_one_check_of_at_most_three_resets():
    g = play_game("usa", 2)
    piles = g.state.piles
    groups = [[WILD, WILD, WILD, "red", "red"] for _ in range(6)]
    piles.face_up = list(G1)
    piles.deck = ["green"] + [c for grp in groups for c in grp] + ["blue"] * 5
    piles.discard = []
    g.apply(DrawCard("ann", "deck"))  # takes green; one check after the move
    assert g.state.players[0].hand["green"] == 1
    assert piles.face_up == groups[2]  # resets to groups[0], [1], [2]; then stop
    assert piles.discard == G1 + groups[0] + groups[1]
    assert len(piles.deck) == 3 * 5 + 5


def test_face_up_draw_checks_at_once_and_again_after_the_move():
    # Taking a face-up card refills at once (check #1, up to three resets), then
    # the move's own refill runs check #2 (up to three more).
    g = play_game("usa", 2)
    piles = g.state.piles
    groups = [[WILD, WILD, WILD, "red", "red"] for _ in range(8)]
    piles.face_up = ["blue", WILD, WILD, "green", "white"]
    piles.deck = [WILD] + [c for grp in groups for c in grp]
    piles.discard = []
    g.apply(DrawCard("ann", "blue"))
    # slot 0 <- WILD: three wilds. Check #1: rows groups[0..2]; check #2: groups[3..5].
    assert piles.face_up == groups[5]
    row0 = [WILD, WILD, WILD, "green", "white"]
    assert piles.discard == row0 + groups[0] + groups[1] + groups[2] + groups[3] + groups[4]
    assert g.to_move().player == "ann" and g.to_move().must == "draw"


def test_refill_inside_a_reset_reshuffles_the_discarded_rows():
    g = play_game("usa", 2, seed="RR")
    piles = g.state.piles
    piles.face_up = list(G1)
    piles.deck = [*list(G2), "red", "red", "red", "red"]
    piles.discard = []
    # reset 1: deck 9 + discard 0 >= 5 -> row G2, discard G1, deck 4 red.
    # before reset 2: deck 4 + discard 5 = 9 >= 5 -> discard G2, refill 4 reds then
    # reshuffle #1 of G1 + G2 for slot 4.
    expected = reshuffled("RR", 1, G1 + G2)
    g.apply(DrawTickets("ann"))
    assert piles.face_up == ["red", "red", "red", "red", expected[0]]
    assert piles.deck == expected[1:]
