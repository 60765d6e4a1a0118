"""Turn clocks in words: what a clock says (durations people type are read in bot/table/parsing.py).

Pure functions, no Discord calls. Times are shown as Discord timestamps
(`<t:UNIX:R>`), which every reader sees in their own time zone and language.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.present.escape import shown
from bot.present.i18n import _
from bot.present.layout import clip
from bot.present.names import map_title_of
from bot.service import ClockSettings, ClockStatus, Reminder, TimeoutPolicy
from bot.service.events import Outage
from bot.service.kinds import ReminderPhase


def duration_text(seconds: float) -> str:
    """A duration for people: "2 d 3 h", "5 h 20 min", "12 min", "40 s"."""
    total = max(0, round(seconds))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        if hours:
            return _("{days} d {hours} h").format(days=days, hours=hours)
        return _("{days} d").format(days=days)
    if hours:
        if minutes:
            return _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
        return _("{hours} h").format(hours=hours)
    if minutes:
        return _("{minutes} min").format(minutes=minutes)
    return _("{seconds} s").format(seconds=secs)


def time_left(deadline: datetime, now: datetime) -> str:
    return duration_text((deadline - now).total_seconds())


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: `<t:UNIX:R>` reads "in 3 hours" for everyone, in their own language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def policy_text(policy: TimeoutPolicy) -> str:
    if policy is TimeoutPolicy.AUTOPILOT:
        return _("the autopilot plays the turn")
    return _("the game waits for a moderator")


def clock_summary(clock: ClockSettings) -> str:
    """A game's clock in one phrase: "12 h per turn, 1 d reserve each; at the end of the time the autopilot plays"."""
    if clock.turn_seconds is None:
        return _("no turn clock")
    if clock.reserve_seconds:
        reserve = _("{duration} reserve each").format(duration=duration_text(clock.reserve_seconds))
    else:
        reserve = _("no reserve")
    return _("{duration} per turn, {reserve}; when time runs out, {policy}").format(
        duration=duration_text(clock.turn_seconds), reserve=reserve, policy=policy_text(clock.policy)
    )


def settings_text(clock: ClockSettings) -> str:
    """A server's clock defaults, as `/ttr config` shows them."""
    if clock.turn_seconds is None:
        return _("no turn clock")
    if not clock.reminders:
        return _("{clock}; no reminders").format(clock=clock_summary(clock))
    reminders = ", ".join(f"{round(f * 100)}%" for f in clock.reminders)
    return _("{clock}; reminders at {reminders} of the time").format(clock=clock_summary(clock), reminders=reminders)


def status_lines(status: ClockStatus, names: Mapping[int, str]) -> list[str]:
    """The clock part of `/ttr status`; `names`: seat -> how to call the player."""
    settings = status.settings
    if not settings.enabled:
        return [_("**Clock:** none (no time limit).")]
    lines = [_("**Clock:** {clock}.").format(clock=clock_summary(settings))]
    if status.paused:
        if status.paused_at:
            paused = _("**Paused** by a moderator since {time}: no clock runs, no move can be made.").format(
                time=timestamp(status.paused_at)
            )
        else:
            paused = _("**Paused** by a moderator: no clock runs, no move can be made.")
        lines.append(f"\N{DOUBLE VERTICAL BAR} {paused}")
    reserves = []
    for seat in status.seats:
        name = shown(names.get(seat.seat, seat.player or ""))
        if seat.waiting_for_moderator:
            lines.append(
                _("{name}: time ran out; the game waits for a moderator (the move can still be made).").format(
                    name=name
                )
            )
        elif seat.waiting and seat.deadline and not status.paused:
            lines.append(
                _("{name}: deadline {time} (reserve included).").format(name=name, time=timestamp(seat.deadline))
            )
        if seat.reserve_left is not None and not seat.autopilot:
            reserves.append(f"{name} {duration_text(seat.reserve_left)}")
    if reserves and settings.reserve_seconds:
        lines.append(_("Reserve left: {reserves}.").format(reserves=", ".join(reserves)))
    return lines


def reminder_text(reminder: Reminder) -> str:
    """A reminder that a member's time runs out (the turn time, or the reserve when it starts and near its end)."""
    info = reminder.game
    parts = [_("Reminder: it is your turn in game #{id} ({title}).").format(id=info.id, title=map_title_of(info.title))]
    if reminder.phase is ReminderPhase.RESERVE_STARTS:
        parts.append(_("Your turn time is up: your reserve runs from now on."))
    elif reminder.phase is ReminderPhase.RESERVE_ENDS:
        parts.append(_("Your reserve runs out soon."))
    elif reminder.turn_over:
        parts.append(_("Your turn time is up: you are using your reserve."))
    if reminder.deadline is not None:
        parts.append(_("Time left: {duration}.").format(duration=time_left(reminder.deadline, reminder.at)))
    if reminder.policy is TimeoutPolicy.AUTOPILOT:
        parts.append(_("When the time runs out, the autopilot plays for you."))
    else:
        parts.append(_("When the time runs out, a moderator is called."))
    return " ".join(parts)


def outage_text(outage: Outage) -> str:
    """The note on the next stage message after the bot was down: nobody's clock ran meanwhile."""
    said = _("The bot was offline for {duration}; the clocks were moved on by that much.").format(
        duration=duration_text(outage.seconds)
    )
    return f"\N{ALARM CLOCK} {said}"


CLOCK_MARKS = ("\N{ALARM CLOCK}", "\N{DOUBLE VERTICAL BAR}", "\N{HOURGLASS}")  # how a clock line starts


def paused_line() -> str:
    """The clock line of a stage message while a moderator has paused the game."""
    return "\N{DOUBLE VERTICAL BAR} " + _("**Paused** by a moderator: no clock runs and no move can be made.")


def out_of_time_line() -> str:
    """The clock line when time ran out and the game waits for a moderator."""
    return "\N{HOURGLASS} " + _("Time ran out: the game waits for a moderator (the move can still be made).")


def deadline_line(deadline: datetime) -> str:
    """The clock line with the nearest deadline."""
    return "\N{ALARM CLOCK} " + _("Deadline {time} (reserve included).").format(time=timestamp(deadline))


def with_clock(text: str, line: str) -> str:
    """A stage's words with the clock's line brought up to date (`line`; empty: none)."""
    lines = [x for x in text.split("\n") if not x.startswith(CLOCK_MARKS)]
    if line:
        lines.append(line)
    return clip("\n".join(lines))
