"""What happened, turn by turn, told from the public side only.

The engine's events are not stored, but the game is deterministic: replaying
its moves from the deal gives them again. Each move belongs to a stage: the
ticket choice at the start, a tourist-stack placement (San Francisco), or one
numbered turn. The public sentences come from the service's announcements,
which are built from the public part of each event, so a blind draw reads
"draws a card from the deck" and a kept ticket is only counted. Moves the
autopilot made for a member's seat say so ("alice (autopilot) claims ...").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.service.announce import announce
from bot.service.models import GameInfo
from bot.store import GameStatus
from engine import Event, Game, Phase

# MoveRow.actor of a move the player made themselves
PLAYER = "player"


@dataclass(frozen=True)
class Stage:
    key: str  # "setup", "place:N", "turn:N" or "final"
    events: tuple[Event, ...]
    moves: tuple[tuple[int, tuple[Event, ...]], ...] = ()  # (move index, its events), in order


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


def public_lines(info: GameInfo, game: Game, events: tuple[Event, ...]) -> list[str]:
    """The public sentences for some events (the final scores are told separately)."""
    public, _private = announce(info, game, events)
    return [e.text for e in public if e.kind != "final_scores"]


def stage_lines(info: GameInfo, game: Game, stage: Stage, actors: Sequence[str] = ()) -> list[str]:
    """The public sentences of a stage; `actors[i]` is who made move i (MoveRow.actor), to mark the autopilot's."""
    if not stage.moves:
        return public_lines(info, game, stage.events)
    lines: list[str] = []
    for index, events in stage.moves:
        actor = actors[index] if index < len(actors) else PLAYER
        public, _private = announce(info, game, events)
        for said in public:
            if said.kind == "final_scores":
                continue
            lines.append(_marked(info, said.text, said.player, actor))
    return lines


def _marked(info: GameInfo, text: str, player: str | None, actor: str) -> str:
    """A sentence about a member's seat that the autopilot played, marked as such (autopilot players need no mark)."""
    if actor == PLAYER or player is None:
        return text
    seat = next((s for s in info.seats if s.player == player), None)
    if seat is not None and seat.bot:
        return text
    mark = "autopilot, time ran out" if actor == "timeout" else "autopilot"
    if text.startswith(player + " "):
        return f"{player} ({mark}){text[len(player) :]}"
    return f"{text} ({mark})"


def last_stage_lines(info: GameInfo, game: Game, actors: Sequence[str] = ()) -> list[str]:
    """What happened in the stage that just ended: the recap at the top of a new turn message."""
    done = stages(game)
    if not done:
        return []
    return stage_lines(info, game, done[-1], actors)


def recap_lines(info: GameInfo, game: Game, shown: Collection[str], actors: Sequence[str] = ()) -> list[str]:
    """What a new stage message tells first: everything since the newest stage that has a message of its own.

    `shown`: the keys of the stages whose messages were posted. After a human
    move the autopilot may play several turns at once; all of them are told.
    If no stage so far has a message (after a moderator's undo, say), only the
    last stage is told. One line "**Last turn:** ..." for one stage, one line
    per stage ("**Turn 7:** ...") for several.
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
    told = [(stage, stage_lines(info, game, stage, actors)) for stage in picked]
    told = [(stage, lines) for stage, lines in told if lines]
    if not told:
        return []
    if len(told) == 1:
        return ["**Last turn:** " + " ".join(told[0][1])]
    return [f"**{stage_title(stage.key)}:** {' '.join(lines)}" for stage, lines in told]


def history_lines(info: GameInfo, game: Game, actors: Sequence[str] = ()) -> list[str]:
    """One line per stage so far: "Turn 3: Alice claims ..."."""
    lines = []
    for stage in stages(game):
        text = " ".join(stage_lines(info, game, stage, actors))
        lines.append(f"**{stage_title(stage.key)}:** {text}")
    return lines


def stage_title(key: str) -> str:
    if key == "setup":
        return "Tickets at the start"
    kind, _, number = key.partition(":")
    if kind == "place":
        return f"Tourist stack {int(number) + 1}"
    if kind == "turn":
        return f"Turn {int(number) + 1}"
    return "The end"
