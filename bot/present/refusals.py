"""Why a request was refused, in words: one message per reason (`Why`), filled in with the refusal's facts.

The tournaments' reasons are worded in `tournament_refusals.py`; `refusal_text` says them all."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.present.escape import quoted, shown
from bot.present.i18n import N_, _, map_, ngettext
from bot.present.names import map_title_of, status_word
from bot.present.rule_errors import rule_error_text
from bot.present.tournament_refusals import TOURNAMENT_TEMPLATES, TOURNAMENT_WORDED
from bot.present.words import card_name, piece_word
from bot.service import ServiceError, Why
from bot.service.errors import ClockPart, IdKind
from engine import GameError
from maps import WILD, load_board

Facts = Mapping[str, object]

# Messages that are the facts put into words as they are.
TEMPLATES: dict[Why, str] = {
    Why.NO_DISPLAY_NAME: N_("a display name must be a text"),
    Why.UNKNOWN_MAP: N_("There is no map {map!r}. The maps are: {maps}."),
    Why.BAD_CLOCK_TYPE: N_("the clock must be clock settings, not {type}"),
    Why.BAD_SEAT: N_("Seats are numbered 0 to {last}, not {value!r}."),
    Why.BAD_VERSION: N_("the version must be a whole number, not {value!r}"),
    Why.BAD_MOVE: N_("a move must be an engine move, not {type}"),
    Why.BAD_FLAG: N_("{name} must be true or false, not {value!r}"),
    Why.BAD_EXTENSION: N_("the extension must be 1 to {high} seconds, not {value!r}"),
    Why.BAD_UNDO: N_("The game has {count} moves; take back 1 to {count}, not {value!r}."),
    Why.BAD_POLICY: N_("the timeout policy must be one of {choices}, not {value!r}"),
    Why.BAD_REMINDERS: N_("reminders are fractions of the turn between 0 and 1, like (0.5, 0.9), not {value!r}"),
    Why.UNSORTED_REMINDERS: N_("reminder fractions must be in increasing order without repeats, not {value!r}"),
    Why.BAD_CLOCK_DATA: N_("clock settings must be an object, not {value!r}"),
    Why.UNKNOWN_CLOCK_SETTINGS: N_("unknown clock setting(s): {names}"),
    Why.REMINDERS_NOT_A_LIST: N_("reminders must be a list of fractions, not {value!r}"),
    Why.UNKNOWN_SETTING: N_("There is no server setting {key!r}. The settings are: {keys}."),
    Why.BAD_SETTING_ID: N_("{key} must be a role or channel id, not {value!r}"),
    Why.BAD_REMINDER_SETTING: N_("reminders must be a list of fractions like [0.5, 0.9], not {value!r}"),
    Why.BAD_GAME_LIMIT: N_("{key} must be a whole number of games from 1 to {high}, not {value!r}"),
    Why.BAD_SETTING_SWITCH: N_("{key} must be on or off, not {value!r}"),
    Why.BAD_LEVEL: N_("{key} must be one of {levels}, not {value!r}"),
    Why.SERVER_GAME_LIMIT: N_(
        "This server already has {limit} open games, as many as it allows. Wait for one to finish or be "
        "cancelled, or ask a server manager to raise the limit (`/ttr config server_games`)."
    ),
    Why.REASON_NOT_TEXT: N_("the reason must be a text, not {value!r}"),
    Why.REASON_TOO_LONG: N_("the reason may be at most {limit} characters long"),
    Why.BAD_TURN: N_("This game can show turns 0 (before the first turn) to {turns}, not {value}."),
    Why.NO_SUCH_GAME: N_("There is no game #{game_id}."),
    Why.NO_SUCH_BOT: N_("There is no such autopilot player in this game."),
    Why.NO_SUCH_ROUTE: N_("There is no route number {route_id} on this map."),
    Why.NOT_JOINED: N_("You have not joined this game."),
    Why.PLANS_OFF: N_("Planned turns are turned off in this server."),
    Why.PLAN_NOW: N_("The game waits for you now: play your turn yourself. A plan is for a turn still to come."),
    Why.PLAN_FULL: N_("A plan has at most {limit} steps. Clear it (`/ttr plan clear`) to start again."),
    Why.PLAN_CARD: N_("{value} is not a card of this map. The cards are: {cards}."),
    Why.NOT_PLAYING: N_("You are not playing in this game."),
    Why.ONLY_HOST_ADDS_BOTS: N_("Only the host can add autopilot players."),
    Why.ONLY_HOST_REMOVES_BOTS: N_("Only the host can remove autopilot players."),
    Why.ONLY_HOST_STARTS: N_("Only the host can start the game."),
    Why.ONLY_HOST_CANCELS: N_("Only the host can cancel the game."),
    Why.AUTOPILOT_SEAT: N_("The autopilot plays your seat now; a moderator can give it back to you."),
    Why.NOT_YOUR_SEAT: N_("You play as {player}; you cannot make a move for {claimed}."),
    Why.RECORD_NOT_YET: N_("The record of a game is available once the game is over."),
    Why.RECORD_REOPENABLE: N_(
        "A moderator ended game #{game_id} without a result, and it can still be reopened (within {hours} h of "
        "its end, unless a new game is opened in its channel first). Its record shows every player's cards and "
        "tickets and the order of the decks, so it is available once the game can no longer be reopened."
    ),
    Why.MODERATORS_ONLY: N_("Only the server's moderators can do this."),
    Why.UNDO_OUTDATED: N_(
        "The game changed since this preview; run `/ttrmod undo` again to see what it would take back."
    ),
    Why.ALREADY_STARTED: N_("The game has already started."),
    Why.GAME_IS: N_("The game is {status}."),
    Why.ALREADY_OVER: N_("The game is already {status}."),
    Why.NO_MORE_MOVES: N_("The game is {status}; no more moves can be made."),
    Why.NOT_STARTED: N_("The game has not started yet."),
    Why.NOT_DEALT: N_("The game has not started yet: nothing is dealt."),
    Why.NO_RECORD: N_("The game never started, so it has no record."),
    Why.ALREADY_JOINED: N_("You have already joined this game."),
    Why.LEAVE_STARTED: N_("Only a game that has not started can be left."),
    Why.CANCEL_STARTED: N_("A game that has started can only be cancelled by a moderator."),
    Why.PAUSED: N_("A moderator has paused the game: moves wait until it is resumed."),
    Why.ALREADY_PAUSED: N_("The game is paused already."),
    Why.NOT_PAUSED: N_("The game is not paused."),
    Why.NO_CLOCK: N_("This game has no turn clock, so there is no deadline to extend."),
    Why.NOT_TO_MOVE: N_("{player} is not to move, so has no deadline to extend."),
    Why.NOBODY_TO_EXTEND: N_("Nobody the clock runs for is to move now."),
    Why.ALREADY_PLAYS: N_("That member already plays in this game."),
    Why.BOT_HAS_NO_MEMBER: N_("An autopilot player has no member to give the seat back to: replace it instead."),
    Why.ALREADY_AUTOPILOT: N_("{player}'s seat is already played by the autopilot."),
    Why.NOT_AUTOPILOT: N_("{player}'s seat is not played by the autopilot."),
    Why.NOTHING_TO_SCORE: N_("The game has not started, so there is nothing to score: abandon it instead."),
    Why.NOT_ENDED_BY_MODERATOR: N_("Game #{game_id} was not ended by a moderator, so there is nothing to reopen."),
    Why.REOPEN_TOO_LATE: N_("Game #{game_id} ended more than {hours} h ago; a game can be reopened within {hours} h."),
    Why.NEWER_GAME: N_(
        "Game #{newer} was opened in this channel after game #{game_id} ended, so game #{game_id} cannot be reopened."
    ),
    Why.REOPEN_SCORED: N_(
        "Game #{game_id} was scored when it ended, which showed every player's tickets, so it cannot be reopened."
    ),
    Why.REOPEN_TOURNAMENT: N_(
        "Game #{game_id} is a tournament table whose result the tournament has counted, so it cannot be reopened."
    ),
    Why.FULL: N_("All {seats} seats of this game are taken."),
    Why.STALE: N_("The game has moved on since this was shown. Look at the latest state and try again."),
    Why.AGAINST_RULES: "{error}",  # worded by _against_rules, from the refusal
    Why.DECKS_MISSING: N_("game #{game_id} has started but its seed or decks are missing"),
    Why.CANNOT_DEAL: N_("game #{game_id} cannot be dealt again from what is stored: {error}"),
    Why.MOVE_UNREADABLE: N_("game #{game_id}: stored move {index} is unreadable ({error})"),
    Why.MOVE_UNPLAYABLE: N_(
        "game #{game_id}: stored move {index} cannot be replayed ({error}); "
        "a moderator can export the record to look into it"
    ),
    Why.SEATS_DAMAGED: N_("game #{game_id}: the seats are not numbered 0, 1, 2, ... with a name each"),
    **TOURNAMENT_TEMPLATES,
}

# whole sentences per id kind and clock part, since a language may say them differently
BAD_IDS = {
    IdKind.GAME: N_("the game id must be a positive whole number, not {value}"),
    IdKind.CHANNEL: N_("the channel id must be a positive whole number, not {value}"),
    IdKind.USER: N_("the user id must be a positive whole number, not {value}"),
    IdKind.SERVER: N_("the server id must be a positive whole number, not {value}"),
    IdKind.MODERATOR: N_("the moderator's user id must be a positive whole number, not {value}"),
    IdKind.NEW_PLAYER: N_("the new player's user id must be a positive whole number, not {value}"),
}

BAD_SECONDS = {
    ClockPart.TURN: N_("the turn time must be a whole number of seconds from {low} to {high}, not {value}"),
    ClockPart.RESERVE: N_("the reserve must be a whole number of seconds from {low} to {high}, not {value}"),
}


def _bad_id(facts: Facts) -> str:
    said = _(BAD_IDS[IdKind(str(facts["what"]))]).format(value=repr(facts["value"]))
    return f"{said[:1].upper()}{said[1:]}."  # the texts are clauses ("the game id must be ..."): said as a sentence


def _bad_seats(facts: Facts) -> str:
    title = map_title_of(load_board(str(facts["map"])).rules.title)
    return _(
        "{title} is played by {low} to {high} players, so the number of seats must be in that range, not {value}."
    ).format(title=title, low=facts["low"], high=facts["high"], value=repr(facts["value"]))


def _bad_trains(facts: Facts) -> str:
    pieces = piece_word(load_board(str(facts["map"])).rules, 2)
    return _("The number of {pieces} must be from {low} to {high}, not {value}.").format(
        pieces=pieces, low=facts["low"], high=facts["high"], value=repr(facts["value"])
    )


def _bad_page(facts: Facts) -> str:
    pages = int(str(facts["pages"]))
    return ngettext(
        "There is no page {page}: the leaderboard has {pages} page.",
        "There is no page {page}: the leaderboard has {pages} pages.",
        pages,
    ).format(page=facts["page"], pages=pages)


def _bad_bots(facts: Facts) -> str:
    seats = int(str(facts["seats"]))
    return _("With {seats} seats there is room for 0 to {most} autopilot players, not {value}.").format(
        seats=seats, most=seats - 1, value=repr(facts["value"])
    )


def _bad_seconds(facts: Facts) -> str:
    return _(BAD_SECONDS[ClockPart(str(facts["setting"]))]).format(
        low=facts["low"], high=facts["high"], value=repr(facts["value"])
    )


def _too_few(facts: Facts) -> str:
    title = map_title_of(load_board(str(facts["map"])).rules.title)
    return _("{title} needs at least {low} players; {joined} have joined.").format(
        title=title, low=facts["low"], joined=facts["joined"]
    )


def _channel_busy(facts: Facts) -> str:
    game = facts.get("game_id")
    if game is None:
        return _("This channel already has a game. Finish or cancel it first, or use another channel.")
    return _(
        "This channel already has a game (game #{game_id}). Finish or cancel it first, or use another channel."
    ).format(game_id=game)


def _member_game_limit(facts: Facts) -> str:
    ids = facts.get("game_ids")
    games = ", ".join(f"#{g}" for g in ids) if isinstance(ids, tuple) else ""
    return _(
        "You already host {limit} open games ({games}), as many as this server allows one member. "
        "Finish or cancel one of them before you open another (`/ttr cancel` in its channel, before it starts), "
        "or ask a server manager to raise the limit (`/ttr config member_games`)."
    ).format(limit=facts["limit"], games=games)


def _seated_moderator(facts: Facts) -> str:
    if facts.get("ended") and facts.get("what") == "log":
        text = _(
            "You play in game #{game_id}, so you cannot read its log while the game can still be reopened: it shows "
            "every player's cards and tickets. Another moderator can read it, or you can once it cannot be reopened."
        )
    elif facts.get("ended"):
        text = _(
            "You play in game #{game_id}, so you cannot read its record while the game can still be reopened: it "
            "shows every player's cards and tickets. Another moderator can read it, or you can once it cannot be "
            "reopened."
        )
    elif facts.get("what") == "log":
        text = _(
            "You play in game #{game_id}, so you cannot read its log while it runs: it shows every player's "
            "cards and tickets. Another moderator can read it, or you can once the game is over."
        )
    else:
        text = _(
            "You play in game #{game_id}, so you cannot read its record while it runs: it shows every player's "
            "cards and tickets. Another moderator can read it, or you can once the game is over."
        )
    return text.format(game_id=facts["game_id"])


def _against_rules(facts: Facts) -> str:
    """The engine's refusal, worded from its fields in the language (bot/present/rule_errors.py)."""
    error = facts["error"]
    assert isinstance(error, GameError)
    return rule_error_text(error)


