"""Turn clocks: settings, each seat's wait, deadlines, reserves and the timers that carry them.

Pure functions of the game, the clock as stored and the time; the service
writes what they return in the same transaction as the move or change that
caused it.

A seat *waits* while the engine waits for it (`Game.waiting_for`). A wait has
a key (`wait_key`) that stays the same through the steps of one turn (the two
card draws, a ticket choice, a tunnel) and changes when the turn is over, so
the clock runs per turn, not per step. While choosing starting tickets every
player who has not chosen waits at once, each with their own clock.

Deadline of a wait = its start + the turn time + moderator extensions + what
is left of the seat's reserve. When a wait ends, the time it took beyond the
turn time and the extensions comes out of the reserve. Reminders fall at the
given fractions of the turn time with its extensions, counted from the start
of the wait: all of them come before the turn time is used up. A game with
reminders and a reserve adds two more for a wait that reaches its reserve:
one when the turn time is up and the reserve starts to run, and one when 90%
of the reserve the seat had at the start of the wait is used (`reminder_times`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.service.errors import ClockPart, InvalidInput, Why
from bot.service.kinds import ReminderPhase, TimeoutPolicy, TimerKind
from bot.store import ClockRow, NewTimer, SeatClockRow
from engine import Game, Phase

DEFAULT_TURN_SECONDS = 24 * 3600  # a move a day
DEFAULT_RESERVE_SECONDS = 24 * 3600
DEFAULT_REMINDERS = (0.5, 0.9)
MAX_SECONDS = 366 * 24 * 3600

# from which timeout of the same seat on the moderators are told (and at every one after)
REPORT_TIMEOUTS_FROM = 2


def _seconds(value: object, part: ClockPart, *, zero: bool) -> int:
    low = 0 if zero else 1
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_SECONDS:
        raise InvalidInput(Why.BAD_SECONDS, {"setting": part, "low": low, "high": MAX_SECONDS, "value": value})
    return value


@dataclass(frozen=True)
class ClockSettings:
    """A game's clock. `turn_seconds` None: no clock (no deadlines, no reminders)."""

    turn_seconds: int | None = DEFAULT_TURN_SECONDS
    reserve_seconds: int = DEFAULT_RESERVE_SECONDS  # extra time for the whole game, per seat
    policy: TimeoutPolicy = TimeoutPolicy.AUTOPILOT  # what happens when time runs out (a string is read as one)
    reminders: tuple[float, ...] = DEFAULT_REMINDERS  # fractions of each wait's span

    def __post_init__(self) -> None:
        if self.turn_seconds is not None:
            _seconds(self.turn_seconds, ClockPart.TURN, zero=False)
        _seconds(self.reserve_seconds, ClockPart.RESERVE, zero=True)
        if self.policy not in tuple(TimeoutPolicy):
            raise InvalidInput(Why.BAD_POLICY, {"choices": tuple(TimeoutPolicy), "value": self.policy})
        object.__setattr__(self, "policy", TimeoutPolicy(self.policy))
        fractions = self.reminders
        if not isinstance(fractions, tuple) or not all(
            isinstance(f, (int, float)) and not isinstance(f, bool) and math.isfinite(f) and 0 < f < 1
            for f in fractions
        ):
            raise InvalidInput(Why.BAD_REMINDERS, {"value": fractions})
        if list(fractions) != sorted(set(fractions)):
            raise InvalidInput(Why.UNSORTED_REMINDERS, {"value": fractions})

    @property
    def enabled(self) -> bool:
        return self.turn_seconds is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "turn_seconds": self.turn_seconds,
            "reserve_seconds": self.reserve_seconds,
            "policy": self.policy,
            "reminders": list(self.reminders),
        }

    @classmethod
    def from_json(cls, data: object) -> ClockSettings:
        """Settings as `to_json` wrote them; anything else is InvalidInput."""
        if not isinstance(data, dict):
            raise InvalidInput(Why.BAD_CLOCK_DATA, {"value": data})
        unknown = sorted(set(data) - {"turn_seconds", "reserve_seconds", "policy", "reminders"})
        if unknown:
            raise InvalidInput(Why.UNKNOWN_CLOCK_SETTINGS, {"names": tuple(unknown)})
        reminders = data.get("reminders", list(DEFAULT_REMINDERS))
        if not isinstance(reminders, (list, tuple)):
            raise InvalidInput(Why.REMINDERS_NOT_A_LIST, {"value": reminders})
        return cls(
            turn_seconds=data.get("turn_seconds", DEFAULT_TURN_SECONDS),
            reserve_seconds=data.get("reserve_seconds", DEFAULT_RESERVE_SECONDS),
            policy=data.get("policy", TimeoutPolicy.AUTOPILOT),
            reminders=tuple(reminders),
        )

    @classmethod
    def of_options(cls, options: dict[str, Any]) -> ClockSettings:
        """A game's clock from its stored options; games from before clocks existed have none."""
        stored = options.get("clock")
        return NO_CLOCK if stored is None else cls.from_json(stored)


