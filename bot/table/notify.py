"""Direct messages: "your turn" notes, reminders and seat news for players who accept them.

Each DM says what it is (`DmKind`), and the member's own settings
(`/ttr settings`, bot/service/member_settings.py) decide what becomes of it:

- "your turn" notes and the call to choose starting tickets: sent at once
  (`turn_dms` every, the default), never, or held until the turn has waited
  the member's hours, and dropped if the turn is over by then;
- reminders (the reserve's included): not at all with `reminders` off;
- anything but the answer to a member's own action: held during the member's
  quiet hours and sent when they end; a note about a turn (a "your turn"
  note, a reminder) that is over by then is dropped, and of several reminders
  of one turn only the last is sent;
- what the autopilot played for a member who is away: held until they are
  back, then told in one summary per game (`summarise`, from the game's moves).

Held messages are kept in the store and sent by `release`, which the
scheduler calls on every pass of its loop (at least once a heartbeat); a
held message is deleted as it is taken, so it goes once even with several
bot processes.

Discord refuses a DM to a user who has closed them (403, code 50007). The
refusal is remembered in the database (through the game service) and that user gets no more attempts:
failed requests count towards Discord's limit of invalid requests, and the
game never depends on a DM anyway (the channel mention and the private
replies carry everything).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

import discord

from bot.service.front_records import FrontRecords
from bot.service.member_settings import MemberSettingsService, TurnDms
from bot.service.reading import ReadingService
from bot.store import HeldRow

log = logging.getLogger(__name__)

CANNOT_SEND_TO_USER = 50007


class DmKind(StrEnum):
    """What a DM is, for the member's settings."""

    TURN = "turn"  # "your turn" (with the catch-up digest)
    START = "start"  # choose your starting tickets
    REMINDER = "reminder"  # the clock runs out (the reserve's notes too)
    PLAYED_FOR = "played_for"  # what the autopilot played for the member
    PLANNED = "planned"  # what the member's planned turn did when their turn came
    SEAT = "seat"  # a moderator gave or took a seat
    ANSWER = "answer"  # the answer to the member's own action (sent whatever the settings)


TURN_KINDS = frozenset({DmKind.TURN, DmKind.START})
WAIT_KINDS = frozenset({DmKind.TURN, DmKind.START, DmKind.REMINDER})  # about one wait: dropped once it is over


@dataclass(frozen=True)
class Plan:
    """What becomes of a DM now: sent (`send`), held until `until`, or neither (the member wants none)."""

    send: bool = False
    until: datetime | None = None
    away: bool = False  # held because the member is away (what the autopilot played: one summary when back)


SEND = Plan(send=True)
SKIP = Plan()
AWAY_NOTE = "from:"  # the `wait` of a "played for you" DM held while away: the first move it tells ("from:12")


def _first_move(wait: str | None) -> int:
    number = (wait or "").removeprefix(AWAY_NOTE)
    return int(number) if number.isdigit() else 0


# how one summary of what the autopilot played for an away member is written: (user, game, first move) -> text
Summarise = Callable[[int, int, int], Awaitable[str | None]]


