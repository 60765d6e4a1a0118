"""The private panel in words: what a player must decide now, and the labels of its buttons and menus."""

from __future__ import annotations

from collections.abc import Mapping

from bot.present.cards import format_cards
from bot.present.i18n import _, map_, ngettext, npgettext, pgettext
from bot.present.names import status_word
from bot.present.stage import must_text
from bot.present.words import card_name, tickets_plural
from bot.service import Must
from maps import Rules
from maps.names import symbol_name


def spot_prompt(symbol: str) -> str:
    """Where a tourist stack goes."""
    return _("Where does the {symbol} stack go?").format(symbol=symbol_name(symbol))


def game_is_text(game_id: int, status: str) -> str:
    return _("Game #{game_id} is {status}.").format(game_id=game_id, status=status_word(status))


def second_draw_prompt() -> str:
    return _("Draw your second card:")


def tunnel_prompt(surcharge: int, *, can_pay: bool) -> str:
    """A tunnel's surcharge, and whether the player can pay it."""
    asks = ngettext(
        "The tunnel asks for {count} more card.", "The tunnel asks for {count} more cards.", surcharge
    ).format(count=surcharge)
    then = _("Pay it or give the tunnel up.") if can_pay else _("You cannot pay it: give the tunnel up.")
    return f"{asks} {then}"


def stack_prompt() -> str:
    return _("Which tourist stack do you place?")


def nothing_to_do_prompt() -> str:
    return _("Your turn, but there is nothing you can do: pass.")


def turn_prompt(rules: Rules) -> str:
    return _("Your turn: {must}.").format(must=must_text(rules, Must.TURN))


# ---- the labels of the panels' buttons and menus (bot/views/panels.py)


def hand_label() -> str:
    return pgettext("button", "My hand")


def pass_label() -> str:
    return pgettext("button", "Pass (nothing else is possible)")


def draw_deck_label() -> str:
    return pgettext("button", "Draw from deck")


def claim_label(rules: Rules) -> str:
    """The turn message's button to claim a route, in the map's rulebook's words."""
    return map_(rules.name, "Claim a route")


def take_card_label(rules: Rules, card: str) -> str:
    """A face-up card to draw as the second card of a turn."""
    return pgettext("button", "Take {card}").format(card=card_name(rules, card))


def keep_tickets_placeholder(rules: Rules, least: int) -> str:
    return pgettext("menu", "Keep at least {count} of these {tickets}").format(
        count=least, tickets=tickets_plural(rules)
    )


def pay_more_label(rules: Rules, pay: Mapping[str, int]) -> str:
    """A tunnel's surcharge paid with `pay`."""
    count = sum(pay.values())
    # "Pay 1 more (1 red)": the same in English for one and more, not in every language
    return npgettext("button", "Pay {count} more ({cards})", "Pay {count} more ({cards})", count).format(
        count=count, cards=format_cards(rules, pay)
    )


def give_up_label() -> str:
    return pgettext("button", "Give up")


def route_example(rules: Rules, pay: Mapping[str, int]) -> str:
    """A route's description in the claim menu: one payment that works."""
    return pgettext("menu", "for example {cards}").format(cards=format_cards(rules, pay))


PLACEHOLDER_LIMIT = 150  # Discord's longest menu placeholder


def routes_placeholder(rules: Rules, first: str, last: str) -> str:
    """One of several route menus: the routes from `first` to `last` (whole routes, "A - B") in alphabetical
    order; should two long routes not fit Discord's limit, the first alone (never a route cut mid-word)."""
    text = map_(rules.name, "Routes {first} … {last}").format(first=first, last=last)
    if len(text) <= PLACEHOLDER_LIMIT:
        return text
    return map_(rules.name, "Routes from {first}").format(first=first)[:PLACEHOLDER_LIMIT]


def choose_route_placeholder(rules: Rules) -> str:
    return map_(rules.name, "Choose the route to claim")


def choose_payment_placeholder() -> str:
    return pgettext("menu", "Choose how to pay")


def choose_souvenir_placeholder() -> str:
    return pgettext("menu", "Choose your souvenir")


def choose_tickets_label(rules: Rules) -> str:
    """The setup message's button: choose the starting tickets."""
    return pgettext("button", "Choose my {tickets}").format(tickets=tickets_plural(rules))


def place_stack_label() -> str:
    return pgettext("button", "Place a stack")


def which_stack_placeholder() -> str:
    return pgettext("menu", "Which tourist stack?")


def go_on_label() -> str:
    """The button that brings back the private panel of a turn half done."""
    return pgettext("button", "Go on with my turn")


def pay_another_way_placeholder() -> str:
    return pgettext("menu", "Pay another way")
