"""What happened, turn by turn, told from the public side only.

The engine's events are not stored, but the game is deterministic: replaying
its moves from the deal gives them again. Each move belongs to a stage: the
ticket choice at the start, a tourist-stack placement (San Francisco), or one
numbered turn. The public sentences come from the service's announcements,
which are built from the public part of each event, so a blind draw reads
"draws a card from the deck" and a kept ticket is only counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.announce import announce
from bot.service.models import GameInfo
from engine import Event, Game, Phase


@dataclass(frozen=True)
class Stage:
    key: str  # "setup", "place:N", "turn:N" or "final"
    events: tuple[Event, ...]


def stage_key(game: Game) -> str:
    """The stage the game is in now: the key of the public message that shows it."""
    s = game.state
    if s.phase is Phase.SETUP_KEEP:
        return "setup"
    if s.phase is Phase.SETUP_PLACE:
        return f"place:{s.placements}"
    if s.phase is Phase.OVER:
        return "final"
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
    events: list[Event] = []
    for move in game.moves:
        s = fresh.state
        key = "setup" if s.phase is Phase.SETUP_KEEP else stage_key(fresh)
        if key != current and current is not None:
            out.append(Stage(current, tuple(events)))
            events = []
        current = key
        events.extend(fresh.apply(move))
    if current is not None:
        out.append(Stage(current, tuple(events)))
    return out


def public_lines(info: GameInfo, game: Game, events: tuple[Event, ...]) -> list[str]:
    """The public sentences for some events (the final scores are told separately)."""
    public, _private = announce(info, game, events)
    return [e.text for e in public if e.kind != "final_scores"]


def last_stage_lines(info: GameInfo, game: Game) -> list[str]:
    """What happened in the stage that just ended: the recap at the top of a new turn message."""
    done = stages(game)
    if not done:
        return []
    return public_lines(info, game, done[-1].events)


def history_lines(info: GameInfo, game: Game) -> list[str]:
    """One line per stage so far: "Turn 3: Alice claims ..."."""
    lines = []
    for stage in stages(game):
        text = " ".join(public_lines(info, game, stage.events))
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
