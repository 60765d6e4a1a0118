"""Tickets: the deal, keeping, drawing, returning, running out.

Hand-computed from the rules (docs/rules.md: the per-map numbers, drawing
tickets, Switzerland, Amsterdam and San Francisco) and the record format
(docs/game-record.md: the setup's ticket deal, the order of moves, tickets).
"""

from __future__ import annotations

import pytest
from helpers.rules_support import dealt_game, finish_setup

from engine import (
    DrawCard,
    DrawTickets,
    GameError,
    IllegalMoveError,
    Keep,
    NotYourTurnError,
    TicketRef,
)
from maps import load_board

# docs/rules.md: tickets at start deal / keep at least; ticket draw draw / keep at least; returned
TABLE = {
    "usa": (3, 2, 3, 1, False),
    "india": (4, 2, 3, 1, False),
    "switzerland": (5, 2, 3, 1, True),
    "amsterdam": (2, 1, 2, 1, False),
    "san_francisco": (2, 1, 2, 1, False),
}
MAX_PLAYERS = {"usa": 5, "india": 4, "switzerland": 3, "amsterdam": 4, "san_francisco": 4}


def order(map_name):
    """A ticket deck that is not the board order: ids reversed."""
    return list(reversed(range(len(load_board(map_name).tickets))))


def new_game(map_name, n, tickets=None, seed="tk"):
    return dealt_game(map_name, n, seed, tickets=tickets or order(map_name))


def ref(g, tid):
    return g.ticket_ref(tid)


def keep(g, name, ids):
    g.apply(Keep(name, tuple(ref(g, t) for t in ids)))


def test_rules_block_matches_the_table():
    for map_name, (deal, keep_min, draw, draw_keep, removed) in TABLE.items():
        r = load_board(map_name).rules
        assert (r.initial_deal, r.initial_keep, r.draw_tickets, r.draw_keep, r.returned_tickets_removed) == (
            deal,
            keep_min,
            draw,
            draw_keep,
            removed,
        ), map_name


@pytest.mark.parametrize("map_name", list(TABLE))
def test_initial_deal_blocks_in_seat_order(map_name):
    deal = TABLE[map_name][0]
    n = MAX_PLAYERS[map_name]
    ids = order(map_name)
    g = new_game(map_name, n, ids)
    board = load_board(map_name)

    def keys(tids):  # identical cards (Switzerland prints some twice) are interchangeable
        return [board.tickets[t].key for t in tids]

    for i, p in enumerate(g.state.players):
        assert keys(p.offered) == keys(ids[i * deal : (i + 1) * deal])
    assert keys(g.state.ticket_deck) == keys(ids[n * deal :])


@pytest.mark.parametrize("map_name", list(TABLE))
def test_initial_keep_minimum(map_name):
    _deal, least = TABLE[map_name][:2]
    g = new_game(map_name, 2)
    offered = list(g.state.players[0].offered)
    assert g.keep_minimum("ann") == least
    with pytest.raises(IllegalMoveError):
        keep(g, "ann", offered[: least - 1])
    assert g.state.players[0].offered == offered
    keep(g, "ann", offered[:least])
    assert g.state.players[0].tickets == offered[:least]


@pytest.mark.parametrize("map_name", list(TABLE))
def test_initial_keep_all_is_allowed(map_name):
    g = new_game(map_name, 2)
    offered = list(g.state.players[0].offered)
    keep(g, "ann", offered)
    assert g.state.players[0].tickets == offered


def test_returned_initial_tickets_go_to_the_bottom_in_offer_order():
    ids = order("india")  # 57, 56, ...
    g = new_game("india", 2, ids)
    offered = g.state.players[0].offered
    assert offered == [57, 56, 55, 54]
    keep(g, "ann", [54, 56])  # listed in any order
    assert sorted(g.state.players[0].tickets) == [54, 56]
    # returned: 57 then 55, the order they were offered
    assert g.state.ticket_deck[-2:] == [57, 55]
    assert g.state.ticket_deck[0] == ids[8]


