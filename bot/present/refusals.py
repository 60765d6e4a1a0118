"""Why a request was refused, in words: one message per reason (`Why`), filled in with the refusal's facts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.present.escape import quoted, shown
from bot.service import ServiceError, Why
from bot.service.errors import ClockPart, IdKind
from maps import load_board

Facts = Mapping[str, object]

# Messages that are the facts put into words as they are.
TEMPLATES: dict[Why, str] = {
    Why.NO_DISPLAY_NAME: "a display name must be a text",
    Why.UNKNOWN_MAP: "There is no map {map!r}. The maps are: {maps}.",
    Why.BAD_CLOCK_TYPE: "the clock must be clock settings, not {type}",
    Why.BAD_SEAT: "Seats are numbered 0 to {last}, not {value!r}.",
    Why.BAD_VERSION: "the version must be a whole number, not {value!r}",
    Why.BAD_MOVE: "a move must be an engine move or its record form (an object), not {type}",
    Why.BAD_FLAG: "{name} must be true or false, not {value!r}",
    Why.BAD_EXTENSION: "the extension must be 1 to {high} seconds, not {value!r}",
    Why.BAD_UNDO: "The game has {count} moves; take back 1 to {count}, not {value!r}.",
    Why.BAD_POLICY: "the timeout policy must be one of {choices}, not {value!r}",
    Why.BAD_REMINDERS: "reminders are fractions of the turn between 0 and 1, like (0.5, 0.9), not {value!r}",
    Why.UNSORTED_REMINDERS: "reminder fractions must be in increasing order without repeats, not {value!r}",
    Why.BAD_CLOCK_DATA: "clock settings must be an object, not {value!r}",
    Why.UNKNOWN_CLOCK_SETTINGS: "unknown clock setting(s): {names}",
    Why.REMINDERS_NOT_A_LIST: "reminders must be a list of fractions, not {value!r}",
    Why.UNKNOWN_SETTING: "There is no server setting {key!r}. The settings are: {keys}.",
    Why.BAD_SETTING_ID: "{key} must be a role or channel id, not {value!r}",
    Why.BAD_REMINDER_SETTING: "reminders must be a list of fractions like [0.5, 0.9], not {value!r}",
    Why.BAD_GAME_LIMIT: "{key} must be a whole number of games from 1 to {high}, not {value!r}",
    Why.BAD_SETTING_SWITCH: "{key} must be on or off, not {value!r}",
    Why.BAD_PAGE: "There is no page {page}: the leaderboard has {pages} page(s).",
    Why.BAD_LEVEL: "{key} must be one of {levels}, not {value!r}",
    Why.SERVER_GAME_LIMIT: (
        "This server already has {limit} open games, as many as it allows. Wait for one to finish or be "
        "cancelled, or ask a server manager to raise the limit (`/ttr config server_games`)."
    ),
    Why.REASON_NOT_TEXT: "the reason must be a text, not {value!r}",
    Why.REASON_TOO_LONG: "the reason may be at most {limit} characters long",
    Why.BAD_TURN: "This game can show turns 0 (before the first turn) to {turns}, not {value}.",
    Why.NO_SUCH_GAME: "There is no game #{game_id}.",
    Why.NO_SUCH_BOT: "There is no such autopilot player in this game.",
    Why.NO_SUCH_ROUTE: "There is no route number {route_id} on this map.",
    Why.NOT_JOINED: "You have not joined this game.",
    Why.NOT_PLAYING: "You are not playing in this game.",
    Why.ONLY_HOST_ADDS_BOTS: "Only the host can add autopilot players.",
    Why.ONLY_HOST_REMOVES_BOTS: "Only the host can remove autopilot players.",
    Why.ONLY_HOST_STARTS: "Only the host can start the game.",
    Why.ONLY_HOST_CANCELS: "Only the host can cancel the game.",
    Why.AUTOPILOT_SEAT: "The autopilot plays your seat now; a moderator can give it back to you.",
    Why.NOT_YOUR_SEAT: "You play as {player}; you cannot make a move for {claimed}.",
    Why.RECORD_NOT_YET: "The record of a game is available once the game is over.",
    Why.MODERATORS_ONLY: "Only the server's moderators can do this.",
    Why.SEATED_MODERATOR: (
        "You play in game #{game_id}, so you cannot read its {what} while it runs: it shows every player's "
        "cards and tickets. Another moderator can read it, or you can once the game is over."
    ),
    Why.UNDO_OUTDATED: "The game changed since this preview; run `/ttrmod undo` again to see what it would take back.",
    Why.ALREADY_STARTED: "The game has already started.",
    Why.GAME_IS: "The game is {status}.",
    Why.ALREADY_OVER: "The game is already {status}.",
    Why.NO_MORE_MOVES: "The game is {status}; no more moves can be made.",
    Why.NOT_STARTED: "The game has not started yet.",
    Why.NOT_DEALT: "The game has not started yet: nothing is dealt.",
    Why.NO_RECORD: "The game never started, so it has no record.",
    Why.ALREADY_JOINED: "You have already joined this game.",
    Why.LEAVE_STARTED: "Only a game that has not started can be left.",
    Why.CANCEL_STARTED: "A game that has started can only be cancelled by a moderator.",
    Why.PAUSED: "A moderator has paused the game: moves wait until it is resumed.",
    Why.ALREADY_PAUSED: "The game is paused already.",
    Why.NOT_PAUSED: "The game is not paused.",
    Why.NO_CLOCK: "This game has no turn clock, so there is no deadline to extend.",
    Why.NOT_TO_MOVE: "{player} is not to move, so has no deadline to extend.",
    Why.NOBODY_TO_EXTEND: "Nobody the clock runs for is to move now.",
    Why.ALREADY_PLAYS: "That member already plays in this game.",
    Why.BOT_HAS_NO_MEMBER: "An autopilot player has no member to give the seat back to: replace it instead.",
    Why.ALREADY_AUTOPILOT: "{player}'s seat is already played by the autopilot.",
    Why.NOT_AUTOPILOT: "{player}'s seat is not played by the autopilot.",
    Why.NOTHING_TO_SCORE: "The game has not started, so there is nothing to score: abandon it instead.",
    Why.NOT_ENDED_BY_MODERATOR: "Game #{game_id} was not ended by a moderator, so there is nothing to reopen.",
    Why.REOPEN_TOO_LATE: "Game #{game_id} ended more than {hours} h ago; a game can be reopened within {hours} h.",
    Why.NEWER_GAME: (
        "Game #{newer} was opened in this channel after game #{game_id} ended, so game #{game_id} cannot be reopened."
    ),
    Why.FULL: "All {seats} seats of this game are taken.",
    Why.STALE: "The game has moved on since this was shown. Look at the latest state and try again.",
    Why.AGAINST_RULES: "{error}",
    Why.DECKS_MISSING: "game #{game_id} has started but its seed or decks are missing",
    Why.CANNOT_DEAL: "game #{game_id} cannot be dealt again from what is stored: {error}",
    Why.MOVE_UNREADABLE: "game #{game_id}: stored move {index} is unreadable ({error})",
    Why.MOVE_UNPLAYABLE: (
        "game #{game_id}: stored move {index} cannot be replayed ({error}); "
        "a moderator can export the record to look into it"
    ),
    Why.SEATS_DAMAGED: "game #{game_id}: the seats are not numbered 0, 1, 2, ... with a name each",
}

ID_NAMES = {
    IdKind.GAME: "the game id",
    IdKind.CHANNEL: "the channel id",
    IdKind.USER: "the user id",
    IdKind.SERVER: "the server id",
    IdKind.MODERATOR: "the moderator's user id",
    IdKind.NEW_PLAYER: "the new player's user id",
}

CLOCK_PARTS = {ClockPart.TURN: "the turn time", ClockPart.RESERVE: "the reserve"}


def _bad_id(facts: Facts) -> str:
    return f"{ID_NAMES[IdKind(str(facts['what']))]} must be a positive whole number, not {facts['value']!r}"


def _bad_seats(facts: Facts) -> str:
    title = load_board(str(facts["map"])).rules.title
    return (
        f"{title} is played by {facts['low']} to {facts['high']} players, "
        f"so the number of seats must be in that range, not {facts['value']!r}."
    )


def _bad_trains(facts: Facts) -> str:
    pieces = load_board(str(facts["map"])).rules.piece_name
    return f"The number of {pieces} must be from {facts['low']} to {facts['high']}, not {facts['value']!r}."


def _bad_bots(facts: Facts) -> str:
    seats = int(str(facts["seats"]))
    return f"With {seats} seats there is room for 0 to {seats - 1} autopilot players, not {facts['value']!r}."


def _bad_seconds(facts: Facts) -> str:
    what = CLOCK_PARTS[ClockPart(str(facts["setting"]))]
    return f"{what} must be a whole number of seconds from {facts['low']} to {facts['high']}, not {facts['value']!r}"


def _too_few(facts: Facts) -> str:
    title = load_board(str(facts["map"])).rules.title
    return f"{title} needs at least {facts['low']} players; {facts['joined']} have joined."


def _channel_busy(facts: Facts) -> str:
    game = facts.get("game_id")
    if game is None:
        return "This channel already has a game. Finish or cancel it first, or use another channel."
    return f"This channel already has a game (game #{game}). Finish or cancel it first, or use another channel."


def _member_game_limit(facts: Facts) -> str:
    ids = facts.get("game_ids")
    games = ", ".join(f"#{g}" for g in ids) if isinstance(ids, tuple) else ""
    return (
        f"You already host {facts['limit']} open games ({games}), as many as this server allows one member. "
        "Finish or cancel one of them before you open another (`/ttr cancel` in its channel, before it starts), "
        "or ask a server manager to raise the limit (`/ttr config member_games`)."
    )


WORDED: dict[Why, Callable[[Facts], str]] = {
    Why.BAD_ID: _bad_id,
    Why.BAD_SEATS: _bad_seats,
    Why.BAD_TRAINS: _bad_trains,
    Why.BAD_BOTS: _bad_bots,
    Why.BAD_SECONDS: _bad_seconds,
    Why.TOO_FEW: _too_few,
    Why.CHANNEL_BUSY: _channel_busy,
    Why.MEMBER_GAME_LIMIT: _member_game_limit,
}

# facts that are lists of names, said joined
_LISTS = ("maps", "choices", "names", "keys")
# facts that echo what was typed: shown escaped
_TYPED = ("value", "map", "key")


@dataclass(frozen=True)
class _Typed:
    """A typed text in a template: escaped, whether the template says it as is or quoted (`!r`)."""

    text: str

    def __str__(self) -> str:
        return shown(self.text)

    def __repr__(self) -> str:
        return quoted(self.text)


def refusal_text(error: ServiceError) -> str:
    """What the person who asked is told about the refusal."""
    worded = WORDED.get(error.why)
    if worded is not None:
        return worded(error.facts)
    facts = dict(error.facts)
    for key in _LISTS:
        names = facts.get(key)
        if isinstance(names, tuple):
            facts[key] = ", ".join(str(n) for n in names)
    for key in _TYPED:
        typed = facts.get(key)
        if isinstance(typed, str):
            facts[key] = _Typed(typed)
    return TEMPLATES[error.why].format_map(facts)
