"""What happened, stage by stage (`GameService.history`), told from the public side only.

Moves the autopilot made for a member's seat say so ("alice (autopilot) claims ...").
The final scores are told by the last message itself, not in a recap.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.present.escape import shown
from bot.present.events import public_text
from bot.present.i18n import _, pgettext
from bot.present.seats import seat_name
from bot.service import Actor, EventKind, GameInfo, PublicEvent, Stage


def _marked(info: GameInfo, event: PublicEvent) -> str:
    """A sentence about a member's seat that the autopilot played, marked as such (autopilot players need no mark)."""
    text = public_text(info, event)
    player = event.player
    if not event.by_autopilot or player is None:
        return text
    seat = next((s for s in info.seats if s.player == player), None)
    if seat is not None and seat.bot:
        return text
    mark = _("autopilot, time ran out") if event.actor is Actor.TIMEOUT else _("autopilot")
    name = shown(seat_name(info, player))  # as the sentence words it
    if text.startswith(name + " "):
        return f"{name} ({mark}){text[len(name) :]}"
    return f"{text} ({mark})"


# what the start message says itself once everyone has chosen (bot/present/stage.py, `setup_content`): a new stage
# message after it does not say it again
SAID_BY_THE_START_MESSAGE = frozenset({EventKind.SETUP_DONE, EventKind.PLACE_STACKS})


def stage_lines(info: GameInfo, stage: Stage, skip: Collection[EventKind] = ()) -> list[str]:
    """The public sentences of a stage, the autopilot's moves marked (but those of the kinds in `skip`)."""
    return [
        _marked(info, event)
        for move in stage.moves
        for event in move.events
        if event.kind is not EventKind.FINAL_SCORES and event.kind not in skip
    ]


# The setup stage's title, in each map's word for tickets.
_SETUP_TITLES = {
    "USA": lambda: pgettext("USA", "Tickets at the start"),
    "India": lambda: pgettext("India", "Tickets at the start"),
    "Switzerland": lambda: pgettext("Switzerland", "Tickets at the start"),
    "Amsterdam": lambda: pgettext("Amsterdam", "Contracts at the start"),
    "San Francisco": lambda: pgettext("San Francisco", "Tickets at the start"),
}


def stage_title(key: str, title: str = "USA") -> str:
    """A stage's title ("Turn 7"); `title`: the map's (English) title, for the setup's word for tickets."""
    if key == "setup":
        return _SETUP_TITLES.get(title, _SETUP_TITLES["USA"])()
    kind, _sep, number = key.partition(":")
    if kind == "place":
        return _("Tourist stack {number}").format(number=int(number) + 1)
    if kind == "turn":
        return _("Turn {number}").format(number=int(number) + 1)
    return _("The end")


def recap_lines(info: GameInfo, stages: Sequence[Stage], shown: Collection[str]) -> list[str]:
    """What a new stage message tells first: everything since the newest stage that has a message of its own.

    `shown`: the keys of the stages whose messages were posted. After a human
    move the autopilot may play several turns at once; all of them are told.
    If no stage so far has a message (after a moderator's undo, say), only the
    last stage is told. One line "**Last turn:** ..." for one stage, one line
    per stage ("**Turn 7:** ...") for several, or for one that is no turn ("**Tickets at the start:** ...").
    Who takes the first turn is not told again: the start message says it.
    """
    picked: list[Stage] = []
    for stage in reversed(stages):
        picked.append(stage)
        if stage.key in shown:
            break
    else:
        picked = list(stages[-1:])
    picked.reverse()
    told = [(stage, stage_lines(info, stage, SAID_BY_THE_START_MESSAGE)) for stage in picked]
    told = [(stage, lines) for stage, lines in told if lines]
    if not told:
        return []
    if len(told) == 1 and told[0][0].key.startswith("turn:"):  # the starting tickets are no turn
        return [_("**Last turn:** {moves}").format(moves=" ".join(told[0][1]))]
    return [f"**{stage_title(stage.key, info.title)}:** {' '.join(lines)}" for stage, lines in told]


def history_lines(info: GameInfo, stages: Sequence[Stage]) -> list[str]:
    """One line per stage so far: "Turn 3: Alice claims ..."."""
    return [f"**{stage_title(stage.key, info.title)}:** {' '.join(stage_lines(info, stage))}" for stage in stages]
