"""The game's words, the one place: card, colour, ticket and piece names and counted nouns, in the language spoken.

One home for them, so a channel message, a private answer, an image and its
alt text all name a card and count a thing alike. Each map has its own words
(Amsterdam's contracts and jokers, San Francisco's cable cars and ferry
cards); in Swedish and Finnish they are the words of that map's rulebook
(see `bot/present/locale/GLOSSARY.md`). Every word comes with its number:
`ticket_word(rules, 3)` is "tickets", "biljetter" or "lippua"... as the
language counts. The names of the maps' bonuses are in `bonus_words.py`, map
titles, statuses and ticket labels in `names.py`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.present.i18n import _, ngettext, npgettext, pgettext
from maps import WILD, Rules

Forms = Callable[[int], str]

# Each map's ticket, by the map's id (msgctxt: the map's title, so each rulebook's word can differ).
TICKET_WORDS: dict[str, Forms] = {
    "usa": lambda n: npgettext("USA", "ticket", "tickets", n),
    "india": lambda n: npgettext("India", "ticket", "tickets", n),
    "switzerland": lambda n: npgettext("Switzerland", "ticket", "tickets", n),
    "amsterdam": lambda n: npgettext("Amsterdam", "contract", "contracts", n),
    "san_francisco": lambda n: npgettext("San Francisco", "ticket", "tickets", n),
}
WILD_WORDS: dict[str, Forms] = {
    "usa": lambda n: npgettext("USA", "locomotive", "locomotives", n),
    "india": lambda n: npgettext("India", "locomotive", "locomotives", n),
    "switzerland": lambda n: npgettext("Switzerland", "locomotive", "locomotives", n),
    "amsterdam": lambda n: npgettext("Amsterdam", "joker", "jokers", n),
    "san_francisco": lambda n: npgettext("San Francisco", "ferry card", "ferry cards", n),
}
PIECE_WORDS: dict[str, Forms] = {
    "usa": lambda n: npgettext("USA", "train", "trains", n),
    "india": lambda n: npgettext("India", "train", "trains", n),
    "switzerland": lambda n: npgettext("Switzerland", "train", "trains", n),
    "amsterdam": lambda n: npgettext("Amsterdam", "cart", "carts", n),
    "san_francisco": lambda n: npgettext("San Francisco", "cable car", "cable cars", n),
}

# Card and route colours (msgctxt "colour"): the card's name, as on a card ("a red card" reads "red").
COLOUR_WORDS: dict[str, Callable[[], str]] = {
    "pink": lambda: pgettext("colour", "pink"),
    "white": lambda: pgettext("colour", "white"),
    "blue": lambda: pgettext("colour", "blue"),
    "yellow": lambda: pgettext("colour", "yellow"),
    "orange": lambda: pgettext("colour", "orange"),
    "black": lambda: pgettext("colour", "black"),
    "red": lambda: pgettext("colour", "red"),
    "green": lambda: pgettext("colour", "green"),
    "purple": lambda: pgettext("colour", "purple"),
    "gray": lambda: pgettext("colour", "gray"),
}


def _english(word: str, count: int) -> str:
    """A map without its words here (a new board): its own English word, counted the English way."""
    singular = word.removesuffix("s")
    return singular if count == 1 else singular + "s"


def ticket_word(rules: Rules, count: int = 1) -> str:
    """The map's ticket ("ticket", "contract"), in the number `count` asks."""
    forms = TICKET_WORDS.get(rules.name)
    return forms(count) if forms else _english(rules.ticket_name, count)


def wild_word(rules: Rules, count: int = 1) -> str:
    """The map's wild card (locomotive, joker, ferry card), in the number `count` asks."""
    forms = WILD_WORDS.get(rules.name)
    return forms(count) if forms else _english(rules.wild_name, count)


def piece_word(rules: Rules, count: int = 2) -> str:
    """The map's pieces (trains, carts, cable cars): plural unless `count` is 1."""
    forms = PIECE_WORDS.get(rules.name)
    return forms(count) if forms else _english(rules.piece_name, count)


