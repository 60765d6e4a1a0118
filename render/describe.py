"""Sentences about a game, shared by the panel and the alt text."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Claim, DrawCard, DrawTickets, Game, Keep, Pass, Phase, PlaceStack, TunnelPay
from maps import WILD, Board, Route, Ticket
from render.fonts import drawable
from render.icons import symbol_title
from render.palette import player_style


def card_name(board: Board, card: str) -> str:
    """A card as players call it on this map: the wild has each map's own name."""
    return board.rules.wild_name if card == WILD else card


def plural(count: int, word: str) -> str:
    """`count` and `word` in the right number; piece names ("trains", "cable cars") come plural."""
    if count == 1:
        return f"{count} {word[:-1] if word.endswith('s') else word}"
    return f"{count} {word if word.endswith('s') else word + 's'}"


def player_name(game: Game, seat: int, labels: Mapping[int, str] | None = None) -> str:
    """The name as drawn: characters the font lacks (emoji) are left out.

    `labels` may name seats otherwise than the game does ("ann (autopilot)").
    """
    name = labels.get(seat, game.names[seat]) if labels else game.names[seat]
    return drawable(name, fallback=f"Player {seat + 1}")


def route_text(route: Route) -> str:
    extra = []
    if route.tunnel:
        extra.append("tunnel")
    if route.ferries:
        extra.append(plural(route.ferries, "ferry space"))
    tail = f", {', '.join(extra)}" if extra else ""
    return f"{route.a} – {route.b} ({route.length} {route.color}{tail})"


def ticket_text(ticket: Ticket) -> str:
    if ticket.is_country_ticket:
        dests = ", ".join(f"{t.name} {t.points}" for t in ticket.targets)
        return f"{ticket.origin} → {dests}"
    return f"{ticket.origin} – {ticket.targets[0].name}"


def status(game: Game) -> str:
    """Who must do what now, or who won."""
    if game.finished:
        winners = game.winners()
        names = [player_name(game, game.seat(w)) for w in winners]
        if len(names) == 1:
            return f"Game over: {names[0]} wins"
        return f"Game over: {' and '.join(names)} share the win"
    state = game.state
    if state.phase is Phase.SETUP_KEEP:
        waiting = [player_name(game, game.seat(n)) for n in game.waiting_for()]
        return f"Setup: {', '.join(waiting)} to choose tickets"
    to_move = game.to_move()
    if to_move is None:
        return ""
    who = player_name(game, game.seat(to_move.player))
    if to_move.must == "place":
        return f"{who} to place a tourist stack"
    if to_move.must == "draw":
        return f"{who} to draw a second card"
    if to_move.must == "keep":
        return f"{who} to choose tickets to keep"
    if to_move.must == "tunnel" and state.tunnel is not None:
        return f"{who} to pay {state.tunnel.surcharge} more for the tunnel, or give it up"
    return f"{who} to play"


def final_round(game: Game) -> str | None:
    turns = game.state.final_turns
    if turns is None or game.finished:
        return None
    return f"Final round: {plural(turns, 'turn')} left"


def last_move(game: Game) -> str | None:
    """The last move in words, or None before the first one."""
    if not game.moves:
        return None
    move = game.moves[-1]
    board = game.board
    seat = game.seat(move.player)
    who = player_name(game, seat)
    player = game.state.players[seat]
    if isinstance(move, Claim):
        tunnel = game.state.tunnel
        if tunnel is not None and game.state.pending is not None:
            return f"{who} is trying the tunnel {route_text(board.routes[tunnel.route])}"
        return f"{who} claimed {route_text(board.routes[player.routes[-1]])}"
    if isinstance(move, TunnelPay):
        if move.pay is None:
            return f"{who} gave up a tunnel"
        return f"{who} paid the tunnel and claimed {route_text(board.routes[player.routes[-1]])}"
    if isinstance(move, DrawCard):
        if move.source == "deck":
            return f"{who} drew a card from the deck"
        return f"{who} took a face-up {card_name(board, move.source)}"
    if isinstance(move, DrawTickets):
        return f"{who} drew {board.rules.ticket_name}s"
    if isinstance(move, Keep):
        return f"{who} kept {plural(len(move.tickets), board.rules.ticket_name)}"
    if isinstance(move, PlaceStack):
        return f"{who} placed the {symbol_title(move.symbol)} stack at {board.resolve_place(move.at) or move.at}"
    if isinstance(move, Pass):
        return f"{who} passed"
    return None


def colour_cue(seat: int) -> str:
    style = player_style(seat)
    return f"{style.name}, {style.mark}"
