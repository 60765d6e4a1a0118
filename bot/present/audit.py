"""The moderators' log file in words: who did what and when, a line per move, move taken back or audit entry.

It is a text file, not a Discord message: names are written as typed (no
markdown escapes, no mentions), members by name, durations as "12 h", and
moves taken back as moves, never with the cards or tickets they hid.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from bot.present.clock import duration_text
from bot.present.escape import plain_text
from bot.present.events import public_text
from bot.present.outline import move_sentence
from bot.service import Actor, AuditAction, GameInfo, LogEntry, LogKind
from maps import load_board

AUDIT_TEXTS = {
    AuditAction.PAUSE: "paused the game",
    AuditAction.RESUME: "resumed the game",
    AuditAction.EXTEND: "extended the time",
    AuditAction.REPLACE: "gave a seat to another member",
    AuditAction.AUTOPILOT: "changed who plays a seat",
    AuditAction.UNDO: "took moves back",
    AuditAction.END: "ended the game",
    AuditAction.REOPEN: "reopened the game",
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
        base = f"extended {details.get('player', 'the time')} by {duration_text(float(details.get('seconds', 0)))}"
    elif action is AuditAction.REPLACE:
        base = f"gave {details.get('player')}'s seat from {details.get('from_name')} to {details.get('to_name')}"
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


def member(user_id: int, names: Mapping[int, str]) -> str:
    """A member by name (`names`: user id -> display name), "user 123" when the name is not known."""
    return names.get(user_id) or f"user {user_id}"


def log_actor(entry: LogEntry, names: Mapping[int, str] | None = None) -> str:
    """Who, for people: "ann", "ann (Ann B.)", "the autopilot for ann", "moderator Mo", "the clock"."""
    names = names or {}
    if entry.actor is None:
        return "the clock" if entry.user_id is None else f"moderator {member(entry.user_id, names)}"
    if entry.actor is Actor.AUTOPILOT:
        return f"the autopilot for {entry.player}"
    if entry.actor is Actor.TIMEOUT:
        return f"the autopilot for {entry.player} (time ran out)"
    if entry.user_id is None:
        return f"{entry.player}"
    name = member(entry.user_id, names)
    return f"{entry.player}" if name == entry.player else f"{entry.player} ({name})"


def _what(info: GameInfo, entry: LogEntry) -> str:
    if entry.kind is LogKind.MOVE:
        return " ".join(public_text(info, e) for e in entry.events)
    if entry.kind is LogKind.UNDONE_MOVE:
        told = "a move" if entry.undone is None else move_sentence(load_board(info.map).rules, entry.undone)
        return f"move {entry.data['index']} (later taken back): {told}"
    return audit_text(entry.kind, entry.data, entry.reason)


def log_line(info: GameInfo, entry: LogEntry, names: Mapping[int, str]) -> str:
    stamp = entry.at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{stamp} | {log_actor(entry, names)} | {_what(info, entry)}"


def log_text(info: GameInfo, entries: Collection[LogEntry], names: Mapping[int, str] | None = None) -> str:
    """The whole log of the game `info` as plain text, one entry a line (to attach as a file).

    `names`: the display names of the members in it, by user id (a seat's member is known from `info`).
    """
    known = {s.user_id: s.display_name for s in info.seats} | dict(names or {})
    with plain_text():
        lines = [log_line(info, e, known) for e in entries]
    return "\n".join(lines) + ("\n" if lines else "")
