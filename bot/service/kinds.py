"""The service's vocabulary: what happened, who did it, what a player must do, which timer, which policy.

StrEnums, so each compares equal to the string stored in the database and
written in older data ("autopilot", "turn", "timeout"...).
"""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    """What an announcement tells: a lobby change, one of the engine's move events, or a moderator's action."""

    # the lobby
    CREATED = "created"
    JOINED = "joined"
    LEFT = "left"
    CANCELLED = "cancelled"
    HOST_CHANGED = "host_changed"
    STARTED = "started"
    DEALT = "dealt"  # private: a player's starting hand and ticket offer
    # the engine's events of a move
    DRAW_DECK = "draw_deck"
    DRAW_FACE_UP = "draw_face_up"
    DRAW_TICKETS = "draw_tickets"
    KEEP = "keep"
    SETUP_DONE = "setup_done"
    PLACE_STACKS = "place_stacks"
    PLACE = "place"
    CLAIM = "claim"
    TUNNEL_REVEAL = "tunnel_reveal"
    TUNNEL_ABANDONED = "tunnel_abandoned"
    PASS = "pass"
    FINAL_ROUND = "final_round"
    GAME_OVER = "game_over"
    RESHUFFLE = "reshuffle"
    FACE_UP_RESET = "face_up_reset"
    FINAL_SCORES = "final_scores"
    # the clock and the moderators
    TIMEOUT = "timeout"
    PAUSED = "paused"
    RESUMED = "resumed"
    EXTENDED = "extended"
    REPLACED = "replaced"
    AUTOPILOT = "autopilot"
    UNDONE = "undone"
    ENDED = "ended"
    REOPENED = "reopened"
    OUTAGE = "outage"  # the bot was down: the running clocks moved on by that time
    # private notes
    TURN = "turn"  # a member's turn has come (with the catch-up digest)
    SEAT_GIVEN = "seat_given"
    SEAT_TAKEN = "seat_taken"


class Must(StrEnum):
    """What the player (or players) the game waits for must do."""

    KEEP = "keep"  # choose tickets to keep
    PLACE = "place"  # place a tourist stack (San Francisco)
    TURN = "turn"  # draw cards, claim a route or draw tickets
    DRAW = "draw"  # draw a second card
    TUNNEL = "tunnel"  # pay for a tunnel or give it up


class Actor(StrEnum):
    """Who made a move (stored as MoveRow.actor)."""

    PLAYER = "player"  # the member in the seat
    AUTOPILOT = "autopilot"  # the autopilot, for a seat handed to it or an autopilot player
    TIMEOUT = "timeout"  # the autopilot, because the player's time ran out
    PLAN = "plan"  # the player's own planned turn, played when their turn came (bot/service/plan_turns.py)


class TimerKind(StrEnum):
    DEADLINE = "deadline"  # a seat's time runs out
    REMINDER = "reminder"  # remind a seat that its time runs out
    AUTOPILOT = "autopilot"  # an autopilot seat (or a timed-out one) must move: now
    # timers of no game: the tournaments' (bot/service/tournaments/deadlines.py)
    ROUND_DEADLINE = "round_deadline"  # a tournament round's deadline: its unfinished tables are overdue
    REPAIR_CLEANUP = "repair_cleanup"  # a re-paired round's old games: ended, also after a crash


GAME_TIMERS = (TimerKind.DEADLINE, TimerKind.REMINDER, TimerKind.AUTOPILOT)


class TimeoutPolicy(StrEnum):
    """What happens when a player's time runs out."""

    AUTOPILOT = "autopilot"  # the autopilot plays the turn
    WAIT = "wait"  # the game waits for a moderator


class AuditAction(StrEnum):
    """An entry of a game's audit log: a moderator's action, a timeout, a moderator reading the game."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"
    REPLACE = "replace"
    AUTOPILOT = "autopilot"
    UNDO = "undo"
    END = "end"
    REOPEN = "reopen"  # a game a moderator ended runs again
    CANCEL = "cancel"
    TIMEOUT = "timeout"
    READ_LOG = "read_log"
    EXPORT = "export"
    OUTAGE = "outage"  # the bot was down; the clocks moved on by that time


class LogKind(StrEnum):
    """A line of a game's full log that is not an audit entry."""

    MOVE = "move"
    UNDONE_MOVE = "undone_move"  # a move a moderator took back later


class MoveKind(StrEnum):
    """What a move did, as everyone may know it (bot/service/outline.py)."""

    DRAW_BLIND = "draw_blind"  # the top card of the deck
    DRAW_FACE_UP = "draw_face_up"  # a face-up card (its colour is public)
    DRAW_TICKETS = "draw_tickets"
    KEEP = "keep"  # how many tickets, never which
    CLAIM = "claim"
    TUNNEL = "tunnel"  # paid a tunnel's surcharge, or gave it up
    PLACE = "place"  # San Francisco: a tourist stack
    PASS = "pass"


class Language(StrEnum):
    """A language the bot speaks (its code, as stored in settings and as the catalogues are named)."""

    EN = "en"
    SV = "sv"
    FI = "fi"


class ReminderPhase(StrEnum):
    """What a reminder of the clock says."""

    TURN = "turn"  # the turn time runs out (at the game's fractions of it)
    RESERVE_STARTS = "reserve_starts"  # the turn time is up: the reserve runs now
    RESERVE_ENDS = "reserve_ends"  # most of the reserve is used: the time runs out soon