def colour_name(colour: str) -> str:
    """A colour of cards or routes ("red", "röd", "punainen"); an unknown one as it is."""
    word = COLOUR_WORDS.get(colour)
    return word() if word else colour


def card_name(rules: Rules, card: str) -> str:
    """A card as players call it on this map: the wild has each map's own name (locomotive, joker, ferry card)."""
    return wild_word(rules) if card == WILD else colour_name(card)


def card_count(rules: Rules, card: str, count: int) -> str:
    """ "3 pink", "1 locomotive", "2 jokers", "2 ferry cards": a colour is written as it is, the wild is counted."""
    if card == WILD:
        return _("{count} {wild}").format(count=count, wild=wild_word(rules, count))
    return _("{count} {colour}").format(count=count, colour=colour_name(card))


def tickets_counted(rules: Rules, count: int) -> str:
    """ "1 ticket", "3 contracts"."""
    return _("{count} {tickets}").format(count=count, tickets=ticket_word(rules, count))


# Each map's ticket as the object of a sentence ("keeps 1 ticket"): Finnish takes another case there ("pitää 1
# menolipun", "pitää 2 menolippua"); English and Swedish say it as after a number.
TICKET_OBJECT_WORDS: dict[str, Forms] = {
    "usa": lambda n: npgettext("USA, object", "ticket", "tickets", n),
    "india": lambda n: npgettext("India, object", "ticket", "tickets", n),
    "switzerland": lambda n: npgettext("Switzerland, object", "ticket", "tickets", n),
    "amsterdam": lambda n: npgettext("Amsterdam, object", "contract", "contracts", n),
    "san_francisco": lambda n: npgettext("San Francisco, object", "ticket", "tickets", n),
}


def ticket_word_object(rules: Rules, count: int = 1) -> str:
    """The map's ticket as the object of a verb ("keeps 1 ticket": Finnish "menolipun"), in the number `count` asks."""
    forms = TICKET_OBJECT_WORDS.get(rules.name)
    return forms(count) if forms else ticket_word(rules, count)


def tickets_counted_object(rules: Rules, count: int) -> str:
    """ "1 ticket", "3 contracts" as the object of a verb (Finnish "1 menolipun", "3 menolippua")."""
    return _("{count} {tickets}").format(count=count, tickets=ticket_word_object(rules, count))


# A card drawn, as the object of "You drew ..." (msgctxt "card drawn"): English names the colour ("You drew red."),
# Swedish and Finnish say the card with its colour agreeing ("ett rött kort", "punaisen kortin").
DRAWN_COLOURS: dict[str, Callable[[], str]] = {
    "pink": lambda: pgettext("card drawn", "pink"),
    "white": lambda: pgettext("card drawn", "white"),
    "blue": lambda: pgettext("card drawn", "blue"),
    "yellow": lambda: pgettext("card drawn", "yellow"),
    "orange": lambda: pgettext("card drawn", "orange"),
    "black": lambda: pgettext("card drawn", "black"),
    "red": lambda: pgettext("card drawn", "red"),
    "green": lambda: pgettext("card drawn", "green"),
    "purple": lambda: pgettext("card drawn", "purple"),
}
DRAWN_WILDS: dict[str, Callable[[], str]] = {
    "usa": lambda: pgettext("USA, card drawn", "locomotive"),
    "india": lambda: pgettext("India, card drawn", "locomotive"),
    "switzerland": lambda: pgettext("Switzerland, card drawn", "locomotive"),
    "amsterdam": lambda: pgettext("Amsterdam, card drawn", "joker"),
    "san_francisco": lambda: pgettext("San Francisco, card drawn", "ferry card"),
}


def drawn_card_name(rules: Rules, card: str) -> str:
    """A card as the object of "You drew ...": "red" / "ett rött kort" / "punaisen kortin", "a locomotive"..."""
    word = DRAWN_WILDS.get(rules.name) if card == WILD else DRAWN_COLOURS.get(card)
    return word() if word else card_name(rules, card)