def test_setup_keeps_in_any_order_each_returning_at_its_own_keep():
    ids = order("usa")  # 29, 28, ...
    g = new_game("usa", 3, ids)
    assert g.to_move().player == "ann" and g.to_move().must == "keep"
    # cid was offered 23, 22, 21; keeps 22 and 21 -> returns 23 first
    keep(g, "cid", [22, 21])
    assert g.to_move().player == "ann"  # first in seat order who has not kept
    assert g.state.ticket_deck[-1:] == [23]
    keep(g, "ann", [29, 27])  # returns 28
    assert g.to_move().player == "bob" and g.to_move().must == "keep"
    keep(g, "bob", [26, 25, 24])
    assert g.state.ticket_deck[-2:] == [23, 28]
    assert g.state.ticket_deck[:1] == [20]
    assert g.to_move().player == "ann" and g.to_move().must == "turn"


def test_a_player_keeps_only_once_in_setup():
    g = new_game("usa", 2)
    offered = list(g.state.players[0].offered)
    keep(g, "ann", offered[:2])
    with pytest.raises(GameError):
        keep(g, "ann", offered[2:])
    with pytest.raises(GameError):
        g.apply(DrawCard("bob", "deck"))  # bob has not kept: no turns yet


def test_switzerland_returned_initial_tickets_are_removed_from_the_game():
    ids = order("switzerland")  # 45, 44, ...
    g = new_game("switzerland", 2, ids)
    assert g.state.players[0].offered == [45, 44, 43, 42, 41]
    deck_before = list(g.state.ticket_deck)
    keep(g, "ann", [43, 45])
    assert g.state.ticket_deck == deck_before
    assert g.state.removed_tickets == [44, 42, 41]


def test_keep_must_name_offered_tickets():
    g = new_game("usa", 2, order("usa"))
    # offered 29, 28, 27
    with pytest.raises(IllegalMoveError):
        keep(g, "ann", [29, 0])
    with pytest.raises(GameError):
        keep(g, "ann", [29, 29])
    with pytest.raises(GameError):
        g.apply(Keep("ann", (TicketRef("Atlantis", ("Denver",)), ref(g, 29))))
    assert g.state.players[0].offered == [29, 28, 27]
    assert g.state.players[0].tickets == []


def test_ticket_refs_in_either_order_and_by_alias():
    board = load_board("usa")
    g = new_game("usa", 2)
    offered = g.state.players[0].offered
    refs = []
    for t in offered[:2]:
        ticket = board.tickets[t]
        refs.append(TicketRef(ticket.targets[0].name, (ticket.origin,)))  # reversed
    g.apply(Keep("ann", tuple(refs)))
    assert g.state.players[0].tickets == offered[:2]
    montreal = [t.id for t in board.tickets if "Montréal" in (t.origin, t.targets[0].name)]
    assert montreal
    tid = montreal[0]
    t = board.tickets[tid]
    other = t.targets[0].name if t.origin == "Montréal" else t.origin
    ids = [tid] + [i for i in range(len(board.tickets)) if i != tid]
    g2 = new_game("usa", 2, ids)
    g2.apply(Keep("ann", (TicketRef("Montreal", (other,)), ref(g2, ids[1]))))
    assert g2.state.players[0].tickets == [tid, ids[1]]


def test_switzerland_country_ticket_refs_list_countries_in_any_order():
    board = load_board("switzerland")
    assert board.tickets[8].origin == "Bern"
    ids = [8, 9, 10, 11, 12] + [i for i in range(len(board.tickets)) if i not in (8, 9, 10, 11, 12)]
    g = new_game("switzerland", 2, ids)
    bern = TicketRef("Bern", ("Italia", "France", "Österreich", "Deutschland"), country=True)
    g.apply(Keep("ann", (bern, ref(g, 12))))
    assert g.state.players[0].tickets == [8, 12]
    # a country list that is not the printed one does not match
    g2 = new_game("switzerland", 2, ids)
    with pytest.raises(GameError):
        g2.apply(Keep("ann", (TicketRef("Bern", ("France", "Italia"), country=True), ref(g2, 12))))


def test_identical_tickets_are_interchangeable():
    board = load_board("switzerland")
    assert board.tickets[0].key == board.tickets[1].key  # France to D/Ö/I, printed twice
    ids = [0, 1, 8, 9, 10] + [i for i in range(len(board.tickets)) if i not in (0, 1, 8, 9, 10)]
    g = new_game("switzerland", 2, ids)
    france = TicketRef("France", ("Deutschland", "Österreich", "Italia"), country=True)
    g.apply(Keep("ann", (france, france)))
    assert sorted(g.state.players[0].tickets) == [0, 1]
    assert g.state.removed_tickets == [8, 9, 10]