class Notifier:
    def __init__(
        self, client: discord.Client, reading: ReadingService, members: MemberSettingsService, front: FrontRecords
    ) -> None:
        self._client = client
        self._reading = reading  # the service's clock
        self._members = members  # members' settings and held DMs
        self._front = front  # who refuses DMs
        self.summarise: Summarise | None = None  # set by the front (bot/table/delivery.py)

    async def plan(self, user_id: int, kind: DmKind, *, held: bool = False) -> Plan:
        """What the member's settings make of a DM of this kind now (`held`: it was held already, for its turn)."""
        if kind is DmKind.ANSWER or user_id <= 0:
            return SEND
        settings = await self._members.member_settings(user_id)
        now = self._reading.now()
        if kind in TURN_KINDS and not held:
            if settings.turn_dms is TurnDms.NEVER:
                return SKIP
            if settings.turn_dms is TurnDms.AFTER:
                return Plan(until=now + timedelta(seconds=settings.turn_dm_wait))
        if kind is DmKind.REMINDER and not settings.reminders:
            return SKIP
        if kind is DmKind.PLAYED_FOR and settings.away_at(now):
            assert settings.away_until is not None
            return Plan(until=settings.away_until, away=True)  # one summary when they are back
        if settings.quiet_hours is not None:
            end = settings.quiet_hours.until(now)
            if end is not None:
                return Plan(until=end)
        return SEND

    async def hold(
        self, user_id: int, text: str, until: datetime, *, game_id: int | None, kind: DmKind, note: str | None = None
    ) -> None:
        """Keep a DM to send at `until`; one about a wait that is over already is dropped. `note`: kept as its
        `wait` instead (what the autopilot played for an away member: the first move it tells)."""
        wait = note
        if kind in WAIT_KINDS and game_id is not None:
            wait = await self._members.seat_wait(game_id, user_id)
            if wait is None:
                return
        await self._members.hold_dm(user_id, game_id, kind, wait, text, until)

    async def dm(
        self,
        user_id: int,
        text: str,
        *,
        game_id: int | None = None,
        kind: DmKind = DmKind.ANSWER,
        note: str | None = None,
    ) -> bool:
        """Send `text` to the user as their settings say (`kind`: what it is); False if they refuse DMs or Discord
        failed, True if it was sent, held for later or left out by the member's choice. Never raises for Discord
        errors.

        Autopilot players (negative ids) are nobody to write to: False.
        """
        if user_id <= 0:
            return False
        plan = await self.plan(user_id, kind)
        if plan.until is not None:
            await self.hold(user_id, text, plan.until, game_id=game_id, kind=kind, note=note if plan.away else None)
            return True
        if not plan.send:
            return True
        return await self.send(user_id, text, game_id=game_id)

    async def release(self, back: int | None = None) -> int:
        """Send the held DMs that are due (or hold them again, in new quiet hours); how many were sent.

        `back`: a member who is back from being away: what the autopilot played for them goes now.
        """
        if back is None:
            due = await self._members.due_dms(self._reading.now())
        else:
            due = [r for r in await self._members.held_dms(back) if r.kind == DmKind.PLAYED_FOR]
        sent = 0
        # what the autopilot played for an away member: one summary per game
        away: dict[tuple[int, int], list[HeldRow]] = {}
        for row in due:
            if row.kind == DmKind.PLAYED_FOR and row.game_id is not None and (row.wait or "").startswith(AWAY_NOTE):
                away.setdefault((row.user_id, row.game_id), []).append(row)
        for (user, game), rows in away.items():
            sent += await self._summary(user, game, rows)
        summed = {r.id for rows in away.values() for r in rows}
        due = [r for r in due if r.id not in summed]
        # of several reminders of one wait, only the last says how much time is left
        last: dict[tuple[int, int | None, str | None], int] = {}
        for row in due:
            if row.kind == DmKind.REMINDER:
                last[(row.user_id, row.game_id, row.wait)] = row.id
        for row in due:
            if not await self._members.take_held_dm(row.id):
                continue  # another process took it
            kind = DmKind(row.kind) if row.kind in set(DmKind) else DmKind.ANSWER
            if kind is DmKind.REMINDER and last.get((row.user_id, row.game_id, row.wait)) != row.id:
                continue
            if row.wait is not None and row.game_id is not None:
                if await self._members.seat_wait(row.game_id, row.user_id) != row.wait:
                    continue  # that turn is over
            plan = await self.plan(row.user_id, kind, held=True)
            if plan.until is not None:
                await self._members.hold_dm(row.user_id, row.game_id, kind, row.wait, row.text, plan.until)
            elif plan.send and await self.send(row.user_id, row.text, game_id=row.game_id):
                sent += 1
        return sent

    async def _summary(self, user: int, game: int, rows: list[HeldRow]) -> int:
        """What the autopilot played for an away member in one game, held in `rows`: sent as one summary (or held
        again, while they are still away or in their quiet hours); 1 if it was sent."""
        taken = [r for r in rows if await self._members.take_held_dm(r.id)]
        if not taken:
            return 0
        first = min(_first_move(r.wait) for r in taken)
        text = None if self.summarise is None else await self.summarise(user, game, first)
        if text is None:
            text = "\n\n".join(r.text for r in taken)[:2000]
        plan = await self.plan(user, DmKind.PLAYED_FOR, held=True)
        if plan.until is not None:
            note = f"{AWAY_NOTE}{first}"
            await self._members.hold_dm(user, game, DmKind.PLAYED_FOR, note, text, plan.until)
            return 0
        return int(plan.send and await self.send(user, text, game_id=game))

    async def send(self, user_id: int, text: str, *, game_id: int | None = None) -> bool:
        """Send `text` to the user now, whatever their settings; False if they refuse DMs or Discord failed."""
        if user_id <= 0:
            return False
        if await self._front.refuses_dms(user_id):
            return False
        try:
            channel = await self._client.create_dm(discord.Object(user_id))
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as exc:
            if exc.code == CANNOT_SEND_TO_USER:
                await self._front.set_refuses_dms(user_id, True)
                log.info("game #%s: user %d does not accept DMs; no more DMs to them", game_id, user_id)
            else:
                log.warning("game #%s: DM to user %d refused (%s)", game_id, user_id, exc.code)
            return False
        except discord.HTTPException as exc:
            log.warning("game #%s: DM to user %d failed (%s %s)", game_id, user_id, exc.status, exc.code)
            return False
        return True
