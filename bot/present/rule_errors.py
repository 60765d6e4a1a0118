"""The engine's refusals in the reader's language.

The engine refuses a move with an English sentence (`engine/errors.py`); the
records and the `replay` command keep those words, and the engine speaks no
other language. Here each sentence form a member's move can meet is
recognised (an anchored pattern with a named group per fact) and written
again as a whole sentence in the language spoken, card and colour facts
named with `bot/present/words.py`. In English the engine's message is given
back exactly as it is; a message no form knows is given back as it is too.

`engine/moves.py` (the record form of a move: JSON keys and types) is not
here: members never type a record, the bot builds their moves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from bot.present.i18n import _, current_language, map_, ngettext
from bot.present.words import (
    card_name,
    colour_name,
    names_and,
    piece_word,
    ticket_word,
    tickets_plural,
    wild_word,
    wilds_plural,
)
from bot.service.kinds import Language
from maps import MAP_NAMES, WILD, Rules, load_board

Facts = Mapping[str, str]


@dataclass(frozen=True)
class Form:
    """One sentence form of the engine: `sites` counts the `raise` sites in each engine file that give it."""

    key: str
    pattern: re.Pattern[str]
    sites: Mapping[str, int]
    word: Callable[[Facts, Rules], str]


@cache
def _all_rules() -> tuple[Rules, ...]:
    return tuple(load_board(name).rules for name in MAP_NAMES)


def rules_in(message: str) -> Rules:
    """The map a message speaks of, from its wild, ticket or piece word; the first map's when it names none."""
    everything = _all_rules()
    for rules in everything:
        for word in (rules.wild_name, rules.ticket_name, rules.piece_name):
            if word not in (everything[0].wild_name, everything[0].ticket_name, everything[0].piece_name) and re.search(
                rf"\b{re.escape(word)}", message
            ):
                return rules
    return everything[0]


def _card(rules: Rules, card: str) -> str:
    """A card fact: a colour or the wild card by the map's name; anything else (typed text) as it is."""
    if card == WILD or card in rules.colors:
        return card_name(rules, card)
    return card


def _cards(rules: Rules, listed: str) -> str:
    """A list of cards written ", "-separated by the engine."""
    return ", ".join(_card(rules, c) for c in listed.split(", "))


def _int(facts: Facts, key: str) -> int:
    return int(facts[key])


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"^{pattern}$", re.DOTALL)


ROUTE = r"(?P<a>.+?) - (?P<b>.+?)"
NUM = r"(?P<{}>\d+)"


def _n(name: str) -> str:
    return NUM.format(name)


def _not_a_place(f: Facts, r: Rules) -> str:
    return _("'{place}' is not a place on this map.").format(place=f["place"])


def _no_route(f: Facts, r: Rules) -> str:
    return map_(r.title, "There is no route between {a} and {b}.").format(a=f["a"], b=f["b"])


def _not_route_colour(f: Facts, r: Rules) -> str:
    return map_(r.title, "'{colour}' is not a route colour on this map.").format(colour=f["colour"])


def _no_colour_route(f: Facts, r: Rules) -> str:
    return map_(r.title, "There is no {colour} route between {a} and {b}.").format(
        colour=colour_name(f["colour"]), a=f["a"], b=f["b"]
    )


def _already_claimed(f: Facts, r: Rules) -> str:
    return map_(r.title, "{a} - {b} ({colour}) is already claimed").format(
        a=f["a"], b=f["b"], colour=colour_name(f["colour"])
    )


def _own_other_track(f: Facts, r: Rules) -> str:
    return _("you already own the other track of {a} - {b}; nobody may own both").format(a=f["a"], b=f["b"])


def _other_track_taken(f: Facts, r: Rules) -> str:
    count = _int(f, "count")
    return ngettext(
        "the other track of {a} - {b} is taken, and with fewer than {count} player only one track of a double "
        "route is used",
        "the other track of {a} - {b} is taken, and with fewer than {count} players only one track of a double "
        "route is used",
        count,
    ).format(a=f["a"], b=f["b"], count=count)


def _several_tracks(f: Facts, r: Rules) -> str:
    colours = names_and([colour_name(c) for c in re.split(r", | and ", f["colours"])])
    return _("{a} - {b} has several free tracks ({colours}): say which with its colour.").format(
        a=f["a"], b=f["b"], colours=colours
    )


