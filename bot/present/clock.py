"""Turn clocks in words: what a clock says (durations people type are read in bot/table/parsing.py).

Pure functions, no Discord calls. Times are shown as Discord timestamps
(`<t:UNIX:R>`), which every reader sees in their own time zone and language.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.present.escape import shown
from bot.service import ClockSettings, ClockStatus, Reminder, TimeoutPolicy
from bot.service.events import Outage


def duration_text(seconds: float) -> str:
    """A duration for people: "2 d 3 h", "5 h 20 min", "12 min", "40 s"."""
    total = max(0, round(seconds))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


def time_left(deadline: datetime, now: datetime) -> str:
    return duration_text((deadline - now).total_seconds())


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: `<t:UNIX:R>` reads "in 3 hours" for everyone, in their own language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def policy_text(policy: TimeoutPolicy) -> str:
    if policy is TimeoutPolicy.AUTOPILOT:
        return "the autopilot plays the turn"
    return "the game waits for a moderator"


def clock_summary(clock: ClockSettings) -> str:
    """A game's clock in one phrase: "12 h per turn, 1 d reserve each; at the end of the time the autopilot plays"."""
    if clock.turn_seconds is None:
        return "no turn clock"
    reserve = f"{duration_text(clock.reserve_seconds)} reserve each" if clock.reserve_seconds else "no reserve"
    return f"{duration_text(clock.turn_seconds)} per turn, {reserve}; when time runs out, {policy_text(clock.policy)}"


def settings_text(clock: ClockSettings) -> str:
    """A server's clock defaults, as `/ttr config` shows them."""
    if clock.turn_seconds is None:
        return "no turn clock"
    if not clock.reminders:
        return f"{clock_summary(clock)}; no reminders"
    reminders = ", ".join(f"{round(f * 100)}%" for f in clock.reminders)
    return f"{clock_summary(clock)}; reminders at {reminders} of the time"


def status_lines(status: ClockStatus, names: Mapping[int, str]) -> list[str]:
    """The clock part of `/ttr status`; `names`: seat -> how to call the player."""
    settings = status.settings
    if not settings.enabled:
        return ["**Clock:** none (no time limit)."]
    lines = [f"**Clock:** {clock_summary(settings)}."]
    if status.paused:
        since = f" since {timestamp(status.paused_at)}" if status.paused_at else ""
        lines.append(f"\N{DOUBLE VERTICAL BAR} **Paused** by a moderator{since}: no clock runs, no move can be made.")
    reserves = []
    for seat in status.seats:
        name = shown(names.get(seat.seat, seat.player or ""))
        if seat.waiting_for_moderator:
            lines.append(f"{name}: time ran out; the game waits for a moderator (the move can still be made).")
        elif seat.waiting and seat.deadline and not status.paused:
            lines.append(f"{name}: deadline {timestamp(seat.deadline)} (reserve included).")
        if seat.reserve_left is not None and not seat.autopilot:
            reserves.append(f"{name} {duration_text(seat.reserve_left)}")
    if reserves and settings.reserve_seconds:
        lines.append(f"Reserve left: {', '.join(reserves)}.")
    return lines


def reminder_text(reminder: Reminder) -> str:
    """A reminder that a member's time runs out."""
    info = reminder.game
    left = "" if reminder.deadline is None else f" Time left: {time_left(reminder.deadline, reminder.at)}."
    reserve = " Your turn time is up: you are using your reserve." if reminder.turn_over else ""
    if reminder.policy is TimeoutPolicy.AUTOPILOT:
        then = "the autopilot plays for you"
    else:
        then = "a moderator is called"
    return (
        f"Reminder: it is your turn in game #{info.id} ({info.title}).{left}{reserve} When the time runs out, {then}."
    )


def outage_text(outage: Outage) -> str:
    """The note on the next stage message after the bot was down: nobody's clock ran meanwhile."""
    return (
        f"\N{ALARM CLOCK} The bot was offline for {duration_text(outage.seconds)}; "
        "the clocks were moved on by that much."
    )


CLOCK_MARKS = ("\N{ALARM CLOCK}", "\N{DOUBLE VERTICAL BAR}", "\N{HOURGLASS}")  # how a clock line starts


def paused_line() -> str:
    """The clock line of a stage message while a moderator has paused the game."""
    return "\N{DOUBLE VERTICAL BAR} **Paused** by a moderator: no clock runs and no move can be made."


def out_of_time_line() -> str:
    """The clock line when time ran out and the game waits for a moderator."""
    return "\N{HOURGLASS} Time ran out: the game waits for a moderator (the move can still be made)."


def deadline_line(deadline: datetime) -> str:
    """The clock line with the nearest deadline."""
    return f"\N{ALARM CLOCK} Deadline {timestamp(deadline)} (reserve included)."
