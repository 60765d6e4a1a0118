"""What the panel and the alt text say about a game: chosen here, worded by an `ImageWords`."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Claim, DrawCard, DrawTickets, Game, Keep, Pass, Phase, PlaceStack, TunnelPay
from render.fonts import drawable
from render.words import ImageWords


def player_name(game: Game, seat: int, words: ImageWords, labels: Mapping[int, str] | None = None) -> str:
    """The name as drawn: characters the font lacks (emoji) are left out.

    `labels` may name seats otherwise than the game does ("ann (autopilot)").
    """
    name = labels.get(seat, game.names[seat]) if labels else game.names[seat]
    return drawable(name, fallback=words.nameless_player(seat))


def longest_path(game: Game, seat: int) -> int | None:
    """The length of a seat's longest continuous path now, on maps that score it (None elsewhere)."""
    return game.longest(seat)[0] if game.rules.longest_bonus else None


def status(game: Game, words: ImageWords) -> str:
    """Who must do what now, or who won."""
    if game.finished:
        return words.won([player_name(game, game.seat(w), words) for w in game.winners()])
    state = game.state
    if state.phase is Phase.SETUP_KEEP:
        return words.choosing_tickets(game.rules, [player_name(game, game.seat(n), words) for n in game.waiting_for()])
    to_move = game.to_move()
    if to_move is None:
        return ""
    who = player_name(game, game.seat(to_move.player), words)
    if to_move.must == "place":
        return words.to_place_stack(who)
    if to_move.must == "draw":
        return words.to_draw_second(who)
    if to_move.must == "keep":
        return words.to_keep_tickets(game.rules, who)
    if to_move.must == "tunnel" and state.tunnel is not None:
        return words.to_pay_tunnel(who, state.tunnel.surcharge)
    return words.to_play(who)


def final_round(game: Game, words: ImageWords) -> str | None:
    turns = game.state.final_turns
    if turns is None or game.finished:
        return None
    return words.final_round(turns)


def last_move(game: Game, words: ImageWords) -> str | None:
    """The last move in words, or None before the first one."""
    if not game.moves:
        return None
    move = game.moves[-1]
    board = game.board
    seat = game.seat(move.player)
    who = player_name(game, seat, words)
    player = game.state.players[seat]
    if isinstance(move, Claim):
        tunnel = game.state.tunnel
        if tunnel is not None and game.state.pending is not None:
            return words.trying_tunnel(who, board.routes[tunnel.route])
        return words.claimed(who, board.routes[player.routes[-1]], board.rules)
    if isinstance(move, TunnelPay):
        if move.pay is None:
            return words.gave_up_tunnel(who)
        return words.paid_tunnel(who, board.routes[player.routes[-1]], board.rules)
    if isinstance(move, DrawCard):
        if move.source == "deck":
            return words.drew_from_deck(who)
        return words.took_face_up(who, board.rules, move.source)
    if isinstance(move, DrawTickets):
        return words.drew_tickets(who, board.rules)
    if isinstance(move, Keep):
        return words.kept_tickets(who, board.rules, len(move.tickets))
    if isinstance(move, PlaceStack):
        return words.placed_stack(who, move.symbol, board.resolve_place(move.at) or move.at)
    if isinstance(move, Pass):
        return words.passed(who)
    return None
