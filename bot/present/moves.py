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
from bot.present.seats import first_player
from bot.present.words import card_name, plural
from bot.service import EventKind, FinalScores, GameInfo
from bot.service.events import CardDrawn, Dealt, MoveFacts, TicketsKept, TicketsOffered
from bot.service.scores import TicketLabel
from maps import Board
from maps.names import symbol_name


def _draw_deck(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    if facts.get("second"):
        return f"{who} draws a second card from the deck."
    return f"{who} draws a card from the deck."


def _draw_face_up(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return f"{who} takes the face-up {card_name(board.rules, str(facts['card']))}."


def _draw_tickets(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return f"{who} draws {plural(int(facts['count']), board.rules.ticket_name)} and chooses which to keep."


def _keep(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    rules = board.rules
    kept, returned = int(facts["kept"]), int(facts["returned"])
    start = "starting " if facts.get("setup") else ""
    tickets = plural(kept, start + rules.ticket_name)
    if not returned:
        return f"{who} keeps {tickets}."
    if rules.returned_tickets_removed:
        return f"{who} keeps {tickets} ({returned} removed from the game)."
    return f"{who} keeps {tickets} ({returned} returned)."


def _setup_done(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return f"Everyone has chosen. {shown(first_player(info))} takes the first turn."


def _place_stacks(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return "Everyone has chosen tickets. Now the free tourist stacks are placed."


def _place(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    tokens = plural(int(facts["tokens"]), "token")
    return f"{who} puts the {symbol_name(str(facts['symbol']))} stack ({tokens}) on {facts['at']}."


def _claim(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    route = board.routes[int(facts["route"])]
    paid = payment_text(board.rules, str(facts["paid"]))
    text = f"{who} claims {route.label()} for {plural(int(facts['points']), 'point')}, paying {paid}."
    if facts.get("merchandise"):
        text += " It carries a merchandise card."
    souvenir = facts.get("souvenir")
    if isinstance(souvenir, dict):
        text += f" {who} takes the {symbol_name(str(souvenir['symbol']))} souvenir at {souvenir['at']}."
    return text


def _tunnel_reveal(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    route = board.routes[int(facts["route"])]
    revealed = ", ".join(card_name(board.rules, str(c)) for c in facts["revealed"]) or "no cards"
    surcharge = int(facts["surcharge"])
    verdict = f"{who} must pay {plural(surcharge, 'more card')}" if surcharge else "no extra cards are due"
    paid = payment_text(board.rules, str(facts["paid"]))
    return f"{who} tries the tunnel {route.label()} with {paid}; revealed: {revealed}; {verdict}."


def _tunnel_abandoned(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return f"{who} gives up the tunnel {board.routes[int(facts['route'])].label()}."


def _pass(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return f"{who} passes: there is nothing else to do."


def _final_round(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    left = plural(int(facts["trains"]), board.rules.piece_name)
    return f"{who} has {left} left: everyone, {who} included, takes one last turn."


def _game_over(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return "The game is over."


def _reshuffle(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return "The discard pile is shuffled into a new deck."


def _face_up_reset(board: Board, who: str, facts: MoveFacts, info: GameInfo) -> str:
    return f"Three or more face-up {board.rules.wild_name}s: the face-up row is replaced."


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
    return MOVE_TEXTS[kind](board, shown(player or ""), facts, info)


def final_scores_text(scores: FinalScores) -> str:
    """The scores at the end, highest first, and who wins."""
    lines = ", ".join(f"{shown(r.player)} {r.total}" for r in scores.ranking())
    winners = " and ".join(shown(w) for w in scores.winners)
    if len(scores.winners) > 1:
        return f"Final scores: {lines}. {winners} win!"
    return f"Final scores: {lines}. {winners} wins!"


def _labels(tickets: Sequence[TicketLabel]) -> str:
    return "; ".join(t.label for t in tickets)


def card_drawn_text(board: Board, drawn: CardDrawn) -> str:
    return f"You drew {card_name(board.rules, drawn.card)}."


def offered_tickets_text(offer: TicketsOffered) -> str:
    return f"Choose at least {offer.keep_minimum} of: {_labels(offer.tickets)}."


def kept_tickets_text(kept: TicketsKept) -> str:
    return f"You keep: {_labels(kept.tickets) or 'nothing'}."


def dealt_text(board: Board, deal: Dealt) -> str:
    """A player's starting hand and ticket offer."""
    cards = ", ".join(f"{n} {card_name(board.rules, c)}" for c, n in deal.hand.items())
    return (
        f"Your cards: {cards}. Choose at least {deal.keep_minimum} of these {board.rules.ticket_name}s: "
        f"{_labels(deal.tickets)}."
    )
