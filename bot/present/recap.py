"""What happened, stage by stage, in sentences: the recap at the top of a stage message and `/ttr history`.

The service tells each stage's moves from the public side only
(bot/service/stages.py), so a blind draw reads "draws a card from the deck"
and a kept ticket is only counted. Moves the autopilot made for a member's
seat say so ("alice (autopilot) claims ...").
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.models import GameInfo
from bot.service.stages import PLAYER, ToldStage


def stage_lines(info: GameInfo, stage: ToldStage) -> list[str]:
    """The public sentences of a stage, the autopilot's moves marked (the final scores are told separately)."""
    lines: list[str] = []
    for move in stage.moves:
        for said in move.events:
            if said.kind == "final_scores":
                continue
            lines.append(_marked(info, said.text, said.player, move.actor))
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


def recap_lines(info: GameInfo, told: Sequence[ToldStage]) -> list[str]:
    """What a new stage message tells first: the stages since the last message (bot/service/stages.py: told_since).

    One line "**Last turn:** ..." for one stage, one line per stage ("**Turn 7:** ...") for several.
    """
    said = [(stage, stage_lines(info, stage)) for stage in told]
    said = [(stage, lines) for stage, lines in said if lines]
    if not said:
        return []
    if len(said) == 1:
        return ["**Last turn:** " + " ".join(said[0][1])]
    return [f"**{stage_title(stage.key)}:** {' '.join(lines)}" for stage, lines in said]


def history_lines(info: GameInfo, told: Sequence[ToldStage]) -> list[str]:
    """One line per stage so far: "Turn 3: Alice claims ..."."""
    return [f"**{stage_title(stage.key)}:** {' '.join(stage_lines(info, stage))}" for stage in told]


def stage_title(key: str) -> str:
    if key == "setup":
        return "Tickets at the start"
    kind, _, number = key.partition(":")
    if kind == "place":
        return f"Tourist stack {int(number) + 1}"
    if kind == "turn":
        return f"Turn {int(number) + 1}"
    return "The end"