def _plans_off(facts: Facts) -> str:
    if facts.get("tournament"):
        return _("Planned turns are turned off in this tournament.")
    return _("Planned turns are turned off in this server.")


def _plan_card(facts: Facts) -> str:
    rules = load_board(str(facts["map"])).rules
    cards = ", ".join(card_name(rules, c) for c in (*rules.colors, WILD))
    return _(TEMPLATES[Why.PLAN_CARD]).format(value=quoted(str(facts["value"])), cards=cards)


def _no_such_route(facts: Facts) -> str:
    map_id = load_board(str(facts["map"])).rules.name if "map" in facts else ""
    return map_(map_id, "There is no route number {route_id} on this map.").format(route_id=facts["route_id"])


WORDED: dict[Why, Callable[[Facts], str]] = {
    **TOURNAMENT_WORDED,
    Why.NO_SUCH_ROUTE: _no_such_route,
    Why.PLANS_OFF: _plans_off,
    Why.PLAN_CARD: _plan_card,
    Why.BAD_ID: _bad_id,
    Why.BAD_SEATS: _bad_seats,
    Why.BAD_TRAINS: _bad_trains,
    Why.BAD_BOTS: _bad_bots,
    Why.BAD_PAGE: _bad_page,
    Why.BAD_SECONDS: _bad_seconds,
    Why.TOO_FEW: _too_few,
    Why.CHANNEL_BUSY: _channel_busy,
    Why.MEMBER_GAME_LIMIT: _member_game_limit,
    Why.SEATED_MODERATOR: _seated_moderator,
    Why.AGAINST_RULES: _against_rules,
}

# facts that are lists of names, said joined
_LISTS = ("maps", "choices", "names", "keys")
# facts that echo what was typed: shown escaped
_TYPED = ("value", "map", "key")
# facts that are a game's status: said in words
_STATUS = ("status",)


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
    for key in _STATUS:
        if key in facts:
            facts[key] = status_word(str(facts[key]))
    for key, value in facts.items():
        if isinstance(value, GameError):  # a stored game the engine refuses: its refusal from the catalogue
            facts[key] = rule_error_text(value)
    return _(TEMPLATES[error.why]).format_map(facts)