def _too_few_pieces(f: Facts, r: Rules) -> str:
    length, left = _int(f, "length"), _int(f, "left")
    return ngettext(
        "{a} - {b} needs {length} {pieces}; {player} has {left} left.",
        "{a} - {b} needs {length} {pieces}; {player} has {left} left.",
        left,
    ).format(a=f["a"], b=f["b"], length=length, pieces=piece_word(r, length), player=f["player"], left=left)


def _piles_empty(f: Facts, r: Rules) -> str:
    return _("The deck and the discard pile are empty: take a face-up card instead.")


def _not_a_card_draw(f: Facts, r: Rules) -> str:
    return _("'{card}' is not a card on this map: draw \"deck\" or one of {choices}.").format(
        card=f["card"], choices=_cards(r, f["choices"])
    )


def _not_face_up(f: Facts, r: Rules) -> str:
    row = _("nothing") if f["row"] == "nothing" else _cards(r, f["row"])
    return _("There is no face-up {card} card; the row shows {row}.").format(card=_card(r, f["card"]), row=row)


def _wild_second(f: Facts, r: Rules) -> str:
    return _("A face-up {wild} may not be the second card.").format(wild=wild_word(r))


def _game_over(f: Facts, r: Rules) -> str:
    return _("The game is over; no more moves can be made.")


def _may_not_pass(f: Facts, r: Rules) -> str:
    return _("{player} may not pass: a legal action exists.").format(player=f["player"])


def _not_a_card_pay(f: Facts, r: Rules) -> str:
    return _("'{card}' is not a card on this map; the cards are {cards}.").format(
        card=f["card"], cards=_cards(r, f["cards"])
    )


def _hold_only(f: Facts, r: Rules) -> str:
    have = _int(f, "have")
    return ngettext(
        "You pay {count} {card} but hold only {have} such card.",
        "You pay {count} {card} but hold only {have} such cards.",
        have,
    ).format(count=_int(f, "count"), card=_card(r, f["card"]), have=have)


def _takes_cards(f: Facts, r: Rules) -> str:
    length = _int(f, "length")
    return ngettext(
        "{a} - {b} takes {length} card; you paid {total}.",
        "{a} - {b} takes {length} cards; you paid {total}.",
        length,
    ).format(a=f["a"], b=f["b"], length=length, total=_int(f, "total"))


def _one_colour(f: Facts, r: Rules) -> str:
    colours = names_and([colour_name(c) for c in f["colours"].split(" and ")])
    return _("Pay with one colour (plus {wilds}), not {colours}.").format(wilds=wilds_plural(r), colours=colours)


def _wilds_tunnels_only(f: Facts, r: Rules) -> str:
    return _("On this map, {wilds} may be played only on tunnels.").format(wilds=wilds_plural(r))


def _wrong_colour(f: Facts, r: Rules) -> str:
    return _("{a} - {b} is {colour}: pay {colour} cards, not {paid}.").format(
        a=f["a"], b=f["b"], colour=colour_name(f["colour"]), paid=_card(r, f["paid"])
    )


def _tickets_empty(f: Facts, r: Rules) -> str:
    return map_(r.title, "There are no {tickets} left in the deck: draw cards or claim a route.").format(
        tickets=tickets_plural(r)
    )


def _not_offered(f: Facts, r: Rules) -> str:
    return _("{ticket} is not among the {tickets} offered to {player}.").format(
        ticket=f["ticket"], tickets=tickets_plural(r), player=f["player"]
    )


def _keep_least(f: Facts, r: Rules) -> str:
    least, offered = _int(f, "least"), _int(f, "offered")
    return ngettext(
        "{player} must keep at least {least} of the {offered} {tickets} offered.",
        "{player} must keep at least {least} of the {offered} {tickets} offered.",
        offered,
    ).format(player=f["player"], least=least, offered=offered, tickets=ticket_word(r, offered))


def _not_a_player(f: Facts, r: Rules) -> str:
    return _("'{player}' is not a player in this game.").format(player=f["player"])


def _setup_tickets(f: Facts, r: Rules) -> str:
    return _("The game is still being set up: first {players} must choose {tickets}.").format(
        players=f["players"], tickets=tickets_plural(r)
    )


def _already_chosen(f: Facts, r: Rules) -> str:
    return _("{player} has already chosen starting {tickets}.").format(player=f["player"], tickets=tickets_plural(r))


