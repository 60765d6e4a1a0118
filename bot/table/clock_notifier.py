"""What the turn clocks' scheduler (bot/runtime/scheduler.py) does in Discord: its `Notifier`.

The scheduler fires deadlines, reminders and autopilot turns while nobody is
typing a command; their results reach the channel and the members exactly as
a command's would, through delivery (bot/table/delivery.py):

- `remind`: a DM to the member, or, where DMs are closed, one short line
  mentioning them in the game's channel (it replaces the game's previous one).
- `announce`: the result as for any command: the next stage message (the
  autopilot's moves in its recap, the timeout at its top), the "your turn"
  notes by DM. After an outage the stage message is posted again, the
  outage told at its top and the deadline moved on.
- `mod_log`: a line for the server's moderators' log channel, pinging nobody.
- `overdue`: a tournament round's deadline passed: its moderators are told
  which tables still play (bot/table/tournaments.py).
"""

from __future__ import annotations

from bot.service import ActionResult, EventKind, ModLogEntry, Reminder, TimeoutPolicy
from bot.service.tournaments.models import OverdueTables
from bot.table.front import Front
from bot.table.tournaments import TournamentDesk


class ClockNotifier:
    def __init__(self, front: Front, desk: TournamentDesk) -> None:
        self.delivery = front.delivery
        self.stage = front.stage
        self.desk = desk

    async def remind(self, reminder: Reminder) -> None:
        await self.delivery.remind(reminder)

    async def announce(self, result: ActionResult) -> None:
        outage = any(e.kind is EventKind.OUTAGE for e in result.public)
        await self.delivery.deliver(result, refresh=outage)
        if result.game.clock.policy is TimeoutPolicy.WAIT and any(e.kind is EventKind.TIMEOUT for e in result.public):
            await self.stage.refresh_clock(result.game.id)  # the turn message: "the game waits for a moderator"

    async def mod_log(self, entry: ModLogEntry) -> None:
        await self.delivery.post_mod_log(entry)

    async def overdue(self, notice: OverdueTables) -> None:
        await self.desk.tell_overdue(notice)
