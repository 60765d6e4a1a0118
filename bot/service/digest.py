"""The catch-up digest: what changed since a player's own last turn, for that player alone.

Built from the move log: the game is replayed to the end of the player's last
move, then the moves since are replayed for their public announcements only.
Routes "you needed" are those on the cheapest path of one of the player's
unfinished tickets at that moment (the autopilot's own measure, counted in
trains) that another player has claimed since. Nothing of another player's
secrets can reach it: it reads other players' moves through their public texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.announce import announce, card_name
from bot.service.models import GameInfo
from engine import Game

# the shortest-path measure the autopilot plays by, so "needed" means the same to both
from engine.autopilot import missing_routes

MAX_TEXT = 1800  # a Discord message holds 2000 characters


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
    moves: tuple[str, ...]  # one public line per announcement since then
    lost_routes: tuple[LostRoute, ...]
    face_up: tuple[str, ...]  # the face-up row now, as card names for people

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "player": self.player,
            "since_move": self.since_move,
            "moves": list(self.moves),
            "lost_routes": [
                {"route": r.route, "label": r.label, "claimed_by": r.claimed_by, "tickets": list(r.tickets)}
                for r in self.lost_routes
            ],
            "face_up": list(self.face_up),
        }

    def text(self, title: str = "") -> str:
        head = f"Your turn{f' in {title}' if title else ''}."
        lines = [head]
        if self.moves:
            lines.append("Since your last turn:")
            body = [f"- {m}" for m in self.moves]
            budget = MAX_TEXT - len(head) - 400
            kept: list[str] = []
            for line in reversed(body):  # the latest matter most
                if sum(len(k) + 1 for k in kept) + len(line) > budget:
                    kept.append(f"- ... and {len(body) - len(kept)} earlier")
                    break
                kept.append(line)
            lines.extend(reversed(kept))
        else:
            lines.append("Nothing has happened since your last turn.")
        for lost in self.lost_routes:
            needed = ", ".join(lost.tickets)
            lines.append(f"{lost.claimed_by} took {lost.label}, on your way for {needed}: time for another path.")
        if self.face_up:
            lines.append(f"Face-up now: {', '.join(self.face_up)}.")
        return "\n".join(lines)


def _fresh(game: Game) -> Game:
    """The same game as dealt, before any move."""
    return Game(game.board, game.names, game.seed, game.trains_option, game.initial_cards, game.initial_tickets)


def last_move_index(game: Game, seat: int) -> int:
    """The number of moves up to and including the seat's last move (0 if it never moved)."""
    name = game.names[seat]
    moves = game.moves
    return next((i + 1 for i in range(len(moves) - 1, -1, -1) if moves[i].player == name), 0)


def digest(info: GameInfo, game: Game, seat: int, actors: Sequence[str] = (), earlier: Game | None = None) -> Digest:
    """What changed since the player in `seat` last moved. `actors[i]` is who made move i (MoveRow.actor).

    `earlier` may be the game right after that last move (it is not changed);
    without it, the game is replayed up to there.
    """
    name = game.names[seat]
    moves = game.moves
    since = last_move_index(game, seat)
    if earlier is not None and len(earlier.moves) == since and (since == 0 or earlier.moves[-1] is moves[since - 1]):
        replay = earlier.copy()
    else:
        replay = _fresh(game)
        for move in moves[:since]:
            replay.apply(move)
    before = replay.copy()
    needed: dict[int, list[int]] | None = None  # worked out only if someone claimed a route since
    board = game.board
    lines: list[str] = []
    lost: list[LostRoute] = []
    for index in range(since, len(moves)):
        events = replay.apply(moves[index])
        public, _ = announce(info, replay, events)
        by_autopilot = index < len(actors) and actors[index] != "player"
        for said in public:
            lines.append(f"{said.text} (autopilot)" if by_autopilot and said.player else said.text)
        for event in events:
            route = event.public.get("route") if event.kind == "claim" else None
            if not isinstance(route, int) or event.player == name:
                continue
            if needed is None:
                needed = missing_routes(before, seat)
            if route in needed:
                labels = tuple(board.tickets[t].label() for t in needed.pop(route))
                lost.append(LostRoute(route, board.routes[route].label(), event.player or "", labels))
    face_up = tuple(card_name(board, c) for c in game.state.piles.face_up if c is not None)
    user = info.user_of(name) or 0
    return Digest(info.id, user, name, since, tuple(lines), tuple(lost), face_up)