def _not_your_turn(f: Facts, r: Rules) -> str:
    return _("It is {current}'s turn, not {player}'s.").format(current=f["current"], player=f["player"])


def _must_turn(f: Facts, r: Rules) -> str:
    return map_(r.title, "{player} must take a turn now (draw cards, claim a route or draw {tickets}).").format(
        player=f["player"], tickets=tickets_plural(r)
    )


def _must_second(f: Facts, r: Rules) -> str:
    return _("{player} must draw a second card now.").format(player=f["player"])


def _must_keep(f: Facts, r: Rules) -> str:
    return _("{player} must choose which drawn {tickets} to keep now.").format(
        player=f["player"], tickets=tickets_plural(r)
    )


def _must_tunnel(f: Facts, r: Rules) -> str:
    return _("{player} must pay the tunnel surcharge or give the tunnel up now.").format(player=f["player"])


def _ferry_needs(f: Facts, r: Rules) -> str:
    count = _int(f, "count")
    return _("This ferry needs {count} {wilds}.").format(count=count, wilds=wild_word(r, count))


def _souvenirs_sf(f: Facts, r: Rules) -> str:
    return _("Souvenirs exist only on the San Francisco map.")


def _setup_stack(f: Facts, r: Rules) -> str:
    return _("The game is still being set up: {player} must place a tourist stack.").format(player=f["player"])


def _stack_turn(f: Facts, r: Rules) -> str:
    return _("{placer} places the next tourist stack, not {player}.").format(placer=f["placer"], player=f["player"])


def _not_a_stack(f: Facts, r: Rules) -> str:
    return _("'{symbol}' is not a stack left to place; left: {left}.").format(symbol=f["symbol"], left=f["left"])


def _holds_stack(f: Facts, r: Rules) -> str:
    return _("{place} already holds a stack; choose a place without one.").format(place=f["place"])


def _not_an_end(f: Facts, r: Rules) -> str:
    return _("{place} is not an end of {a} - {b}.").format(place=f["place"], a=f["a"], b=f["b"])


def _no_token(f: Facts, r: Rules) -> str:
    return _("There is no souvenir {player} could take at {place}.").format(player=f["player"], place=f["place"])


def _both_tokens(f: Facts, r: Rules) -> str:
    return _("Both {a} and {b} hold a souvenir {player} can take: say which one.").format(
        a=f["a"], b=f["b"], player=f["player"]
    )


def _surcharge_count(f: Facts, r: Rules) -> str:
    count = _int(f, "count")
    return ngettext(
        "The tunnel asks for exactly {count} more card; you paid {total}.",
        "The tunnel asks for exactly {count} more cards; you paid {total}.",
        count,
    ).format(count=count, total=_int(f, "total"))


def _surcharge_wilds(f: Facts, r: Rules) -> str:
    return _("The tunnel surcharge must be paid in {wilds}, not {wrong}.").format(
        wilds=wilds_plural(r), wrong=_cards(r, f["wrong"])
    )


def _surcharge_colour(f: Facts, r: Rules) -> str:
    return _("The tunnel surcharge must be paid in {colour} cards or {wilds}, not {wrong}.").format(
        colour=colour_name(f["colour"]), wilds=wilds_plural(r), wrong=_cards(r, f["wrong"])
    )


