"""Moderation in words: what the channel is told of moderators' actions and timeouts, the seat news
a member gets, and the lines of the moderators' log channel.

The moderators' log names members and channels with Discord's mention
syntax: it is sent pinging nobody.
"""

from __future__ import annotations

from bot.present.clock import duration_text
from bot.present.escape import shown
from bot.present.i18n import _, ngettext
from bot.present.names import map_title_of, names_and
from bot.present.seats import member_name
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
        return _("{player}'s time is up: the autopilot plays this turn for them.").format(player=player)
    return _("{player}'s time is up: the game waits for a moderator. {player} may still make their move.").format(
        player=player
    )


def paused_text(paused: Paused) -> str:
    return _("A moderator pauses the game: the clocks stop, and moves wait until it is resumed.")


def resumed_text(resumed: Resumed) -> str:
    return _("A moderator resumes the game after {duration}: the clocks run again.").format(
        duration=duration_text(resumed.paused_seconds)
    )


def extended_text(extended: Extended) -> str:
    players = names_and([shown(p) for p in extended.players])
    return _("A moderator gives {players} {duration} more.").format(
        players=players, duration=duration_text(extended.seconds)
    )


def replaced_text(replaced: Replaced) -> str:
    return _("A moderator gives {player}'s seat to {member}.").format(
        player=shown(replaced.player), member=member_name(replaced.to_name)
    )


def autopilot_text(change: AutopilotSet) -> str:
    if change.on:
        return _("A moderator hands {player}'s seat to the autopilot.").format(player=shown(change.player))
    return _("A moderator gives {player}'s seat back to {member}.").format(
        player=shown(change.player), member=member_name(change.display_name)
    )


def undone_text(undone: Undone) -> str:
    text = ngettext(
        "A moderator takes back the last {count} move.", "A moderator takes back the last {count} moves.", undone.moves
    ).format(count=undone.moves)
    if undone.to_move is None:
        return text
    return text + " " + _("It is {player}'s move again.").format(player=shown(undone.to_move))


def ended_text(ended: Ended) -> str:
    if ended.score:
        return _("A moderator ends the game now; it is scored as it stands.")
    return _("A moderator abandons the game: it ends without a result.")


def reopened_text(reopened: Reopened) -> str:
    return _(
        "A moderator reopens the game, {duration} after it ended: it goes on "
        "as it was, and the time it was over counts against no one."
    ).format(duration=duration_text(reopened.ended_seconds))


def seat_given_text(info: GameInfo, given: SeatGiven) -> str:
    return _("You now play {player}'s seat in game #{id} ({title}).").format(
        player=shown(given.player), id=info.id, title=map_title_of(info.title)
    )


def seat_taken_text(info: GameInfo, taken: SeatTaken) -> str:
    return _("A moderator has given your seat in game #{id} ({title}) to {member}.").format(
        id=info.id, title=map_title_of(info.title), member=member_name(taken.to_name)
    )


def _timeout_done(timeout: Timeout) -> str:
    who = f"{member_name(timeout.display_name)} ({shown(timeout.player)})"
    count = timeout.timeouts
    if timeout.policy is TimeoutPolicy.AUTOPILOT:
        if count == 1:
            return _("{who} ran out of time, once now; the autopilot played the turn").format(who=who)
        if count == 2:
            return _("{who} ran out of time, twice now; the autopilot played the turn").format(who=who)
        return ngettext(
            "{who} ran out of time, {count} time now; the autopilot played the turn",
            "{who} ran out of time, {count} times now; the autopilot played the turn",
            count,
        ).format(who=who, count=count)
    tail = _("the game waits for a moderator: extend the time, hand the seat to the autopilot, or replace the player")
    if count == 1:
        head = _("{who} ran out of time (once in this game)").format(who=who)
    elif count == 2:
        head = _("{who} ran out of time (twice in this game)").format(who=who)
    else:
        head = ngettext(
            "{who} ran out of time ({count} time in this game)",
            "{who} ran out of time ({count} times in this game)",
            count,
        ).format(who=who, count=count)
    return f"{head}; {tail}"


def _replace_done(replaced: Replaced) -> str:
    if is_bot(replaced.from_user_id):
        return _("gave {player}'s seat from the autopilot to {mention} ({member})").format(
            player=shown(replaced.player), mention=f"<@{replaced.to_user_id}>", member=member_name(replaced.to_name)
        )
    return _("gave {player}'s seat from {old} to {mention} ({member})").format(
        player=shown(replaced.player),
        old=f"<@{replaced.from_user_id}>",
        mention=f"<@{replaced.to_user_id}>",
        member=member_name(replaced.to_name),
    )


def _autopilot_done(change: AutopilotSet) -> str:
    mention = f"<@{change.user_id}>"
    if change.on:
        return _("handed {player}'s seat ({mention}) to the autopilot").format(
            player=shown(change.player), mention=mention
        )
    return _("gave {player}'s seat back from the autopilot to {mention}").format(
        player=shown(change.player), mention=mention
    )


def _done(entry: ModLogEntry) -> str:
    """What was done, as the moderators' log says it."""
    facts = entry.facts
    if isinstance(facts, Timeout):
        return _timeout_done(facts)
    if isinstance(facts, Extended):
        return _("gave {players} {duration} more").format(
            players=", ".join(shown(p) for p in facts.players), duration=duration_text(facts.seconds)
        )
    if isinstance(facts, Replaced):
        return _replace_done(facts)
    if isinstance(facts, AutopilotSet):
        return _autopilot_done(facts)
    if isinstance(facts, Undone):
        return _("took back {count} move(s) ({before} -> {after})").format(
            count=facts.moves, before=facts.from_count, after=facts.to_count
        )
    if isinstance(facts, Ended):
        return _("ended the game with scoring") if facts.score else _("abandoned the game without a result")
    if isinstance(facts, Reopened):
        return _("reopened the game {duration} after it ended").format(duration=duration_text(facts.ended_seconds))
    texts = {
        AuditAction.PAUSE: _("paused the game"),
        AuditAction.RESUME: _("resumed the game"),
        AuditAction.CANCEL: _("cancelled the game"),
        AuditAction.READ_LOG: _("read the log"),
        AuditAction.EXPORT: _("exported the record"),
    }
    return texts[entry.action]


def mod_line(entry: ModLogEntry) -> str:
    """A line for the moderators' log channel (Discord mention syntax: send it without pinging anyone)."""
    info = entry.game
    done = _done(entry)
    channel = f"<#{info.channel_id}>"
    if entry.by is None:
        line = _("Game #{id} ({title}) in {channel}: {done} (by the clock).")
    else:
        line = _("Game #{id} ({title}) in {channel}: {done} (by {mention}).")
    text = line.format(id=info.id, title=map_title_of(info.title), channel=channel, done=done, mention=f"<@{entry.by}>")
    if entry.reason:
        return text + " " + _("Reason: {reason}").format(reason=shown(entry.reason))
    return text + " " + _("No reason given.")
