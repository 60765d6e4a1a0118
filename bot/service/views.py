"""What a game looks like to everyone (public view) and to one player (private view).

Views are plain JSON-able dicts, so every front end (Discord, CLI, tests) reads
the same thing. The public view is built only from what the table shows:
counts of hands and tickets, never their contents, and nothing of the decks'
order; after the end, tickets are revealed with the scores.
"""

from __future__ import annotations

from typing import Any

from bot.service.announce import final_scores, ticket_labels
from bot.service.models import GameInfo
from bot.store import GameStatus
from engine import Game, Phase
from maps import WILD


def _header(info: GameInfo) -> dict[str, Any]:
    return {
        "game_id": info.id,
        "guild_id": info.guild_id,
        "channel_id": info.channel_id,
        "map": info.map,
        "title": info.title,
        "status": info.status.value,
        "version": info.version,
        "host_user_id": info.host_user_id,
        "options": {"max_players": info.max_players, "trains": info.trains, "clock": info.clock.to_json()},
    }


def public_view(info: GameInfo, game: Game | None) -> dict[str, Any]:
    view = _header(info)
    if game is None:
        view["players"] = [
            {"user_id": s.user_id, "display_name": s.display_name, "host": s.user_id == info.host_user_id}
            for s in info.seats
        ]
        return view
    s = game.state
    rules = game.rules
    players = []
    for seat, p in enumerate(s.players):
        sitter = info.seats[seat] if seat < len(info.seats) else None
        entry: dict[str, Any] = {
            "seat": seat,
            "player": p.name,
            "user_id": None if sitter is None else sitter.user_id,
            "display_name": None if sitter is None else sitter.display_name,
            "trains": p.trains,
            "cards": p.cards,
            "tickets": len(p.tickets),
            "choosing_from": None if p.offered is None else len(p.offered),
            "routes": list(p.routes),
            "route_points": p.route_points,
            "setup_done": p.setup_done,
            "autopilot": sitter is not None and sitter.autopilot,
        }
        if rules.merchandise:
            entry["merchandise"] = p.merchandise
        if rules.tourists:
            entry["souvenirs"] = list(p.souvenirs)
        players.append(entry)
    # a moderator may end a game before the rules do: then nobody is to move, and it is scored as it stands
    ended_early = info.status is GameStatus.FINISHED and not game.finished
    to_move = None if ended_early else game.to_move()
    view.update(
        {
            "players": players,
            "phase": s.phase.value,
            "turn": s.turn,
            "to_move": None
            if to_move is None
            else {"player": to_move.player, "user_id": info.user_of(to_move.player), "must": to_move.must},
            "waiting_for": []
            if ended_early
            else [{"player": n, "user_id": info.user_of(n)} for n in game.waiting_for()],
            "face_up": list(s.piles.face_up),
            "deck": len(s.piles.deck),
            "discard": len(s.piles.discard),
            "ticket_deck": len(s.ticket_deck),
            "tunnel": None
            if s.tunnel is None
            else {
                "route": s.tunnel.route,
                "laid": dict(s.tunnel.laid),
                "revealed": list(s.tunnel.revealed),
                "surcharge": s.tunnel.surcharge,
            },
            "final_round": None
            if s.final_turns is None
            else {
                "turns_left": s.final_turns,
                "started_by": None if s.final_trigger is None else game.names[s.final_trigger],
            },
            "finished": game.finished or ended_early,
        }
    )
    if rules.merchandise:
        view["merchandise_left"] = s.merchandise_left
    if rules.tourists:
        view["stacks"] = [{"at": at, "symbol": st.symbol, "tokens": st.tokens} for at, st in s.stacks.items()]
    if game.finished or ended_early:
        scores = final_scores(info, game)
        view["scores"] = scores.data["scores"]
        view["winners"] = scores.data["winners"]
    return view


def private_view(info: GameInfo, game: Game, seat: int) -> dict[str, Any]:
    """What only the player in `seat` may see, with what they may do now."""
    board, rules = game.board, game.rules
    p = game.state.players[seat]
    name = p.name
    order = [*rules.colors, WILD]
    hand = {card: p.hand[card] for card in order if p.hand[card] > 0}
    progress = {t: (done, points) for t, done, points in game.ticket_progress(seat)}
    tickets = [
        {"id": t, "label": board.tickets[t].label(), "done": progress[t][0], "points": progress[t][1]}
        for t in p.tickets
    ]
    waiting = name in game.waiting_for() and info.status.active  # nothing is open once a game has ended
    to_move = game.to_move()
    must = None
    if waiting and to_move is not None:
        # while tickets are chosen, everyone who has not chosen yet may act, not only to_move
        must = "keep" if game.state.phase is Phase.SETUP_KEEP else to_move.must
    return {
        "game_id": info.id,
        "version": info.version,
        "status": info.status.value,
        "seat": seat,
        "player": name,
        "trains": p.trains,
        "hand": hand,
        "tickets": tickets,
        "offered": None if p.offered is None else ticket_labels(board, p.offered),
        "keep_minimum": None if p.offered is None else game.keep_minimum(name),
        "your_move": waiting,
        "must": must,
        "options": _options(game, name) if waiting else None,
    }


def _options(game: Game, name: str) -> dict[str, Any]:
    """The moves open to this player now, in the shapes a front end builds buttons from."""
    s = game.state
    if s.phase is Phase.SETUP_PLACE:
        places = sorted(p for p in game.board.places if p not in s.stacks)
        return {"place": {"symbols": game.unplaced_symbols(), "places": places}}
    claims = [
        {
            "route": opt.route.id,
            "label": opt.route.label(),
            "payments": [dict(sorted(pay.items())) for pay in opt.payments],
            "souvenirs": list(opt.souvenirs),
        }
        for opt in game.claim_options(name)
    ]
    return {
        "card_draws": game.card_draws(name),
        "draw_tickets": game.can_draw_tickets(name),
        "claims": claims,
        "tunnel": [dict(sorted(c.items())) for c in game.tunnel_options(name)],
        "keep": game.player(name).offered is not None,
        "pass": s.phase is Phase.PLAY and s.pending is None and not game.has_action(name),
    }
