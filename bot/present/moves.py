"""Moves in words: one sentence per move event for everyone, and what the player alone is told.

Public sentences are made from the engine's public facts only, so a card
drawn blind reads "draws a card from the deck" and a kept ticket is only
counted. The channel's lines, the recap, the history, the digest and the
moderators' log all word moves here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.present.cards import payment_text
from bot.present.escape import shown
from bot.present.i18n import _, map_, ngettext, nmap_
from bot.present.names import ticket_label
from bot.present.seats import first_player, seat_name
from bot.present.suggestions import route_label
from bot.present.verification import verification_text
from bot.present.words import (
    card_name,
    drawn_card_name,
    pieces_counted,
    points_counted,
    ticket_word_object,
    tickets_counted_object,
    tickets_plural,
    wild_word,
)
from bot.service import EventKind, FinalScores, GameInfo
from bot.service.events import CardDrawn, Dealt, MoveFacts, TicketsKept, TicketsOffered
from bot.service.scores import TicketLabel
from maps import Board
from maps.names import symbol_name


def _draw_deck(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    if facts.get("second"):
        return _("{who} draws a second card from the deck.").format(who=who)
    return _("{who} draws a card from the deck.").format(who=who)


def _draw_face_up(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("{who} takes the face-up {card}.").format(who=who, card=card_name(board.rules, str(facts["card"])))


def _draw_tickets(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    tickets = tickets_counted_object(board.rules, int(facts["count"]))
    return _("{who} draws {tickets} and chooses which to keep.").format(who=who, tickets=tickets)


def _keep(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    rules = board.rules
    kept, returned = int(facts["kept"]), int(facts["returned"])
    if facts.get("setup"):
        tickets = _("{count} starting {tickets}").format(count=kept, tickets=ticket_word_object(rules, kept))
    else:
        tickets = tickets_counted_object(rules, kept)
    if not returned:
        return _("{who} keeps {tickets}.").format(who=who, tickets=tickets)
    if rules.returned_tickets_removed:
        return _("{who} keeps {tickets} ({returned} removed from the game).").format(
            who=who, tickets=tickets, returned=returned
        )
    return _("{who} keeps {tickets} ({returned} returned).").format(who=who, tickets=tickets, returned=returned)


def _setup_done(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("Everyone has chosen. {player} takes the first turn.").format(player=shown(first_player(info)))


def _place_stacks(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("Everyone has chosen tickets. Now the free tourist stacks are placed.")


def _place(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    count = int(facts["tokens"])
    tokens = ngettext("{count} token", "{count} tokens", count).format(count=count)
    return _("{who} puts the {symbol} stack ({tokens}) on {place}.").format(
        who=who, symbol=symbol_name(str(facts["symbol"])), tokens=tokens, place=facts["at"]
    )


def _claim(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    route = board.routes[int(facts["route"])]
    paid = payment_text(board.rules, str(facts["paid"]))
    text = map_(board.rules.name, "{who} claims {route} for {points}, paying {paid}.").format(
        who=who, route=route_label(route), points=points_counted(int(facts["points"])), paid=paid
    )
    if facts.get("merchandise"):
        text += " " + _("It carries a merchandise card.")
    souvenir = facts.get("souvenir")
    if isinstance(souvenir, dict):
        text += " " + _("{who} takes the {symbol} souvenir at {place}.").format(
            who=who, symbol=symbol_name(str(souvenir["symbol"])), place=souvenir["at"]
        )
    return text


def _tunnel_reveal(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    route = board.routes[int(facts["route"])]
    revealed = ", ".join(card_name(board.rules, str(c)) for c in facts["revealed"]) or _("no cards")
    surcharge = int(facts["surcharge"])
    paid = payment_text(board.rules, str(facts["paid"]))
    if surcharge:
        return nmap_(
            board.rules.name,
            "{who} tries the tunnel {route} with {paid}; revealed: {revealed}; {who} must pay {count} more card.",
            "{who} tries the tunnel {route} with {paid}; revealed: {revealed}; {who} must pay {count} more cards.",
            surcharge,
        ).format(who=who, route=route_label(route), paid=paid, revealed=revealed, count=surcharge)
    return map_(
        board.rules.name, "{who} tries the tunnel {route} with {paid}; revealed: {revealed}; no extra cards are due."
    ).format(who=who, route=route_label(route), paid=paid, revealed=revealed)


def _tunnel_abandoned(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("{who} gives up the tunnel {route}.").format(who=who, route=route_label(board.routes[int(facts["route"])]))


def _pass(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("{who} passes: there is nothing else to do.").format(who=who)


def _final_round(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    left = pieces_counted(board.rules, int(facts["trains"]))
    return _("{who} has {pieces} left: everyone, {who} included, takes one last turn.").format(who=who, pieces=left)


def _game_over(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    if facts.get("stalemate"):
        return stalemate_text()
    return _("The game is over.")


def stalemate_text() -> str:
    """Why a game ended after a whole round of passes (docs/rules.md, "The end of the game")."""
    return _("Everyone has passed in turn and nobody can do anything else: the game is over and is scored.")


def _reshuffle(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("The discard pile is shuffled into a new deck.")


def _face_up_reset(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return _("Three or more face-up {wilds}: the face-up row is replaced.").format(wilds=wild_word(board.rules, 3))


MOVE_TEXTS: dict[EventKind, Callable[[Board, str, MoveFacts, GameInfo], str]] = {
    EventKind.DRAW_DECK: _draw_deck,
    EventKind.DRAW_FACE_UP: _draw_face_up,
    EventKind.DRAW_TICKETS: _draw_tickets,
    EventKind.KEEP: _keep,
    EventKind.SETUP_DONE: _setup_done,
    EventKind.PLACE_STACKS: _place_stacks,
    EventKind.PLACE: _place,
    EventKind.CLAIM: _claim,
    EventKind.TUNNEL_REVEAL: _tunnel_reveal,
    EventKind.TUNNEL_ABANDONED: _tunnel_abandoned,
    EventKind.PASS: _pass,
    EventKind.FINAL_ROUND: _final_round,
    EventKind.GAME_OVER: _game_over,
    EventKind.RESHUFFLE: _reshuffle,
    EventKind.FACE_UP_RESET: _face_up_reset,
}


def move_text(board: Board, info: GameInfo, kind: EventKind, player: str | None, facts: MoveFacts) -> str:
    """The sentence for everyone about one of the engine's move events."""
    return MOVE_TEXTS[kind](board, shown(seat_name(info, player)), facts, info)


