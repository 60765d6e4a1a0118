"""The engine's refusals in the reader's language, English included.

The engine refuses a move with a `Refusal` (`engine/errors.py`): its kind and
its facts as fields. Every kind is written here as a whole sentence from the
refusal's fields, in the catalogue of each language (English too: the
catalogue is the one source of what a player reads), card and colour facts
named with `bot/present/words.py` in the words of the map the refusal names
(found by the map's id). The refusals of a game's setup and of a move's record
form are worded in `bot/present/record_refusals.py`. The engine's own English
(`str()` of a refusal) is the record's, for the command line and logs.
"""

from __future__ import annotations

from bot.present.i18n import _, map_, ngettext
from bot.present.names import names_and
from bot.present.record_refusals import OF_SETUP_AND_RECORD, setup_and_record_words
from bot.present.words import card_name, colour_name, piece_word, ticket_word, tickets_plural, wild_word, wilds_plural
from engine import GameError, MapNames, Refusal
from engine.errors import (
    AlreadyChosen,
    AlreadyClaimed,
    BothTokens,
    FerryNeeds,
    GameOver,
    HoldOnly,
    HoldsStack,
    KeepLeast,
    MayNotPass,
    MustKeep,
    MustSecond,
    MustTunnel,
    MustTurn,
    NoColourRoute,
    NoRoute,
    NotACardToDraw,
    NotACardToPay,
    NotAnEnd,
    NotAPlace,
    NotAPlayer,
    NotAStack,
    NotFaceUp,
    NotOffered,
    NoToken,
    NotRouteColour,
    NotYourTurn,
    OneColour,
    OtherTrackTaken,
    OwnOtherTrack,
    PilesEmpty,
    SetupStack,
    SetupTickets,
    SeveralTracks,
    SouvenirsOnlySF,
    StackTurn,
    SurchargeCards,
    SurchargeCount,
    TakesCards,
    TicketsEmpty,
    TooFewPieces,
    WildSecond,
    WildsTunnelsOnly,
    WrongColour,
)
from maps import WILD, Rules, load_board

# The kinds a member's move can meet in play.
IN_PLAY: tuple[type[Refusal], ...] = (
    NotAPlace,
    NoRoute,
    NotRouteColour,
    NoColourRoute,
    AlreadyClaimed,
    OwnOtherTrack,
    OtherTrackTaken,
    SeveralTracks,
    TooFewPieces,
    PilesEmpty,
    NotACardToDraw,
    NotFaceUp,
    WildSecond,
    GameOver,
    MayNotPass,
    NotACardToPay,
    HoldOnly,
    TakesCards,
    OneColour,
    WildsTunnelsOnly,
    WrongColour,
    TicketsEmpty,
    NotOffered,
    KeepLeast,
    NotAPlayer,
    SetupTickets,
    AlreadyChosen,
    NotYourTurn,
    MustTurn,
    MustSecond,
    MustKeep,
    MustTunnel,
    FerryNeeds,
    SouvenirsOnlySF,
    SetupStack,
    StackTurn,
    NotAStack,
    HoldsStack,
    NotAnEnd,
    NoToken,
    BothTokens,
    SurchargeCount,
    SurchargeCards,
)


# Every kind: each is worded in every language.
WORDED: tuple[type[Refusal], ...] = (*IN_PLAY, *OF_SETUP_AND_RECORD)


def rules_of(names: MapNames) -> Rules:
    """The rules of the map a refusal names, by the map's id."""
    return load_board(names.name).rules


def _card(names: MapNames, card: str) -> str:
    """A card fact: a colour or the wild card by the map's name; anything else (typed text) as it is."""
    rules = rules_of(names)
    if card == WILD or card in rules.colors:
        return card_name(rules, card)
    return card


def _cards(names: MapNames, cards: tuple[str, ...]) -> str:
    return ", ".join(_card(names, c) for c in cards)