NO_CLOCK = ClockSettings(turn_seconds=None, reserve_seconds=0, reminders=())


def wait_key(game: Game, seat: int) -> str | None:
    """Which wait the seat is in, or None if the engine does not wait for it."""
    return _wait_key(game, game.names[seat] in game.waiting_for())


def _wait_key(game: Game, waited_for: bool) -> str | None:
    if not waited_for:
        return None
    s = game.state
    if s.phase is Phase.SETUP_KEEP:
        return "keep"
    if s.phase is Phase.SETUP_PLACE:
        return f"place:{s.placements}"
    return f"turn:{s.turn}"


def reserve_left(settings: ClockSettings, c: SeatClockRow) -> float:
    return max(0.0, float(settings.reserve_seconds) - float(c.reserve_used))


def deadline(settings: ClockSettings, c: SeatClockRow) -> datetime | None:
    """When the seat's current wait runs out (with the reserve), or None (no clock, or not waiting)."""
    if settings.turn_seconds is None or c.wait is None or c.since is None:
        return None
    total = settings.turn_seconds + float(c.extra_seconds) + reserve_left(settings, c)
    since: datetime = c.since
    return since + timedelta(seconds=total)


def _finish(settings: ClockSettings, c: SeatClockRow, now: datetime) -> SeatClockRow:
    """The wait is over: book the reserve it used."""
    used = c.reserve_used
    if settings.turn_seconds is not None and c.since is not None:
        over = (now - c.since).total_seconds() - settings.turn_seconds - c.extra_seconds
        used += min(max(over, 0.0), reserve_left(settings, c))
    return replace(c, wait=None, since=None, extra_seconds=0.0, reminded=0, timed_out=False, reserve_used=used)


def advance(
    settings: ClockSettings,
    clock: ClockRow,
    game: Game,
    now: datetime,
    *,
    active: bool = True,
    restart: Sequence[int] = (),
) -> ClockRow:
    """The clock after the game reached this state at `now`: waits that go on, end, or begin.

    Seats in `restart` begin a fresh wait if they wait (a new player in the
    seat, a seat given back by the autopilot). While paused, a wait ends with
    the time up to the pause.
    """
    at = now if clock.paused_at is None else min(now, clock.paused_at)
    waiting = set(game.waiting_for()) if active else set()
    seats = []
    for seat, name in enumerate(game.names):
        c = clock.seat(seat)
        key = _wait_key(game, name in waiting)
        if key is not None and key == c.wait and seat not in restart:
            seats.append(c)
            continue
        if c.wait is not None:
            c = _finish(settings, c, at)
        if key is not None:
            c = replace(c, wait=key, since=now, extra_seconds=0.0, reminded=0, timed_out=False)
        seats.append(c)
    if len(seats) == len(clock.seats) and all(a is b for a, b in zip(seats, clock.seats, strict=True)):
        return clock  # every wait goes on as it was (the usual case for the game as committed)
    return replace(clock, seats=tuple(seats))


def resumed(clock: ClockRow, now: datetime) -> ClockRow:
    """The clock running again: every wait moves on by the time it spent paused."""
    if clock.paused_at is None:
        return clock
    seats = []
    for c in clock.seats:
        if c.since is not None:
            paused = now - max(clock.paused_at, c.since)
            c = replace(c, since=c.since + max(paused, timedelta(0)))
        seats.append(c)
    return replace(clock, paused_at=None, paused_by=None, seats=tuple(seats))


def forgiven(clock: ClockRow, outage: timedelta) -> ClockRow:
    """The clock after the bot was down for `outage`: every wait moves on by it (a paused clock stands still)."""
    if clock.paused_at is not None:
        return clock
    seats = tuple(c if c.since is None else replace(c, since=c.since + outage) for c in clock.seats)
    return replace(clock, seats=seats)


def reminder_span(settings: ClockSettings, c: SeatClockRow) -> timedelta:
    """What the reminders' fractions are of: the turn time and the moderators' extensions of this wait."""
    return timedelta(seconds=(settings.turn_seconds or 0) + float(c.extra_seconds))


