"""Why the game service refused something: an error class, a reason (`Why`) and the facts behind it.

The service words nothing: `bot.present.refusals.refusal_text(error)` says
it for the person who asked. `str(error)` is for logs only.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from engine import GameError, NotYourTurnError


class Why(StrEnum):
    """The reason for a refusal; its facts (`ServiceError.facts`) are named in each comment."""

    # input that makes no sense
    BAD_ID = "bad_id"  # what (IdKind), value
    NO_DISPLAY_NAME = "no_display_name"
    UNKNOWN_MAP = "unknown_map"  # map, maps
    BAD_SEATS = "bad_seats"  # map, low, high, value
    BAD_TRAINS = "bad_trains"  # map, low, high, value
    BAD_BOTS = "bad_bots"  # seats, value
    BAD_LEVEL = "bad_level"  # key, levels (the values the setting takes: autopilot levels, languages), value
    BAD_CLOCK_TYPE = "bad_clock_type"  # type
    BAD_SEAT = "bad_seat"  # last, value
    BAD_VERSION = "bad_version"  # value
    BAD_MOVE = "bad_move"  # type
    BAD_FLAG = "bad_flag"  # name, value
    BAD_EXTENSION = "bad_extension"  # high, value
    BAD_UNDO = "bad_undo"  # count, value
    UNDO_OUTDATED = "undo_outdated"
    BAD_SECONDS = "bad_seconds"  # setting (ClockPart), low, high, value
    BAD_POLICY = "bad_policy"  # choices, value
    BAD_REMINDERS = "bad_reminders"  # value
    UNSORTED_REMINDERS = "unsorted_reminders"  # value
    BAD_CLOCK_DATA = "bad_clock_data"  # value
    UNKNOWN_CLOCK_SETTINGS = "unknown_clock_settings"  # names
    REMINDERS_NOT_A_LIST = "reminders_not_a_list"  # value
    UNKNOWN_SETTING = "unknown_setting"  # key, keys
    BAD_SETTING_ID = "bad_setting_id"  # key, value
    BAD_REMINDER_SETTING = "bad_reminder_setting"  # value
    BAD_GAME_LIMIT = "bad_game_limit"  # key, high, value
    BAD_SETTING_SWITCH = "bad_setting_switch"  # key, value
    BAD_PAGE = "bad_page"  # page, pages
    REASON_NOT_TEXT = "reason_not_text"  # value
    REASON_TOO_LONG = "reason_too_long"  # limit
    BAD_TURN = "bad_turn"  # turns (the last one that can be shown), value
    BAD_SEAT_ORDER = "bad_seat_order"  # value (the user ids given)
    # tournaments (bot/service/tournaments)
    BAD_TOURNAMENT_NAME = "bad_tournament_name"  # limit
    BAD_ROUNDS = "bad_rounds"  # low, high, value
    BAD_MAP_LIST = "bad_map_list"  # rounds, value (one map, or one per round)
    BAD_TABLE_SIZE = "bad_table_size"  # map, low, high, value
    BAD_DEADLINE = "bad_deadline"  # low, high, value (minutes)
    BAD_FINAL_TABLE = "bad_final_table"  # low, high, value
    BAD_CAP = "bad_cap"  # low, high, value
    NO_SUCH_TOURNAMENT = "no_such_tournament"  # tournament_id
    NO_SUCH_TABLE = "no_such_table"  # tournament_id, round, table
    NOT_REGISTERED = "not_registered"  # tournament_id; user_id (and the front may add name): someone else's
    ALREADY_REGISTERED = "already_registered"  # tournament_id, status
    ALREADY_IN_TOURNAMENT = "already_in_tournament"  # tournament_id, user_id
    REGISTRATION_CLOSED = "registration_closed"  # tournament_id
    REGISTRATION_ALREADY = "registration_already"  # tournament_id, open (it is already so)
    TOURNAMENT_IS = "tournament_is"  # tournament_id, status
    NO_CHECKIN = "no_checkin"  # tournament_id (the tournament has no check-in window)
    CHECKIN_CLOSED = "checkin_closed"  # tournament_id
    ROUND_RUNNING = "round_running"  # tournament_id, round
    NO_ROUND_RUNNING = "no_round_running"  # tournament_id
    ROUND_HAS_MOVES = "round_has_moves"  # tournament_id, round, game_id
    ALL_ROUNDS_PLAYED = "all_rounds_played"  # tournament_id, rounds
    TOO_FEW_PLAYERS = "too_few_players"  # tournament_id, players, low, table_size
    NOT_ACTIVE = "not_active"  # tournament_id, user_id, status
    TABLE_OVER = "table_over"  # tournament_id, round, table, status
    TOURNAMENT_CHANGED = "tournament_changed"  # tournament_id (a stale button, a double click)
    SANCTIONED = "sanctioned"  # tournament_id, status (dropped or disqualified: until a moderator reinstates)
    NOT_SANCTIONED = "not_sanctioned"  # tournament_id, user_id, status (nothing to lift)
    SUBSTITUTED = "substituted"  # tournament_id, user_id (their place went to a substitute)
    # no such thing
    NO_SUCH_GAME = "no_such_game"  # game_id
    NO_SUCH_BOT = "no_such_bot"
    NO_SUCH_ROUTE = "no_such_route"  # route_id, map (the board's name, for its rulebook's word)
    NOT_JOINED = "not_joined"
    NOT_PLAYING = "not_playing"
    # not allowed
    ONLY_HOST_ADDS_BOTS = "only_host_adds_bots"
    ONLY_HOST_REMOVES_BOTS = "only_host_removes_bots"
    ONLY_HOST_STARTS = "only_host_starts"
    ONLY_HOST_CANCELS = "only_host_cancels"
    AUTOPILOT_SEAT = "autopilot_seat"
    NOT_YOUR_SEAT = "not_your_seat"  # player, claimed
    RECORD_NOT_YET = "record_not_yet"
    RECORD_REOPENABLE = "record_reopenable"  # game_id, hours: a moderator's end that may still be undone
    MODERATORS_ONLY = "moderators_only"
    SEATED_MODERATOR = "seated_moderator"  # game_id, what ("record" or "log"), ended (it may still be reopened)
    # not at this stage
    ALREADY_STARTED = "already_started"
    GAME_IS = "game_is"  # status
    ALREADY_OVER = "already_over"  # status
    NO_MORE_MOVES = "no_more_moves"  # status
    NOT_STARTED = "not_started"
    NOT_DEALT = "not_dealt"
    NO_RECORD = "no_record"
    ALREADY_JOINED = "already_joined"
    LEAVE_STARTED = "leave_started"
    CANCEL_STARTED = "cancel_started"
    TOO_FEW = "too_few"  # map, low, joined
    PAUSED = "paused"
    ALREADY_PAUSED = "already_paused"
    NOT_PAUSED = "not_paused"
    NO_CLOCK = "no_clock"
    NOT_TO_MOVE = "not_to_move"  # player
    NOBODY_TO_EXTEND = "nobody_to_extend"
    ALREADY_PLAYS = "already_plays"
    BOT_HAS_NO_MEMBER = "bot_has_no_member"
    ALREADY_AUTOPILOT = "already_autopilot"  # player
    NOT_AUTOPILOT = "not_autopilot"  # player
    NOTHING_TO_SCORE = "nothing_to_score"
    NOT_ENDED_BY_MODERATOR = "not_ended_by_moderator"  # game_id
    REOPEN_TOO_LATE = "reopen_too_late"  # game_id, hours
    NEWER_GAME = "newer_game"  # game_id, newer (the game opened in the channel since)
    REOPEN_SCORED = "reopen_scored"  # game_id: its end scored it, showing every player's tickets
    REOPEN_TOURNAMENT = "reopen_tournament"  # game_id: a tournament counted its table
    # other
    CHANNEL_BUSY = "channel_busy"  # game_id (None: unknown)
    MEMBER_GAME_LIMIT = "member_game_limit"  # limit, game_ids (the member's open games)
    SERVER_GAME_LIMIT = "server_game_limit"  # limit
    FULL = "full"  # seats
    STALE = "stale"
    AGAINST_RULES = "against_rules"  # error (the engine's GameError)
    DECKS_MISSING = "decks_missing"  # game_id
    CANNOT_DEAL = "cannot_deal"  # game_id, error
    MOVE_UNREADABLE = "move_unreadable"  # game_id, index, error
    MOVE_UNPLAYABLE = "move_unplayable"  # game_id, index, error
    SEATS_DAMAGED = "seats_damaged"  # game_id
    # planned turns (bot/service/plans.py)
    PLANS_OFF = "plans_off"  # tournament (bool: a tournament's table, else the server)
    PLAN_NOW = "plan_now"  # the game waits for the member now: they play it themselves
    PLAN_FULL = "plan_full"  # limit
    PLAN_CARD = "plan_card"  # value, map (the board's name: its cards are named)


class IdKind(StrEnum):
    """Which id a BAD_ID refusal is about."""

    GAME = "game"
    CHANNEL = "channel"
    USER = "user"
    SERVER = "server"
    MODERATOR = "moderator"
    NEW_PLAYER = "new_player"


class ClockPart(StrEnum):
    """Which duration of the clock settings a BAD_SECONDS refusal is about."""

    TURN = "turn"
    RESERVE = "reserve"


class ServiceError(Exception):
    """A refused request. Nothing was changed."""

    def __init__(self, why: Why, facts: Mapping[str, object] | None = None) -> None:
        super().__init__(why, facts)
        self.why = why
        self.facts: Mapping[str, object] = {} if facts is None else facts

    def __str__(self) -> str:
        details = ", ".join(f"{k}={v!r}" for k, v in self.facts.items())
        return f"{self.why}({details})"


class NotFound(ServiceError):
    """No such game (or no game in this channel)."""


class NotAPlayer(ServiceError):
    """The user has no seat in this game."""


class NotAllowed(ServiceError):
    """The user may not do this here: not the host, not a moderator, not their own move."""


class WrongState(ServiceError):
    """Not possible at this stage of the game (lobby, setup, playing, finished, cancelled)."""


class InvalidInput(ServiceError):
    """A request that makes no sense: an unknown map, options out of range, a malformed move."""


class ChannelBusy(ServiceError):
    """The channel already has an active game."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(Why.CHANNEL_BUSY, {"game_id": game_id})
        self.game_id = game_id