# ---------------------------------------------------------- drawing in play


@pytest.mark.parametrize("map_name", list(TABLE))
def test_draw_tickets_offers_the_top_n_and_returns_to_the_bottom(map_name):
    _, _, draw, least, removed = TABLE[map_name]
    g = finish_setup(new_game(map_name, 2))
    deck = list(g.state.ticket_deck)
    g.apply(DrawTickets("ann"))
    assert g.state.players[0].offered == deck[:draw]
    assert g.to_move().player == "ann" and g.to_move().must == "keep"
    assert g.keep_minimum("ann") == least
    with pytest.raises(IllegalMoveError):
        keep(g, "ann", [])
    kept_before = list(g.state.players[0].tickets)
    keep(g, "ann", [deck[draw - 1]])  # keep the last one offered
    assert g.state.players[0].tickets == [*kept_before, deck[draw - 1]]
    returned = deck[: draw - 1]  # in offer order
    if removed:
        assert g.state.ticket_deck == deck[draw:]
        assert g.state.removed_tickets[-len(returned) :] == returned
    else:
        assert g.state.ticket_deck == deck[draw:] + returned
    assert g.to_move().player == "bob" and g.to_move().must == "turn"


def test_returned_tickets_keep_offer_order_not_id_order():
    g = finish_setup(new_game("usa", 2))
    g.state.ticket_deck = [5, 17, 2, 9]
    g.apply(DrawTickets("ann"))
    assert g.state.players[0].offered == [5, 17, 2]
    keep(g, "ann", [17])
    assert g.state.ticket_deck == [9, 5, 2]


def test_fewer_tickets_left_than_the_draw_count():
    g = finish_setup(new_game("usa", 2))
    g.state.ticket_deck = [4, 11]
    g.apply(DrawTickets("ann"))
    assert g.state.players[0].offered == [4, 11]
    assert g.state.ticket_deck == []
    assert g.keep_minimum("ann") == 1
    keep(g, "ann", [11])
    assert g.state.ticket_deck == [4]


@pytest.mark.parametrize("map_name", ["amsterdam", "san_francisco", "usa"])
def test_only_one_ticket_left_must_be_kept(map_name):
    g = finish_setup(new_game(map_name, 2))
    g.state.ticket_deck = [3]
    g.apply(DrawTickets("ann"))
    assert g.state.players[0].offered == [3]
    assert g.keep_minimum("ann") == 1
    with pytest.raises(IllegalMoveError):
        keep(g, "ann", [])
    keep(g, "ann", [3])
    assert 3 in g.state.players[0].tickets
    assert g.state.ticket_deck == []


@pytest.mark.parametrize("map_name", list(TABLE))
def test_empty_ticket_deck_drawing_tickets_is_illegal(map_name):
    g = finish_setup(new_game(map_name, 2))
    g.state.ticket_deck = []
    assert not any(isinstance(m, DrawTickets) for m in g.legal_moves("ann"))
    with pytest.raises(IllegalMoveError):
        g.apply(DrawTickets("ann"))
    assert g.to_move().player == "ann" and g.to_move().must == "turn"
    g.apply(DrawCard("ann", "deck"))  # cards may still be drawn


def test_switzerland_ticket_deck_runs_out_through_removal():
    g = finish_setup(new_game("switzerland", 2))
    g.state.ticket_deck = [20, 21, 22]
    g.apply(DrawTickets("ann"))
    keep(g, "ann", [21])
    assert g.state.ticket_deck == []
    assert g.state.removed_tickets[-2:] == [20, 22]
    g.state.current = 0
    with pytest.raises(IllegalMoveError):
        g.apply(DrawTickets("ann"))


def test_keep_is_required_after_drawing_tickets():
    g = finish_setup(new_game("usa", 2))
    g.apply(DrawTickets("ann"))
    with pytest.raises(IllegalMoveError):
        g.apply(DrawCard("ann", "deck"))
    with pytest.raises(IllegalMoveError):
        g.apply(DrawTickets("ann"))
    with pytest.raises(NotYourTurnError):
        g.apply(DrawCard("bob", "deck"))


def test_keep_without_an_offer_is_refused():
    g = finish_setup(new_game("usa", 2))
    t = g.state.ticket_deck[0]
    with pytest.raises(IllegalMoveError):
        keep(g, "ann", [t])