def _claims(r: Refusal, map_id: str) -> str | None:
    """The refusals of a claim and of the routes a player may claim (`map_id`: the game's map, whose rulebook
    words a claim)."""
    match r:
        case NotAPlace():
            return _("'{place}' is not a place on this map.").format(place=r.place)
        case NoRoute():
            return map_(map_id, "There is no route between {a} and {b}.").format(a=r.a, b=r.b)
        case NotRouteColour():
            return map_(map_id, "'{colour}' is not a route colour on this map.").format(colour=r.colour)
        case NoColourRoute():
            return map_(map_id, "There is no {colour} route between {a} and {b}.").format(
                colour=colour_name(r.colour), a=r.a, b=r.b
            )
        case AlreadyClaimed():
            return map_(map_id, "{a} - {b} ({colour}) is already claimed").format(
                a=r.a, b=r.b, colour=colour_name(r.colour)
            )
        case OwnOtherTrack():
            return _("you already own the other track of {a} - {b}; nobody may own both").format(a=r.a, b=r.b)
        case OtherTrackTaken():
            return ngettext(
                "the other track of {a} - {b} is taken, and with fewer than {count} player only one track of a "
                "double route is used",
                "the other track of {a} - {b} is taken, and with fewer than {count} players only one track of a "
                "double route is used",
                r.count,
            ).format(a=r.a, b=r.b, count=r.count)
        case SeveralTracks():
            return _("{a} - {b} has several free tracks ({colours}): say which with its colour.").format(
                a=r.a, b=r.b, colours=names_and([colour_name(c) for c in r.colours])
            )
        case TooFewPieces():
            return ngettext(
                "{a} - {b} needs {length} {pieces}; {player} has {left} left.",
                "{a} - {b} needs {length} {pieces}; {player} has {left} left.",
                r.left,
            ).format(
                a=r.a,
                b=r.b,
                length=r.length,
                pieces=piece_word(rules_of(r.map), r.length),
                player=r.player,
                left=r.left,
            )
    return None


def _cards_and_tickets(r: Refusal) -> str | None:
    """The refusals of drawing cards, paying and choosing tickets."""
    match r:
        case PilesEmpty():
            return _("The deck and the discard pile are empty: take a face-up card instead.")
        case NotACardToDraw():
            return _("'{card}' is not a card on this map: draw \"deck\" or one of {choices}.").format(
                card=r.card, choices=_cards(r.map, r.choices)
            )
        case NotFaceUp():
            row = _cards(r.map, r.row) if r.row else _("nothing")
            return _("There is no face-up {card} card; the row shows {row}.").format(card=_card(r.map, r.card), row=row)
        case WildSecond():
            return _("A face-up {wild} may not be the second card.").format(wild=wild_word(rules_of(r.map)))
        case NotACardToPay():
            return _("'{card}' is not a card on this map; the cards are {cards}.").format(
                card=r.card, cards=_cards(r.map, r.cards)
            )
        case HoldOnly():
            return ngettext(
                "You pay {count} {card} but hold only {have} such card.",
                "You pay {count} {card} but hold only {have} such cards.",
                r.have,
            ).format(count=r.count, card=_card(r.map, r.card), have=r.have)
        case TakesCards():
            return ngettext(
                "{a} - {b} takes {length} card; you paid {total}.",
                "{a} - {b} takes {length} cards; you paid {total}.",
                r.length,
            ).format(a=r.a, b=r.b, length=r.length, total=r.total)
        case OneColour():
            colours = names_and([colour_name(c) for c in r.colours])
            return _("Pay with one colour (plus {wilds}), not {colours}.").format(
                wilds=wilds_plural(rules_of(r.map)), colours=colours
            )
        case WildsTunnelsOnly():
            return _("On this map, {wilds} may be played only on tunnels.").format(wilds=wilds_plural(rules_of(r.map)))
        case WrongColour():
            return _("{a} - {b} is {colour}: pay {colour} cards, not {paid}.").format(
                a=r.a, b=r.b, colour=colour_name(r.colour), paid=_card(r.map, r.paid)
            )
        case TicketsEmpty():
            return map_(r.map.name, "There are no {tickets} left in the deck: draw cards or claim a route.").format(
                tickets=tickets_plural(rules_of(r.map))
            )
        case NotOffered():
            return _("{ticket} is not among the {tickets} offered to {player}.").format(
                ticket=r.ticket, tickets=tickets_plural(rules_of(r.map)), player=r.player
            )
        case KeepLeast():
            return ngettext(
                "{player} must keep at least {least} of the {offered} {tickets} offered.",
                "{player} must keep at least {least} of the {offered} {tickets} offered.",
                r.offered,
            ).format(player=r.player, least=r.least, offered=r.offered, tickets=ticket_word(rules_of(r.map), r.offered))
    return None


