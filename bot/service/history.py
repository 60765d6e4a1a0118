"""What happened in a game, move by move and stage by stage, told from the public side only.

The engine's events are not stored, but the game is deterministic: replaying
its moves from the deal gives them again. Each move belongs to a stage: the
ticket choice at the start, a tourist-stack placement (San Francisco), or one
numbered turn. The recap, the history, the digest and the moderators' log all
read moves through these public events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from bot.service.announce import public_events
from bot.service.events import PublicEvent
from bot.service.kinds import Actor
from bot.service.models import GameInfo
from bot.store import GameStatus
from engine import Game, Phase


@dataclass(frozen=True)
class ToldMove:
    index: int  # in the game's moves
    stage: str  # the key of the stage it was made in
    actor: Actor
    events: tuple[PublicEvent, ...]  # its public events, the final scores after the last move included

    @property
    def planned(self) -> bool:
        """Played from the member's plan when their turn came (bot/service/plan_turns.py), not chosen then: a
        review may leave it out of the player's figures."""
        return self.actor is Actor.PLAN


@dataclass(frozen=True)
class Stage:
    key: str  # "setup", "place:N" or "turn:N"
    moves: tuple[ToldMove, ...]


def stage_key(game: Game, status: GameStatus | None = None) -> str:
    """The stage the game is in now: "setup", "place:N", "turn:N", or "final" at the end.

    A game a moderator ended with scoring (`status` finished) is at its end too.
    """
    s = game.state
    if s.phase is Phase.OVER or status is GameStatus.FINISHED:
        return "final"
    if s.phase is Phase.SETUP_KEEP:
        return "setup"
    if s.phase is Phase.SETUP_PLACE:
        return f"place:{s.placements}"
    return f"turn:{s.turn}"


def tell_moves(info: GameInfo, game: Game, actors: Sequence[Actor], start: Game) -> list[ToldMove]:
    """The moves of `game` after those of `start`, each with its public events.

    `start` is the same game some moves earlier (it is played on); `actors[i]`
    is who made move i.
    """
    told = []
    for index in range(len(start.moves), len(game.moves)):
        stage = stage_key(start)
        actor = actors[index] if index < len(actors) else Actor.PLAYER
        events = start.apply(game.moves[index])
        told.append(ToldMove(index, stage, actor, tuple(public_events(info, start, events, actor))))
    return told


def stages(info: GameInfo, game: Game, actors: Sequence[Actor]) -> tuple[Stage, ...]:
    """Every stage so far with its moves, oldest first (replays the game)."""
    told = tell_moves(info, game, actors, game.initial())
    return tuple(Stage(key, tuple(moves)) for key, moves in groupby(told, key=lambda move: move.stage))