def final_scores_text(scores: FinalScores) -> str:
    """The scores at the end, highest first, and who wins."""
    lines = ", ".join(f"{shown(r.player)} {r.total}" for r in scores.ranking())
    winners = _(" and ").join(shown(w) for w in scores.winners)
    if len(scores.winners) > 1:
        text = _("Final scores: {scores}. {winners} win!").format(scores=lines, winners=winners)
    else:
        text = _("Final scores: {scores}. {winners} wins!").format(scores=lines, winners=winners)
    proof = verification_text(scores)
    return text if proof is None else f"{text}\n{proof}"


def _labels(tickets: Sequence[TicketLabel], board: Board | None = None) -> str:
    """The tickets as the board names them (a country ticket's "to" in the language spoken, given the board)."""
    return "; ".join(t.label if board is None else ticket_label(board, t.id) for t in tickets)


def card_drawn_text(board: Board, drawn: CardDrawn) -> str:
    return _("You drew {card}.").format(card=drawn_card_name(board.rules, drawn.card))


def offered_tickets_text(offer: TicketsOffered, board: Board | None = None) -> str:
    return _("Choose at least {count} of: {tickets}.").format(
        count=offer.keep_minimum, tickets=_labels(offer.tickets, board)
    )


def kept_tickets_text(kept: TicketsKept, board: Board | None = None) -> str:
    return _("You keep: {tickets}.").format(tickets=_labels(kept.tickets, board) or _("nothing"))


def dealt_text(board: Board, deal: Dealt) -> str:
    """A player's starting hand and ticket offer."""
    cards = ", ".join(f"{n} {card_name(board.rules, c)}" for c, n in deal.hand.items())
    return _("Your cards: {cards}. Choose at least {count} of these {tickets}: {offered}.").format(
        cards=cards, count=deal.keep_minimum, tickets=tickets_plural(board.rules), offered=_labels(deal.tickets, board)
    )