def _turns(r: Refusal) -> str | None:
    """The refusals of a move out of turn, or of the wrong kind now."""
    match r:
        case GameOver():
            return _("The game is over; no more moves can be made.")
        case MayNotPass():
            return _("{player} may not pass: a legal action exists.").format(player=r.player)
        case NotAPlayer():
            return _("'{player}' is not a player in this game.").format(player=r.player)
        case SetupTickets():
            return _("The game is still being set up: first {players} must choose {tickets}.").format(
                players=", ".join(r.players), tickets=tickets_plural(rules_of(r.map))
            )
        case AlreadyChosen():
            return _("{player} has already chosen starting {tickets}.").format(
                player=r.player, tickets=tickets_plural(rules_of(r.map))
            )
        case NotYourTurn():
            return _("It is {current}'s turn, not {player}'s.").format(current=r.current, player=r.player)
        case MustTurn():
            return map_(
                r.map.name, "{player} must take a turn now (draw cards, claim a route or draw {tickets})."
            ).format(player=r.player, tickets=tickets_plural(rules_of(r.map)))
        case MustSecond():
            return _("{player} must draw a second card now.").format(player=r.player)
        case MustKeep():
            return _("{player} must choose which drawn {tickets} to keep now.").format(
                player=r.player, tickets=tickets_plural(rules_of(r.map))
            )
        case MustTunnel():
            return _("{player} must pay the tunnel surcharge or give the tunnel up now.").format(player=r.player)
    return None


def _extras(r: Refusal) -> str | None:
    """The refusals of the maps' extra rules: ferries, tourist stacks and souvenirs, tunnels."""
    match r:
        case FerryNeeds():
            return _("This ferry needs {count} {wilds}.").format(
                count=r.count, wilds=wild_word(rules_of(r.map), r.count)
            )
        case SouvenirsOnlySF():
            return _("Souvenirs exist only on the San Francisco map.")
        case SetupStack():
            return _("The game is still being set up: {player} must place a tourist stack.").format(player=r.player)
        case StackTurn():
            return _("{placer} places the next tourist stack, not {player}.").format(placer=r.placer, player=r.player)
        case NotAStack():
            return _("'{symbol}' is not a stack left to place; left: {left}.").format(
                symbol=r.symbol, left=", ".join(r.left)
            )
        case HoldsStack():
            return _("{place} already holds a stack; choose a place without one.").format(place=r.place)
        case NotAnEnd():
            return _("{place} is not an end of {a} - {b}.").format(place=r.place, a=r.a, b=r.b)
        case NoToken():
            return _("There is no souvenir {player} could take at {place}.").format(player=r.player, place=r.place)
        case BothTokens():
            return _("Both {a} and {b} hold a souvenir {player} can take: say which one.").format(
                a=r.a, b=r.b, player=r.player
            )
        case SurchargeCount():
            return ngettext(
                "The tunnel asks for exactly {count} more card; you paid {total}.",
                "The tunnel asks for exactly {count} more cards; you paid {total}.",
                r.count,
            ).format(count=r.count, total=r.total)
        case SurchargeCards(colour=None):
            return _("The tunnel surcharge must be paid in {wilds}, not {wrong}.").format(
                wilds=wilds_plural(rules_of(r.map)), wrong=_cards(r.map, r.wrong)
            )
        case SurchargeCards(colour=str(colour)):
            return _("The tunnel surcharge must be paid in {colour} cards or {wilds}, not {wrong}.").format(
                colour=colour_name(colour), wilds=wilds_plural(rules_of(r.map)), wrong=_cards(r.map, r.wrong)
            )
    return None


def worded(refusal: Refusal, map_id: str = "") -> str:
    """The refusal as a sentence of the language spoken (with the words of the map `map_id`, where the
    refusal does not name its map)."""
    text = _claims(refusal, map_id)
    if text is not None:
        return text
    for words in (_cards_and_tickets, _turns, _extras, setup_and_record_words):
        text = words(refusal)
        if text is not None:
            return text
    raise TypeError(f"no words for the refusal {refusal!r}")  # tests/test_rule_error_words.py: every kind has words


def rule_error_text(error: GameError | Refusal, rules: Rules | None = None) -> str:
    """The engine's refusal in the language spoken, from the catalogue (English too)."""
    refusal = error.refusal if isinstance(error, GameError) else error
    return worded(refusal, "" if rules is None else rules.name)
