"""Turn clocks in words: what a clock says (durations people type are read in bot/table/parsing.py).

Pure functions, no Discord calls. Times are shown as Discord timestamps
(`<t:UNIX:R>`), which every reader sees in their own time zone and language.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.service.clock import AUTOPILOT, ClockSettings, duration_text


def timestamp(moment: datetime | str, style: str = "R") -> str:
    """A Discord timestamp: `<t:UNIX:R>` reads "in 3 hours" for everyone, in their own language."""
    when = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    return f"<t:{int(when.timestamp())}:{style}>"


def policy_text(policy: str) -> str:
    return "the autopilot plays the turn" if policy == AUTOPILOT else "the game waits for a moderator"


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


def status_lines(status: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """The clock part of `/ttr status`, from `GameService.clock_status`; `names`: seat -> how to call the player."""
    settings = ClockSettings.from_json(status["settings"])
    if not settings.enabled:
        return ["**Clock:** none (no time limit)."]
    lines = [f"**Clock:** {clock_summary(settings)}."]
    if status["paused"]:
        since = f" since {timestamp(status['paused_at'])}" if status.get("paused_at") else ""
        lines.append(f"\N{DOUBLE VERTICAL BAR} **Paused** by a moderator{since}: no clock runs, no move can be made.")
    reserves = []
    for seat in status["seats"]:
        name = names.get(seat["seat"], seat["player"])
        if seat["waiting_for_moderator"]:
            lines.append(f"{name}: time ran out; the game waits for a moderator (the move can still be made).")
        elif seat["waiting"] and seat["deadline"] and not status["paused"]:
            lines.append(f"{name}: deadline {timestamp(seat['deadline'])} (reserve included).")
        if seat["reserve_left"] is not None and not seat["autopilot"]:
            reserves.append(f"{name} {duration_text(seat['reserve_left'])}")
    if reserves and settings.reserve_seconds:
        lines.append(f"Reserve left: {', '.join(reserves)}.")
    return lines
