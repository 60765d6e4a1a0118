"""Moderation in words: what the channel is told of moderators' actions and timeouts, the seat news
a member gets, and the lines of the moderators' log channel.

The moderators' log names members and channels with Discord's mention
syntax: it is sent pinging nobody.
"""

from __future__ import annotations

from bot.present.clock import duration_text
from bot.present.escape import shown
from bot.present.seats import member_name
from bot.present.words import plural
from bot.service import AuditAction, GameInfo, ModLogEntry, TimeoutPolicy
from bot.service.events import (
    AutopilotSet,
    Ended,
    Extended,
    Paused,
    Reopened,
    Replaced,
    Resumed,
    SeatGiven,
    SeatTaken,
    Timeout,
    Undone,
)
from bot.service.models import is_bot


def timeout_text(timeout: Timeout) -> str:
    player = shown(timeout.player)
    if timeout.policy is TimeoutPolicy.AUTOPILOT:
        return f"{player}'s time is up: the autopilot plays this turn for them."
    return f"{player}'s time is up: the game waits for a moderator. {player} may still make their move."


def paused_text(paused: Paused) -> str:
    return "A moderator pauses the game: the clocks stop, and moves wait until it is resumed."


def resumed_text(resumed: Resumed) -> str:
    return f"A moderator resumes the game after {duration_text(resumed.paused_seconds)}: the clocks run again."


def extended_text(extended: Extended) -> str:
    players = " and ".join(shown(p) for p in extended.players)
    return f"A moderator gives {players} {duration_text(extended.seconds)} more."


def replaced_text(replaced: Replaced) -> str:
    return f"A moderator gives {shown(replaced.player)}'s seat to {member_name(replaced.to_name)}."


def autopilot_text(change: AutopilotSet) -> str:
    if change.on:
        return f"A moderator hands {shown(change.player)}'s seat to the autopilot."
    return f"A moderator gives {shown(change.player)}'s seat back to {member_name(change.display_name)}."


def undone_text(undone: Undone) -> str:
    text = f"A moderator takes back the last {plural(undone.moves, 'move')}."
    if undone.to_move is None:
        return text
    return f"{text} It is {shown(undone.to_move)}'s move again."


def ended_text(ended: Ended) -> str:
    if ended.score:
        return "A moderator ends the game now; it is scored as it stands."
    return "A moderator abandons the game: it ends without a result."


def reopened_text(reopened: Reopened) -> str:
    return (
        f"A moderator reopens the game, {duration_text(reopened.ended_seconds)} after it ended: it goes on "
        "as it was, and the time it was over counts against no one."
    )


def seat_given_text(info: GameInfo, given: SeatGiven) -> str:
    return f"You now play {shown(given.player)}'s seat in game #{info.id} ({info.title})."


def seat_taken_text(info: GameInfo, taken: SeatTaken) -> str:
    return f"A moderator has given your seat in game #{info.id} ({info.title}) to {member_name(taken.to_name)}."


def _times(count: int) -> str:
    return "once" if count == 1 else "twice" if count == 2 else f"{count} times"


def _timeout_done(timeout: Timeout) -> str:
    who = f"{member_name(timeout.display_name)} ({shown(timeout.player)})"
    times = _times(timeout.timeouts)
    if timeout.policy is TimeoutPolicy.AUTOPILOT:
        return f"{who} ran out of time, {times} now; the autopilot played the turn"
    return (
        f"{who} ran out of time ({times} in this game); the game waits for a moderator: extend the time, "
        "hand the seat to the autopilot, or replace the player"
    )


def _replace_done(replaced: Replaced) -> str:
    if is_bot(replaced.from_user_id):
        return (
            f"gave {shown(replaced.player)}'s seat from the autopilot to <@{replaced.to_user_id}> "
            f"({member_name(replaced.to_name)})"
        )
    return (
        f"gave {shown(replaced.player)}'s seat from <@{replaced.from_user_id}> to <@{replaced.to_user_id}> "
        f"({member_name(replaced.to_name)})"
    )


def _autopilot_done(change: AutopilotSet) -> str:
    if change.on:
        return f"handed {shown(change.player)}'s seat (<@{change.user_id}>) to the autopilot"
    return f"gave {shown(change.player)}'s seat back from the autopilot to <@{change.user_id}>"


def _done(entry: ModLogEntry) -> str:
    """What was done, as the moderators' log says it."""
    facts = entry.facts
    if isinstance(facts, Timeout):
        return _timeout_done(facts)
    if isinstance(facts, Extended):
        return f"gave {', '.join(shown(p) for p in facts.players)} {duration_text(facts.seconds)} more"
    if isinstance(facts, Replaced):
        return _replace_done(facts)
    if isinstance(facts, AutopilotSet):
        return _autopilot_done(facts)
    if isinstance(facts, Undone):
        return f"took back {facts.moves} move(s) ({facts.from_count} -> {facts.to_count})"
    if isinstance(facts, Ended):
        return "ended the game with scoring" if facts.score else "abandoned the game without a result"
    if isinstance(facts, Reopened):
        return f"reopened the game {duration_text(facts.ended_seconds)} after it ended"
    return {
        AuditAction.PAUSE: "paused the game",
        AuditAction.RESUME: "resumed the game",
        AuditAction.CANCEL: "cancelled the game",
        AuditAction.READ_LOG: "read the log",
        AuditAction.EXPORT: "exported the record",
    }[entry.action]


def mod_line(entry: ModLogEntry) -> str:
    """A line for the moderators' log channel (Discord mention syntax: send it without pinging anyone)."""
    info = entry.game
    who = "the clock" if entry.by is None else f"<@{entry.by}>"
    because = f" Reason: {shown(entry.reason)}" if entry.reason else " No reason given."
    return f"Game #{info.id} ({info.title}) in <#{info.channel_id}>: {_done(entry)} (by {who}).{because}"