def pieces_counted(rules: Rules, count: int) -> str:
    """ "1 train", "45 cable cars"."""
    return _("{count} {pieces}").format(count=count, pieces=piece_word(rules, count))


def cards_counted(count: int) -> str:
    """ "1 card", "3 cards" (train cards of any colour)."""
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def spaces_counted(count: int) -> str:
    """ "1 space", "4 spaces" (a route's length)."""
    return ngettext("{count} space", "{count} spaces", count).format(count=count)


def points_counted(count: int) -> str:
    """ "1 point", "21 points"."""
    return ngettext("{count} point", "{count} points", count).format(count=count)


def plural(count: int, word: str) -> str:
    """English only, from before the catalogues: being replaced by the counted words above (do not use)."""
    if count == 1:
        return f"{count} {word.removesuffix('s')}"
    return f"{count} {word if word.endswith('s') else word + 's'}"


def tunnel_word(count: int = 1) -> str:
    """A tunnel route ("tunnel"), in the number `count` asks."""
    return npgettext("route", "tunnel", "tunnels", count)


def ferry_spaces_counted(count: int) -> str:
    """ "1 ferry space", "2 ferry spaces" (the spaces of a ferry route paid with wild cards)."""
    return ngettext("{count} ferry space", "{count} ferry spaces", count).format(count=count)


def more_cards_counted(count: int) -> str:
    """ "1 more card", "2 more cards" (what a tunnel asks on top)."""
    return ngettext("{count} more card", "{count} more cards", count).format(count=count)


# The map's tickets and pieces as a plural noun without a number ("the tickets": "biljetter", "menoliput").
TICKET_PLURALS: dict[str, Callable[[], str]] = {
    "usa": lambda: pgettext("USA", "tickets"),
    "india": lambda: pgettext("India", "tickets"),
    "switzerland": lambda: pgettext("Switzerland", "tickets"),
    "amsterdam": lambda: pgettext("Amsterdam", "contracts"),
    "san_francisco": lambda: pgettext("San Francisco", "tickets"),
}
PIECE_PLURALS: dict[str, Callable[[], str]] = {
    "usa": lambda: pgettext("USA", "trains"),
    "india": lambda: pgettext("India", "trains"),
    "switzerland": lambda: pgettext("Switzerland", "trains"),
    "amsterdam": lambda: pgettext("Amsterdam", "carts"),
    "san_francisco": lambda: pgettext("San Francisco", "cable cars"),
}


def tickets_plural(rules: Rules) -> str:
    """The map's tickets as a plural noun without a number ("tickets", "contracts"; fi nominative "menoliput")."""
    word = TICKET_PLURALS.get(rules.name)
    return word() if word else _english(rules.ticket_name, 2)


def pieces_plural(rules: Rules) -> str:
    """The map's pieces as a plural noun without a number ("trains", "carts"; fi nominative "vaunut")."""
    word = PIECE_PLURALS.get(rules.name)
    return word() if word else _english(rules.piece_name, 2)


# The map's tickets and wild cards as a plural noun without a number ("the tickets", "menoliput"): a language may say
# them otherwise than after a number (Finnish counts with the partitive, "3 menolippua").
WILDS_PLURAL: dict[str, Callable[[], str]] = {
    "usa": lambda: pgettext("USA, plural", "locomotives"),
    "india": lambda: pgettext("India, plural", "locomotives"),
    "switzerland": lambda: pgettext("Switzerland, plural", "locomotives"),
    "amsterdam": lambda: pgettext("Amsterdam, plural", "jokers"),
    "san_francisco": lambda: pgettext("San Francisco, plural", "ferry cards"),
}


def wilds_plural(rules: Rules) -> str:
    """The map's wild cards, uncounted: "locomotives", "jokers", "lok", "jokerikortit"."""
    word = WILDS_PLURAL.get(rules.name)
    return word() if word else _english(rules.wild_name, 2)
