"""Engine events as announcements: a public line for the channel, private lines for one player.

Public texts are built from the engine's public part only, so a secret (a card
drawn blind, a ticket kept) cannot reach the channel by way of a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.service.models import GameInfo, PrivateEvent, PublicEvent
from engine import Event, Game
from maps import WILD, Board


def card_name(board: Board, card: str) -> str:
    return board.rules.wild_name if card == WILD else card


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def ticket_labels(board: Board, ids: Sequence[int]) -> list[dict[str, Any]]:
    return [{"id": t, "label": board.tickets[t].label()} for t in ids]


def _public_text(game: Game, e: Event) -> str:
    board, rules = game.board, game.rules
    who = e.player or ""
    p = e.public
    ticket = rules.ticket_name
    kind = e.kind
    if kind == "draw_deck":
        return f"{who} draws {'a second' if p.get('second') else 'a'} card from the deck."
    if kind == "draw_face_up":
        return f"{who} takes the face-up {card_name(board, str(p['card']))}."
    if kind == "draw_tickets":
        return f"{who} draws {_plural(int(p['count']), ticket)} and chooses which to keep."
    if kind == "keep":
        kept, returned = int(p["kept"]), int(p["returned"])
        back = "removed from the game" if rules.returned_tickets_removed else "returned"
        tail = f" ({returned} {back})" if returned else ""
        start = "starting " if p.get("setup") else ""
        return f"{who} keeps {_plural(kept, start + ticket)}{tail}."
    if kind == "setup_done":
        return f"Everyone has chosen. {game.names[0]} takes the first turn."
    if kind == "place_stacks":
        return "Everyone has chosen tickets. Now the free tourist stacks are placed."
    if kind == "place":
        return f"{who} puts the {p['symbol']} stack ({_plural(int(p['tokens']), 'token')}) on {p['at']}."
    if kind == "claim":
        route = board.routes[int(p["route"])]
        text = f"{who} claims {route.label()} for {_plural(int(p['points']), 'point')}, paying {p['paid']}."
        if p.get("merchandise"):
            text += " It carries a merchandise card."
        souvenir = p.get("souvenir")
        if isinstance(souvenir, dict):
            text += f" {who} takes the {souvenir['symbol']} souvenir at {souvenir['at']}."
        return text
    if kind == "tunnel_reveal":
        route = board.routes[int(p["route"])]
        revealed = ", ".join(card_name(board, str(c)) for c in p["revealed"]) or "no cards"
        surcharge = int(p["surcharge"])
        verdict = f"{who} must pay {_plural(surcharge, 'more card')}" if surcharge else "no extra cards are due"
        return f"{who} tries the tunnel {route.label()} with {p['paid']}; revealed: {revealed}; {verdict}."
    if kind == "tunnel_abandoned":
        return f"{who} gives up the tunnel {board.routes[int(p['route'])].label()}."
    if kind == "pass":
        return f"{who} passes: there is nothing else to do."
    if kind == "final_round":
        trains = int(p["trains"])
        pieces = rules.piece_name if trains != 1 else rules.piece_name.removesuffix("s")
        return f"{who} has {trains} {pieces} left: everyone, {who} included, takes one last turn."
    if kind == "game_over":
        return "The game is over."
    if kind == "reshuffle":
        return "The discard pile is shuffled into a new deck."
    if kind == "face_up_reset":
        return f"Three or more face-up {rules.wild_name}s: the face-up row is replaced."
    return f"{who} {kind.replace('_', ' ')}.".strip()


def _private(game: Game, e: Event, user_id: int) -> PrivateEvent | None:
    if not e.private:
        return None
    board = game.board
    data: dict[str, Any] = dict(e.private)
    if e.kind == "draw_deck":
        text = f"You drew {card_name(board, str(e.private['card']))}."
    elif e.kind == "draw_tickets":
        offered = list(e.private["offered"])
        data["tickets"] = ticket_labels(board, offered)
        least = game.keep_minimum(e.player) if e.player else 0
        names = "; ".join(board.tickets[t].label() for t in offered)
        text = f"Choose at least {least} of: {names}."
    elif e.kind == "keep":
        kept = list(e.private["kept"])
        data["tickets"] = ticket_labels(board, kept)
        text = "You keep: " + ("; ".join(board.tickets[t].label() for t in kept) or "nothing") + "."
    else:
        text = f"{e.kind.replace('_', ' ')}: {e.private}"
    return PrivateEvent(user_id, e.kind, text, data)


def announce(info: GameInfo, game: Game, events: Sequence[Event]) -> tuple[list[PublicEvent], list[PrivateEvent]]:
    """The engine's events of one move as public and private announcements."""
    public: list[PublicEvent] = []
    private: list[PrivateEvent] = []
    for e in events:
        user = info.user_of(e.player)
        public.append(PublicEvent(e.kind, _public_text(game, e), dict(e.public), e.player, user))
        if user is not None:
            note = _private(game, e, user)
            if note is not None:
                private.append(note)
    if game.finished:
        public.append(final_scores(info, game))
    return public, private


def final_scores(info: GameInfo, game: Game) -> PublicEvent:
    """The scores at the end: tickets are revealed then, so all of it is public."""
    board = game.board
    scores = game.score()
    winners = game.winners()
    rows: list[dict[str, Any]] = []
    for sc in scores:
        rows.append(
            {
                "player": sc.name,
                "user_id": info.user_of(sc.name),
                "total": sc.total,
                "routes": sc.routes,
                "tickets": {"completed": sc.completed, "failed": sc.failed, "points": sc.ticket_points},
                "ticket_results": [
                    {"id": t, "label": board.tickets[t].label(), "done": done, "points": points}
                    for t, done, points in sc.ticket_results
                ],
                "longest": sc.longest,
                "bonus": dict(sc.bonus),
            }
        )
    ranking = sorted(rows, key=lambda r: -int(r["total"]))
    lines = ", ".join(f"{r['player']} {r['total']}" for r in ranking)
    text = f"Final scores: {lines}. {' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}!"
    return PublicEvent("final_scores", text, {"scores": rows, "winners": list(winners)})


def dealt(info: GameInfo, game: Game) -> list[PrivateEvent]:
    """Each player's starting hand and ticket offer, for them alone."""
    board = game.board
    out = []
    for p in game.state.players:
        user = info.user_of(p.name)
        if user is None:
            continue
        hand = {card: n for card, n in sorted(p.hand.items()) if n > 0}
        offered = list(p.offered or [])
        cards = ", ".join(f"{n} {card_name(board, c)}" for c, n in hand.items())
        tickets = "; ".join(board.tickets[t].label() for t in offered)
        least = game.keep_minimum(p.name)
        text = f"Your cards: {cards}. Choose at least {least} of these {board.rules.ticket_name}s: {tickets}."
        out.append(
            PrivateEvent(
                user, "dealt", text, {"hand": hand, "offered": offered, "tickets": ticket_labels(board, offered)}
            )
        )
    return out
