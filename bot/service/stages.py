"""The stages of a game, and what happened in each, told from the public side only.

Each move belongs to a stage: the ticket choice at the start, a tourist-stack
placement (San Francisco), or one numbered turn; the channel shows one message
per stage. The engine's events are not stored, but the game is deterministic:
replaying its moves from the deal gives them again, and only their public part
(`announce`) is handed out, so a blind draw stays a card "from the deck" and a
kept ticket is only counted. Each move carries who made it (the player, the
autopilot, or the autopilot because time ran out).

`stage` is what the front end needs for a stage message: the stage, what
happened since the newest stage that has a message, who must act, and (drawn
off the event loop from the same moment of the game) its image.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.announce import announce, final_scores
from bot.service.front_base import ServiceCore, dealt_game
from bot.service.models import GameInfo, PublicEvent
from bot.store import GameStatus
from engine import Event, Game, Phase
from render import RenderedImage, render_board, render_final
from render.words import ImageWords

# MoveRow.actor of a move the player made themselves
PLAYER = "player"


@dataclass(frozen=True)
class Stage:
    key: str  # "setup", "place:N", "turn:N" or "final"
    events: tuple[Event, ...]
    moves: tuple[tuple[int, tuple[Event, ...]], ...] = ()  # (move index, its events), in order


@dataclass(frozen=True)
class ToldMove:
    """One move as everyone may be told it, and who made it (MoveRow.actor: "player", "autopilot", "timeout")."""

    actor: str
    events: tuple[PublicEvent, ...]


@dataclass(frozen=True)
class ToldStage:
    key: str
    moves: tuple[ToldMove, ...]


@dataclass(frozen=True)
class StageView:
    """A game at its current stage, as its stage message shows it."""

    info: GameInfo
    key: str  # the stage: "setup", "place:N", "turn:N" or "final"
    recap: tuple[ToldStage, ...]  # what happened since the newest stage that has a message (when asked)
    names: tuple[str, ...]  # the players in seat order
    to_move: str | None  # who must act (while tickets are chosen: the first who has not chosen)
    turn: int  # the turn number, from 0
    final_turns: int | None  # turns left in the final round, once it has begun
    waiting_for: tuple[str, ...]  # everyone who may act now
    unplaced: tuple[str, ...]  # tourist stacks still to place
    face_up: tuple[str | None, ...]
    stuck: bool  # the player to move can do nothing but pass
    finished: bool  # the game ended by the rules (a moderator may end it early: then False at "final")
    scores: Mapping[str, Any] | None  # at "final": each player's scores and the winners
    image: RenderedImage | None  # the board (the final scores at "final"; none at "setup"), when asked


def stage_key(game: Game, status: GameStatus | None = None) -> str:
    """The stage the game is in now: the key of the public message that shows it.

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


def stages(game: Game) -> list[Stage]:
    """Every stage so far with the events of its moves, oldest first (replays the game)."""
    fresh = Game(
        game.board,
        game.names,
        game.seed,
        game.trains_option,
        game.initial_cards,
        game.initial_tickets,
    )
    out: list[Stage] = []
    current: str | None = None
    moves: list[tuple[int, tuple[Event, ...]]] = []
    for index, move in enumerate(game.moves):
        s = fresh.state
        key = "setup" if s.phase is Phase.SETUP_KEEP else stage_key(fresh)
        if key != current and current is not None:
            out.append(_stage(current, moves))
            moves = []
        current = key
        moves.append((index, tuple(fresh.apply(move))))
    if current is not None:
        out.append(_stage(current, moves))
    return out


def _stage(key: str, moves: list[tuple[int, tuple[Event, ...]]]) -> Stage:
    return Stage(key, tuple(e for _, events in moves for e in events), tuple(moves))


def told(info: GameInfo, game: Game, stage: Stage, actors: Sequence[str] = ()) -> ToldStage:
    """A stage's moves, public part only; `actors[i]` is who made move i."""
    moves = []
    for index, events in stage.moves:
        public, _private = announce(info, game, events)
        moves.append(ToldMove(actors[index] if index < len(actors) else PLAYER, tuple(public)))
    return ToldStage(stage.key, tuple(moves))


def told_since(info: GameInfo, game: Game, shown: Collection[str], actors: Sequence[str] = ()) -> list[ToldStage]:
    """Every stage since the newest one in `shown` (the stages that have a message), that one included.

    After a member's move the autopilot may play several turns at once: all of
    them are told. If no stage so far has a message (after a moderator's undo,
    say), only the last stage is told.
    """
    done = stages(game)
    picked: list[Stage] = []
    for stage in reversed(done):
        picked.append(stage)
        if stage.key in shown:
            break
    else:
        picked = done[-1:]
    picked.reverse()
    return [told(info, game, stage, actors) for stage in picked]


def _view(
    info: GameInfo,
    game: Game,
    actors: Sequence[str],
    shown: Collection[str] | None,
    image: tuple[Mapping[int, str], ImageWords] | None,
) -> StageView:
    """The stage view of a game (CPU work: runs in a worker thread); `image`: the seat labels and words to draw with."""
    key = stage_key(game, info.status)
    s = game.state
    to_move = game.to_move()
    recap = () if shown is None or not game.moves else tuple(told_since(info, game, shown, actors))
    drawn = None
    if image is not None and key != "setup":
        labels, words = image
        drawn = (
            render_final(game, ended=True, words=words) if key == "final" else render_board(game, labels, words=words)
        )
    return StageView(
        info=info,
        key=key,
        recap=recap,
        names=tuple(game.names),
        to_move=None if to_move is None else to_move.player,
        turn=s.turn,
        final_turns=s.final_turns,
        waiting_for=tuple(game.waiting_for()),
        unplaced=tuple(game.unplaced_symbols()),
        face_up=tuple(s.piles.face_up),
        stuck=to_move is not None and not game.has_action(to_move.player),
        finished=game.finished,
        scores=final_scores(info, game).data if key == "final" else None,
        image=drawn,
    )


class Stages:
    async def stage(
        self: ServiceCore,
        game_id: int,
        *,
        shown: Collection[str] | None = None,
        image: tuple[Mapping[int, str], ImageWords] | None = None,
    ) -> StageView:
        """The game's current stage. `shown`: the stages that have a message (asks for the recap since the newest
        of them); `image`: the seat labels and the words to draw the stage's image with. WrongState before the deal.
        """
        dealt = await dealt_game(self, game_id)
        return await asyncio.to_thread(_view, dealt.info, dealt.game, dealt.actors, shown, image)

    async def history(self: ServiceCore, game_id: int) -> tuple[ToldStage, ...]:
        """Every stage so far, told from the public side, oldest first. WrongState before the deal."""
        dealt = await dealt_game(self, game_id)

        def work() -> tuple[ToldStage, ...]:
            return tuple(told(dealt.info, dealt.game, stage, dealt.actors) for stage in stages(dealt.game))

        return await asyncio.to_thread(work)