FORMS: tuple[Form, ...] = (
    Form(
        "not_a_place",
        _re(r"'(?P<place>.*)' is not a place on this map"),
        {"claims.py": 1, "tickets.py": 1, "extras/tourists.py": 1},
        _not_a_place,
    ),
    Form("no_route", _re(r"there is no route between (?P<a>.+) and (?P<b>.+)"), {"claims.py": 1}, _no_route),
    Form(
        "not_route_colour",
        _re(r"'(?P<colour>.*)' is not a route colour on this map"),
        {"claims.py": 1},
        _not_route_colour,
    ),
    Form(
        "no_colour_route",
        _re(r"there is no (?P<colour>\w+) route between (?P<a>.+) and (?P<b>.+)"),
        {"claims.py": 1},
        _no_colour_route,
    ),
    # route_status (claims.py), raised through `next(why for why in reasons if why)` and given as a claim refusal
    Form("already_claimed", _re(ROUTE + r" \((?P<colour>\w+)\) is already claimed"), {}, _already_claimed),
    Form(
        "own_other_track",
        _re(r"you already own the other track of " + ROUTE + r"; nobody may own both"),
        {"claims.py": 1},
        _own_other_track,
    ),
    Form(
        "other_track_taken",
        _re(
            r"the other track of " + ROUTE + r" is taken, and with fewer than " + _n("count") + r" players only one "
            r"track of a double route is used"
        ),
        {},
        _other_track_taken,
    ),
    Form(
        "several_tracks",
        _re(ROUTE + r" has several free tracks \((?P<colours>[\w, ]+)\): say which with its colour"),
        {"claims.py": 1},
        _several_tracks,
    ),
    Form(
        "too_few_pieces",
        _re(ROUTE + r" needs " + _n("length") + r" (?P<pieces>[\w ]+); (?P<player>.+) has " + _n("left") + " left"),
        {"claims.py": 1},
        _too_few_pieces,
    ),
    Form(
        "piles_empty",
        _re(r"the deck and the discard pile are empty: take a face-up card instead"),
        {"draws.py": 1},
        _piles_empty,
    ),
    Form(
        "not_a_card_draw",
        _re(r"'(?P<card>.*)' is not a card on this map: draw \"deck\" or one of (?P<choices>.*)"),
        {"draws.py": 1},
        _not_a_card_draw,
    ),
    Form(
        "not_face_up",
        _re(r"there is no face-up (?P<card>.+) card; the row shows (?P<row>[\w, ]+)"),
        {"draws.py": 1},
        _not_face_up,
    ),
    Form("wild_second", _re(r"a face-up (?P<wild>.+) may not be the second card"), {"draws.py": 1}, _wild_second),
    Form("game_over", _re(r"the game is over; no more moves can be made"), {"game.py": 1}, _game_over),
    Form("may_not_pass", _re(r"(?P<player>.+) may not pass: a legal action exists"), {"game.py": 1}, _may_not_pass),
    Form(
        "not_a_card_pay",
        _re(r"'(?P<card>.*)' is not a card on this map; the cards are (?P<cards>[\w, ]+)"),
        {"payment.py": 1},
        _not_a_card_pay,
    ),
    Form(
        "hold_only",
        _re(r"you pay " + _n("count") + r" (?P<card>\w+) but hold only " + _n("have") + r" (?P=card) cards?"),
        {"payment.py": 1},
        _hold_only,
    ),
    Form(
        "takes_cards",
        _re(ROUTE + r" takes " + _n("length") + r" cards; you paid " + _n("total")),
        {"payment.py": 1},
        _takes_cards,
    ),
    Form(
        "one_colour",
        _re(r"pay with one colour \(plus (?P<wilds>[\w ]+)\), not (?P<colours>[\w ]+)"),
        {"payment.py": 1},
        _one_colour,
    ),
    Form(
        "wilds_tunnels_only",
        _re(r"(?P<wilds>[\w ]+) may be played only on tunnels on this map"),
        {"payment.py": 1},
        _wilds_tunnels_only,
    ),
    Form(
        "wrong_colour",
        _re(ROUTE + r" is (?P<colour>\w+): pay (?P=colour) cards, not (?P<paid>\w+)"),
        {"payment.py": 1},
        _wrong_colour,
    ),
    Form(
        "tickets_empty",
        _re(r"the (?P<ticket>[\w ]+) deck is empty: draw cards or claim a route"),
        {"tickets.py": 1},
        _tickets_empty,
    ),
    Form(
        "not_offered",
        _re(r"(?P<ticket>.+) is not among the (?P<tickets>[\w ]+)s offered to (?P<player>.+)"),
        {"tickets.py": 1},
        _not_offered,
    ),
    Form(
        "keep_least",
        _re(
            r"(?P<player>.+) must keep at least "
            + _n("least")
            + r" of the "
            + _n("offered")
            + r" (?P<tickets>[\w ]+)s offered"
        ),
        {"tickets.py": 1},
        _keep_least,
    ),
    Form("not_a_player", _re(r"'(?P<player>.*)' is not a player in this game"), {"turns.py": 1}, _not_a_player),
    Form(
        "setup_tickets",
        _re(r"the game is still being set up: first (?P<players>.+) must choose tickets"),
        {"turns.py": 1},
        _setup_tickets,
    ),
    Form(
        "already_chosen",
        _re(r"(?P<player>.+) has already chosen starting tickets"),
        {"turns.py": 1},
        _already_chosen,
    ),
    Form(
        "not_your_turn",
        _re(r"it is (?P<current>.+)'s turn, not (?P<player>.+)'s"),
        {"turns.py": 1},
        _not_your_turn,
    ),
    Form(
        "must_turn",
        _re(r"(?P<player>.+) must take a turn \(draw cards, claim a route or draw tickets\) now"),
        {"turns.py": 1},
        _must_turn,
    ),
    Form("must_second", _re(r"(?P<player>.+) must draw a second card now"), {}, _must_second),
    Form("must_keep", _re(r"(?P<player>.+) must choose which drawn tickets to keep now"), {}, _must_keep),
    Form(
        "must_tunnel",
        _re(r"(?P<player>.+) must pay the tunnel surcharge or give the tunnel up now"),
        {},
        _must_tunnel,
    ),
    Form(
        "ferry_needs",
        _re(r"this ferry needs " + _n("count") + r" (?P<wild>[\w ]+)\(s\)"),
        {"extras/ferries.py": 1},
        _ferry_needs,
    ),
    Form(
        "souvenirs_sf",
        _re(r"souvenirs exist only on the San Francisco map"),
        {"extras/registry.py": 1},
        _souvenirs_sf,
    ),
    Form(
        "setup_stack",
        _re(r"the game is still being set up: (?P<player>.+) must place a tourist stack"),
        {"extras/tourists.py": 1},
        _setup_stack,
    ),
    Form(
        "stack_turn",
        _re(r"(?P<placer>.+) places the next tourist stack, not (?P<player>.+)"),
        {"extras/tourists.py": 1},
        _stack_turn,
    ),
    Form(
        "not_a_stack",
        _re(r"'(?P<symbol>.*)' is not a stack left to place; left: (?P<left>.*)"),
        {"extras/tourists.py": 1},
        _not_a_stack,
    ),
    Form(
        "holds_stack",
        _re(r"(?P<place>.+) already holds a stack; choose a place without one"),
        {"extras/tourists.py": 1},
        _holds_stack,
    ),
    Form(
        "not_an_end",
        _re(r"(?P<place>.+) is not an end of " + ROUTE),
        {"extras/tourists.py": 1},
        _not_an_end,
    ),
    Form(
        "no_token",
        _re(r"no token (?P<player>.+) could take at (?P<place>.+)"),
        {"extras/tourists.py": 1},
        _no_token,
    ),
    Form(
        "both_tokens",
        _re(r"both (?P<a>.+) and (?P<b>.+) hold a token (?P<player>.+) can take: say which with 'souvenir'"),
        {"extras/tourists.py": 1},
        _both_tokens,
    ),
    Form(
        "surcharge_count",
        _re(r"the tunnel asks for exactly " + _n("count") + r" more card\(s\); you paid " + _n("total")),
        {"extras/tunnels.py": 1},
        _surcharge_count,
    ),
    Form(
        "surcharge_colour",
        _re(r"the tunnel surcharge must be paid in (?P<colour>\w+) or (?P<wilds>[\w ]+), not (?P<wrong>[\w, ]+)"),
        {"extras/tunnels.py": 1},
        _surcharge_colour,
    ),
    Form(
        "surcharge_wilds",
        _re(r"the tunnel surcharge must be paid in (?P<wilds>[\w ]+), not (?P<wrong>[\w, ]+)"),
        {},
        _surcharge_wilds,
    ),
)


def recognise(message: str) -> tuple[Form, Facts] | None:
    """The form of an engine message and its facts; None for a message no form knows."""
    for form in FORMS:
        found = form.pattern.match(message)
        if found is not None:
            return form, {k: v for k, v in found.groupdict().items() if v is not None}
    return None


def rule_error_text(message: object, rules: Rules | None = None) -> str:
    """The engine's refusal `message` (a GameError or its text) in the language spoken.

    English: the engine's own words, exactly. Otherwise the form's sentence, on the map `rules` (else the map
    the message's words name); a message of no known form stays as the engine wrote it.
    """
    text = str(message)
    if current_language() is Language.EN:
        return text
    known = recognise(text)
    if known is None:
        return text
    form, facts = known
    return form.word(facts, rules if rules is not None else rules_in(text))
