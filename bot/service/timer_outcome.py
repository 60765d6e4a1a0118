"""What handling one due timer did (`TimerOutcome`): a result to post, reminders, moderators' lines, overdue
tournament tables."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.models import GameInfo
from bot.service.results import ActionResult, ModLogEntry, Reminder
from bot.service.tournaments.models import OverdueTables


@dataclass(frozen=True)
class TimerOutcome:
    """What handling one due timer did: what to announce, whom to remind, what to tell the moderators."""

    game: GameInfo | None  # None: the timer belonged to no game, or to one that is gone
    result: ActionResult | None = None  # moves the autopilot made, a timeout: post like any result
    reminders: tuple[Reminder, ...] = ()
    mod_log: tuple[ModLogEntry, ...] = ()
    overdue: OverdueTables | None = None  # a tournament round's deadline passed with these tables still playing
