"""Turn clocks in words: durations people type ("12h", "2d", "1d 12h", "none"), and what a clock says.

Pure functions, no Discord calls. Times are shown as Discord timestamps
(`<t:UNIX:R>`), which every reader sees in their own time zone and language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from bot.service import ClockSettings, ClockStatus, Reminder, TimeoutPolicy
from bot.service.clock import MAX_SECONDS

UNITS = {
    "w": 7 * 86400,
    "week": 7 * 86400,
    "weeks": 7 * 86400,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
}
NONE_WORDS = {"none", "no", "off", "0", "never", "no clock"}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")
# what the duration options suggest (Discord lets people type anything else too)
SUGGESTED = ("30m", "1h", "6h", "12h", "1d", "2d", "3d", "7d")
EXAMPLE = '"12h", "2d", "30m" or "1d 12h"'


class DurationError(ValueError):
    """A duration that cannot be read; the message says how to write one."""


def parse_duration(text: str, *, what: str = "the duration", zero: str | None = None) -> int | None:
    """Seconds of a duration like "12h", "2d", "1d 12h", "90 min"; None for "none" (or "0", "off").

    `zero`: what "none" means, for the error message only.
    """
    cleaned = " ".join(text.casefold().replace(",", " ").split())
    if cleaned in NONE_WORDS:
        return None
    compact = cleaned.replace(" ", "")
    parts = _PART.findall(cleaned)
    if not parts or "".join(f"{n}{u}" for n, u in parts) != compact:
        raise DurationError(_hint(text, what, zero))
    total = 0.0
    for number, unit in parts:
        if unit not in UNITS:
            raise DurationError(_hint(text, what, zero))
        total += float(number) * UNITS[unit]
    seconds = round(total)
    if not 0 < seconds <= MAX_SECONDS:
        raise DurationError(f"{what.capitalize()} must be from 1 second to 366 days, not {text.strip()!r}.")
    return seconds


def parse_reminders(text: str) -> list[float]:
    """When to remind, as fractions of a turn: "50% 90%" (or "50 90", "0.5, 0.9") -> [0.5, 0.9]; "none" -> []."""
    cleaned = text.casefold().replace(",", " ").replace("%", " % ").split()
    if not cleaned or " ".join(cleaned) in NONE_WORDS:
        return []
    fractions: list[float] = []
    for word in cleaned:
        if word == "%":
            continue
        try:
            value = float(word)
        except ValueError:
            raise DurationError(
                f'I cannot read {text.strip()!r} as reminders. Write the moments as parts of the turn, like "50% 90%", '
                'or "none".'
            ) from None
        fraction = value / 100 if value >= 1 else value
        if not 0 < fraction < 1:
            raise DurationError(f"A reminder must fall within the turn (between 0% and 100%), not {word!r}.")
        fractions.append(round(fraction, 4))
    return sorted(set(fractions))


def _hint(text: str, what: str, zero: str | None) -> str:
    none = f', or "none" for {zero}' if zero else ""
    return f"I cannot read {text.strip()!r} as {what}. Write it like {EXAMPLE}{none}."


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
        name = names.get(seat.seat, seat.player or "")
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
