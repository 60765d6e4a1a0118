"""The engine's refusals of a game's setup and of a move's record form, in the reader's language.

A member meets these seldom (the bot builds a game's players, decks and moves),
but a moderator may: a stored game that cannot be dealt or replayed again, a
record read back. Each kind is a whole sentence from the refusal's fields, as
`bot/present/rule_errors.py` words the refusals of play.
"""

from __future__ import annotations

from bot.present.i18n import _, ngettext
from bot.present.names import map_title_of
from bot.present.words import card_name, colour_name, tickets_plural
from engine import Refusal
from engine.errors import (
    ActionCount,
    BadNames,
    BadTicket,
    ClaimNeedsPay,
    ClaimPlaces,
    KeepNotAList,
    NotACount,
    NotAnObject,
    NotAText,
    NotCardCounts,
    NotTheCardDeck,
    NotTheTicketDeck,
    PassNotTrue,
    PlaceShape,
    PlayerCount,
    TrainsNotANumber,
    TrainsOutOfRange,
    UnknownKeys,
)
from maps import WILD, load_board

# The kinds of a game's setup and of a record's moves.
OF_SETUP_AND_RECORD: tuple[type[Refusal], ...] = (
    BadNames,
    PlayerCount,
    TrainsNotANumber,
    TrainsOutOfRange,
    NotTheCardDeck,
    NotTheTicketDeck,
    NotAText,
    NotACount,
    NotCardCounts,
    BadTicket,
    NotAnObject,
    ActionCount,
    UnknownKeys,
    KeepNotAList,
    ClaimPlaces,
    ClaimNeedsPay,
    PlaceShape,
    PassNotTrue,
)


def _setup(r: Refusal) -> str | None:
    """The refusals of a game's players, options and decks."""
    match r:
        case BadNames():
            return _("Player names must be unique and not empty.")
        case PlayerCount():
            return _("{title} is played by {least} to {most} players, not {count}.").format(
                title=map_title_of(r.map.title), least=r.least, most=r.most, count=r.count
            )
        case TrainsNotANumber():
            return _("The number of trains per player must be a whole number, not {value}.").format(value=r.value)
        case TrainsOutOfRange():
            return _("The number of trains per player must be from {least} to {most}, not {trains}.").format(
                least=r.least, most=r.most, trains=r.trains
            )
        case NotTheCardDeck():
            title = map_title_of(r.map.title)
            if not r.differences:
                return _("The card deck is not the {title} deck: its cards are different.").format(title=title)
            rules = load_board(r.map.name).rules
            parts = ", ".join(
                _("{have} {card} instead of {want}").format(
                    have=d.have,
                    card=card_name(rules, d.card) if d.card == WILD or d.card in rules.colors else d.card,
                    want=d.want,
                )
                for d in r.differences
            )
            return _("The card deck is not the {title} deck: {parts}.").format(title=title, parts=parts)
        case NotTheTicketDeck():
            return _("The deck of {tickets} is not the {title} deck.").format(
                tickets=tickets_plural(load_board(r.map.name).rules), title=map_title_of(r.map.title)
            )
    return None


def _record(r: Refusal) -> str | None:
    """The refusals of a move's record form: its JSON keys and their types."""
    match r:
        case NotAText():
            return _("{what} must be a text that is not empty, not {value}.").format(what=r.what, value=r.value)
        case NotACount():
            return _("The count of {card} must be a whole number of cards, not {value}.").format(
                card=colour_name(r.card), value=r.value
            )
        case NotCardCounts():
            return _("'{what}' must be an object of card: count, like {{\"red\": 3}}.").format(what=r.what)
        case BadTicket():
            return _("A ticket is written [A, B] or [ORIGIN, [COUNTRY, ...]], not {value}.").format(value=r.value)
        case NotAnObject():
            return _("A move must be an object, not {value}.").format(value=r.value)
        case ActionCount():
            if not r.found:
                return _("A move needs exactly one of {actions}; this one has none.").format(
                    actions=", ".join(r.actions)
                )
            return _("A move needs exactly one of {actions}; this one has {found}.").format(
                actions=", ".join(r.actions), found=", ".join(r.found)
            )
        case UnknownKeys():
            return ngettext(
                "Unknown key in a {action} move: {keys}.",
                "Unknown keys in a {action} move: {keys}.",
                len(r.keys),
            ).format(action=r.action, keys=", ".join(r.keys))
        case KeepNotAList():
            return _("'keep' must be a list of tickets.")
        case ClaimPlaces():
            return _('\'claim\' must name the route\'s two places, like ["Denver", "Omaha"].')
        case ClaimNeedsPay():
            return _("A claim needs 'pay', the cards spent, like {{\"red\": 3}}.").format()
        case PlaceShape():
            return _('\'place\' must be {{"symbol": S, "at": PLACE}}.').format()
        case PassNotTrue():
            return _("'pass' must be true.")
    return None


def setup_and_record_words(r: Refusal) -> str | None:
    """The refusal of a game's setup or of a record's move as a sentence of the language spoken; None for
    another kind."""
    text = _setup(r)
    return text if text is not None else _record(r)