class GameFull(ServiceError):
    """Every seat of the lobby is taken."""


class StaleVersion(ServiceError):
    """The caller acted on what it saw at an older version (a stale button, a double click)."""

    def __init__(self, game_id: int, expected: int | None, actual: int | None) -> None:
        super().__init__(Why.STALE, {"game_id": game_id, "expected": expected, "actual": actual})
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class TournamentChanged(ServiceError):
    """The caller acted on a tournament as it was at an older version (a stale button, a double click)."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(Why.TOURNAMENT_CHANGED, {"tournament_id": tournament_id})
        self.tournament_id = tournament_id


class RuleViolation(ServiceError):
    """The rules do not allow this move; `reason` is the engine's error, whose typed refusal the front words for
    the player (`bot/present/rule_errors.py`)."""

    def __init__(self, reason: GameError) -> None:
        super().__init__(Why.AGAINST_RULES, {"error": reason})
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)  # for logs: the record's English, never a player's

    @staticmethod
    def of(reason: GameError) -> RuleViolation:
        return NotYourTurn(reason) if isinstance(reason, NotYourTurnError) else RuleViolation(reason)


class NotYourTurn(RuleViolation):
    """Someone else must act now."""


class GameDamaged(ServiceError):
    """The stored move log of a game cannot be replayed; a moderator must look at it."""