RESERVE_USED_REMINDER = 0.9  # the reserve's last reminder: when this share of it is used


def reminder_times(settings: ClockSettings, c: SeatClockRow) -> list[datetime]:
    """When each reminder of the seat's wait falls (by index): the game's fractions of the turn time, then, with
    reminders and a reserve, the reserve's start and the moment 90% of it is used."""
    if c.since is None:
        return []
    span = reminder_span(settings, c)
    times = [c.since + span * fraction for fraction in settings.reminders]
    reserve = reserve_left(settings, c)
    if settings.reminders and reserve > 0:
        times.append(c.since + span)
        times.append(c.since + span + timedelta(seconds=reserve * RESERVE_USED_REMINDER))
    return times


def reminder_phase(settings: ClockSettings, index: int) -> ReminderPhase:
    """What a reminder (by index) says: the turn time runs out, the reserve starts, the reserve runs out."""
    extra = index - len(settings.reminders)
    if extra < 0:
        return ReminderPhase.TURN
    return ReminderPhase.RESERVE_STARTS if extra == 0 else ReminderPhase.RESERVE_ENDS


def owed_reminder(settings: ClockSettings, c: SeatClockRow, now: datetime) -> int | None:
    """The last reminder of the seat's wait that fell due by `now` and was not sent (None: none is owed)."""
    end = deadline(settings, c)
    if end is None or c.since is None or c.timed_out:
        return None
    owed = None
    for index, at in enumerate(reminder_times(settings, c)):
        if index >= c.reminded and at < end and at <= now:
            owed = index
    return owed


def needs_autopilot(settings: ClockSettings, c: SeatClockRow, autopilot_seat: bool) -> bool:
    """Must the autopilot act for this waiting seat now?"""
    return c.wait is not None and (autopilot_seat or (c.timed_out and settings.policy is TimeoutPolicy.AUTOPILOT))


def timers(
    settings: ClockSettings,
    clock: ClockRow,
    autopilot_seats: Sequence[bool],
    now: datetime,
    *,
    active: bool = True,
    owed: Mapping[int, int] | None = None,
) -> list[NewTimer]:
    """Every timer the game needs now; they replace all its timers.

    Autopilot seats get a timer due at once: the service plays them straight
    away, and the timer only matters if it could not (a crash in between).
    `owed`: seat -> a reminder (index) that fell due while the bot was down;
    it is due at once, and the ones before it are not sent.
    """
    if not active or clock.paused_at is not None:
        return []
    out: list[NewTimer] = []
    for c in clock.seats:
        if c.wait is None:
            continue
        data: dict[str, Any] = {"seat": c.seat, "wait": c.wait}
        if needs_autopilot(settings, c, autopilot_seats[c.seat]):
            out.append(NewTimer(TimerKind.AUTOPILOT, now, data))
            continue
        end = deadline(settings, c)
        if end is None or c.timed_out or c.since is None:
            continue  # no clock, or out of time and waiting for a moderator
        out.append(NewTimer(TimerKind.DEADLINE, end, data))
        due: NewTimer | None = None  # at most one reminder that is due already (no flood after an extension)
        owe = None if owed is None else owed.get(c.seat)
        for index, at in enumerate(reminder_times(settings, c)):
            if index < c.reminded:
                continue
            if owe is not None and index <= owe:
                if index == owe:
                    due = NewTimer(TimerKind.REMINDER, now, data | {"index": index})
                continue
            if at >= end:
                continue
            timer = NewTimer(TimerKind.REMINDER, at, data | {"index": index})
            if at <= now:
                due = timer
            else:
                out.append(timer)
        if due is not None:
            out.append(due)
    return sorted(out, key=lambda t: t.deadline)


def extended(settings: ClockSettings, clock: ClockRow, seat: int, seconds: int, now: datetime) -> ClockRow:
    """The seat's deadline moved `seconds` past the later of the deadline and now; a timed-out wait runs again."""
    c = clock.seat(seat)
    end = deadline(settings, c)
    if end is None:
        return clock
    base = now if clock.paused_at is None else clock.paused_at
    extra = (max(end, base) + timedelta(seconds=seconds) - end).total_seconds()
    updated = replace(c, extra_seconds=c.extra_seconds + extra, timed_out=False)
    return replace(clock, seats=tuple(updated if s.seat == seat else s for s in clock.seats))


def with_seat(clock: ClockRow, c: SeatClockRow) -> ClockRow:
    seats = [s for s in clock.seats if s.seat != c.seat] + [c]
    return replace(clock, seats=tuple(sorted(seats, key=lambda s: s.seat)))
