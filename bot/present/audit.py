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
from bot.present.i18n import N_, _
from bot.present.outline import move_sentence
from bot.service import Actor, AuditAction, GameInfo, LogEntry, LogKind
from maps import load_board

# translated where they are written (`_(AUDIT_TEXTS[action])`)
AUDIT_TEXTS = {
    AuditAction.PAUSE: N_("paused the game"),
    AuditAction.RESUME: N_("resumed the game"),
    AuditAction.EXTEND: N_("extended the time"),
    AuditAction.REPLACE: N_("gave a seat to another member"),
    AuditAction.AUTOPILOT: N_("changed who plays a seat"),
    AuditAction.UNDO: N_("took moves back"),
    AuditAction.END: N_("ended the game"),
    AuditAction.REOPEN: N_("reopened the game"),
    AuditAction.CANCEL: N_("cancelled the game"),
    AuditAction.TIMEOUT: N_("time ran out"),
    AuditAction.READ_LOG: N_("read the log"),
    AuditAction.EXPORT: N_("exported the record"),
    AuditAction.OUTAGE: N_("the bot was offline"),
}


def audit_text(action: AuditAction, details: Mapping[str, Any], reason: str) -> str:
    """An audit entry in words, from the details it was stored with."""
    base = _(AUDIT_TEXTS[action])
    if action is AuditAction.EXTEND:
        seconds = duration_text(float(details.get("seconds", 0)))
        if "player" in details:
            base = _("extended {player} by {duration}").format(player=details.get("player"), duration=seconds)
        else:
            base = _("extended the time by {duration}").format(duration=seconds)
    elif action is AuditAction.REPLACE:
        base = _("gave {player}'s seat from {old} to {new}").format(
            player=details.get("player"), old=details.get("from_name"), new=details.get("to_name")
        )
    elif action is AuditAction.AUTOPILOT:
        if details.get("on"):
            base = _("handed {player}'s seat to the autopilot").format(player=details.get("player"))
        else:
            base = _("handed {player}'s seat back from the autopilot").format(player=details.get("player"))
    elif action is AuditAction.UNDO:
        base = _("took back {count} move(s), from {before} to {after}").format(
            count=details.get("moves"), before=details.get("from"), after=details.get("to")
        )
    elif action is AuditAction.END:
        base = _("ended the game with scoring") if details.get("score") else _("abandoned the game without a result")
    elif action is AuditAction.OUTAGE:
        return _("the bot was offline for {seconds} s; the running clocks moved on by that much").format(
            seconds=details.get("seconds")
        )
    elif action is AuditAction.TIMEOUT:
        return _("{player} ran out of time (timeout {count}; policy {policy})").format(
            player=details.get("player"), count=details.get("timeouts"), policy=details.get("policy")
        )
    return f"{base} - {reason}" if reason else base


def member(user_id: int, names: Mapping[int, str]) -> str:
    """A member by name (`names`: user id -> display name), "user 123" when the name is not known."""
    return names.get(user_id) or _("user {id}").format(id=user_id)


def log_actor(entry: LogEntry, names: Mapping[int, str] | None = None) -> str:
    """Who, for people: "ann", "ann (Ann B.)", "the autopilot for ann", "moderator Mo", "the clock"."""
    names = names or {}
    if entry.actor is None:
        if entry.user_id is None:
            return _("the clock")
        return _("moderator {name}").format(name=member(entry.user_id, names))
    if entry.actor is Actor.AUTOPILOT:
        return _("the autopilot for {player}").format(player=entry.player)
    if entry.actor is Actor.TIMEOUT:
        return _("the autopilot for {player} (time ran out)").format(player=entry.player)
    if entry.user_id is None:
        return f"{entry.player}"
    name = member(entry.user_id, names)
    return f"{entry.player}" if name == entry.player else f"{entry.player} ({name})"


def _what(info: GameInfo, entry: LogEntry) -> str:
    if entry.kind is LogKind.MOVE:
        return " ".join(public_text(info, e) for e in entry.events)
    if entry.kind is LogKind.UNDONE_MOVE:
        told = _("a move") if entry.undone is None else move_sentence(load_board(info.map).rules, entry.undone)
        return _("move {index} (later taken back): {move}").format(index=entry.data["index"], move=told)
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
