"""The catch-up digest: what changed since a player's own last turn, for that player alone.

Built from the move log: the game is replayed to the end of the player's last
move, then the moves since are replayed for their public events only. Routes
"you needed" are those on the cheapest path of one of the player's unfinished
tickets at that moment (the autopilot's own measure, counted in trains) that
another player has claimed since. Nothing of another player's secrets can
reach it: it reads other players' moves through their public events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.service.events import PublicEvent
from bot.service.history import tell_moves
from bot.service.kinds import Actor, EventKind
from bot.service.models import GameInfo
from engine import Game
from engine.paths import missing_routes  # the measure the steady autopilot plays by: "needed" means the same to both


@dataclass(frozen=True)
class LostRoute:
    route: int
    label: str
    claimed_by: str
    tickets: tuple[str, ...]  # labels of the player's tickets whose cheapest path used it


@dataclass(frozen=True)
class Digest:
    game_id: int
    user_id: int
    player: str
    since_move: int  # the first move index reported (the one after the player's last move)
    moves: tuple[PublicEvent, ...]  # every public event since then, each with who made its move
    lost_routes: tuple[LostRoute, ...]
    face_up: tuple[str, ...]  # the face-up row now (empty slots left out)


def last_move_index(game: Game, seat: int) -> int:
    """The number of moves up to and including the seat's last move (0 if it never moved)."""
    name = game.names[seat]
    moves = game.moves
    return next((i + 1 for i in range(len(moves) - 1, -1, -1) if moves[i].player == name), 0)


def digest(info: GameInfo, game: Game, seat: int, actors: Sequence[Actor] = (), earlier: Game | None = None) -> Digest:
    """What changed since the player in `seat` last moved. `actors[i]` is who made move i.

    `earlier` may be the game right after that last move (it is not changed);
    without it, the game is replayed up to there.
    """
    name = game.names[seat]
    moves = game.moves
    since = last_move_index(game, seat)
    if earlier is not None and len(earlier.moves) == since and (since == 0 or earlier.moves[-1] is moves[since - 1]):
        before = earlier
    else:
        before = game.replay_until(since)
    told = tell_moves(info, game, actors, before.copy())
    needed: dict[int, list[int]] | None = None  # worked out only if someone claimed a route since
    board = game.board
    lost: list[LostRoute] = []
    for move in told:
        for event in move.events:
            facts = event.data
            route = facts.get("route") if event.kind == EventKind.CLAIM and isinstance(facts, Mapping) else None
            if not isinstance(route, int) or event.player == name:
                continue
            if needed is None:
                needed = missing_routes(before, seat)
            if route in needed:
                labels = tuple(board.tickets[t].label() for t in needed.pop(route))
                lost.append(LostRoute(route, board.routes[route].label(), event.player or "", labels))
    face_up = tuple(c for c in game.state.piles.face_up if c is not None)
    user = info.user_of(name) or 0
    events = tuple(e for move in told for e in move.events)
    return Digest(info.id, user, name, since, events, tuple(lost), face_up)
