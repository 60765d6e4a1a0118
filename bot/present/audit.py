"""The moderators' log file in words: who did what and when, a line per move, move taken back or audit entry."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from bot.present.events import public_text
from bot.service import Actor, AuditAction, GameInfo, LogEntry, LogKind

AUDIT_TEXTS = {
    AuditAction.PAUSE: "paused the game",
    AuditAction.RESUME: "resumed the game",
    AuditAction.EXTEND: "extended the time",
    AuditAction.REPLACE: "gave a seat to another member",
    AuditAction.AUTOPILOT: "changed who plays a seat",
    AuditAction.UNDO: "took moves back",
    AuditAction.END: "ended the game",
    AuditAction.CANCEL: "cancelled the game",
    AuditAction.TIMEOUT: "time ran out",
    AuditAction.READ_LOG: "read the log",
    AuditAction.EXPORT: "exported the record",
    AuditAction.OUTAGE: "the bot was offline",
}


def audit_text(action: AuditAction, details: Mapping[str, Any], reason: str) -> str:
    """An audit entry in words, from the details it was stored with."""
    base = AUDIT_TEXTS[action]
    if action is AuditAction.EXTEND:
        base = f"extended {details.get('player', 'the time')} by {details.get('seconds')} s"
    elif action is AuditAction.REPLACE:
        base = (
            f"gave {details.get('player')}'s seat from user {details.get('from_user_id')} "
            f"to user {details.get('to_user_id')} ({details.get('to_name')})"
        )
    elif action is AuditAction.AUTOPILOT:
        state = "to the autopilot" if details.get("on") else "back from the autopilot"
        base = f"handed {details.get('player')}'s seat {state}"
    elif action is AuditAction.UNDO:
        base = f"took back {details.get('moves')} move(s), from {details.get('from')} to {details.get('to')}"
    elif action is AuditAction.END:
        base = "ended the game with scoring" if details.get("score") else "abandoned the game without a result"
    elif action is AuditAction.OUTAGE:
        return f"the bot was offline for {details.get('seconds')} s; the running clocks moved on by that much"
    elif action is AuditAction.TIMEOUT:
        return (
            f"{details.get('player')} ran out of time (timeout {details.get('timeouts')}; "
            f"policy {details.get('policy')})"
        )
    return f"{base} - {reason}" if reason else base


def log_actor(entry: LogEntry) -> str:
    """Who, for people: "ann", "the autopilot for ann", "moderator <@123>", "the clock"."""
    if entry.actor is None:
        return "the clock" if entry.user_id is None else f"moderator <@{entry.user_id}>"
    if entry.actor is Actor.AUTOPILOT:
        return f"the autopilot for {entry.player}"
    if entry.actor is Actor.TIMEOUT:
        return f"the autopilot for {entry.player} (time ran out)"
    return f"{entry.player}" if entry.user_id is None else f"{entry.player} (<@{entry.user_id}>)"


def _what(info: GameInfo, entry: LogEntry) -> str:
    if entry.kind is LogKind.MOVE:
        return " ".join(public_text(info, e) for e in entry.events)
    if entry.kind is LogKind.UNDONE_MOVE:
        return f"move {entry.data['index']} (later taken back): {entry.move}"
    return audit_text(entry.kind, entry.data, entry.reason)


def log_line(info: GameInfo, entry: LogEntry) -> str:
    stamp = entry.at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{stamp} | {log_actor(entry)} | {_what(info, entry)}"


def log_text(info: GameInfo, entries: Collection[LogEntry]) -> str:
    """The whole log of the game `info` as text, one entry a line (to attach as a file)."""
    return "\n".join(log_line(info, e) for e in entries) + ("\n" if entries else "")
