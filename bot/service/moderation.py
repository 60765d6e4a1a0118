"""Moderation: who may moderate, each server's settings, and the texts of the audit trail.

The service methods themselves (`pause`, `resume`, `extend`, `replace`,
`set_autopilot`, `undo`, `end`, `log`) are on `GameService`; they take the
moderator's user id and a reason, store both in the audit log, and return a
line for the moderators' log channel. Whether someone is a moderator is the
front end's question (Discord: Manage Server, or the server's moderator role);
`may_moderate` answers it from the server's settings.

Server settings (guild_settings keys, JSON values):
- `moderator_role_id`: members with this role may moderate (besides Manage Server)
- `mod_log_channel_id`: where moderator actions and repeated timeouts are posted
- `turn_seconds`: the default turn time of new games; 0 = no clock
- `reserve_seconds`: the default reserve per player for a whole game
- `timeout_policy`: "autopilot" (it plays the turn) or "wait" (for a moderator)
- `reminders`: fractions of a turn at which to remind, like [0.5, 0.9]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.service.clock import (
    AUTOPILOT,
    DEFAULT_REMINDERS,
    DEFAULT_RESERVE_SECONDS,
    DEFAULT_TURN_SECONDS,
    ClockSettings,
)
from bot.service.errors import InvalidInput
from bot.service.models import GameInfo

MODERATOR_ROLE = "moderator_role_id"
MOD_LOG_CHANNEL = "mod_log_channel_id"
TURN_SECONDS = "turn_seconds"
RESERVE_SECONDS = "reserve_seconds"
TIMEOUT_POLICY = "timeout_policy"
REMINDERS = "reminders"
GUILD_KEYS = (MODERATOR_ROLE, MOD_LOG_CHANNEL, TURN_SECONDS, RESERVE_SECONDS, TIMEOUT_POLICY, REMINDERS)

MAX_REASON = 500
MAX_ID = 2**63 - 1


@dataclass(frozen=True)
class GuildConfig:
    guild_id: int
    moderator_role_id: int | None = None
    mod_log_channel_id: int | None = None
    clock: ClockSettings = field(default_factory=ClockSettings)  # the default for new games

    @classmethod
    def of(cls, guild_id: int, settings: Mapping[str, Any]) -> GuildConfig:
        """The config from stored settings; a stored value that no longer makes sense counts as unset."""
        values: dict[str, Any] = {}
        for key in GUILD_KEYS:
            if key in settings:
                try:
                    values[key] = check_setting(key, settings[key])
                except InvalidInput:
                    continue
        turn = values.get(TURN_SECONDS, DEFAULT_TURN_SECONDS)
        try:
            clock = ClockSettings(
                turn_seconds=turn or None,
                reserve_seconds=values.get(RESERVE_SECONDS, DEFAULT_RESERVE_SECONDS),
                policy=values.get(TIMEOUT_POLICY, AUTOPILOT),
                reminders=tuple(values.get(REMINDERS, DEFAULT_REMINDERS)),
            )
        except InvalidInput:
            clock = ClockSettings()
        return cls(guild_id, values.get(MODERATOR_ROLE), values.get(MOD_LOG_CHANNEL), clock)


def check_setting(key: str, value: Any) -> Any:
    """The setting as it is stored (None removes it); InvalidInput says what is wrong."""
    if key not in GUILD_KEYS:
        raise InvalidInput(f"There is no server setting {key!r}. The settings are: {', '.join(GUILD_KEYS)}.")
    if value is None:
        return None
    if key in (MODERATOR_ROLE, MOD_LOG_CHANNEL):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
            raise InvalidInput(f"{key} must be a role or channel id, not {value!r}")
        return value
    if key == TURN_SECONDS:
        if value == 0 and not isinstance(value, bool):
            return 0
        return ClockSettings(turn_seconds=value).turn_seconds
    if key == RESERVE_SECONDS:
        return ClockSettings(reserve_seconds=value).reserve_seconds
    if key == TIMEOUT_POLICY:
        return ClockSettings(policy=value).policy
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"reminders must be a list of fractions like [0.5, 0.9], not {value!r}")
    return list(ClockSettings(reminders=tuple(value)).reminders)


def may_moderate(config: GuildConfig, *, role_ids: Collection[int], manage_guild: bool) -> bool:
    """May a member with these roles (and this Manage Server permission) use the moderator commands?"""
    return manage_guild or (config.moderator_role_id is not None and config.moderator_role_id in role_ids)


def clean_reason(reason: object) -> str:
    if not isinstance(reason, str):
        raise InvalidInput(f"the reason must be a text, not {reason!r}")
    text = " ".join(reason.split())
    if len(text) > MAX_REASON:
        raise InvalidInput(f"the reason may be at most {MAX_REASON} characters long")
    return text


def mod_line(info: GameInfo, moderator_user_id: int | None, what: str, reason: str) -> str:
    """A line for the moderators' log channel (Discord mention syntax: send it without pinging anyone)."""
    who = "the clock" if moderator_user_id is None else f"<@{moderator_user_id}>"
    because = f" Reason: {reason}" if reason else " No reason given."
    return f"Game #{info.id} ({info.title}) in <#{info.channel_id}>: {what} (by {who}).{because}"


@dataclass(frozen=True)
class LogEntry:
    """One line of a game's full log: a move, a move taken back, a moderator action or a timeout."""

    at: datetime
    kind: str  # "move", "undone_move", or the audit action ("timeout", "pause", "undo", ...)
    actor: str  # who, for people: "ann", "the autopilot for ann", "moderator <@123>", "the clock"
    user_id: int | None
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        stamp = self.at.strftime("%Y-%m-%d %H:%M:%S UTC")
        return f"{stamp} | {self.actor} | {self.text}"


def log_text(entries: Collection[LogEntry]) -> str:
    """The whole log as text, one entry a line (to attach as a file)."""
    return "\n".join(e.line() for e in entries) + ("\n" if entries else "")


AUDIT_TEXTS = {
    "pause": "paused the game",
    "resume": "resumed the game",
    "extend": "extended the time",
    "replace": "gave a seat to another member",
    "autopilot": "changed who plays a seat",
    "undo": "took moves back",
    "end": "ended the game",
    "cancel": "cancelled the game",
    "timeout": "time ran out",
    "read_log": "read the log",
    "export": "exported the record",
}


def audit_text(action: str, details: Mapping[str, Any], reason: str) -> str:
    """An audit entry in words, for the log."""
    base = AUDIT_TEXTS.get(action, action)
    if action == "extend":
        base = f"extended {details.get('player', 'the time')} by {details.get('seconds')} s"
    elif action == "replace":
        base = (
            f"gave {details.get('player')}'s seat from user {details.get('from_user_id')} "
            f"to user {details.get('to_user_id')} ({details.get('to_name')})"
        )
    elif action == "autopilot":
        state = "to the autopilot" if details.get("on") else "back from the autopilot"
        base = f"handed {details.get('player')}'s seat {state}"
    elif action == "undo":
        base = f"took back {details.get('moves')} move(s), from {details.get('from')} to {details.get('to')}"
    elif action == "end":
        base = "ended the game with scoring" if details.get("score") else "abandoned the game without a result"
    elif action == "timeout":
        base = (
            f"{details.get('player')} ran out of time (timeout {details.get('timeouts')}; "
            f"policy {details.get('policy')})"
        )
    if action == "timeout":
        return base
    return f"{base}{f' - {reason}' if reason else ''}"
